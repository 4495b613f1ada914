"""TS121 kernel-returns-value: a kernel (not a helper) returns a value.

A kernel's results must be written with `tl.store`; there is nowhere for a returned value to
go. Triton's front end accepts it and the compile then fails deep in the MLIR pipeline with
`PassManager::run failed`, far from the cause. The range is the `return` statement.
"""
import torch
import triton
import triton.language as tl


# oracle: BLOCK=1024
@triton.jit
def sum_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    return tl.sum(x, axis=0)
  # ^^^^^^^^^^^^^^^^^^^^^^^^ error[TS121]: kernel returns a value


# Negative cases: a helper that returns a value, and a kernel with a bare early return.
@triton.jit
def _partial_sum(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    return tl.sum(x, axis=0)


# oracle: BLOCK=1024
@triton.jit
def sum_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    if n == 0:
        return
    tl.store(out_ptr, _partial_sum(x_ptr, n, BLOCK))


def launch(x: torch.Tensor, out: torch.Tensor):
    sum_kernel[(1,)](x, x.numel(), BLOCK=1024)
    sum_ok_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
