"""Bounds prover: `offs <= n` where `offs < n` was meant.

A mask compared against n says the tensor has n elements; `<=` also enables the lane at
offset n, one past the end.
"""
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 256):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs <= n
    x = tl.load(x_ptr + offs, mask=mask)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[4046] read by program 15, lane 206, with n = 4046 (x_ptr has 4046 elements)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.store can go out of bounds: out_ptr[1540] written by program 6, lane 4, with n = 1540 (out_ptr has 1540 elements)
