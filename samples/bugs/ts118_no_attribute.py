"""TS118 no-attribute: an attribute or operator that does not exist.

`tl.tensor` has no `__pow__` (write `x * x`, or use `tl.exp2`/`libdevice.pow`), and
`triton.language` has only the functions it defines. The message is Python's AttributeError
text. The range is the operation, or the attribute expression.
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def square_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = x ** 2
      # ^^^^^^ error[TS118]: 'tensor' object has no attribute '__pow__'
    tl.store(out_ptr + offs, y, mask=mask)


# oracle: BLOCK=128
@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.gelu(x)
      # ^^^^^^^ error[TS118]: module 'triton.language' has no attribute 'gelu'
    tl.store(out_ptr + offs, y, mask=mask)


# Negative cases: the spellings that exist.
# oracle: BLOCK=128
@triton.jit
def attributes_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = x * x + tl.sigmoid(x) + x.exp2()
    tl.store(out_ptr + offs, y.to(x.dtype), mask=mask)
