"""TS102 constexpr-required: a builtin argument that must be known at compile time is not.

`tl.arange`, shapes, axes and dtypes are compile-time values in Triton. A kernel parameter is a
compile-time value only when annotated `tl.constexpr`; a plain `BLOCK` parameter is a runtime
i32 (unless its value is 1), so `tl.arange(0, BLOCK)` fails. The range is the offending argument.
"""
import triton
import triton.language as tl


@triton.jit
def forgot_annotation_kernel(x_ptr, out_ptr, n, BLOCK):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    #                                 ^^^^^ error[TS102]: arange's arguments must be of type tl.constexpr
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def runtime_row_kernel(x_ptr, out_ptr, n_cols):
    row = tl.program_id(0)
    cols = tl.arange(0, n_cols)
    #                   ^^^^^^ error[TS102]: arange's arguments must be of type tl.constexpr
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask)
    tl.store(out_ptr + row * n_cols + cols, x, mask=mask)


# Negative cases: constexpr parameters, constexpr arithmetic, runtime loop bounds.
# oracle: BLOCK=128
@triton.jit
def constexpr_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * (2 * BLOCK) + tl.arange(0, 2 * BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)
    for start in tl.range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + cols, tl.zeros((BLOCK,), dtype=tl.float32), mask=cols < n)


def launch(x, out):
    n = x.numel()
    forgot_annotation_kernel[(triton.cdiv(n, 256),)](x, out, n, 256)
    constexpr_ok_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=128)
