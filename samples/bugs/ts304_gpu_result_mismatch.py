"""TS304 gpu-result-mismatch: the GPU's output differs from the interpreter's on the same inputs.

`tessel run --gpu` compiles the kernel for the GPU present, runs it on the inputs the interpreter
got, and compares every output element the interpreter wrote. The interpreter runs programs one
after another; the GPU runs them at once. When several programs store different values to one
element, which one lands is a race, and the two runs disagree. The finding sits at the kernel and
names the output, how many elements differ and the first of them.
"""
import triton
import triton.language as tl


# Every program stores its program id to the same 256 elements: the interpreter keeps the last
# program's, the GPU whichever program finished last.
# tessel: launch n=1048576 x=fp32[n] out=fp32[256]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def last_wins_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # run --gpu: error[TS304] `last_wins_kernel`: 
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    tl.store(out_ptr + lanes, tl.zeros((BLOCK,), tl.float32) + pid)


# Negative case: each program owns its block.
# tessel: launch n=1000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def own_block_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)
