"""TS115 return-in-loop: a `return` statement inside a `for` or `while` loop.

Triton lowers loops to structured control flow with a single exit, so a kernel cannot return
from inside one (an early exit before any loop is fine). Triton reports it at the runtime
`if` that holds the `return`, so the range is that `if` keyword (tessel adds the `return` as a
related location).
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def early_exit_for_kernel(x_ptr, out_ptr, n, limit, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        if start >= limit:
      # ^^ error[TS115]: Cannot have `return` statements inside `while` or `for` statements in triton
            return
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


# oracle: BLOCK=128
@triton.jit
def early_exit_while_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    while start < n:
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        if tl.sum(x, axis=0) == 0:
      # ^^ error[TS115]: Cannot have `return` statements inside `while` or `for` statements in triton
            return
        tl.store(out_ptr + offs, x, mask=mask)
        start += tl.num_programs(0) * BLOCK


# Negative case: an early exit before the loop.
# oracle: BLOCK=128
@triton.jit
def early_exit_ok_kernel(x_ptr, out_ptr, n, limit, BLOCK: tl.constexpr):
    if n > limit:
        return
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)
