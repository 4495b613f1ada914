"""Bounds prover: `other=` without a mask does not make a load safe.

`other` only replaces the lanes a mask disables; without a mask Triton rejects the call
outright, so this kernel never reaches the prover: the finding is Triton's own error (TS108).
"""
import triton
import triton.language as tl


@triton.jit
def other_only_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, other=0.0)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS108]: `other` cannot be provided without `mask`
    tl.store(out_ptr + offs, x, mask=offs < n)
