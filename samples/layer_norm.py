"""Layer normalization forward pass, one program per row.

Rows may be wider than one block, so the kernel makes three passes over a row in BLOCK_SIZE
chunks: the mean, the variance (padding lanes zeroed so they do not count), then the
normalized, scaled and shifted output. Mean and 1/std are stored per row for the backward pass.
Statistics are accumulated in fp32 whatever the input type.
"""
import torch
import triton
import triton.language as tl


# tessel: launch rows=[3, 64] n_cols=[1000, 3000] x=fp32[rows, n_cols] y=fp32[rows, n_cols]:out \
#   weight=fp32[n_cols] bias=fp32[n_cols] mean=fp32[rows]:out rstd=fp32[rows]:out \
#   row_stride=n_cols eps=1e-5 BLOCK_SIZE=1024 grid=(rows,) num_warps=8
@triton.jit
def layer_norm_fwd_kernel(x_ptr, y_ptr, weight_ptr, bias_ptr, mean_ptr, rstd_ptr,
                          row_stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * row_stride
    y_row = y_ptr + row * row_stride

    partial_sum = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        partial_sum += tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(partial_sum, axis=0) / n_cols

    partial_sq = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        centered = tl.where(cols < n_cols, x - mean, 0.0)
        partial_sq += centered * centered
    variance = tl.sum(partial_sq, axis=0) / n_cols
    rstd = tl.rsqrt(variance + eps)

    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)

    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        w = tl.load(weight_ptr + cols, mask=mask)
        b = tl.load(bias_ptr + cols, mask=mask)
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + cols, y, mask=mask)


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float = 1e-5):
    x2d = x.reshape(-1, x.shape[-1]).contiguous()
    n_rows, n_cols = x2d.shape
    y = torch.empty_like(x2d)
    mean = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    rstd = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    layer_norm_fwd_kernel[(n_rows,)](x2d, y, weight, bias, mean, rstd, x2d.stride(0), n_cols, eps,
                                     BLOCK_SIZE=1024, num_warps=8)
    return y.reshape(x.shape), mean, rstd


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden = 3000
    inp = torch.randn(512, hidden, device="cuda", dtype=torch.float16)
    w = torch.rand(hidden, device="cuda", dtype=torch.float16)
    b = torch.randn(hidden, device="cuda", dtype=torch.float16)
    out, _, _ = layer_norm(inp, w, b)
    ref = torch.nn.functional.layer_norm(inp.float(), (hidden,), w.float(), b.float(), 1e-5).half()
    torch.testing.assert_close(out, ref, atol=1e-2, rtol=0)
    print("layer_norm: ok")


# The CUDA C++ reference (docs/reference-kernels.md): one block per row, the row in registers.
# tessel: reference reference/layer_norm_ref.cu::layer_norm_rows<256, 12> kernel=layer_norm_fwd_kernel \
#   block=(256,) grid=(rows,) torch=torch.nn.functional.layer_norm(x, (n_cols,), weight, bias, eps)
