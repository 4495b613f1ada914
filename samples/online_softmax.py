"""Softmax over rows longer than on-chip memory holds (Milakov and Gimelshein's online softmax).

A row of 65536 fp32 is 256 KiB, more than an SM's shared memory and registers hold, so a kernel
cannot keep it on chip between its max, sum and normalise steps as fused_softmax.py does. This
one walks each row in BLOCK_SIZE tiles twice: the first pass keeps a running maximum m and a
running sum s of exp(x - m) per lane (rescaling s by exp(m_old - m_new) whenever the maximum
grows), the second writes exp(x - max) / sum. That is two reads and one write of the row, where
a max pass, a sum pass and a write pass read it three times. bench/reference/online_softmax.sh
measures it beside its CUDA reference and PyTorch's softmax at 4096 x 65536.
"""
import torch
import triton
import triton.language as tl


# tessel: launch rows=[2, 3] n_cols=[4096, 2000] x=fp32[rows, n_cols] y=fp32[rows, n_cols]:out \
#   BLOCK_SIZE=1024 grid=(rows,) num_warps=8
# tessel: reference reference/online_softmax_ref.cu::online_softmax_rows<1024> block=(1024,) grid=(rows,) \
#   torch=torch.softmax(x, -1)
@triton.jit
def online_softmax_kernel(y_ptr, x_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * n_cols
    y_row = y_ptr + row.to(tl.int64) * n_cols
    m = tl.full((BLOCK_SIZE,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # A lane that has seen only -inf keeps s = 0: exp(-inf - -inf) would be NaN.
        seen = m_new > float("-inf")
        s = tl.where(seen, s * tl.exp(m - m_new) + tl.exp(x - m_new), 0.0)
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(s * tl.exp(m - row_max), axis=0)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, tl.exp(x - row_max) / row_sum, mask=mask)


def online_softmax(x: torch.Tensor) -> torch.Tensor:
    assert x.ndim == 2 and x.is_cuda and x.dtype == torch.float32 and x.is_contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    online_softmax_kernel[(n_rows,)](y, x, n_cols, BLOCK_SIZE=1024, num_warps=8)
    return y


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(64, 65536, device="cuda")
    torch.testing.assert_close(online_softmax(logits), torch.softmax(logits, dim=1))
    print("online_softmax: ok")
