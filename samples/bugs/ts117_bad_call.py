"""TS117 bad-call: a call whose arguments do not match the callee's parameters.

Triton binds the arguments of a `@jit` helper with Python's own rules (`inspect.getcallargs`)
and calls builtins as Python functions, so the message is Python's TypeError text. The range
is the whole call.
"""
import triton
import triton.language as tl


@triton.jit
def _scale(x, factor):
    return x * factor


# oracle: BLOCK=128
@triton.jit
def missing_argument_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = _scale(x)
      # ^^^^^^^^^ error[TS117]: _scale() missing 1 required positional argument: 'factor'
    tl.store(out_ptr + offs, y, mask=mask)


# oracle: BLOCK=128
@triton.jit
def extra_argument_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = _scale(x, 2.0, 0.5)
      # ^^^^^^^^^^^^^^^^^^^ error[TS117]: _scale() takes 2 positional arguments but 3 were given
    tl.store(out_ptr + offs, y, mask=mask)


# oracle: BLOCK=128
@triton.jit
def unknown_keyword_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, fill=0.0)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS117]: load() got an unexpected keyword argument 'fill'
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def numpy_style_arange_kernel(x_ptr, out_ptr):
    offs = tl.arange(64)
         # ^^^^^^^^^^^^^ error[TS117]: arange() missing 1 required positional argument: 'end'
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


# Liger-Kernel's online softmax starts its running max as `tl.float32(-inf)`:
# a dtype is not a cast, and Triton 3.6 rejects the call.
# oracle: BLOCK=128
@triton.jit
def dtype_called_as_cast_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = tl.float32(-float("inf"))
      # ^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS117]: 'dtype' object is not callable
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.maximum(m, tl.max(x, axis=0)))


# Negative cases: positional and keyword forms of the same calls.
# oracle: BLOCK=128
@triton.jit
def calls_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(start=0, end=BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = _scale(x, 2.0) + _scale(factor=0.5, x=x)
    tl.store(out_ptr + offs, y, mask=mask)
