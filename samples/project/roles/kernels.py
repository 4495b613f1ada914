"""Two @jit functions that nothing in this file launches or calls.

`fill` is called from fused.py's kernel with a literal block size, so it is a helper, checked there;
here only what holds for any argument is checked. `scale` is launched by ops.py, so it is a kernel:
its BLOCK is then a runtime integer, which tl.arange refuses (as Triton 3.6 does at that launch).
"""
import triton
import triton.language as tl


@triton.jit
def fill(p, BLOCK):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, offs)


@triton.jit
def scale(p, BLOCK):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, tl.load(p + offs) * 2)
