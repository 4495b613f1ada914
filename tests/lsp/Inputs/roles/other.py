import triton
import triton.language as tl


@triton.jit
def alone(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs))


def launch(x):
    alone[(1,)](x, BLOCK=64)
