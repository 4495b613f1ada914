"""TS108 invalid-load-store: `tl.load` / `tl.store` arguments Triton rejects.

`other` needs a `mask`; the pointer argument must be a pointer (not the offsets alone); a
scalar pointer takes neither a tile value nor a tile mask. The range is the whole
`tl.load(...)` / `tl.store(...)` call.
"""
import triton
import triton.language as tl


@triton.jit
def other_without_mask_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs, other=0.0)
    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS108]: `other` cannot be provided without `mask`
    tl.store(out_ptr + offs, x)


@triton.jit
def forgot_base_pointer_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    tl.store(offs, x)
  # ^^^^^^^^^^^^^^^^^ error[TS108]: Unsupported ptr type <['64'], int32> in `tl.store`


@triton.jit
def store_tile_to_scalar_kernel(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    tl.store(out_ptr, x * 2.0)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS108]: Value argument cannot be block type if pointer argument is not a block


@triton.jit
def forgot_offsets_kernel(x_ptr, out_ptr, n):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr, mask=offs < n)
    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS108]: Mask argument cannot be block type if pointer argument is not a block
    tl.store(out_ptr + offs, x, mask=offs < n)


# Negative cases: other with a mask, a reduced value stored through a scalar pointer, a scalar load.
@triton.jit
def load_store_ok_kernel(x_ptr, scale_ptr, out_ptr, sum_ptr, n):
    offs = tl.arange(0, 64)
    mask = offs < n
    scale = tl.load(scale_ptr)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0) * scale
    tl.store(out_ptr + offs, x, mask=mask)
    tl.store(sum_ptr, tl.sum(x, axis=0))
