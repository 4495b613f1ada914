"""TS110 program-id-axis: `tl.program_id` / `tl.num_programs` with an axis outside 0..2.

A launch grid has at most three dimensions. The range is the whole call.
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def fourth_axis_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    batch = tl.program_id(3)
          # ^^^^^^^^^^^^^^^^ error[TS110]: program_id axis must be 0, 1, or 2 but got 3
    offs = batch * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# oracle: BLOCK=128
@triton.jit
def grid_stride_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    step = tl.num_programs(axis=3) * BLOCK
         # ^^^^^^^^^^^^^^^^^^^^^^^ error[TS110]: num_programs axis must be 0, 1, or 2 but got 3
    for start in range(tl.program_id(0) * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# The axis comes from a constexpr parameter's default.
# oracle: BLOCK=128
@triton.jit
def axis_param_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, AXIS: tl.constexpr = 4):
    pid = tl.program_id(AXIS)
        # ^^^^^^^^^^^^^^^^^^^ error[TS110]: program_id axis must be 0, 1, or 2 but got 4
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# Negative cases: all three grid axes, positionally and by keyword.
# oracle: BLOCK=128
@triton.jit
def three_axes_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.program_id(axis=1) * tl.num_programs(0)
    pid += tl.program_id(2) * tl.num_programs(0) * tl.num_programs(axis=1)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
