"""Kernels shaped like Triton's tutorials 02, 03 and 05, for issue 29's measurements on Hopper.

Written for tessel's bench (not copied): the structure that decides Triton's shared memory and
registers is the tutorials' own -- a persistent row loop under `tl.range(num_stages=)` for softmax, a
grouped tiled matmul whose K loop advances its pointers and masks its tail, and a three-pass layer
norm with fp32 statistics -- so tests/gpu/hopper_check.py can put triton 3.6's `metadata.shared` and
`n_regs` beside tessel's for the same source, config and launch. No autotune decorator: each
launch names its config, so tessel's `--spec` and triton's launch keywords give the same kernel.
"""
import triton
import triton.language as tl


@triton.jit
def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                 BLOCK_SIZE: tl.constexpr, STAGES: tl.constexpr):
    first = tl.program_id(0)
    step = tl.num_programs(0)
    for r in tl.range(first, n_rows, step, num_stages=STAGES):
        offs = tl.arange(0, BLOCK_SIZE)
        keep = offs < n_cols
        v = tl.load(in_ptr + r * in_stride + offs, mask=keep, other=-float("inf"))
        v = v - tl.max(v, axis=0)
        e = tl.exp(v)
        tl.store(out_ptr + r * out_stride + offs, e / tl.sum(e, axis=0), mask=keep)


@triton.jit
def matmul_tiles(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    g = pid // per_group
    m0 = g * GROUP
    rows_in_group = min(tiles_m - m0, GROUP)
    pm = m0 + ((pid % per_group) % rows_in_group)
    pn = (pid % per_group) // rows_in_group
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BK)):
        left = K - kt * BK
        a = tl.load(a_tile, mask=rk[None, :] < left, other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BK * stride_ak
        b_tile += BK * stride_bk
    c = acc.to(tl.float16)
    om = pm * BM + tl.arange(0, BM)
    on = pn * BN + tl.arange(0, BN)
    tl.store(c_ptr + om[:, None] * stride_cm + on[None, :] * stride_cn, c, mask=(om[:, None] < M) & (on[None, :] < N))


@triton.jit
def layer_norm_rows(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    s = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        s += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(s, axis=0) / N
    q = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        d = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, d - mean, 0.0)
        q += d * d
    rstd = 1 / tl.sqrt(tl.sum(q, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        keep = cols < N
        w = tl.load(w_ptr + cols, mask=keep)
        b = tl.load(b_ptr + cols, mask=keep)
        x = tl.load(x_ptr + cols, mask=keep, other=0.0).to(tl.float32)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=keep)
