"""TS402 occupancy-limit: fewer than half of an SM's warps can be resident, because of the
registers each thread uses or the shared memory each block needs.

`tessel check --jit` compiles every kernel under each autotune config and computes the
theoretical occupancy as the CUDA occupancy calculator does. This is information, not a bug: a
kernel that keeps a large tile in registers may be fastest at low occupancy, but a memory-bound
kernel usually wants more warps in flight to hide latency. `# jit:` lines say what `tessel check
--jit` reports for the line above them.
"""
import triton
import triton.language as tl


# 64 floats per thread stay live across the reduction in the first config; the second keeps 16.
@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 8192}, num_warps=4),
        triton.Config({'BLOCK': 2048}, num_warps=4),
    ],
    key=['n'],
)
@triton.jit
def scale_rows_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # jit: note[TS402] `scale_rows_kernel`: occupancy is limited by registers
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x / tl.sum(x, axis=0), mask=offs < n)
