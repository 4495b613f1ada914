"""Math helpers: a constexpr global, an alias of a libdevice-style function, a @jit helper."""
import triton
import triton.language as tl

try:
    from triton.language.extra.cuda.libdevice import exp2 as _exp2
except ImportError:
    from triton.language.math import exp2 as _exp2

BLOCK = tl.constexpr(128)
LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def fast_exp(x):
    # exp(x) = 2 ** (x * log2(e)): evaluated in this module, with its own LOG2E.
    return _exp2(x * LOG2E)
