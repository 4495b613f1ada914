"""TS106 shape-mismatch: tiles whose shapes cannot be broadcast (or reshaped) together.

Triton broadcasts like NumPy: the lower-rank operand gets leading 1s, then every dimension must
be equal or 1. `tl.load` and `tl.store` broadcast the mask with the pointer the same way. The
range is the whole binary operation, or the whole call.
"""
import triton
import triton.language as tl


@triton.jit
def mismatched_add_kernel(x_ptr, y_ptr, out_ptr):
    a = tl.load(x_ptr + tl.arange(0, 32))
    b = tl.load(y_ptr + tl.arange(0, 64))
    c = a + b
    #   ^^^^^ error[TS106]: Cannot make_shape_compatible: incompatible dimensions at index 0: 32 and 64
    tl.store(out_ptr + tl.arange(0, 32), c)


@triton.jit
def bias_width_kernel(x_ptr, b_ptr, out_ptr):
    rows = tl.arange(0, 64)
    cols = tl.arange(0, 64)
    tile = tl.load(x_ptr + rows[:, None] * 64 + cols[None, :])
    bias = tl.load(b_ptr + tl.arange(0, 32))
    out = tile + bias[None, :]
    #     ^^^^^^^^^^^^^^^^^^^^ error[TS106]: Cannot make_shape_compatible: incompatible dimensions at index 1: 64 and 32
    tl.store(out_ptr + rows[:, None] * 64 + cols[None, :], out)


@triton.jit
def mask_width_kernel(x_ptr, out_ptr, n):
    offs = tl.arange(0, 64)
    half = tl.arange(0, 32)
    x = tl.load(x_ptr + offs, mask=half < n)
    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS106]: Cannot make_shape_compatible: incompatible dimensions at index 0: 64 and 32
    tl.store(out_ptr + offs, x)


@triton.jit
def bad_reshape_kernel(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    y = tl.reshape(x, (8, 16))
    #   ^^^^^^^^^^^^^^^^^^^^^^ error[TS106]: reshape() cannot change total number of elements in tensor
    tl.store(out_ptr + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :], y)


# Negative cases: outer sums, scalar splats, singleton dimensions, a valid reshape.
@triton.jit
def broadcast_ok_kernel(x_ptr, y_ptr, out_ptr, n):
    a = tl.load(x_ptr + tl.arange(0, 32))
    b = tl.load(y_ptr + tl.arange(0, 64))
    outer = a[:, None] + b[None, :]
    scaled = outer * 2.0 + 1
    row_max = tl.max(scaled, axis=1, keep_dims=True)
    centered = scaled - row_max
    flat = tl.reshape(centered, (2048,))
    offs = tl.arange(0, 2048)
    tl.store(out_ptr + offs, flat, mask=offs < n)
