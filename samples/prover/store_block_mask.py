"""Bounds prover: a store whose mask covers the block but not the tensor.

`tl.arange(0, BLOCK) < n` compares the lane with n instead of the offset: every program
writes its whole block, so the last program writes past the end.
"""
import triton
import triton.language as tl


@triton.jit
def fill_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x + 1.0, mask=tl.arange(0, BLOCK) < n)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.store can go out of bounds: out_ptr[4095] written by program 3, lane 1023, with n = 3564 (out_ptr has 3564 elements)
