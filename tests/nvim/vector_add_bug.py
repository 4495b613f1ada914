# Fixture for tests/nvim/lsp_test.lua: a vector add whose loads and store
# have no mask (TS201). The Neovim test applies tessel's quick fixes until the
# warnings are gone. The test edits a copy, never this file.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x + y)


def add(x, y, out, n):
    # The element count is the caller's, so the prover cannot read this
    # wrapper's sizes (it would refute the loads as TS203 instead of the TS201
    # this fixture is about).
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
