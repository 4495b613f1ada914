"""Reproducers of false alarms found in real libraries (issue 30), each reduced from the library's code.

Every kernel here compiles and runs correctly with Triton 3.6 on an H200, with no error under
compute-sanitizer, when launched by the wrapper below it (bench/RESULTS.md, issue 30). tessel must
report nothing for them; the one annotated finding is the control, the same kernel without the
guard that made it safe.
"""
import math

import torch
import triton
import triton.language as tl
from torch.library import wrap_triton


# A mask written as a cast to int1 (lightllm, FlagGems): the cast keeps which lanes are on.
@triton.jit
def int1_mask_kernel(x_ptr, out_ptr, M, K, stride_m, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = tl.arange(0, BLOCK_K)
    mask = ((rm[:, None] < M) & (rk[None, :] < K)).to(tl.int1)
    x = tl.load(x_ptr + rm[:, None] * stride_m + rk[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rm[:, None] * stride_m + rk[None, :], x * 2, mask=mask)


def int1_mask(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    M, K = x.shape
    int1_mask_kernel[(triton.cdiv(M, 32),)](x, out, M, K, x.stride(0), BLOCK_M=32, BLOCK_K=triton.next_power_of_2(K))
    return out


# An exact grid from a host invariant (torchao, gemlite): the last dimension is asserted to be a
# multiple of the block, so cdiv(numel, block) programs cover whole blocks.
@triton.jit
def exact_grid_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)


def exact_grid(x: torch.Tensor, block_size: int = 256) -> torch.Tensor:
    assert x.size(-1) % block_size == 0, "the last dimension must be a multiple of the block"
    out = torch.empty_like(x)
    exact_grid_kernel[(triton.cdiv(x.numel(), block_size),)](x, out, BLOCK=block_size)
    return out


# An early return on a loaded bound (vllm's and sglang's fused MoE): the sorted token ids are padded
# to a multiple of BLOCK_M, and programs past the padded count stop before reading them.
@triton.jit
def moe_gather_kernel(sorted_ids_ptr, out_ptr, num_tokens_post_padded_ptr, BLOCK_M: tl.constexpr):
    pid_m = tl.program_id(0)
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_tokens_post_padded:
        return
    offs = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    ids = tl.load(sorted_ids_ptr + offs)
    tl.store(out_ptr + offs, ids + 1)


# The control: without the guard, the last programs read past the padded ids.
@triton.jit
def moe_gather_unguarded_kernel(sorted_ids_ptr, out_ptr, BLOCK_M: tl.constexpr):
    pid_m = tl.program_id(0)
    offs = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    ids = tl.load(sorted_ids_ptr + offs)
    #             ^^^^^^^^^^^^^^^^^^^^^ warning[TS201]: tl.load offsets can run past the end along axis 0: they depend on program_id(0), and there is no mask
    tl.store(out_ptr + offs, ids + 1)
    #        ^^^^^^^^^^^^^^ warning[TS201]: tl.store offsets can run past the end along axis 0: they depend on program_id(0), and there is no mask


def moe_gather(sorted_ids: torch.Tensor, num_tokens_post_padded: torch.Tensor, max_blocks: int) -> torch.Tensor:
    out = torch.zeros_like(sorted_ids)
    moe_gather_kernel[(max_blocks,)](sorted_ids, out, num_tokens_post_padded, BLOCK_M=64)
    return out


def moe_gather_unguarded(sorted_ids: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(sorted_ids)
    moe_gather_unguarded_kernel[(triton.cdiv(sorted_ids.numel(), 64),)](sorted_ids, out, BLOCK_M=64)
    return out


# A tuple argument indexed in the kernel (Triton 3.3+): `strides[0]` is an element of the tuple,
# not an index into an integer.
@triton.jit
def tuple_arg_kernel(x_ptr, out_ptr, n, strides, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs * strides[0], mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)


def tuple_arg(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
    n = x.shape[0]
    tuple_arg_kernel[(triton.cdiv(n, 128),)](x, out, n, (x.stride(0), x.stride(1)), BLOCK=128)
    return out


# A launch through torch.library's wrapper (torchao): `wrap_triton(kernel)[grid](...)` launches the
# kernel, here with a grid of whole blocks (the host asserts the division is exact).
@triton.jit
def wrapped_launch_kernel(x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid_m * N + offs_n)
    tl.store(out_ptr + pid_m * N + offs_n, x * 2)


def wrapped_launch(x: torch.Tensor, block_size: int = 128) -> torch.Tensor:
    M, N = x.shape
    assert N % block_size == 0
    out = torch.empty_like(x)
    wrap_triton(wrapped_launch_kernel)[(M, N // block_size)](x, out, N=N, BLOCK=block_size)
    return out


# A row the host pads to whole blocks (flash-attention's softmax statistics, `seqlen_q_rounded`):
# the last block of a row runs past seqlen but stays inside its row of seqlen_rounded elements.
@triton.jit
def padded_rows_kernel(x_ptr, out_ptr, seqlen, seqlen_rounded, BLOCK_M: tl.constexpr):
    start_m = tl.program_id(0)
    off_hb = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    x = tl.load(x_ptr + off_hb * seqlen + offs_m, mask=offs_m < seqlen, other=0.0)
    tl.store(out_ptr + off_hb * seqlen_rounded + offs_m, x * 2)


def padded_rows(x: torch.Tensor) -> torch.Tensor:
    batch, seqlen = x.shape
    seqlen_rounded = math.ceil(seqlen / 128) * 128
    out = torch.empty((batch, seqlen_rounded), device=x.device, dtype=x.dtype)
    grid = lambda META: (triton.cdiv(seqlen, META["BLOCK_M"]), batch)  # noqa: E731
    padded_rows_kernel[grid](x, out, seqlen, seqlen_rounded, BLOCK_M=128)
    return out


# The control: the same rows, not padded; the last block of each row writes into the next row and
# past the end of the last.
@triton.jit
def unpadded_rows_kernel(x_ptr, out_ptr, seqlen, pitch, BLOCK_M: tl.constexpr):
    start_m = tl.program_id(0)
    off_hb = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    x = tl.load(x_ptr + off_hb * seqlen + offs_m, mask=offs_m < seqlen, other=0.0)
    tl.store(out_ptr + off_hb * pitch + offs_m, x * 2)
    #        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[TS201]: tl.store offsets can run past the end along axis 0: they depend on program_id(0), and there is no mask


def unpadded_rows(x: torch.Tensor) -> torch.Tensor:
    batch, seqlen = x.shape
    out = torch.empty((batch, seqlen), device=x.device, dtype=x.dtype)
    grid = lambda META: (triton.cdiv(seqlen, META["BLOCK_M"]), batch)  # noqa: E731
    unpadded_rows_kernel[grid](x, out, seqlen, seqlen, BLOCK_M=128)
    return out
