import triton
import triton.language as tl


@triton.jit
def fill(p, BLOCK):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, offs)
