"""TS101 unsupported-construct: Python that Triton's code generator has no visitor for.

Triton compiles a fixed subset of Python (FunctionDef, Assign, If, For, While, Call, BinOp, ...).
Anything else stops the compile with `unsupported AST node type: <Node>`; chained comparisons
have a message of their own. Each positive case sits in its own kernel because Triton stops at
the first error of a kernel.
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def clamp_negative_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    if n < 0:
        raise ValueError("n must be non-negative")
      # ^^^^^ error[TS101]: unsupported AST node type: Raise
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)


# oracle: BLOCK=128
@triton.jit
def lambda_activation_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    act = lambda v: tl.maximum(v, 0.0)
    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS101]: unsupported AST node type: Lambda
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, act(x), mask=mask)


# oracle: BLOCK=128
@triton.jit
def first_block_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        if start > 4096:
            break
          # ^^^^^ error[TS101]: unsupported AST node type: Break
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


# oracle: BLOCK=128
@triton.jit
def in_range_kernel(x_ptr, out_ptr, lo, hi, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    inside = lo <= x < hi
    #        ^^^^^^^^^^^^ error[TS101]: simultaneous multiple comparison is not supported
    tl.store(out_ptr + offs, inside.to(tl.float32), mask=mask)


# Negative cases: the supported spellings of the same ideas.
# oracle: BLOCK=128
@triton.jit
def supported_constructs_kernel(x_ptr, out_ptr, lo, hi, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    inside = (lo <= x) & (x < hi)
    y = tl.where(inside, tl.maximum(x, 0.0), 0.0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        if start <= 4096:
            acc += y
        else:
            pass
    assert BLOCK >= 16, "BLOCK too small"
    tl.store(out_ptr + offs, acc, mask=mask)
