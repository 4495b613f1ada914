"""Tiled matrix multiplication C = act(A @ B) with fp32 accumulation and fp16 output.

Program ids are grouped along M (GROUP_M row-blocks share the same B column-blocks while they
are hot in L2) and the tile sizes are autotuned over the configs that
`get_autotune_configs()` returns. Rows and columns of A and B are wrapped with `% M` / `% N`
(the wrapped lanes compute values that the masked store drops); the K loop masks its tail.
An optional leaky ReLU is fused through a nested @jit helper.
"""
import torch
import triton
import triton.language as tl


def get_autotune_configs():
    configs = []
    for block_m, block_n, block_k, stages, warps in [
        (128, 128, 64, 3, 8),
        (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4),
        (64, 64, 64, 3, 4),
        (32, 64, 32, 5, 2),
    ]:
        configs.append(triton.Config({"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k, "GROUP_M": 8},
                                     num_stages=stages, num_warps=warps))
    return configs


@triton.jit
def leaky_relu(x, negative_slope):
    return tl.where(x >= 0, x, negative_slope * x)


# BLOCK_M/N/K and GROUP_M come from the autotune config (--config N picks one; 0 by default) and
# ACTIVATION from the first launch site.
# tessel: launch M=[256, 300] N=[192, 200] K=[128, 72] a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out \
#   stride_am=K stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 \
#   grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)
@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    blocks_m = tl.cdiv(M, BLOCK_M)
    blocks_n = tl.cdiv(N, BLOCK_N)
    programs_per_group = GROUP_M * blocks_n
    group_id = pid // programs_per_group
    first_block_m = group_id * GROUP_M
    group_rows = tl.minimum(blocks_m - first_block_m, GROUP_M)
    pid_in_group = pid % programs_per_group
    pid_m = first_block_m + pid_in_group % group_rows
    pid_n = pid_in_group // group_rows

    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak, mask=ks[None, :] < K, other=0.0)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn, mask=ks[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)

    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc, 0.01)
    c = acc.to(tl.float16)

    out_rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


def matmul(a: torch.Tensor, b: torch.Tensor, activation: str = "") -> torch.Tensor:
    assert a.shape[1] == b.shape[0] and a.dtype == b.dtype == torch.float16
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    if activation == "leaky_relu":
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), ACTIVATION="leaky_relu")
    else:
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), ACTIVATION="")
    return c


if __name__ == "__main__":
    torch.manual_seed(0)
    lhs = torch.randn(1000, 777, device="cuda", dtype=torch.float16)
    rhs = torch.randn(777, 1200, device="cuda", dtype=torch.float16)
    exact = lhs.float() @ rhs.float()
    # Outputs reach ~100 here, where one fp16 ulp is 0.06; both sides round once.
    torch.testing.assert_close(matmul(lhs, rhs).float(), exact, atol=0.1, rtol=1e-2)
    ref = torch.nn.functional.leaky_relu(exact, 0.01)
    torch.testing.assert_close(matmul(lhs, rhs, "leaky_relu").float(), ref, atol=0.1, rtol=1e-2)
    print("matmul: ok")


# The CUDA C++ reference (docs/reference-kernels.md) for the launch site's ACTIVATION="": WMMA on
# tensor cores, 128 x 128 tiles of C per block of 8 warps, operands copied by cp.async in two stages.
# tessel: reference reference/matmul_wmma_ref.cu::matmul_wmma kernel=matmul_kernel block=(256,) \
#   grid=(cdiv(N, 128), cdiv(M, 128)) torch=a @ b
