"""Findings from each of tessel's three tiers in one file, for tests/vscode/real_editor.mjs.

- the front tier (per keystroke): TS105, `tl.arange(0, 100)` in `arange_kernel`;
- the prover (Z3, in the background): TS203, the unmasked `tl.load` of `x` in `vector_add_kernel`
  (samples/vector_add.py with `, mask=in_bounds` deleted from that load), which has the add-`mask=` quick fix;
- the JIT tier (compiled in the background): TS402, the occupancy of `scale_rows_kernel`'s first config.
"""
import triton
import triton.language as tl


@triton.jit
def arange_kernel(out_ptr):
    offs = tl.arange(0, 100)
    tl.store(out_ptr + offs, 1.0)


def launch_arange(out):
    arange_kernel[(1,)](out)


# tessel: launch n_elements=[1000, 98432, 4096] x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out \
#   grid=(cdiv(n_elements, BLOCK_SIZE),) BLOCK_SIZE=1024 num_warps=4
@triton.jit
def vector_add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets, mask=in_bounds)
    tl.store(out_ptr + offsets, x + y, mask=in_bounds)


@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 8192}, num_warps=4),
        triton.Config({'BLOCK': 2048}, num_warps=4),
    ],
    key=['n'],
)
@triton.jit
def scale_rows_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x / tl.sum(x, axis=0), mask=offs < n)
