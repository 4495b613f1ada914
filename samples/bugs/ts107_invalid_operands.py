"""TS107 invalid-operands: operand types an operator or math function rejects.

Pointers may only be offset by integers; unsigned tiles do not mix with negative literals; the
transcendental functions (`tl.exp`, `tl.log`, `tl.sqrt`...) take fp32 or fp64 only. The range is
the whole operation or call. The pointer case names the pointee type, which comes from the
tensor at launch, so the annotation stops before it.
"""
import triton
import triton.language as tl


@triton.jit
def pointer_sum_kernel(x_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 16)
    both = x_ptr + y_ptr
    #      ^^^^^^^^^^^^^ error[TS107]: cannot add pointers together
    tl.store(out_ptr + offs, tl.load(both + offs))


@triton.jit
def fractional_offset_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 16)
    mid = x_ptr + 1.5
    #     ^^^^^^^^^^^ error[TS107]: invalid operands of type pointer
    tl.store(out_ptr + offs, tl.load(mid + offs))


@triton.jit
def unsigned_minus_one_kernel(out_ptr):
    idx = tl.arange(0, 16).to(tl.uint32)
    prev = idx + -1
    #      ^^^^^^^^ error[TS107]: Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform a explicit cast on one of them.
    tl.store(out_ptr + tl.arange(0, 16), prev)


@triton.jit
def integer_exp_kernel(out_ptr):
    offs = tl.arange(0, 16)
    y = tl.exp(offs)
    #   ^^^^^^^^^^^^ error[TS107]: Expected dtype ['fp32', 'fp64'] but got int32
    tl.store(out_ptr + offs, y)


# Negative cases: integer offsets of any width, unsigned minus a positive literal, exp of a
# float tile.
@triton.jit
def operands_ok_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs.to(tl.int64))
    idx = offs.to(tl.uint32)
    prev = idx - 1
    y = tl.exp(offs.to(tl.float32)) + prev.to(tl.float32)
    tl.store(out_ptr + offs, x + y)
