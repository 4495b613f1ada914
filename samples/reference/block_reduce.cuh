// Block-wide reductions for the reference kernels: a butterfly of warp shuffles, one value per
// warp through shared memory, and the first warp's butterfly over those. Every thread gets the
// result. BLOCK is the block's thread count (a multiple of 32, at most 1024).
#pragma once

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <typename Op> __device__ __forceinline__ float warp_reduce(float v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// scratch holds BLOCK / 32 floats; it may be reused as soon as this returns.
template <int BLOCK, typename Op> __device__ __forceinline__ float block_reduce(float v, float *scratch, Op op, float identity) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_reduce(v, op);
  if (lane == 0)
    scratch[warp] = v;
  __syncthreads();
  v = lane < BLOCK / 32 ? scratch[lane] : identity;
  v = warp_reduce(v, op);
  __syncthreads(); // every warp has read scratch before the caller writes it again
  return v;
}
