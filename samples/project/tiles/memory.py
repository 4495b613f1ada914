"""Memory helpers: masked tile loads and stores, sized by the caller's constexpr."""
import triton
import triton.language as tl

from .math import BLOCK as DEFAULT_BLOCK


@triton.jit
def load_tile(ptr, start, n, SIZE: tl.constexpr = DEFAULT_BLOCK):
    offs = start + tl.arange(0, SIZE)
    return tl.load(ptr + offs, mask=offs < n, other=0.0)


@triton.jit
def store_tile(ptr, start, n, x, SIZE: tl.constexpr = DEFAULT_BLOCK):
    offs = start + tl.arange(0, SIZE)
    tl.store(ptr + offs, x, mask=offs < n)
