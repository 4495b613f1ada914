"""TS120 invalid-launch-option: a launch or autotune option Triton rejects.

`num_warps` must be a power of two, and a launch keyword must name a kernel parameter or a
compile option (`num_warps`, `num_stages`, `num_ctas`, `maxnreg`, ...). The range is the keyword
argument at the launch site or in the `triton.Config(...)`.
"""
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK": 256}, num_warps=4),
        triton.Config({"BLOCK": 512}, num_warps=6),
                                    # ^^^^^^^^^^^ error[TS120]: num_warps must be a power of 2
        triton.Config({"BLOCK": 1024}, num_warps=8, num_stages=2),
    ],
    key=["n"],
)
@triton.jit
def tuned_copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


# oracle: BLOCK=1024, num_warps=3
# oracle: BLOCK=1024, num_warps=2, num_stages=1
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * scale, mask=mask)


def launch(x: torch.Tensor, out: torch.Tensor):
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    tuned_copy_kernel[grid](x, out, n)
    scale_kernel[(triton.cdiv(n, 1024),)](x, out, n, 2.0, BLOCK=1024, num_warps=3)
                                                                    # ^^^^^^^^^^^ error[TS120]: num_warps must be a power of 2
    scale_kernel[(triton.cdiv(n, 1024),)](x, out, n, 2.0, BLOCK=1024, num_warp=4)
                                                                    # ^^^^^^^^^^ error[TS120]: Keyword argument num_warp was specified but unrecognised
    # Negative case: valid options.
    scale_kernel[(triton.cdiv(n, 512),)](x, out, n, 0.5, BLOCK=512, num_warps=2, num_stages=1)
