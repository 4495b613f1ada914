// The CUDA reference for online_softmax.py: softmax over rows too long for on-chip memory
// (65536 fp32 = 256 KiB). One block per row reads the row once with 16-byte loads keeping a
// running maximum m and a running sum s of exp(x - m) per thread (Milakov and Gimelshein's
// online normalizer), merges the (m, s) pairs across the block, then reads the row a second time
// to write exp(x - m) / s: 2 reads and 1 write of the row, where a max pass, a sum pass and a
// write pass read it 3 times. n_cols must be a multiple of 4.
#include <cuda_runtime.h>

struct Running {
  float m, s;
};

// The state of two parts of a row as the state of their union; an empty part has m = -inf.
__device__ __forceinline__ Running merge(Running a, Running b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY)
    return {m, 0.f};
  return {m, a.s * __expf(a.m - m) + b.s * __expf(b.m - m)};
}

__device__ __forceinline__ Running add(Running r, float x) {
  if (x <= r.m)
    return {r.m, r.s + __expf(x - r.m)};
  return {x, r.s * __expf(r.m - x) + 1.f};
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) online_softmax_rows(const float *__restrict__ x, float *__restrict__ y, int n_cols) {
  __shared__ Running scratch[BLOCK / 32];
  const float4 *in = reinterpret_cast<const float4 *>(x + static_cast<size_t>(blockIdx.x) * n_cols);
  float4 *out = reinterpret_cast<float4 *>(y + static_cast<size_t>(blockIdx.x) * n_cols);
  const int n4 = n_cols / 4;
  Running r{-INFINITY, 0.f};
  for (int i = threadIdx.x; i < n4; i += BLOCK) {
    const float4 v = in[i];
    r = add(add(add(add(r, v.x), v.y), v.z), v.w);
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    r = merge(r, Running{__shfl_xor_sync(0xffffffffu, r.m, offset), __shfl_xor_sync(0xffffffffu, r.s, offset)});
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    scratch[warp] = r;
  __syncthreads();
  r = lane < BLOCK / 32 ? scratch[lane] : Running{-INFINITY, 0.f};
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    r = merge(r, Running{__shfl_xor_sync(0xffffffffu, r.m, offset), __shfl_xor_sync(0xffffffffu, r.s, offset)});
  const float inv = 1.f / r.s;
  for (int i = threadIdx.x; i < n4; i += BLOCK) {
    const float4 v = in[i];
    out[i] = make_float4(__expf(v.x - r.m) * inv, __expf(v.y - r.m) * inv, __expf(v.z - r.m) * inv,
                         __expf(v.w - r.m) * inv);
  }
}
