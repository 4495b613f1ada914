"""Element-wise sum of two vectors, the smallest complete Triton kernel.

Each program instance adds one BLOCK_SIZE-wide slice. The last slice is usually partial, so
every load and store is masked with `offsets < n_elements`.
"""
import torch
import triton
import triton.language as tl


# n_elements is not a multiple of BLOCK_SIZE in the first two instances: the last program's mask matters.
# tessel: launch n_elements=[1000, 98432, 4096] x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out \
#   grid=(cdiv(n_elements, BLOCK_SIZE),) BLOCK_SIZE=1024 num_warps=4
@triton.jit
def vector_add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    y = tl.load(y_ptr + offsets, mask=in_bounds)
    tl.store(out_ptr + offsets, x + y, mask=in_bounds)


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    assert x.shape == y.shape and x.device == y.device and x.is_cuda
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    vector_add_kernel[grid](x, y, out, n_elements, BLOCK_SIZE=1024, num_warps=4)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    a = torch.randn(1_000_003, device="cuda")
    b = torch.randn(1_000_003, device="cuda")
    torch.testing.assert_close(vector_add(a, b), a + b)
    print("vector_add: ok")


# The CUDA C++ reference (docs/reference-kernels.md): `tessel run samples/vector_add.py --kernel
# vector_add_kernel --gpu --reference` runs both on the same inputs and reports the gap.
# tessel: reference reference/vector_add_ref.cu::vector_add kernel=vector_add_kernel block=(256,) \
#   grid=(cdiv(n_elements, 1024),) torch=x + y
