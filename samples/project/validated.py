"""A grid made exact by a validator in another module of the project (issue 30, torchao's grouped hadamard).

`scale_tiles` calls `tiles.checks.validate_tiles`, which raises unless A's rows (named through
`rows == A.shape[0]`) and columns are multiples of TILE, then launches `cdiv(m, TILE) * cdiv(n, TILE)`
programs over `m, n = A.shape`: every program's tile is whole, so the unmasked accesses are in
bounds. The control, `scale_rows_kernel`, is launched after a validator of multiples of 64 under
blocks of 128: its last block may be half outside A, and its load and store are reported.

`scale_groups_kernel` is autotuned over `GROUP_CONFIGS`, a list imported from tiles/checks.py, and
launched over `cdiv(D, meta["GROUP"])` programs after `assert D % 128 == 0`: every config's GROUP
divides 128, so every program's group is whole. The control, `scale_wide_kernel`, takes
`WIDE_CONFIGS`, whose GROUP of 256 leaves half a group past D, and is reported.
"""
import torch
import triton
import triton.language as tl

from tiles.checks import GROUP_CONFIGS, TILE, WIDE_CONFIGS, validate_rows, validate_tiles


@triton.jit
def scale_tiles_kernel(x_ptr, N, TILE: tl.constexpr):
    pid = tl.program_id(0)
    n_tiles = tl.cdiv(N, TILE)
    offs_m = (pid // n_tiles) * TILE + tl.arange(0, TILE)
    offs_n = (pid % n_tiles) * TILE + tl.arange(0, TILE)
    ptrs = x_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.store(ptrs, tl.load(ptrs) * 2)


def scale_tiles(A: torch.Tensor, rows: int, cols: int) -> torch.Tensor:
    validate_tiles(A, rows, cols)
    m, n = A.shape
    scale_tiles_kernel[(triton.cdiv(m, TILE) * triton.cdiv(n, TILE),)](A, n, TILE=TILE)
    return A


@triton.jit
def scale_rows_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


def scale_rows(A: torch.Tensor) -> torch.Tensor:
    validate_rows(A)
    scale_rows_kernel[(triton.cdiv(A.shape[0], 128),)](A, BLOCK=128)
    return A


@triton.autotune(configs=GROUP_CONFIGS, key=["D"])
@triton.jit
def scale_groups_kernel(x_ptr, D, GROUP: tl.constexpr):
    offs = tl.program_id(1) * D + tl.program_id(0) * GROUP + tl.arange(0, GROUP)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


@triton.autotune(configs=WIDE_CONFIGS, key=["D"])
@triton.jit
def scale_wide_kernel(x_ptr, D, GROUP: tl.constexpr):
    offs = tl.program_id(1) * D + tl.program_id(0) * GROUP + tl.arange(0, GROUP)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


def scale_groups(x: torch.Tensor, wide: bool = False) -> torch.Tensor:
    D = x.shape[1]
    assert D % 128 == 0

    def grid(meta):
        return (triton.cdiv(D, meta["GROUP"]), x.shape[0])

    if wide:
        scale_wide_kernel[grid](x, D)
    else:
        scale_groups_kernel[grid](x, D)
    return x
