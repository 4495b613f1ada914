"""TS404 out-of-shared-memory without `--jit`: a config too large for any element type.

The pointers below carry no type (no annotation, no launch spec): their element types come from
the tensors passed at run time. `tessel check` still knows that Triton stages both operands of
`tl.dot` whole in shared memory when they come straight from `tl.load`, and that a dot operand is
at least one byte per element (int8, fp8). When even that lower bound exceeds the target's
per-block limit (sm_90: 232448 bytes), every launch of the config fails, so the config is
reported in Triton's words with "at least": as a warning here, since `@triton.autotune` skips a
config that raises OutOfResources and the other config remains. `tessel check --jit` compiles the config with the
types it assumes (fp32 here) and reports the exact figure instead (`# jit:` lines). The second
config fits at one byte per element and is not reported.
"""
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 2048}, num_warps=16, num_stages=1),
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS404]: out of resource: shared memory, Required: at least 262144, Hardware limit: 232448. Reducing block sizes or `num_stages` may help. Whatever the pointers' element types (sm_90): operand a of tl.dot, 64x2048 at 1 byte per element: 131072 bytes; operand b of tl.dot, 2048x64 at 1 byte per element: 131072 bytes. @triton.autotune skips this config of `untyped_matmul_kernel` (1 of 2 configs overflow)
        # jit: warning[TS404] `triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 2048}, num_warps=16, num_stages=1)`: out of resource: shared memory, Required: 1048576, Hardware limit: 232448.
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 64}, num_warps=4, num_stages=1),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def untyped_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + (rows % M)[:, None] * K + ks[None, :], mask=ks[None, :] < K, other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + (cols % N)[None, :], mask=ks[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=mask)
