"""Bounds prover: a loop whose last iteration overruns.

Each program walks its row in blocks; the loads are unmasked, so the last iteration reads past
the row (and past the tensor on the last row) unless n_cols is a multiple of BLOCK. The
store's mask says how long a row is.
"""
import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr = 128):
    row = tl.program_id(0)
    for start in range(0, n_cols, BLOCK):
        offs = row * n_cols + start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
          # ^^^^^^^^^^^^^^^^^^^^^ warning[TS203]: tl.load can go out of bounds: x_ptr[58551] read by program 15, lane 127, iteration start = 3584, with n_cols = 3656 (x_ptr has 58496 elements)
        tl.store(out_ptr + offs, x * 0.5, mask=start + tl.arange(0, BLOCK) < n_cols)
