"""TS403 jit-compile-failed: tessel could not compile the kernel to a GPU binary.

`tessel check --jit` reports a construct its lowering or code generator does not handle yet at
the construct, as one note per kernel (Triton may compile it: this is tessel's limit, not a bug in
the kernel, so it is never an error), and a failure of LLVM, ptxas or nvJitLink at the kernel's
name, also a note. An error is kept for what Triton itself rejects under the specialization. Each kernel and config compiles in a
worker process, so the kernel below that compiles still gets its own findings (none).
`# jit:` lines say what `tessel check --jit` reports for the line above them.
"""
import triton
import triton.language as tl


# Narrowing to fp8e4b15 (Triton's software format for pre-Hopper GPUs) is not in tessel's code
# generator yet.
@triton.jit
def fp8_store_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    tl.store(out_ptr + offs, x.to(tl.float8e4b15).to(tl.float32))
    # jit: note[TS403] `x.to(tl.float8e4b15)`: figures unavailable for sm_90a: the cast from fp32 to fp8e4b15 is not supported by tessel's code generator yet


# The same kernel in fp16 compiles.
@triton.jit
def fp16_dot_kernel(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :]).to(tl.float16)
    b = tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :]).to(tl.float16)
    c = tl.dot(a, b)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], c)


def launch(a, b, c):
    fp8_store_kernel[(1,)](a, c, BLOCK=32)
    fp16_dot_kernel[(1,)](a, b, c, BLOCK=32)
