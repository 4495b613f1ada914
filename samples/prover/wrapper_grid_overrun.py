"""Bounds prover: the host wrapper's grid overruns a kernel written for whole blocks.

The kernel has no mask: it is right only when the grid is n // BLOCK and n a multiple of BLOCK.
Its wrapper, which nothing in this file calls, launches cdiv(n, BLOCK) programs, so whenever n is
not a multiple of 1024 the last program reads and writes past the end. No mask says how large the
tensors are, so only the wrapper's sizes (n = x.numel(), every tensor of x.numel() elements, the
grid cdiv(x.numel(), 1024)) let the prover say so, with the launch that does it.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def double_blocks_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
      # ^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[511] read by program 0, lane 511, with n = 61 (x_ptr has 61 elements)
    tl.store(out_ptr + offs, x * 2)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.store can go out of bounds: out_ptr[2046] written by program 1, lane 1022, with n = 1800 (out_ptr has 1800 elements)


def double(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = out.numel()
    grid = (triton.cdiv(n, 1024),)
    double_blocks_kernel[grid](x, out, n, BLOCK=1024)
    return out
