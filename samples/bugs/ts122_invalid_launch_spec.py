"""TS122 invalid-launch-spec: a `# tessel: launch ...` comment that does not parse or evaluate.

A launch spec states how a kernel is run (sizes, tensor dtypes and shapes, the grid,
constexprs; docs/launch-spec.md). tessel reports a malformed spec at the offending token inside
the comment and still reads the spec's other entries. These are tessel's own messages: Triton
never sees the comment.
"""
import triton
import triton.language as tl


# tessel: launch n=[1000, 4096] x=f33[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
                                # ^^^ error[TS122]: unknown dtype 'f33'; expected a Triton dtype such as fp32, fp16, bf16, i32, i64, u8 or fp8e4nv
# oracle: BLOCK=1024
@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# tessel: launch n=4096 x=fp32[n] out=fp32[m]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
                                         # ^ error[TS122]: name 'm' is not defined in the launch spec
# oracle: BLOCK=1024
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask), mask=mask)


# tessel: launch n=1024 x=fp32[n] out=fp32[n]:out n=2048 grid=(cdiv(n, BLOCK),) BLOCK=256
                                                # ^ error[TS122]: duplicate entry 'n' in launch spec
# oracle: BLOCK=1024
@triton.jit
def negate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, -tl.load(x_ptr + offs, mask=mask), mask=mask)


# tessel: launch n=4096 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024 num_warps=6
                                                                                            # ^ error[TS122]: num_warps must be a power of 2
# oracle: BLOCK=1024
@triton.jit
def square_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * x, mask=mask)


# Negative case: a well-formed spec with two sizes, strides left implicit.
# tessel: launch n=[1000, 4096] x=fp32[n] y=fp16[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024 num_warps=4
# oracle: BLOCK=1024
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
