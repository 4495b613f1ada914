"""TS109 invalid-dot: `tl.dot` operands Triton rejects.

Both operands must be tiles of rank >= 2 with the same dtype and the same reduction length, and
Triton 3.6 needs K >= 16 (K >= 32 for 8-bit operands). The range is the whole `tl.dot(...)` call.
Operands are cast explicitly so that the finding does not depend on the pointee types.
"""
import triton
import triton.language as tl


@triton.jit
def short_k_kernel(a_ptr, b_ptr, c_ptr):
    rm = tl.arange(0, 16)
    rk = tl.arange(0, 8)
    a = tl.load(a_ptr + rm[:, None] * 8 + rk[None, :]).to(tl.float16)
    b = tl.load(b_ptr + rk[:, None] * 16 + rm[None, :]).to(tl.float16)
    c = tl.dot(a, b)
      # ^^^^^^^^^^^^ error[TS109]: Input shapes should have M >= 1, N >= 1 and K >= 16
    tl.store(c_ptr + rm[:, None] * 16 + rm[None, :], c)


@triton.jit
def vector_dot_kernel(x_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 32)
    x = tl.load(x_ptr + offs).to(tl.float16)
    y = tl.load(y_ptr + offs).to(tl.float16)
    d = tl.dot(x, y)
      # ^^^^^^^^^^^^ error[TS109]: input and other must have equal ranks >= 2
    tl.store(out_ptr, d)


@triton.jit
def k_mismatch_kernel(a_ptr, b_ptr, c_ptr):
    r32 = tl.arange(0, 32)
    r16 = tl.arange(0, 16)
    a = tl.load(a_ptr + r32[:, None] * 32 + r32[None, :]).to(tl.float16)
    b = tl.load(b_ptr + r16[:, None] * 32 + r32[None, :]).to(tl.float16)
    c = tl.dot(a, b)
      # ^^^^^^^^^^^^ error[TS109]: input and other must have equal reduction dimensions
    tl.store(c_ptr + r32[:, None] * 32 + r32[None, :], c)


@triton.jit
def mixed_dtype_kernel(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :]).to(tl.float16)
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :]).to(tl.float32)
    c = tl.dot(a, b)
      # ^^^^^^^^^^^^ error[TS109]: Both operands must be same dtype. Got fp16 and fp32
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)


# Negative cases: K = 16 exactly, an fp32 accumulator, M = N = 16.
@triton.jit
def dot_ok_kernel(a_ptr, b_ptr, c_ptr):
    rm = tl.arange(0, 32)
    rk = tl.arange(0, 16)
    a = tl.load(a_ptr + rm[:, None] * 16 + rk[None, :]).to(tl.float16)
    b = tl.load(b_ptr + rk[:, None] * 32 + rm[None, :]).to(tl.float16)
    acc = tl.zeros((32, 32), dtype=tl.float32)
    acc = tl.dot(a, b, acc)
    small = tl.dot(a.to(tl.float32).T, b.to(tl.float32).T)
    tl.store(c_ptr + rm[:, None] * 32 + rm[None, :], acc + tl.sum(small))
