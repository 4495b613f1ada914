"""TS401 register-spill on a tl.dot: the accumulator of a tile too large for the warps that hold it.

On Hopper Triton keeps a dot's fp32 accumulator in the registers of the warpgroups that issue its
wgmma instructions: a BLOCK_M x BLOCK_N tile over 4 warps is BLOCK_M * BLOCK_N / 128 floats per
thread. Past the 255 registers a thread has, the spill is certain in Triton's code as in tessel's,
and it is reported. Below that a dot's spill may be tessel's own (its registers are near Triton's,
not equal), and so is any on mma.sync (sm_80) or FMA units: those stay silent
(`tessel compile --emit report` still shows them).
`# jit:` lines say what `tessel check --jit` reports for the line above them
(tests/unit/diagnostics/JitSamplesTest).
"""
import triton
import triton.language as tl


# 256x256 over one warpgroup: 512 accumulator floats per thread, past ptxas's 255 registers.
# 128x128 (128 floats per thread) fits. Row-major operands, as torch makes them.
@triton.autotune(
    configs=[
        triton.Config({'BM': 256, 'BN': 256, 'BK': 64}, num_warps=4, num_stages=3),
        triton.Config({'BM': 128, 'BN': 128, 'BK': 64}, num_warps=4, num_stages=3),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # jit: warning[TS401] `matmul_kernel`: kernel matmul_kernel spills registers
    offs_m = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
    offs_n = (tl.program_id(1) * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    offs_cm = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_cn = tl.program_id(1) * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + offs_cm[:, None] * N + offs_cn[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def matmul(M, N, K):
    import torch
    a = torch.randn((M, K), device='cuda', dtype=torch.float16)
    b = torch.randn((K, N), device='cuda', dtype=torch.float16)
    c = torch.empty((M, N), device='cuda', dtype=torch.float16)
    grid = lambda META: (triton.cdiv(M, META['BM']), triton.cdiv(N, META['BN']))
    matmul_kernel[grid](a, b, c, M, N, K)
    return c


if __name__ == '__main__':
    matmul(4096, 4096, 4096)
