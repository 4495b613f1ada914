"""TS104 invalid-block-shape: a tile shape Triton rejects.

Every tile dimension must be a power of two and a tile may hold at most 2**20 elements
(TRITON_MAX_TENSOR_NUMEL). The range is the call that creates the tile. When the shape comes
from a constexpr, the finding shows only under the specializations that break the rule.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def odd_accumulator_kernel(x_ptr, out_ptr):
    acc = tl.zeros((48,), dtype=tl.float32)
    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS104]: Shape element 0 must be a power of 2
    offs = tl.arange(0, 64)
    acc += tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, acc)


@triton.jit
def odd_tile_kernel(out_ptr):
    tile = tl.full((16, 24), 1.0, tl.float32)
    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS104]: Shape element 1 must be a power of 2
    rows = tl.arange(0, 16)[:, None]
    cols = tl.arange(0, 32)[None, :]
    tl.store(out_ptr + rows * 32 + cols, tile)


@triton.jit
def huge_tile_kernel(out_ptr):
    acc = tl.zeros((2048, 1024), dtype=tl.float16)
    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS104]: numel (2097152) exceeds triton maximum tensor numel (1048576)
    rows = tl.arange(0, 2048)[:, None]
    cols = tl.arange(0, 1024)[None, :]
    tl.store(out_ptr + rows * 1024 + cols, acc)


# Launched with BLOCK_M=128 (fine) and BLOCK_M=96 (not a power of two): the finding shows
# only under the second specialization. (The tile is created before `tl.arange(0, BLOCK_M)`,
# which would otherwise fail first, with TS105.)
# oracle: BLOCK_M=128
# oracle: BLOCK_M=96
@triton.jit
def row_block_kernel(x_ptr, out_ptr, M, BLOCK_M: tl.constexpr):
    acc = tl.zeros((BLOCK_M, 32), dtype=tl.float32)
    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS104]: Shape element 0 must be a power of 2
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, 32)
    ptrs = x_ptr + rows[:, None] * 32 + cols[None, :]
    mask = rows[:, None] < M
    acc += tl.load(ptrs, mask=mask, other=0.0)
    tl.store(out_ptr + rows[:, None] * 32 + cols[None, :], acc, mask=mask)


# Negative cases: power-of-two shapes, including the smallest and one of exactly 2**20
# elements (the limit is inclusive; the unused tile is dropped by the compiler).
@triton.jit
def good_shapes_kernel(out_ptr):
    one = tl.full((1,), 3.0, tl.float32)
    tile = tl.zeros((64, 32), dtype=tl.float32) + one
    largest = tl.zeros((1024, 1024), dtype=tl.float16)
    rows = tl.arange(0, 64)[:, None]
    cols = tl.arange(0, 32)[None, :]
    tl.store(out_ptr + rows * 32 + cols, tile)


def launch(x: torch.Tensor, out: torch.Tensor):
    M = x.shape[0]
    row_block_kernel[(triton.cdiv(M, 128),)](x, out, M, BLOCK_M=128, num_warps=4)
    row_block_kernel[(triton.cdiv(M, 96),)](x, out, M, BLOCK_M=96, num_warps=4)
