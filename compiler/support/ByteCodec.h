//===- ByteCodec.h - little-endian fields in a byte string ------*- C++ -*-===//
/// \file
/// The one encoding of tessel's binary payloads (the compile cache's
/// entries, the saved launch index, a proof sent back by its child process):
/// fixed-width little-endian integers and length-prefixed strings. Reading
/// is total: a field past the end sets `Bad` and yields zero or empty, so a
/// decoder checks once per record instead of after every field, and a
/// truncated or hostile payload is a value, never a crash.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_BYTECODEC_H
#define TESSEL_COMPILER_SUPPORT_BYTECODEC_H

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tessel {

class ByteWriter {
public:
  void u8(uint8_t V) { Out.push_back(static_cast<char>(V)); }
  void u32(uint32_t V) { put(V, 4); }
  void u64(uint64_t V) { put(V, 8); }
  void i64(int64_t V) { put(static_cast<uint64_t>(V), 8); }
  void f64(double V) {
    uint64_t Bits;
    std::memcpy(&Bits, &V, sizeof Bits);
    put(Bits, 8);
  }
  void str(std::string_view S) {
    u32(static_cast<uint32_t>(S.size()));
    Out.append(S);
  }

  std::string Out;

private:
  void put(uint64_t V, int Bytes) {
    for (int I = 0; I < Bytes; ++I)
      Out.push_back(static_cast<char>(V >> (8 * I)));
  }
};

class ByteReader {
public:
  explicit ByteReader(std::string_view In, size_t At = 0) : In(In), At(At) {}

  /// Whether N more bytes are there; sets Bad when not.
  bool has(uint64_t N) {
    if (Bad || At > In.size() || N > In.size() - At)
      Bad = true;
    return !Bad;
  }
  uint8_t u8() { return static_cast<uint8_t>(get(1)); }
  uint32_t u32() { return static_cast<uint32_t>(get(4)); }
  uint64_t u64() { return get(8); }
  int64_t i64() { return static_cast<int64_t>(get(8)); }
  double f64() {
    uint64_t Bits = get(8);
    double V;
    std::memcpy(&V, &Bits, sizeof V);
    return V;
  }
  /// A view into the input (valid while it is).
  std::string_view str() {
    uint32_t N = u32();
    if (!has(N))
      return {};
    std::string_view S = In.substr(At, N);
    At += N;
    return S;
  }

  bool bad() const { return Bad; }
  /// Everything read, nothing left over.
  bool done() const { return !Bad && At == In.size(); }
  size_t remaining() const { return Bad ? 0 : In.size() - At; }

private:
  uint64_t get(int Bytes) {
    if (!has(static_cast<uint64_t>(Bytes)))
      return 0;
    uint64_t V = 0;
    for (int I = 0; I < Bytes; ++I)
      V |= static_cast<uint64_t>(static_cast<unsigned char>(In[At + I])) << (8 * I);
    At += Bytes;
    return V;
  }

  std::string_view In;
  size_t At = 0;
  bool Bad = false;
};

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_BYTECODEC_H
