// The CUDA reference for vector_add.py: out = x + y, four floats per thread through 16-byte
// loads and stores (the buffers are 256-byte aligned, so every fourth element is too); the last
// partial vector falls back to scalars.
#include <cuda_runtime.h>

__global__ void vector_add(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out,
                           int n_elements) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 3 < n_elements) {
    float4 a = *reinterpret_cast<const float4 *>(x + i);
    float4 b = *reinterpret_cast<const float4 *>(y + i);
    *reinterpret_cast<float4 *>(out + i) = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    return;
  }
  for (; i < n_elements; ++i)
    out[i] = x[i] + y[i];
}
