"""TS102 constexpr-required: a builtin argument that must be known at compile time is not.

`tl.arange`, shapes, axes and dtypes are compile-time values in Triton. A kernel parameter is a
compile-time value only when annotated `tl.constexpr`; a plain `BLOCK` parameter is a runtime
i32 (unless its value is 1), so `tl.arange(0, BLOCK)` fails. Triton reports `tl.arange` at the
call (its message is about both bounds); for the other builtins the range is the offending
argument, where Triton points at the call or the `for` statement. Triton's wording is kept,
including its quirks: `tl.static_range(n)` calls the single bound its "start value" and prints
the runtime value as `int32[]`.
"""
import triton
import triton.language as tl


@triton.jit
def forgot_annotation_kernel(x_ptr, out_ptr, n, BLOCK):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
                       # ^^^^^^^^^^^^^^^^^^^ error[TS102]: arange's arguments must be of type tl.constexpr
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def runtime_row_kernel(x_ptr, out_ptr, n_cols):
    row = tl.program_id(0)
    cols = tl.arange(0, n_cols)
         # ^^^^^^^^^^^^^^^^^^^^ error[TS102]: arange's arguments must be of type tl.constexpr
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask)
    tl.store(out_ptr + row * n_cols + cols, x, mask=mask)


# oracle: BLOCK=128
@triton.jit
def runtime_shape_kernel(out_ptr, n_cols, BLOCK: tl.constexpr):
    acc = tl.zeros((n_cols,), dtype=tl.float32)
                  # ^^^^^^ error[TS102]: Shape element 0 must have type `constexpr[int]`
    cols = tl.arange(0, BLOCK)
    tl.store(out_ptr + cols, acc, mask=cols < n_cols)


# oracle: BLOCK=128
@triton.jit
def unrolled_runtime_kernel(x_ptr, out_ptr, n_chunks, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(n_chunks):
                           # ^^^^^^^^ error[TS102]: int32[] used as tl.static_range start value is not a constexpr
        acc += tl.load(x_ptr + i * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


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
