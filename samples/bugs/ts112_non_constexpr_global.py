"""TS112 non-constexpr-global: a kernel reads a module-level variable that is not a constexpr.

Triton bakes globals into the compiled kernel only when they are `tl.constexpr(...)` (so that a
change of value is part of the cache key); dtypes, modules and @jit functions are fine too. A
module-level annotation `X: tl.constexpr = 16` is not enough. The range is the name.
"""
import triton
import triton.language as tl

EPS = 1e-5
BLOCK = 128
ROWS: tl.constexpr = 16
EPS_C = tl.constexpr(1e-5)
BLOCK_C = tl.constexpr(128)
ACC_DTYPE = tl.float32


@triton.jit
def rms_kernel(x_ptr, out_ptr, n_cols):
    row = tl.program_id(0)
    cols = tl.arange(0, 1024)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols + EPS)
                                                 # ^^^ error[TS112]: Cannot access global variable EPS from within @jit'ed function. Triton kernels can only access global variables that are instanstiated as constexpr
    tl.store(out_ptr + row * n_cols + cols, x / rms, mask=mask)


@triton.jit
def global_block_kernel(x_ptr, out_ptr, n):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
               # ^^^^^ error[TS112]: Cannot access global variable BLOCK from within @jit'ed function. Triton kernels can only access global variables that are instanstiated as constexpr
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# An annotation does not make a global a constexpr: Triton's message says so itself.
@triton.jit
def annotated_global_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, ROWS)
                      # ^^^^ error[TS112]: Cannot access global variable ROWS from within @jit'ed function. Triton kernels can only access global variables that are instanstiated as constexpr
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


# Negative cases: constexpr globals and a dtype global.
@triton.jit
def rms_ok_kernel(x_ptr, out_ptr, n_cols):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(ACC_DTYPE)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols + EPS_C)
    tl.store(out_ptr + row * n_cols + cols, x / rms, mask=mask)
