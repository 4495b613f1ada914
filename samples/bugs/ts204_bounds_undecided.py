"""TS204 bounds-undecided: the bounds prover could not decide a kernel within its limits.

Checked with `tessel check --prove`. The prover's limits are resource units of the solver
(deterministic: the same on every machine and under any load), per query and per kernel. This
kernel reads a table at the squared distance `d * d` of each element from a runtime `center`:
whether `d * d` can be negative is a question about a product of two unknowns (it cannot, but
ranges alone do not show it: `d` may be negative), and a nonlinear query that the solver does
not settle within its smaller budget stays open. The note at the kernel's name says how many
accesses are open; nothing is reported about them. A launch spec (concrete sizes) lets the
prover decide. (Grouped-ordering matmuls, `pid // (GROUP_M * cdiv(N, BLOCK_N))`, used to be
this sample; the prover now bounds such program-id computations by their ranges.)
"""
import torch
import triton
import triton.language as tl


@triton.jit
def distance_weight_kernel(table_ptr, out_ptr, n, center, table_size, BLOCK: tl.constexpr):
  # ^^^^^^^^^^^^^^^^^^^^^^ note[TS204]: the bounds prover could not decide 1 of 2 accesses of 'distance_weight_kernel' within its time limits; they are neither proven nor reported
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    d = offs - center
    w = tl.load(table_ptr + d * d, mask=(offs < n) & (d * d < table_size), other=0.0)
    tl.store(out_ptr + offs, w, mask=offs < n)


def distance_weights(x, table, center):
    out = torch.empty_like(x)
    n = x.numel()
    distance_weight_kernel[(triton.cdiv(n, 256),)](table, out, n, center, table.numel(), BLOCK=256)
    return out


# Negative case: under a launch spec the sizes and the grid are concrete, and the prover decides.
# tessel: launch n=1000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256
@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
