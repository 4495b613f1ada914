import triton
import triton.language as tl


# tessel: launch n=1000 src=fp32[n] dst=fp32[n]:out BLOCK=1024 grid=(cdiv(n, BLOCK),)
# tessel: reference copy_ref.cu::copy block=(256,) grid=(cdiv(n, 256),)
@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def other_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs))


def launch(x):
    other_kernel[(1,)](x, BLOCK=64)
