// Template instantiation without end: Clang's depth limit stops it with a diagnostic.
template <int N> struct Deep { static constexpr int value = Deep<N + 1>::value; };
__global__ void copy(const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i] * Deep<0>::value;
}
