//===- BufferStats.cpp - what a run left in a buffer, in a few numbers ----===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
#include "compiler/interp/BufferStats.h"

#include "compiler/ir/TypeUtils.h"

#include <array>
#include <cmath>

namespace tessel::interp {

uint32_t crc32(const uint8_t *Data, size_t Size) {
  static const std::array<uint32_t, 256> Table = [] {
    std::array<uint32_t, 256> T{};
    for (uint32_t I = 0; I < 256; ++I) {
      uint32_t C = I;
      for (int K = 0; K < 8; ++K)
        C = (C & 1) ? 0xEDB88320u ^ (C >> 1) : C >> 1;
      T[I] = C;
    }
    return T;
  }();
  uint32_t C = 0xFFFFFFFFu;
  for (size_t I = 0; I < Size; ++I)
    C = Table[(C ^ Data[I]) & 0xFF] ^ (C >> 8);
  return C ^ 0xFFFFFFFFu;
}

BufferStats bufferStats(const Memory &Mem, uint32_t Id, size_t FirstCount) {
  const Buffer &B = Mem.buffer(Id);
  BufferStats S;
  S.Elements = B.numElements();
  S.Crc32 = crc32(B.Bytes.data(), B.Bytes.size());
  const int64_t Width = B.elementBytes();
  const bool Float = ir::isFloatScalar(B.Elem);
  double Sum = 0;
  for (int64_t I = 0; I < S.Elements; ++I) {
    if (B.IsOutput) {
      bool Any = false;
      for (int64_t J = 0; J < Width && !Any; ++J)
        Any = B.Written[static_cast<size_t>(I * Width + J)] != 0;
      S.Unwritten += !Any;
    }
    double V = Float ? Mem.readFloat(Id, I) : static_cast<double>(Mem.readInt(Id, I));
    if (static_cast<size_t>(I) < FirstCount)
      S.First.push_back(V);
    if (std::isnan(V)) {
      ++S.NaNs;
      continue;
    }
    if (std::isinf(V)) {
      ++S.Infs;
      continue;
    }
    if (S.Finite == 0 || V < S.Min)
      S.Min = V;
    if (S.Finite == 0 || V > S.Max)
      S.Max = V;
    Sum += V;
    ++S.Finite;
  }
  S.Mean = S.Finite ? Sum / static_cast<double>(S.Finite) : 0;
  return S;
}

} // namespace tessel::interp
