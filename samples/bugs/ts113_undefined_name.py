"""TS113 undefined-name: a name that is not defined where the kernel uses it.

Triton looks names up in the kernel's local scope, then in the module's globals; a typo, a
value read before its first assignment, or a host-side local all end in `NAME is not defined`.
The range is the name.
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def typo_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offset, mask=mask)
                      # ^^^^^^ error[TS113]: offset is not defined
    tl.store(out_ptr + offsets, x, mask=mask)


# oracle: BLOCK=128
@triton.jit
def accumulate_before_init_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
      # ^^^ error[TS113]: acc is not defined
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


# Negative cases: names assigned on both branches of an if, and before a loop.
# oracle: BLOCK=128
@triton.jit
def defined_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    if n > 4096:
        scale = 0.5
    else:
        scale = 2.0
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), acc * scale)
