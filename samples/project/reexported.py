"""Kernels that take triton from a module of the project, with helpers defined only where triton is.

`from shim import tl, triton` reaches triton through shim/__init__.py (TYPE_CHECKING taken as true, as
pyright does), and `_twice` is a @triton.jit helper under `if has_triton():` with a raising stub of
the same name under `else:`, as torchao writes them: Python on a machine with triton and a GPU takes
the first branch, and so does tessel. Checks clean: `tessel check samples/project`.
"""
import torch
from torch.utils._triton import has_triton

from shim import tl, triton

if has_triton():

    @triton.jit
    def _twice(x):
        return x * 2

else:

    def _twice(x):
        raise RuntimeError("triton is required")


@triton.jit
def twice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, _twice(x), mask=mask)


def twice(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    twice_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out
