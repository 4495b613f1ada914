//===- Memory.h - host buffers a kernel runs on -----------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The buffers behind a kernel's pointer arguments. Pointers inside the
/// interpreter are (buffer id, byte offset) pairs packed into one int64:
/// the id in the top 16 bits, the offset as a signed 48-bit number below, so
/// pointer arithmetic is plain integer addition and an offset that runs off
/// either end of its buffer still names the buffer it came from, which is
/// what lets every out-of-bounds access be reported against the right
/// tensor. Buffer id 0 is never allocated: a null pointer names no buffer.
///
/// Output buffers carry a per-byte "written" bitmap, so reading bytes a
/// kernel never wrote (and nobody initialised) can be reported.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_MEMORY_H
#define TESSEL_COMPILER_INTERP_MEMORY_H

#include "compiler/types/Types.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tessel::interp {

constexpr int PtrIdShift = 48;

inline int64_t packPointer(uint32_t BufferId, int64_t ByteOffset) {
  return static_cast<int64_t>(static_cast<uint64_t>(BufferId) << PtrIdShift) + ByteOffset;
}
inline uint32_t pointerBuffer(int64_t P) {
  return static_cast<uint32_t>(static_cast<uint64_t>(P + (int64_t(1) << (PtrIdShift - 1))) >> PtrIdShift);
}
inline int64_t pointerOffset(int64_t P) {
  return P - static_cast<int64_t>(static_cast<uint64_t>(pointerBuffer(P)) << PtrIdShift);
}

struct Buffer {
  std::string Name;
  ScalarKind Elem = ScalarKind::FP32;
  std::vector<uint8_t> Bytes;
  /// Reads of bytes not yet written are reported (see Written).
  bool IsOutput = false;
  /// One flag per byte, only for outputs: 1 once the kernel stored there.
  std::vector<uint8_t> Written;

  int64_t elementBytes() const;
  int64_t numElements() const { return static_cast<int64_t>(Bytes.size()) / elementBytes(); }
  template <typename T> T *data() { return reinterpret_cast<T *>(Bytes.data()); }
  template <typename T> const T *data() const { return reinterpret_cast<const T *>(Bytes.data()); }
};

class Memory {
public:
  /// A zero-filled buffer of Count elements; returns its id (>= 1). Output
  /// buffers start "unwritten" whatever their bytes hold.
  uint32_t addBuffer(std::string Name, ScalarKind Elem, int64_t Count, bool IsOutput = false);
  Buffer &buffer(uint32_t Id) { return Buffers[Id - 1]; }
  const Buffer &buffer(uint32_t Id) const { return Buffers[Id - 1]; }
  bool valid(uint32_t Id) const { return Id >= 1 && Id <= Buffers.size(); }
  size_t size() const { return Buffers.size(); }

  /// Element I of a buffer as a double / int64 (decoding narrow floats).
  double readFloat(uint32_t Id, int64_t I) const;
  int64_t readInt(uint32_t Id, int64_t I) const;
  /// Stores V, rounded (RTNE) to the buffer's dtype; does not mark it written.
  void writeFloat(uint32_t Id, int64_t I, double V);
  void writeInt(uint32_t Id, int64_t I, int64_t V);

private:
  std::vector<Buffer> Buffers;
};

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_MEMORY_H
