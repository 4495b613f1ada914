"""Bounds prover: a load with no mask, next to a store whose mask says how long the tensors are.

No launch spec: the prover reads the store's `offs < n` as the size of every tensor indexed by
`offs` and the grid as cdiv(n, BLOCK). The unmasked load then reads past the end in the last
program whenever n is not a multiple of BLOCK.
"""
import triton
import triton.language as tl


@triton.jit
def copy_no_mask_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
      # ^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[2047] read by program 1, lane 1023, with n = 1025 (x_ptr has 1025 elements)
    tl.store(out_ptr + offs, x, mask=offs < n)
