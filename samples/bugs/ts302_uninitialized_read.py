"""TS302 uninitialized-read: the kernel read an element of an output tensor that nothing wrote.

A tensor marked `:out` in the launch spec stands for memory the host allocated without filling
(`torch.empty`, `torch.empty_like`): its contents are whatever the allocator left there. `tessel
run` tracks which bytes of each output the kernel has stored to and reports every load or
atomic that reads bytes no store reached, with the first program id and lane that did. The fix
is on the host side (allocate with `torch.zeros`, marked `:zeros` in the spec) or in the kernel
(write before reading).
"""
import triton
import triton.language as tl


# Accumulating into `out`, which the host allocated with torch.empty.
# tessel: launch n=3000 x=fp32[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=1024
@triton.jit
def accumulate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(out_ptr + offs, mask=mask)
    # run: error[TS302] `tl.load(out_ptr + offs, mask=mask)`: 3000 uninitialized loads of out_ptr[0..2999] (out_ptr has 3000 elements), first in program (0, 0, 0), lane 0
    tl.store(out_ptr + offs, acc + tl.load(x_ptr + offs, mask=mask), mask=mask)


# Negative case: the host zero-fills the accumulator (torch.zeros), so the spec says `:zeros`.
# tessel: launch n=3000 x=fp32[n] out=fp32[n]:zeros grid=(cdiv(n, BLOCK),) BLOCK=1024
@triton.jit
def accumulate_ok_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, acc + tl.load(x_ptr + offs, mask=mask), mask=mask)
