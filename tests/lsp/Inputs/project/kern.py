import triton
import triton.language as tl
from pkg.utils import scale
import pkg.utils as u


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(x_ptr + offs, scale(x, 2) + u.shift(x), mask=mask)


def launch(x):
    k[(1,)](x, x.numel(), BLOCK=128)
