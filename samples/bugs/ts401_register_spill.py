"""TS401 register-spill: the compiled kernel keeps values in local memory because they do not fit
in registers.

`tessel check --jit` compiles every kernel under each autotune config and reads the assembler's
report. Each thread of a block holds `BLOCK / (32 * num_warps)` elements of every tile that stays
live; past 255 registers per thread (or the config's `maxnreg`) ptxas spills the rest to local
memory, a DRAM round trip per use. The finding is at the kernel's name, under the config that
spills, with a related location at that config; a config that fits gets nothing. `# jit:` lines
say what `tessel check --jit` reports for the line above them (tests/unit/diagnostics/JitSamplesTest).
"""
import triton
import triton.language as tl


# One warp holds a 16384-element tile across a reduction: 512 live floats per thread, of which
# ptxas keeps 64 registers and spills the rest (Triton 3.6: n_regs 64, n_spills 550 on an H100).
# The second config spreads the same tile over 16 warps (32 floats per thread) and does not
# spill; its registers leave two blocks of 16 warps per SM (50 %), which is no finding.
@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 16384}, num_warps=1),
        triton.Config({'BLOCK': 16384}, num_warps=16),
    ],
    key=['n'],
)
@triton.jit
def normalize_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # jit: warning[TS401] `normalize_kernel`: kernel normalize_kernel spills registers
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x / tl.sum(x, axis=0), mask=offs < n)


# The same kernel with a tile that fits: no finding.
@triton.autotune(configs=[triton.Config({'BLOCK': 1024}, num_warps=4)], key=['n'])
@triton.jit
def normalize_small_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x / tl.sum(x, axis=0), mask=offs < n)
