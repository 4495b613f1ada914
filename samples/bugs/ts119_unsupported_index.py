"""TS119 unsupported-index: a tensor subscript Triton rejects.

Triton tensors can only be subscripted to add dimensions (`x[:, None]`, `x[None, :]`) or with
a full slice (`x[:]`); picking an element by index is not supported (use `tl.sum(tl.where(...))`
or a masked load instead). The range is the whole subscript expression. For a slice Triton
prints the slice object itself (`<triton.language.core.slice object at 0x...>`).
"""
import triton
import triton.language as tl


@triton.jit
def first_element_kernel(x_ptr, out_ptr):
    row = tl.load(x_ptr + tl.arange(0, 64))
    head = row[0]
         # ^^^^^^ error[TS119]: unsupported tensor index: constexpr[0]
    tl.store(out_ptr, head)


@triton.jit
def column_pick_kernel(x_ptr, out_ptr):
    rows = tl.arange(0, 16)
    cols = tl.arange(0, 16)
    tile = tl.load(x_ptr + rows[:, None] * 16 + cols[None, :])
    col = tile[:, 3]
        # ^^^^^^^^^^ error[TS119]: unsupported tensor index: constexpr[3]
    tl.store(out_ptr + rows, col)


@triton.jit
def tail_sum_kernel(x_ptr, out_ptr):
    row = tl.load(x_ptr + tl.arange(0, 64))
    tl.store(out_ptr, tl.sum(row[1:], axis=0))
                           # ^^^^^^^ error[TS119]: unsupported tensor index: <triton.language.core.slice object


# Negative cases: new axes and full slices.
@triton.jit
def expand_ok_kernel(x_ptr, y_ptr, out_ptr):
    a = tl.load(x_ptr + tl.arange(0, 16))
    b = tl.load(y_ptr + tl.arange(0, 16))
    outer = a[:, None] * b[None, :] + a[:][:, None]
    first = tl.sum(tl.where(tl.arange(0, 16) == 0, a, 0.0), axis=0)
    tl.store(out_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], outer + first)
