"""Kernels that import every helper they use from the `tiles` package.

`from tiles import ...` goes through tiles/__init__.py's re-exports, `import tiles.memory as mem`
names a submodule, and the helpers run in their own modules (their BLOCK, LOG2E and imports).
Checks clean: `tessel check samples/project`.
"""
import torch
import triton
import triton.language as tl

import tiles.memory as mem
from tiles import BLOCK, fast_exp


@triton.jit
def softplus_kernel(x_ptr, out_ptr, n):
    start = tl.program_id(0) * BLOCK
    x = mem.load_tile(x_ptr, start, n).to(tl.float32)
    y = tl.log(1.0 + fast_exp(x))
    mem.store_tile(out_ptr, start, n, y)


@triton.jit
def scaled_copy_kernel(x_ptr, out_ptr, n, scale, SIZE: tl.constexpr):
    start = tl.program_id(0) * SIZE
    x = mem.load_tile(x_ptr, start, n, SIZE)
    mem.store_tile(out_ptr, start, n, x * scale, SIZE)


def softplus(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    softplus_kernel[(triton.cdiv(n, 128),)](x, out, n)
    scaled_copy_kernel[(triton.cdiv(n, 256),)](x, out, n, 2.0, SIZE=256)
    return out
