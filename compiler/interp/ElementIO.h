//===- ElementIO.h - one element to and from memory bytes -------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Reading and writing a single element of any dtype at a byte address, in
/// the Tile representation (canonical int64 or exact double). Narrow floats
/// decode through numerics' tables and encode with RTNE; bools are bytes.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_ELEMENTIO_H
#define TESSEL_COMPILER_INTERP_ELEMENTIO_H

#include "compiler/interp/Tile.h"

#include <cstring>

namespace tessel::interp {

template <typename T> inline T loadRaw(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> inline void storeRaw(uint8_t *P, T V) { std::memcpy(P, &V, sizeof(T)); }

inline double loadFloatElem(const uint8_t *P, ScalarKind K) {
  switch (K) {
  case ScalarKind::FP32:
    return loadRaw<float>(P);
  case ScalarKind::FP64:
    return loadRaw<double>(P);
  case ScalarKind::FP16:
  case ScalarKind::BF16:
    return numerics::decodeTable(formatOf(K))[loadRaw<uint16_t>(P)];
  default:
    return numerics::decodeTable(formatOf(K))[*P];
  }
}

inline void storeFloatElem(uint8_t *P, ScalarKind K, double V) {
  switch (K) {
  case ScalarKind::FP32:
    storeRaw<float>(P, static_cast<float>(V));
    return;
  case ScalarKind::FP64:
    storeRaw<double>(P, V);
    return;
  case ScalarKind::FP16:
  case ScalarKind::BF16:
    storeRaw<uint16_t>(P, static_cast<uint16_t>(numerics::encode(formatOf(K), V)));
    return;
  default:
    *P = static_cast<uint8_t>(numerics::encode(formatOf(K), V));
    return;
  }
}

/// Integers, bools and pointers (a pointer element is 8 bytes).
inline int64_t loadIntElem(const uint8_t *P, const ElemType &E) {
  if (E.isPointer())
    return loadRaw<int64_t>(P);
  switch (E.Scalar) {
  case ScalarKind::I1:
    return *P != 0;
  case ScalarKind::I8:
    return loadRaw<int8_t>(P);
  case ScalarKind::U8:
    return *P;
  case ScalarKind::I16:
    return loadRaw<int16_t>(P);
  case ScalarKind::U16:
    return loadRaw<uint16_t>(P);
  case ScalarKind::I32:
    return loadRaw<int32_t>(P);
  case ScalarKind::U32:
    return loadRaw<uint32_t>(P);
  default:
    return loadRaw<int64_t>(P);
  }
}

inline void storeIntElem(uint8_t *P, const ElemType &E, int64_t V) {
  int Bytes = ir::elemBytes(E);
  switch (Bytes) {
  case 1:
    *P = static_cast<uint8_t>(V);
    return;
  case 2:
    storeRaw<uint16_t>(P, static_cast<uint16_t>(V));
    return;
  case 4:
    storeRaw<uint32_t>(P, static_cast<uint32_t>(V));
    return;
  default:
    storeRaw<int64_t>(P, V);
    return;
  }
}

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_ELEMENTIO_H
