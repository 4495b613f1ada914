"""TS103 constexpr-reassigned: a name annotated `tl.constexpr` inside a kernel is already defined.

`X: tl.constexpr = value` introduces a new compile-time constant; Triton refuses it when `X`
already names a parameter or an earlier value. The range is the annotated name.
"""
import triton
import triton.language as tl


# oracle: BLOCK=128
@triton.jit
def override_param_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    BLOCK: tl.constexpr = 256
  # ^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS103]: BLOCK is already defined. constexpr cannot be reassigned.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# oracle: BLOCK=128
@triton.jit
def twice_defined_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    SCALE: tl.constexpr = 2.0
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    SCALE: tl.constexpr = 4.0
  # ^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS103]: SCALE is already defined. constexpr cannot be reassigned.
    tl.store(out_ptr + offs, x * SCALE, mask=mask)


# Negative case: new constexpr names derived from parameters.
# oracle: BLOCK=128
@triton.jit
def derived_constexpr_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    HALF: tl.constexpr = BLOCK // 2
    SCALE: tl.constexpr = 0.5
    pid = tl.program_id(0)
    offs = pid * HALF + tl.arange(0, HALF)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * SCALE, mask=mask)
