// A reference with two mistakes Clang reports at their lines.
__global__ void copy(const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n)
    dst[i] = src[i] * scale;
}
