"""TS201 unmasked-axis: a load or store whose offsets can run past the end of the tensor.

Offsets built as `pid * BLOCK + tl.arange(0, BLOCK)` (or from a loop variable) move with the
program id: the last program reads past the end unless a mask bounds that axis (`offs < n`) or
the offsets are wrapped (`% n`). Triton compiles such code without complaint; on the GPU it
reads garbage or faults. The range is the pointer argument; the message names the axis and
what the offsets depend on.
"""
import triton
import triton.language as tl


# tessel: launch n=3000 x=fp32[n] y=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
# oracle: BLOCK=1024
@triton.jit
def add_unmasked_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
              # ^^^^^^^^^^^^ warning[TS201]: tl.load offsets can run past the end along axis 0: they depend on
    # run: error[TS301] `tl.load(x_ptr + offs)`: 72 out-of-bounds loads of x_ptr[3000..3071] (x_ptr has 3000 elements), first in program (2, 0, 0), lane 952
    y = tl.load(y_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x + y)
           # ^^^^^^^^^^^^^^ warning[TS201]: tl.store offsets can run past the end along axis 0: they depend on
    # run: error[TS301] `tl.store(out_ptr + offs, x + y)`: 72 out-of-bounds stores to out_ptr[3000..3071] (out_ptr has 3000 elements), first in program (2, 0, 0), lane 952


# The mask bounds the rows but not the columns.
# tessel: launch M=64 N=50 stride=N x=fp32[M, N] out=fp32[M, N]:out BLOCK_M=32 BLOCK_N=32 \
#   grid=(cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))
# oracle: BLOCK_M=32, BLOCK_N=32
@triton.jit
def rows_only_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ptrs = x_ptr + rows[:, None] * stride + cols[None, :]
    mask = rows[:, None] < M
    tile = tl.load(ptrs, mask=mask)
                 # ^^^^ warning[TS201]: tl.load offsets can run past the end along axis 1: they depend on
    # run: error[TS301] `tl.load(ptrs, mask=mask)`: 14 out-of-bounds loads of x_ptr[3200..3213] (x_ptr has 3200 elements), first in program (1, 1, 0), lane 1010
    tl.store(out_ptr + rows[:, None] * stride + cols[None, :], tile, mask=(rows[:, None] < M) & (cols[None, :] < N))


# The offsets slide with the loop variable.
# tessel: launch rows=4 n_cols=300 x=fp32[rows, n_cols] out=fp32[rows]:out BLOCK=128 grid=(rows,)
# oracle: BLOCK=128
@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols)
                     # ^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS201]: tl.load offsets can run past the end along axis 0: they depend on
        # run: error[TS301] `tl.load(x_ptr + row * n_cols + cols)`: 84 out-of-bounds loads of x_ptr[1200..1283] (x_ptr has 1200 elements), first in program (3, 0, 0), lane 44
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


# Negative cases: masked offsets, wrapped offsets, a fixed-size table, a block pointer with a
# boundary check.
# tessel: launch n=3000 x=fp32[n] y=fp32[n] lut=fp32[16] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
# oracle: BLOCK=1024
@triton.jit
def add_ok_kernel(x_ptr, y_ptr, lut_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs % n)
    lut = tl.load(lut_ptr + tl.arange(0, 16))
    tl.store(out_ptr + offs, x + y + tl.sum(lut, axis=0), mask=mask)


# tessel: launch M=64 N=50 stride=N x=fp32[M, N] out=fp32[M, N]:out BLOCK_M=32 BLOCK_N=32 \
#   grid=(cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))
# oracle: BLOCK_M=32, BLOCK_N=32
@triton.jit
def block_ptr_ok_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride, 1), offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    dst = tl.make_block_ptr(out_ptr, shape=(M, N), strides=(stride, 1), offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tile = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    tl.store(dst, tile * 2.0, boundary_check=(0, 1))


# Negative case: common idioms that keep every access in bounds: hints on the offsets, a mask
# built from two 1-D comparisons, a row index clamped with tl.minimum, a mask combined in a loop.
# tessel: launch M=100 N=200 stride_m=N x=fp32[M, N] bias=fp32[M] out=fp32[M, N]:out \
#   BLOCK_M=32 BLOCK_N=64 grid=(cdiv(M, BLOCK_M),)
# oracle: BLOCK_M=32, BLOCK_N=64
@triton.jit
def idioms_ok_kernel(x_ptr, bias_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    last_row = tl.minimum(rows, M - 1)
    scale = tl.load(bias_ptr + last_row)
    for start in range(0, N, BLOCK_N):
        cols = tl.max_contiguous(tl.multiple_of(start + tl.arange(0, BLOCK_N), BLOCK_N), BLOCK_N)
        mask = row_ok[:, None] & (cols < N)[None, :]
        offsets = rows[:, None] * stride_m + cols[None, :]
        tile = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        tl.store(out_ptr + offsets, tile * scale[:, None], mask=mask)
