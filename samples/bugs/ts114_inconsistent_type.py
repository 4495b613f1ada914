"""TS114 inconsistent-type: a value whose type differs between loop iterations or if branches.

Triton compiles a loop to one block whose carried values have fixed types, and an `if` on a
runtime condition to two blocks that must yield the same types. `total = 0` starts an int32;
adding a float makes it fp32. The range is the `for` / `if` keyword, where Triton reports it.
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def int_accumulator_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    total = 0
    for start in range(0, n, BLOCK):
  # ^^^ error[TS114]: Loop-carried variable total has initial type int32 but is re-assigned to fp32 in loop! Please make sure that the type stays consistent.
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
        total += tl.sum(x, axis=0)
    tl.store(out_ptr, total)


# oracle: BLOCK=128
@triton.jit
def branch_scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if n > 4096:
  # ^^ error[TS114]: Mismatched type for scale between then block (int32) and else block (fp32)
        scale = 2
    else:
        scale = 0.5
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * scale, mask=mask)


# `/` is true division: an int32 halved with `/` becomes fp32 (`//` keeps it an integer).
@triton.jit
def halving_kernel(out_ptr, n):
    step = n
    while step > 1:
  # ^^^^^ error[TS114]: Loop-carried variable step has initial type int32 but is re-assigned to fp32 in loop! Please make sure that the type stays consistent.
        step = step / 2
    tl.store(out_ptr, step)


# Negative cases: a float accumulator from the start; equal types on both branches; a
# compile-time `if` whose branches may differ.
# oracle: BLOCK=128, HAS_SCALE=True
@triton.jit
def consistent_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, HAS_SCALE: tl.constexpr):
    total = 0.0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
        total += tl.sum(x, axis=0)
    if n > 4096:
        scale = 2.0
    else:
        scale = 0.5
    if HAS_SCALE:
        bias = 1.5
    else:
        bias = 0
    step = n
    while step > 1:
        step = step // 2
    tl.store(out_ptr, total * scale + bias + step)
