"""Launches a kernel imported from another module, for tests/vscode/real_editor.mjs: the test types inside the
launch below and asks for completion there."""
import torch
import triton

from three_tiers import vector_add_kernel


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    vector_add_kernel[(triton.cdiv(n_elements, 1024),)](x, y, out, n_elements, BLOCK_SIZE=1024)
    return out
