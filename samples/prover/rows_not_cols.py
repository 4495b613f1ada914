"""Bounds prover: a 2-D load masked on its rows but not on its columns.

The store's mask gives the tensor's shape (M rows of N columns, row stride `stride`); the load
bounds only the rows, so the last column block reads past the end of the last row.
"""
import triton
import triton.language as tl


@triton.jit
def rows_only_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr = 32, BLOCK_N: tl.constexpr = 32):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = rows[:, None] * stride + cols[None, :]
    tile = tl.load(x_ptr + offs, mask=rows[:, None] < M)
         # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[401919] read by program (3, 15, 0), lane 95, with M = 99, N = 484, stride = 4096 (x_ptr has 401892 elements)
    tl.store(out_ptr + offs, tile, mask=(rows[:, None] < M) & (cols[None, :] < N))
