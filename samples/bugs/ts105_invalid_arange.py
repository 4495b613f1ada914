"""TS105 invalid-arange: `tl.arange(start, end)` bounds Triton rejects.

`end - start` must be a power of two, `end` must be greater than `start`, and both must fit in
32 bits. The range is the whole `tl.arange(...)` call.
"""
import triton
import triton.language as tl


@triton.jit
def hundred_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 100)
    #      ^^^^^^^^^^^^^^^^^ error[TS105]: arange's range must be a power of 2
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


@triton.jit
def reversed_bounds_kernel(x_ptr, out_ptr):
    offs = tl.arange(16, 8)
    #      ^^^^^^^^^^^^^^^^ error[TS105]: arange's end argument must be greater than the start argument
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


# The default BLOCK=48 is not a power of two.
@triton.jit
def default_block_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 48):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    #                    ^^^^^^^^^^^^^^^^^^^ error[TS105]: arange's range must be a power of 2
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def block_configs():
    return [triton.Config({"BLOCK": block}, num_warps=4) for block in (64, 96, 128)]


# One autotune config (BLOCK=96) breaks the rule: the finding names it.
@triton.autotune(configs=block_configs(), key=["n"])
@triton.jit
def tuned_block_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
                       # ^^^^^^^^^^^^^^^^^^^ error[TS105]: arange's range must be a power of 2
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# Negative cases: the range, not the bounds, must be a power of two.
@triton.jit
def shifted_range_kernel(x_ptr, out_ptr):
    offs = tl.arange(8, 24)
    one = tl.arange(5, 6)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.sum(one, axis=0))
