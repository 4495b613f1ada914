"""TS203 out-of-bounds-lane: the bounds prover found an enabled lane outside its buffer.

Checked with `tessel check --prove` (the language server always runs the prover). Without a
launch spec the sizes are symbolic and the finding is a warning, with the assumptions of the
conventional reading in a note; under a launch spec it is an error. The message gives the
counterexample: the element reached, the program, the lane, the sizes and the buffer's extent.
"""
import triton
import triton.language as tl


# `<=` where `<` was meant: the lane at offset n is enabled.
@triton.jit
def scale_le_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 256):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs <= n
    x = tl.load(x_ptr + offs, mask=mask)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[4046] read by program 15, lane 206, with n = 4046 (x_ptr has 4046 elements)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.store can go out of bounds: out_ptr[1540] written by program 6, lane 4, with n = 1540 (out_ptr has 1540 elements)


# Under a launch spec the violation is certain: an error.
# tessel: launch n=1000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def copy_unmasked_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs), mask=offs < n)
                           # ^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: x_ptr[1000] read by program 3, lane 232, with n = 1000 (x_ptr has 1000 elements)
    # run: error[TS301] `tl.load(x_ptr + offs)`: 24 out-of-bounds loads of x_ptr[1000..1023] (x_ptr has 1000 elements), first in program (3, 0, 0), lane 232


# Negative case: the same kernels written right are proven in bounds.
@triton.jit
def scale_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 256):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)
