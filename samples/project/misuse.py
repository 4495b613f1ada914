"""An imported helper really misused: Triton's error is reported at the call in this file.

`load_tile`'s SIZE sizes a tl.arange, which needs a power of 2; 100 is not. Triton reports the
call with the helper's frame as the cause; tessel reports the call here, with a note at the
`tl.arange` in tiles/memory.py.
"""
import torch
import triton
import triton.language as tl

from tiles import load_tile, store_tile


@triton.jit
def odd_tile_kernel(x_ptr, out_ptr, n):
    start = tl.program_id(0) * 100
    x = load_tile(x_ptr, start, n, 100)
    store_tile(out_ptr, start, n, x, 128)


def launch(x: torch.Tensor, out: torch.Tensor):
    odd_tile_kernel[(triton.cdiv(x.numel(), 100),)](x, out, x.numel())
