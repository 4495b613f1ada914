"""Bounds prover: a load guarded only by `tl.where`.

`tl.where(offs < n, x, 0.0)` selects after the load has run for every lane; the condition
says the tensor has n elements, and the load reads past it.
"""
import triton
import triton.language as tl


@triton.jit
def sum_where_kernel(x_ptr, total_ptr, n, BLOCK: tl.constexpr = 512):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
      # ^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[4095] read by program 7, lane 511, with n = 3632 (x_ptr has 3632 elements)
    x = tl.where(offs < n, x, 0.0)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))
