// A CUDA reference with a mistake Clang reports at its line (tests/lsp/reference-diagnostics.test).
__global__ void copy(const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n)
    dst[i] = src[i];
}
