# A kernel whose every run takes the interpreter a few seconds: the runner
# tests stop a runner while it works on one (tests/runners/runner_test.py).
import triton
import triton.language as tl


# tessel: launch n=[30000000, 29000000] x=fp32[n] y=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),)
@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 512})], key=["n"])
@triton.jit
def slow_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
