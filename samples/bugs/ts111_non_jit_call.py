"""TS111 non-jit-call: a kernel calls a plain Python function.

Only `@triton.jit` functions, `triton.language` builtins and a few Python builtins (`min`, `max`,
`range`, `len`, `int`, `float`, ...) may be called from a kernel. Triton raises this while hashing
the kernel's dependencies, before compiling it, and prints the function object
(`<function NAME at 0x...>`); the annotation stops before the address. The range is the call.
"""
import triton
import triton.language as tl


def _silu(x):
    # A device helper that forgot its @triton.jit decorator.
    return x * tl.sigmoid(x)


def _block_for(n):
    return 1024 if n > 4096 else 256


# oracle: BLOCK=128
@triton.jit
def silu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = _silu(x)
      # ^^^^^^^^ error[TS111]: Unsupported function referenced: <function _silu
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def host_helper_kernel(x_ptr, out_ptr, n):
    BLOCK: tl.constexpr = _block_for(n)
                        # ^^^^^^^^^^^^^ error[TS111]: Unsupported function referenced: <function _block_for
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# Negative cases: a @jit helper, builtins from triton.language and Python's min.
@triton.jit
def _silu_jit(x):
    return x * tl.sigmoid(x)


# oracle: BLOCK=128
@triton.jit
def silu_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    HALF: tl.constexpr = min(BLOCK, 64)
    offs = pid * HALF + tl.arange(0, HALF)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, _silu_jit(x) + tl.sqrt(tl.abs(x)), mask=mask)
