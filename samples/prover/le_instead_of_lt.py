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
    tl.store(out_ptr + offs, x * 2.0, mask=mask)
