"""Bounds prover: a negative offset, `offs - 1` at lane 0 of program 0.

The left neighbour of element 0 is element -1: before the start of the tensor, whatever its
size. Fixed by masking `(offs >= 1) & (offs < n)`.
"""
import triton
import triton.language as tl


@triton.jit
def diff_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    left = tl.load(x_ptr + offs - 1, mask=mask)
         # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[-1] read by program 0, lane 0, with n = 166 (x_ptr has 166 elements)
    tl.store(out_ptr + offs, x - left, mask=mask)


@triton.jit
def diff_fixed_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    left = tl.load(x_ptr + offs - 1, mask=mask & (offs >= 1), other=0.0)
    tl.store(out_ptr + offs, x - left, mask=mask)
