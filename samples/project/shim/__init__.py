"""A package that re-exports triton, as vllm's `vllm.triton_utils` does.

Triton is imported under `if TYPE_CHECKING or HAS_TRITON:`, with placeholders in `else:`, and the
names are listed in `__all__`; kernels elsewhere write `from shim import tl, triton`. tessel follows
the chain (reexported.py checks as kernels, not as "0 kernels checked").
"""
from typing import TYPE_CHECKING

from shim.importing import HAS_TRITON, TritonPlaceholder

if TYPE_CHECKING or HAS_TRITON:
    import triton
    import triton.language as tl
else:
    triton = TritonPlaceholder()
    tl = TritonPlaceholder()

__all__ = ["HAS_TRITON", "triton", "tl"]
