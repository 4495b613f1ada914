"""TS303 device-assert-failed: a `tl.device_assert` condition was false for some lane in a run.

Triton compiles `tl.device_assert` only when debugging is on (`TRITON_DEBUG=1` or
`@triton.jit(debug=True)`); the interpreter always checks it, as `TRITON_INTERPRET=1` does. The
finding sits at the assert and gives its message, how many lanes failed it, and the first
program id and lane that did.
"""
import triton
import triton.language as tl


# Inputs drawn from N(0, 1): about half are negative.
# tessel: launch n=1000 x=fp32[n]:randn out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def sqrt_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.device_assert(x >= 0, "sqrt of a negative number")
    # run: error[TS303] `tl.device_assert(x >= 0, "sqrt of a negative number")`: device_assert failed: sqrt of a negative number
    tl.store(out_ptr + offs, tl.sqrt(x), mask=mask)


# Negative case: inputs drawn from [0, 1).
# tessel: launch n=1000 x=fp32[n]:rand out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def sqrt_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.device_assert(x >= 0, "sqrt of a negative number")
    tl.store(out_ptr + offs, tl.sqrt(x), mask=mask)
