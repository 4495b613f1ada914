"""TS202 load-guarded-by-where: an unmasked `tl.load` used as an operand of `tl.where`.

`tl.where(offs < n, tl.load(p + offs), 0.0)` looks guarded, but `tl.where` selects between two
values that are both computed: the load runs for every lane, including the ones past the end.
The guard belongs in the load's own `mask=` (with `other=`). The range is the inner
`tl.load(...)` call; TS201 is not reported again for the same load.
"""
import triton
import triton.language as tl


# tessel: launch n=3000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
# oracle: BLOCK=1024
@triton.jit
def relu_where_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.where(mask, tl.load(x_ptr + offs), 0.0)
                     # ^^^^^^^^^^^^^^^^^^^^^ warning[TS202]: tl.load inside tl.where has no mask
    # run: error[TS301] `tl.load(x_ptr + offs)`: 72 out-of-bounds loads of x_ptr[3000..3071] (x_ptr has 3000 elements), first in program (2, 0, 0), lane 952
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


# tessel: launch rows=4 n_cols=1000 x=fp32[rows, n_cols] out=fp32[rows]:out grid=(rows,) BLOCK=1024
# oracle: BLOCK=1024
@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    row_ptr = x_ptr + row * n_cols
    x = tl.where(cols >= n_cols, float("-inf"), tl.load(row_ptr + cols))
                                              # ^^^^^^^^^^^^^^^^^^^^^^^ warning[TS202]: tl.load inside tl.where has no mask
    # run: error[TS301] `tl.load(row_ptr + cols)`: 24 out-of-bounds loads of x_ptr[4000..4023] (x_ptr has 4000 elements), first in program (3, 0, 0), lane 1000
    tl.store(out_ptr + row, tl.max(x, axis=0))


# Negative cases: the load carries its own mask; a where over values already loaded.
# tessel: launch n=3000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
# oracle: BLOCK=1024
@triton.jit
def relu_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.where(mask, tl.load(x_ptr + offs, mask=mask, other=0.0), 0.0)
    y = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.where(y > 0, y, 0.0) + x, mask=mask)
