"""Bounds prover: correct kernels it must prove (or leave alone), never report.

Offsets wrapped with `%`, a row index clamped with `tl.minimum`, `tl.multiple_of` /
`tl.max_contiguous` hints, a mask combined from 1-D comparisons in a loop, and block pointers
with `boundary_check`, under launch specs with sizes that are not multiples of the blocks.
"""
import triton
import triton.language as tl


# tessel: launch n=[1000, 4096] x=fp32[n] y=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def wrap_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs % n)
    y = tl.load(y_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x + y, mask=offs < n)


# tessel: launch M=[100, 128] N=200 stride_m=N x=fp32[M, N] bias=fp32[M] out=fp32[M, N]:out \
#   BLOCK_M=32 BLOCK_N=64 grid=(cdiv(M, BLOCK_M),)
@triton.jit
def clamp_hint_kernel(x_ptr, bias_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    scale = tl.load(bias_ptr + tl.minimum(rows, M - 1))
    for start in range(0, N, BLOCK_N):
        cols = tl.max_contiguous(tl.multiple_of(start + tl.arange(0, BLOCK_N), BLOCK_N), BLOCK_N)
        mask = row_ok[:, None] & (cols < N)[None, :]
        offsets = rows[:, None] * stride_m + cols[None, :]
        tile = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        tl.store(out_ptr + offsets, tile * scale[:, None], mask=mask)


# tessel: launch M=[64, 70] N=50 stride=N x=fp32[M, N] out=fp32[M, N]:out BLOCK_M=32 BLOCK_N=32 \
#   grid=(cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))
@triton.jit
def block_ptr_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride, 1), offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    dst = tl.make_block_ptr(out_ptr, shape=(M, N), strides=(stride, 1), offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tile = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    tl.store(dst, tile * 2.0, boundary_check=(0, 1))


# No launch spec: the conventional reading proves the masked accesses.
@triton.jit
def masked_2d_kernel(x_ptr, out_ptr, M, N, stride_x, stride_o, BLOCK_M: tl.constexpr = 16,
                     BLOCK_N: tl.constexpr = 64):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows[:, None] * stride_o + cols[None, :], tile, mask=mask)


# GPTQ's group index divides by `groupsize // BLOCK_K`, which is 0 for a group
# smaller than a block: a launch that divides by zero has no defined addresses
# (the solver's division by zero would read scales[-1]).
# tessel: launch K=4096 groupsize=[64, 128, 512] x=fp32[K] scales=fp32[32] out=fp32[K]:out grid=(cdiv(K, BLOCK_K),)
@triton.jit
def grouped_scales_kernel(x_ptr, scales_ptr, out_ptr, K, groupsize, BLOCK_K: tl.constexpr = 128):
    pid = tl.program_id(0)
    offs = pid * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = offs < K
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    scale = tl.load(scales_ptr + pid // (groupsize // BLOCK_K))
    tl.store(out_ptr + offs, x * scale, mask=mask)
