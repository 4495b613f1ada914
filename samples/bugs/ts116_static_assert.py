"""TS116 static-assert: a `tl.static_assert` that fails, or that cannot be decided at compile time.

The message of a failing assertion is the user's own message. The range is the whole
`tl.static_assert(...)` call. When the kernel is launched with several block sizes, the finding
shows under the ones that break the assertion.
"""
import torch
import triton
import triton.language as tl


# oracle: BLOCK=64
# oracle: BLOCK=48
@triton.jit
def tiled_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS116]: BLOCK must be a multiple of 32
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# oracle: BLOCK=64
@triton.jit
def runtime_condition_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(n > 0)
  # ^^^^^^^^^^^^^^^^^^^^^^^ error[TS116]: Assertion condition could not be determined at compile-time
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# Negative case: an assertion over constexprs that holds.
# oracle: BLOCK=64
@triton.jit
def checked_block_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 16, "BLOCK must be at least 16")
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def launch(x: torch.Tensor, out: torch.Tensor):
    n = x.numel()
    tiled_sum_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)
    tiled_sum_kernel[(triton.cdiv(n, 48),)](x, out, n, BLOCK=48)
    runtime_condition_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)
    checked_block_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)
