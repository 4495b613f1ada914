"""Bounds prover: a mask that compares the columns with the number of rows.

With a launch spec the sizes are concrete: for M = 64 rows of N = 48 columns, `cols < M`
enables columns 48 to 63, past the end of each row (and of the tensor, on the last row).
The violation is certain, so it is an error.
"""
import triton
import triton.language as tl


# tessel: launch M=64 N=48 x=fp32[M, N] out=fp32[M, N]:out stride=N grid=(cdiv(M, BLOCK_M),) \
#   BLOCK_M=16 BLOCK_N=64
@triton.jit
def wrong_size_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs = rows[:, None] * stride + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < M)
    tile = tl.load(x_ptr + offs, mask=mask)
         # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: x_ptr[3072] read by program 3, lane 1008, with M = 64, N = 48, stride = 48 (x_ptr has 3072 elements)
    tl.store(out_ptr + offs, tile, mask=mask)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.store can go out of bounds: out_ptr[3072] written by program 3, lane 1008, with M = 64, N = 48, stride = 48 (out_ptr has 3072 elements)
