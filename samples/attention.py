"""Attention forward pass, softmax(Q K^T * sm_scale) V, in the FlashAttention style.

One program owns BLOCK_M query rows of one (batch, head) and streams over the keys and values
in BLOCK_N chunks, keeping a running row maximum m_i and row sum l_i so the full score matrix
never exists. Scores are scaled by sm_scale * log2(e) so that `tl.exp2` replaces `tl.exp`.
The inner loop is a nested @jit helper that returns its carried state as a tuple; the autotune
configs come from a list comprehension. Per-row log-sum-exp (base 2) is stored for a backward
pass.
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, offs_m, lo, hi, n_ctx, qk_scale,
                BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in tl.range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        key_valid = offs_n < n_ctx
        # K is read transposed, as a [HEAD_DIM, BLOCK_N] tile.
        k = tl.load(k_base + offs_n[None, :] * stride_kn + offs_d[:, None], mask=key_valid[None, :], other=0.0)
        scores = tl.dot(q, k) * qk_scale
        allowed = key_valid[None, :]
        if CAUSAL:
            allowed = allowed & (offs_m[:, None] >= offs_n[None, :])
        scores = tl.where(allowed, scores, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(scores, axis=1))
        p = tl.exp2(scores - m_new[:, None])
        correction = tl.exp2(m_i - m_new)
        l_i = l_i * correction + tl.sum(p, axis=1)
        v = tl.load(v_base + offs_n[:, None] * stride_vn + offs_d[None, :], mask=key_valid[:, None], other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * correction[:, None])
        m_i = m_new
    return acc, l_i, m_i


# q, k, v, o are [heads, n_ctx, HEAD_DIM] row-major; BLOCK_M/BLOCK_N come from the autotune config.
# tessel: launch heads=2 n_ctx=[200, 64] HEAD_DIM=64 CAUSAL=[False, True] \
#   q=fp16[heads, n_ctx, HEAD_DIM] k=fp16[heads, n_ctx, HEAD_DIM] v=fp16[heads, n_ctx, HEAD_DIM] \
#   o=fp16[heads, n_ctx, HEAD_DIM]:out lse=fp32[heads, n_ctx]:out \
#   stride_qh=n_ctx*HEAD_DIM stride_qm=HEAD_DIM stride_kh=n_ctx*HEAD_DIM stride_kn=HEAD_DIM \
#   stride_vh=n_ctx*HEAD_DIM stride_vn=HEAD_DIM stride_oh=n_ctx*HEAD_DIM stride_om=HEAD_DIM \
#   sm_scale=0.125 grid=(cdiv(n_ctx, BLOCK_M), heads)
@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": block_m, "BLOCK_N": block_n}, num_stages=stages, num_warps=warps)
        for block_m in [64, 128]
        for block_n in [32, 64]
        for stages in [2, 3]
        for warps in [4, 8]
    ],
    key=["n_ctx", "HEAD_DIM", "CAUSAL"],
)
@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr,
                    stride_qh, stride_qm, stride_kh, stride_kn, stride_vh, stride_vn, stride_oh, stride_om,
                    n_ctx, sm_scale,
                    HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    tl.static_assert(HEAD_DIM >= 16, "tl.dot needs HEAD_DIM >= 16")
    tl.static_assert(BLOCK_M % BLOCK_N == 0, "the causal bound assumes BLOCK_N divides BLOCK_M")
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    row_valid = offs_m < n_ctx

    q = tl.load(q_ptr + head * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=row_valid[:, None], other=0.0)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e)
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, n_ctx)
    else:
        hi = n_ctx
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptr + head * stride_kh, v_ptr + head * stride_vh,
                                stride_kn, stride_vn, offs_m, 0, hi, n_ctx, qk_scale,
                                BLOCK_N, HEAD_DIM, CAUSAL)

    out = acc / l_i[:, None]
    tl.store(lse_ptr + head * n_ctx + offs_m, m_i + tl.log2(l_i), mask=row_valid)
    tl.store(o_ptr + head * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :], out.to(tl.float16),
             mask=row_valid[:, None])


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, sm_scale: float):
    batch, heads, n_ctx, head_dim = q.shape
    assert q.dtype == k.dtype == v.dtype == torch.float16 and head_dim in (16, 32, 64, 128)
    q3, k3, v3 = (t.reshape(batch * heads, n_ctx, head_dim).contiguous() for t in (q, k, v))
    o = torch.empty_like(q3)
    lse = torch.empty((batch * heads, n_ctx), device=q.device, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(n_ctx, meta["BLOCK_M"]), batch * heads)
    attn_fwd_kernel[grid](q3, k3, v3, o, lse,
                          q3.stride(0), q3.stride(1), k3.stride(0), k3.stride(1), v3.stride(0), v3.stride(1),
                          o.stride(0), o.stride(1), n_ctx, sm_scale, HEAD_DIM=head_dim, CAUSAL=causal)
    return o.reshape(batch, heads, n_ctx, head_dim), lse


if __name__ == "__main__":
    torch.manual_seed(0)
    shape = (2, 4, 1000, 64)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16) for _ in range(3))
    for causal in (False, True):
        out, _ = attention(q, k, v, causal, 1.0 / math.sqrt(shape[-1]))
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
        torch.testing.assert_close(out, ref, atol=2e-2, rtol=0)
    print("attention: ok")
