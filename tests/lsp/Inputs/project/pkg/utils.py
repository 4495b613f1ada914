import triton
import triton.language as tl

FACTOR = tl.constexpr(2)


@triton.jit
def scale(x, K: tl.constexpr):
    """Multiplies a tile by K."""
    return x * K


@triton.jit
def shift(x):
    return x + FACTOR
