// The CUDA reference for layer_norm.py: y = (x - mean) * rstd * weight + bias per row, with the
// row's mean and rstd = 1 / sqrt(var + eps) stored too. One block per row, the row in registers;
// the mean first, then the variance of the centred values (the two-pass form Triton's tutorial
// uses), each a block reduction.
#include "block_reduce.cuh"
#include <cuda_runtime.h>

template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK)
    layer_norm_rows(const float *__restrict__ x, float *__restrict__ y, const float *__restrict__ weight,
                    const float *__restrict__ bias, float *__restrict__ mean, float *__restrict__ rstd, int row_stride,
                    int n_cols, float eps) {
  __shared__ float scratch[BLOCK / 32];
  const float *in = x + static_cast<size_t>(blockIdx.x) * row_stride;
  float *out = y + static_cast<size_t>(blockIdx.x) * row_stride;
  float v[ITEMS];
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int c = threadIdx.x + k * BLOCK;
    v[k] = c < n_cols ? in[c] : 0.f;
    s += v[k];
  }
  const float mu = block_reduce<BLOCK>(s, scratch, SumOp(), 0.f) / n_cols;
  float q = 0.f;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int c = threadIdx.x + k * BLOCK;
    const float d = c < n_cols ? v[k] - mu : 0.f;
    q += d * d;
  }
  const float r = rsqrtf(block_reduce<BLOCK>(q, scratch, SumOp(), 0.f) / n_cols + eps);
  if (threadIdx.x == 0) {
    mean[blockIdx.x] = mu;
    rstd[blockIdx.x] = r;
  }
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int c = threadIdx.x + k * BLOCK;
    if (c < n_cols)
      out[c] = (v[k] - mu) * r * weight[c] + bias[c];
  }
}
