"""TS123 kernels-not-checked: functions that read like Triton kernels but that tessel cannot check.

A note, once per file, never a silent "0 kernels checked": the functions are decorated with a
`jit` that does not resolve to `triton.jit` here (a module of the project that re-exports triton,
outside the roots tessel searches), or they are defined inside another function (a factory that
builds its kernel lazily), which tessel's discovery of module-level kernels does not read.
"""
import torch

from .triton_utils import tl, triton


@triton.jit
#^^^^^^^^^^ note[TS123]: 2 functions of this file look like Triton kernels, but the `jit` decorator does not resolve to `triton.jit` here
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


@triton.jit
def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


def build_kernel():
    import triton as real_triton
    import triton.language as real_tl

    @real_triton.jit
    #^^^^^^^^^^^^^^^ note[TS123]: 1 @triton.jit function of this file is defined inside other functions
    def inner_kernel(x_ptr, n, BLOCK: real_tl.constexpr):
        offs = real_tl.program_id(0) * BLOCK + real_tl.arange(0, BLOCK)
        real_tl.store(x_ptr + offs, 0.0, mask=offs < n)

    return inner_kernel


# Negative cases: another library's jit, whose functions do not read like Triton.
@torch.jit.script
def scripted(x):
    return x * 2
