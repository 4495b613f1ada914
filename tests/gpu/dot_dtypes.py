"""tl.dot on tensor cores for every operand type, for tests/gpu/gpu_suite.py's `dots` step.

Each kernel below runs through `tessel run --gpu` once per launch directive: tessel's code on the
GPU against its CPU interpreter, which models what the tensor cores do (compiler/interp/Dot.cpp:
fp32 operands rounded to tf32, ties away, for input_precision="tf32" on mma.sync, truncated where the
dot runs on Hopper's wgmma, which reads them from shared memory unconverted (the tf32 kernels below on
sm_90a: b is N-major, so its ring is filled one 4-byte cp.async per element); exact widening of fp8,
fp16 and bf16; int8 products summed exactly in int32). Tolerances are `tessel run`'s per output dtype
(tools/GpuRun.cpp gpuTolerance): |gpu - cpu| <= tol * (1 + |cpu|) with tol = 1e-4 for fp32 and
2e-3 for fp16; int32 must be equal. What they leave room for is the order in which one mma.sync
adds its k products (not the interpreter's k order): at K <= 256 with inputs in [0, 1) that is
some 1e-6 relative. tf32x3 is compared with the interpreter's ieee product (the split recovers
fp32 to about 1e-6 relative), and ieee runs on FMA units in the interpreter's order.

Shapes: 64x64 tiles on 4 warps (2 x 2 warps, four 16x8 tiles each), K walked in a loop with `acc=`
so the accumulator stays in the MMA layout across iterations, and one 128x64 tile on 8 warps.
"""
import triton
import triton.language as tl


# tessel: launch K=256 a=fp32[64, K] b=fp32[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=32 PRECISION="tf32"
# tessel: launch K=256 a=fp32[64, K] b=fp32[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=32 PRECISION="tf32x3"
# tessel: launch K=256 a=fp32[64, K] b=fp32[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=32 PRECISION="ieee"
# tessel: launch K=128 a=fp32[128, K] b=fp32[K, 64] c=fp32[128, 64]:out BM=128 BN=64 BK=64 PRECISION="tf32" \
#   num_warps=8
@triton.jit
def dot_fp32_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                    PRECISION: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# tessel: launch K=256 a=i8[64, K] b=i8[K, 64] c=i32[64, 64]:out BM=64 BN=64 BK=64
@triton.jit
def dot_int8_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# e4m3 and e5m2 on sm_89+ run natively (mma.sync.m16n8k32.f32.e4m3.e4m3.f32); elsewhere widened
# to fp16. The second directive mixes the two formats; the third asks for an fp16 result.
# tessel: launch K=256 a=fp8e4nv[64, K] b=fp8e4nv[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=64
# tessel: launch K=256 a=fp8e5[64, K] b=fp8e4nv[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=64
@triton.jit
def dot_fp8_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# b stored K-major (an [N, K] weight read as [K, N], as tutorial 03's fp8 benchmark passes it): on
# sm_90 wgmma reads both fp8 operands K-major from their cp.async rings (above, b is N-major and is
# staged transposed instead).
# tessel: launch K=256 a=fp8e4nv[64, K] b=fp8e4nv[64, K] c=fp32[64, 64]:out BM=64 BN=64 BK=64
# tessel: launch K=256 a=fp8e5[128, K] b=fp8e4nv[64, K] c=fp32[128, 64]:out BM=128 BN=64 BK=128 num_warps=8
@triton.jit
def dot_fp8_kmajor_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] + rn[None, :] * K)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# One k step (K = 64) so that the fp16 result's single rounding is all there is to compare.
# tessel: launch a=fp16[64, 64] b=fp16[64, 64] c=fp16[64, 64]:out BM=64 BN=64 BK=64
# tessel: launch a=fp8e4nv[64, 64] b=fp8e4nv[64, 64] c=fp16[64, 64]:out BM=64 BN=64 BK=64
@triton.jit
def dot_fp16_out_kernel(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], tl.dot(a, b, out_dtype=tl.float16))


# a computed in registers (scaled along K, then cast to b's type): on sm_90 Triton's AccelerateMatmul
# keeps such an a in registers and wgmma reads its fragments from them (32 / bits elements a register:
# two fp16, four fp8, one tf32), converted into wgmma's operand layout; b comes from its ring.
# tessel: launch K=256 a=fp32[64, K] s=fp32[K] b=fp16[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=64
# tessel: launch K=256 a=fp32[64, K] s=fp32[K] b=bf16[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=32
# tessel: launch K=256 a=fp32[64, K] s=fp32[K] b=fp32[K, 64] c=fp32[64, 64]:out BM=64 BN=64 BK=32
# tessel: launch K=256 a=fp32[64, K] s=fp32[K] b=fp8e4nv[64, K] c=fp32[64, 64]:out BM=64 BN=64 BK=64 B_KMAJOR=1
# tessel: launch K=256 a=fp32[128, K] s=fp32[K] b=fp16[K, 128] c=fp32[128, 128]:out BM=128 BN=128 BK=64 \
#   num_warps=8
@triton.jit
def dot_scaled_a_kernel(a_ptr, s_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                        B_KMAJOR: tl.constexpr = 0):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        s = tl.load(s_ptr + k0 + rk)
        a = (a * s[None, :]).to(b_ptr.dtype.element_ty)
        if B_KMAJOR:
            b = tl.load(b_ptr + (k0 + rk)[:, None] + rn[None, :] * K)
        else:
            b = tl.load(b_ptr + (k0 + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
