# The kernels of conversion_probe.py: their shared memory is their layout conversion's.
import triton
import triton.language as tl


@triton.jit
def dot_store(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn)
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    if OUT_F32:
        tl.store(c_ptrs, acc)
    else:
        tl.store(c_ptrs, acc.to(tl.float16))


@triton.jit
def transpose_copy(x_ptr, y_ptr, stride_x, stride_y, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :])
    tl.store(y_ptr + cols[None, :] * stride_y + rows[:, None], x)
