"""Bounds prover: masks that are right only when K is a multiple of BLOCK_K.

The K loop masks the rows but not the K tail. The launch spec lists two sizes: K = 96 (a
multiple of BLOCK_K = 32) is fine, K = 100 reads past the end of the last row of `a`.
"""
import triton
import triton.language as tl


# tessel: launch M=64 K=[96, 100] a=fp32[M, K] out=fp32[M]:out stride_am=K grid=(cdiv(M, BLOCK_M),) \
#   BLOCK_M=16 BLOCK_K=32
@triton.jit
def row_sums_kernel(a_ptr, out_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        cols = k + tl.arange(0, BLOCK_K)
        tile = tl.load(a_ptr + rows[:, None] * stride_am + cols[None, :], mask=rows[:, None] < M, other=0.0)
             # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: a_ptr[6400] read by program 3, lane 484, iteration k = 96, with K=100 (a_ptr has 6400 elements)
        acc += tl.sum(tile, axis=1)
    tl.store(out_ptr + rows, acc, mask=rows < M)
