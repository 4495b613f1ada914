"""TS001 syntax-error: the file does not parse as Python.

tessel parses the whole file with tree-sitter, which recovers from errors: a half-typed line is
reported where the parser gave up (the range is the text it could not place, or the point where
a token is missing), and every other kernel in the file is still checked, as the TS105 finding
at the end of this file shows. The message follows Python's: `invalid syntax`, or
`expected ':'` for a missing token.
"""
import triton
import triton.language as tl


@triton.jit
def double_comma_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask,, other=0.0)
                                      # ^ error[TS001]: invalid syntax
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def missing_comma_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs x, mask=mask)
                          # ^ error[TS001]: invalid syntax
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def stray_operator_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask) * / 2.0
                                         # ^ error[TS001]: invalid syntax
    tl.store(out_ptr + offs, x, mask=mask)


# Negative case: a well-formed kernel after the broken ones is checked as usual.
@triton.jit
def still_checked_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 100)
         # ^^^^^^^^^^^^^^^^^ error[TS105]: arange's range must be a power of 2
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))
