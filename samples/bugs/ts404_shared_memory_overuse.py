"""TS404 out-of-shared-memory: a config needs more shared memory per block than the GPU has.

`tessel check --jit` plans the shared memory of every kernel under each autotune config as
Triton's allocator does (the operand tiles of `tl.dot`, layout conversions, reduction scratch),
and reports a config whose total exceeds the per-block opt-in limit of the target (sm_80:
166912 bytes, sm_90: 232448) in Triton's own words: Triton compiles such a config and then
fails at its first launch with `OutOfResources`, and the autotuner silently drops it: under
`@triton.autotune` the finding is a warning that the autotuner skips the config, an error only
when every config overflows (or a launch uses the config directly). The finding is at the config,
followed by the buffers that are live at the peak. `# jit:` lines
say what `tessel check --jit` reports for the line above them.
"""
import triton
import triton.language as tl


# fp32 operands: a 128x256 and a 256x128 tile are 131072 bytes each, both live in the dot.
# num_stages=1 keeps Triton from adding pipeline buffers, so its figure is the same 262144.
@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 256}, num_warps=8, num_stages=1),
        # jit: warning[TS404] `triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 256}, num_warps=8, num_stages=1)`: out of resource: shared memory, Required: 262144, Hardware limit: 232448. Reducing block sizes or `num_stages` may help.
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 32}, num_warps=4, num_stages=1),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def tile_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
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
