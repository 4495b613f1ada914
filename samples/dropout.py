"""Seeded dropout: the keep/drop decision is regenerated from (seed, element offset) instead of
being stored as a mask tensor.

`tl.rand(seed, offsets)` runs Philox on each element's offset, so the same seed gives the same
pattern on every launch and in the backward pass. The kept elements are scaled by 1 / (1 - p);
the kernel also writes the decisions as int8 so that the host can check them.
"""
import torch
import triton
import triton.language as tl


# tessel: launch n_elements=[1000, 98432] x=fp32[n_elements] out=fp32[n_elements]:out keep=i8[n_elements]:out \
#   p=0.25 seed=42 grid=(cdiv(n_elements, BLOCK_SIZE),) BLOCK_SIZE=1024 num_warps=4
@triton.jit
def seeded_dropout_kernel(x_ptr, out_ptr, keep_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    uniform = tl.rand(seed, offsets)
    keep = uniform >= p
    scale = 1.0 / (1.0 - p)
    tl.store(out_ptr + offsets, tl.where(keep, x * scale, 0.0), mask=mask)
    tl.store(keep_ptr + offsets, keep.to(tl.int8), mask=mask)


def seeded_dropout(x: torch.Tensor, p: float, seed: int):
    assert x.is_contiguous() and 0.0 <= p < 1.0
    out = torch.empty_like(x)
    keep = torch.empty(x.shape, dtype=torch.int8, device=x.device)
    n_elements = x.numel()
    grid = (triton.cdiv(n_elements, 1024),)
    seeded_dropout_kernel[grid](x, out, keep, n_elements, p, seed, BLOCK_SIZE=1024, num_warps=4)
    return out, keep


if __name__ == "__main__":
    inp = torch.randn(100_000, device="cuda")
    first, keep = seeded_dropout(inp, 0.25, seed=1234)
    second, _ = seeded_dropout(inp, 0.25, seed=1234)
    assert torch.equal(first, second), "same seed, same pattern"
    torch.testing.assert_close(first, torch.where(keep.bool(), inp / 0.75, torch.zeros_like(inp)))
    print("dropout: ok")
