"""Bounds prover: a kernel that is correct only because of its host wrapper (no false positive).

The store has no mask: alone, the masked load would make the prover read `n` as the size of every
tensor indexed by `offs`, and the last program's store as past the end of `out`. But the wrapper,
which nothing in this file calls, allocates `out` padded to whole blocks and launches
cdiv(n, BLOCK) programs: read symbolically (n = x.numel(), `out` has 1024 * cdiv(x.numel(), 1024)
elements), every access is in bounds for every size.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def pad_copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x)


def pad_to_blocks(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    out = torch.empty(triton.cdiv(n, 1024) * 1024, device=x.device, dtype=x.dtype)
    pad_copy_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out
