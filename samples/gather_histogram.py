"""Table lookups and counting inside a tile: `tl.gather` and `tl.histogram`.

`dequant_lut_kernel` decodes 4-bit codes through a 16-entry table, as low-bit GEMM kernels do: the
table is broadcast over the rows and each code picks its entry with `tl.gather(table, codes, axis=1)`.
`permute_kernel` applies a permutation held in memory to one block. `expert_counts_kernel` counts,
as a mixture-of-experts router does, how many tokens of a block go to each expert with
`tl.histogram` and adds them to the totals with one atomic per expert; masked-off tokens count
nowhere.
"""
import torch
import triton
import triton.language as tl


# tessel: launch rows=256 cols=64 lut=fp16[16] codes=i32[rows, cols]:randint(0, 256) out=fp16[rows, cols]:out \
#   n_rows=rows grid=(cdiv(rows, BLOCK_ROWS),) BLOCK_ROWS=32 BLOCK_COLS=cols num_warps=4
@triton.jit
def dequant_lut_kernel(lut_ptr, codes_ptr, out_ptr, n_rows, BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.arange(0, BLOCK_COLS)
    mask = (rows < n_rows)[:, None]
    table = tl.load(lut_ptr + tl.arange(0, 16))[None, :].broadcast_to((BLOCK_ROWS, 16))
    codes = tl.load(codes_ptr + rows[:, None] * BLOCK_COLS + cols[None, :], mask=mask, other=0)
    values = tl.gather(table, codes & 15, axis=1)
    tl.store(out_ptr + rows[:, None] * BLOCK_COLS + cols[None, :], values, mask=mask)


# tessel: launch n=1024 x=fp32[n] perm=i32[n]:randint(0, 1024) out=fp32[n]:out grid=(1,) BLOCK=n num_warps=4
@triton.jit
def permute_kernel(x_ptr, perm_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    perm = tl.load(perm_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(x, perm, 0))


# tessel: launch n=[1000, 4096] expert_ids=i32[n]:randint(0, 64) counts=i32[64]:zeros \
#   n_tokens=n grid=(cdiv(n, BLOCK),) BLOCK=1024 NUM_EXPERTS=64 num_warps=4
@triton.jit
def expert_counts_kernel(expert_ids_ptr, counts_ptr, n_tokens, BLOCK: tl.constexpr, NUM_EXPERTS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_tokens
    experts = tl.load(expert_ids_ptr + offs, mask=mask, other=0)
    counts = tl.histogram(experts, NUM_EXPERTS, mask=mask)
    tl.atomic_add(counts_ptr + tl.arange(0, NUM_EXPERTS), counts)


def dequant_lut(lut: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    rows, cols = codes.shape
    out = torch.empty((rows, cols), device=codes.device, dtype=lut.dtype)
    dequant_lut_kernel[(triton.cdiv(rows, 32),)](lut, codes, out, rows, BLOCK_ROWS=32, BLOCK_COLS=cols)
    return out


def permute(x: torch.Tensor, perm: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    permute_kernel[(1,)](x, perm, out, BLOCK=x.numel())
    return out


def expert_counts(expert_ids: torch.Tensor, num_experts: int = 64) -> torch.Tensor:
    n = expert_ids.numel()
    counts = torch.zeros(num_experts, device=expert_ids.device, dtype=torch.int32)
    expert_counts_kernel[(triton.cdiv(n, 1024),)](expert_ids, counts, n, BLOCK=1024, NUM_EXPERTS=num_experts)
    return counts


if __name__ == "__main__":
    lut = torch.randn(16, device="cuda", dtype=torch.float16)
    codes = torch.randint(0, 256, (256, 64), device="cuda", dtype=torch.int32)
    assert torch.equal(dequant_lut(lut, codes), lut[(codes & 15).long()])
    x = torch.randn(1024, device="cuda")
    perm = torch.randperm(1024, device="cuda").to(torch.int32)
    assert torch.equal(permute(x, perm), x[perm.long()])
    ids = torch.randint(0, 64, (4000,), device="cuda", dtype=torch.int32)
    assert torch.equal(expert_counts(ids), torch.bincount(ids, minlength=64).to(torch.int32))
    print("ok")
