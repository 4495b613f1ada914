"""TS301 out-of-bounds-access: running the kernel touched memory outside the tensor a pointer
points into.

`tessel run` checks every masked-on lane of every load, store and atomic against the buffer its
pointer was derived from (a pointer that runs off either end still names its tensor). A
violation is reported once per access, at the access, with how many lanes went out of bounds,
the element offsets they reached, the tensor's size, and the first program id and lane that
did. On a GPU these accesses read garbage, corrupt a neighbouring tensor or fault. The sizes are
the launch spec's (`# tessel: launch`); `tessel check` cannot see these bugs, a run can.
"""
import triton
import triton.language as tl


# An off-by-one mask: `<=` lets the lane at offset n through.
# tessel: launch n=1000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def copy_off_by_one_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs <= n
    x = tl.load(x_ptr + offs, mask=mask)
    # run: error[TS301] `tl.load(x_ptr + offs, mask=mask)`: 1 out-of-bounds load of x_ptr[1000] (x_ptr has 1000 elements), first in program (3, 0, 0), lane 232
    tl.store(out_ptr + offs, x, mask=mask)
    # run: error[TS301] `tl.store(out_ptr + offs, x, mask=mask)`: 1 out-of-bounds store to out_ptr[1000] (out_ptr has 1000 elements), first in program (3, 0, 0), lane 232


# A histogram whose bin index reaches NUM_BINS: values in [0, 1) scaled by NUM_BINS + 1.
# tessel: launch n=4096 x=fp32[n] hist=i32[NUM_BINS]:zeros NUM_BINS=16 BLOCK=1024 grid=(cdiv(n, BLOCK),)
@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    bins = (x * (NUM_BINS + 1)).to(tl.int32)
    tl.atomic_add(hist_ptr + bins, 1, mask=mask)
    # run: error[TS301] `tl.atomic_add(hist_ptr + bins, 1, mask=mask)`: 250 out-of-bounds atomics on hist_ptr[16] (hist_ptr has 16 elements), first in program (0, 0, 0), lane 1


# Negative cases: the same kernels with the mask and the scale fixed.
# tessel: launch n=1000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# tessel: launch n=4096 x=fp32[n] hist=i32[NUM_BINS]:zeros NUM_BINS=16 BLOCK=1024 grid=(cdiv(n, BLOCK),)
@triton.jit
def histogram_ok_kernel(x_ptr, hist_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    bins = tl.minimum((x * NUM_BINS).to(tl.int32), NUM_BINS - 1)
    tl.atomic_add(hist_ptr + bins, 1, mask=mask)
