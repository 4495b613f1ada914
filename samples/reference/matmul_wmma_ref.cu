// The CUDA reference for matmul.py (ACTIVATION="", its launch site's): C (fp16) = A (fp16, M x K, row-major) @ B (fp16, K x N,
// row-major) on tensor cores through WMMA (mma.sync m16n16k16 in the PTX), written as a CUDA expert
// would without hand-written mma.sync or TMA: a block of 8 warps computes a 128 x 128 tile of C, each
// warp a 64 x 32 piece as 4 x 2 fragments, so that every fragment of A is reused twice and every one
// of B four times. A's and B's tiles go through shared memory 32 columns (rows) of K at a time, in
// two stages: cp.async copies the next tile while the tensor cores work on this one (the copy is
// asynchronous, so the loads are not waited for before the mma). Rows are padded by 8 halves so that
// the fragment loads of neighbouring rows fall in different banks; the padded rows (80 and 272
// bytes) keep every 8th half 16-byte aligned for the copies and every fragment 32-byte aligned for
// WMMA. K and N must be multiples of 8 (rows and columns past M, N, K read as zeros: cp.async's
// source size 0 fills the 16 bytes with zeros). C's fragments go through shared memory, where they
// are rounded to fp16 and stored guarded. Two blocks share an SM (the launch bounds hold a thread to
// 128 registers, which the 64 accumulators and the fragments fit without spilling), so one block's
// mma hides the other's barrier.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int BM = 128, BN = 128, BK = 32, PAD = 8, WARPS = 8, THREADS = 32 * WARPS;
constexpr int WM = 64, WN = 32; // one warp's piece of the block's tile
constexpr int FM = WM / 16, FN = WN / 16;
constexpr int WARPS_N = BN / WN;

struct Stages {
  half a[2][BM][BK + PAD];
  half b[2][BK][BN + PAD];
};

// A 16-byte asynchronous copy to shared memory; out of bounds, 16 zero bytes (source size 0).
__device__ __forceinline__ void copy16(void *shared, const void *global, bool in_bounds) {
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(global), "r"(in_bounds ? 16 : 0));
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }

template <int Pending> __device__ __forceinline__ void waitFor() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
}

__global__ void __launch_bounds__(THREADS, 2)
    matmul_wmma(const half *__restrict__ a, const half *__restrict__ b, half *__restrict__ c, int M, int N, int K) {
  __shared__ __align__(128) Stages s;
  __shared__ __align__(32) float cs[WARPS][16][16 + 4];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / WARPS_N, wn = warp % WARPS_N;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

  auto load = [&](int stage, int k0) {
#pragma unroll
    for (int v = threadIdx.x; v < BM * BK / 8; v += THREADS) {
      const int r = v / (BK / 8), col = (v % (BK / 8)) * 8;
      const bool ok = m0 + r < M && k0 + col < K;
      copy16(&s.a[stage][r][col], ok ? a + static_cast<size_t>(m0 + r) * K + k0 + col : a, ok);
    }
#pragma unroll
    for (int v = threadIdx.x; v < BK * BN / 8; v += THREADS) {
      const int r = v / (BN / 8), col = (v % (BN / 8)) * 8;
      const bool ok = k0 + r < K && n0 + col < N;
      copy16(&s.b[stage][r][col], ok ? b + static_cast<size_t>(k0 + r) * N + n0 + col : b, ok);
    }
    commit();
  };

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j)
      wmma::fill_fragment(acc[i][j], 0.f);

  const int tiles = (K + BK - 1) / BK;
  load(0, 0);
  for (int kt = 0; kt < tiles; ++kt) {
    const int stage = kt & 1;
    // The next tile's copy goes out before this one's is waited for: the two overlap.
    if (kt + 1 < tiles) {
      load(stage ^ 1, (kt + 1) * BK);
      waitFor<1>();
    } else {
      waitFor<0>();
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[FM];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[FN];
#pragma unroll
      for (int i = 0; i < FM; ++i)
        wmma::load_matrix_sync(fa[i], &s.a[stage][wm * WM + i * 16][kk], BK + PAD);
#pragma unroll
      for (int j = 0; j < FN; ++j)
        wmma::load_matrix_sync(fb[j], &s.b[stage][kk][wn * WN + j * 16], BN + PAD);
#pragma unroll
      for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    // Every warp is done with this stage before the next iteration's copy overwrites it.
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      const int r0 = m0 + wm * WM + i * 16, c0 = n0 + wn * WN + j * 16;
      wmma::store_matrix_sync(&cs[warp][0][0], acc[i][j], 16 + 4, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int r = e / 16, col = e % 16;
        if (r0 + r < M && c0 + col < N)
          c[static_cast<size_t>(r0 + r) * N + c0 + col] = __float2half(cs[warp][r][col]);
      }
      __syncwarp();
    }
}
