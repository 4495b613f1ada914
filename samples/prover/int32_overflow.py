"""Bounds prover: a row offset that overflows int32 for large tensors.

`row * stride` is computed in int32 (both are i32 arguments). With 3 rows of stride 2^30 the
third row's offset is 2^31, which wraps to -2^31: the load reads far before the tensor. The fix
is `row.to(tl.int64) * stride`.
"""
import triton
import triton.language as tl


# tessel: launch rows=3 cols=64 stride=1073741824 x=fp16[rows, cols; stride, 1] out=fp16[rows, cols]:out \
#   grid=(rows,) BLOCK=64
@triton.jit
def row_copy_kernel(x_ptr, out_ptr, cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs, mask=offs < cols)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: x_ptr[-2147483648] read by program 2, lane 0, with cols = 64, stride = 1073741824 (x_ptr has 2147483712 elements)
    tl.store(out_ptr + row * cols + offs, x, mask=offs < cols)


# Fixed: the row offset in int64.
# tessel: launch rows=3 cols=64 stride=1073741824 x=fp16[rows, cols; stride, 1] out=fp16[rows, cols]:out \
#   grid=(rows,) BLOCK=64
@triton.jit
def row_copy_i64_kernel(x_ptr, out_ptr, cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs, mask=offs < cols)
    tl.store(out_ptr + row * cols + offs, x, mask=offs < cols)
