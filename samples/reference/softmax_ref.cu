// The CUDA reference for fused_softmax.py: one block per row, the row held in registers (ITEMS
// values per thread, so a row of up to BLOCK * ITEMS columns is read once and written once),
// computed in fp32 whatever T is, the max and the sum reduced across the block with warp
// shuffles.
#include "block_reduce.cuh"
#include <cuda_fp16.h>

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }

template <typename T, int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) softmax_rows(T *__restrict__ out, const T *__restrict__ in, int in_row_stride,
                                                      int out_row_stride, int n_cols) {
  __shared__ float scratch[BLOCK / 32];
  const T *src = in + static_cast<size_t>(blockIdx.x) * in_row_stride;
  T *dst = out + static_cast<size_t>(blockIdx.x) * out_row_stride;
  float v[ITEMS];
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int c = threadIdx.x + k * BLOCK;
    v[k] = c < n_cols ? to_float(src[c]) : -INFINITY;
    m = fmaxf(m, v[k]);
  }
  m = block_reduce<BLOCK>(m, scratch, MaxOp(), -INFINITY);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    v[k] = expf(v[k] - m);
    s += v[k];
  }
  s = block_reduce<BLOCK>(s, scratch, SumOp(), 0.f);
  const float inv = 1.f / s;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const int c = threadIdx.x + k * BLOCK;
    if (c < n_cols)
      dst[c] = from_float<T>(v[k] * inv);
  }
}
