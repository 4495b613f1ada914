import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, 128)
    mask = offs < n
    tl.store(x_ptr + offs, 1.0, mask=mask)
    y = tl.load(x_ptr + offs, mask=mask)


def launch(x):
    k[(1,)](x, 100, BLOCK=128, num_warps=4)
