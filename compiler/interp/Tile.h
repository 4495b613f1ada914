//===- Tile.h - the interpreter's runtime values ----------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A runtime tile: an element type, a shape and the elements, held in one of
/// two dense arrays so every op is a loop over contiguous memory:
///  - Ints: integers, booleans and pointers, in canonical form: signed types
///    sign-extended from their width, unsigned types zero-extended (u64 keeps
///    its bit pattern), i1 as 0/1, pointers packed as (buffer id, byte offset)
///    (see Memory.h);
///  - Floats: every float dtype, holding the exact value of the dtype (an fp16
///    tile holds doubles that are all fp16 values), so storing is exact and
///    every op rounds its result once, to its own dtype, as the GPU does.
/// Shapes are row-major; a scalar has an empty shape and one element.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_TILE_H
#define TESSEL_COMPILER_INTERP_TILE_H

#include "compiler/ir/Ops.h"
#include "compiler/ir/TypeUtils.h"
#include "compiler/numerics/FloatFormats.h"

#include <cstdint>
#include <vector>

namespace tessel::interp {

struct Tile {
  ElemType Elem;
  std::vector<int64_t> Shape;
  std::vector<int64_t> Ints;
  std::vector<double> Floats;
  /// Which array holds the elements; set by reset() from Elem.
  bool Float = false;

  bool isFloat() const { return Float; }
  size_t size() const { return Float ? Floats.size() : Ints.size(); }
  /// Sets type and shape and sizes the matching array (keeping capacity, so
  /// the interpreter's per-value slots stop allocating after one program).
  void reset(const ElemType &E, const std::vector<int64_t> &S) {
    Elem = E;
    Float = !E.isPointer() && ir::isFloatScalar(E.Scalar);
    Shape = S;
    size_t N = 1;
    for (int64_t D : S)
      N *= static_cast<size_t>(D);
    if (isFloat()) {
      Floats.resize(N);
      Ints.clear();
    } else {
      Ints.resize(N);
      Floats.clear();
    }
  }
};

/// Wraps V to the width and signedness of K (two's complement), i1 to 0/1.
inline int64_t wrapInt(int64_t V, ScalarKind K) {
  switch (K) {
  case ScalarKind::I1:
    return V & 1;
  case ScalarKind::I8:
    return static_cast<int8_t>(V);
  case ScalarKind::I16:
    return static_cast<int16_t>(V);
  case ScalarKind::I32:
    return static_cast<int32_t>(V);
  case ScalarKind::U8:
    return static_cast<uint8_t>(V);
  case ScalarKind::U16:
    return static_cast<uint16_t>(V);
  case ScalarKind::U32:
    return static_cast<uint32_t>(V);
  default:
    return V;
  }
}

/// The numerics format of a narrow float kind.
inline numerics::FloatFormat formatOf(ScalarKind K) {
  switch (K) {
  case ScalarKind::FP16:
    return numerics::FloatFormat::FP16;
  case ScalarKind::BF16:
    return numerics::FloatFormat::BF16;
  case ScalarKind::FP8E4NV:
    return numerics::FloatFormat::FP8E4NV;
  case ScalarKind::FP8E5:
    return numerics::FloatFormat::FP8E5;
  case ScalarKind::FP8E4B15:
    return numerics::FloatFormat::FP8E4B15;
  case ScalarKind::FP8E5B16:
    return numerics::FloatFormat::FP8E5B16;
  default:
    return numerics::FloatFormat::FP8E4B8;
  }
}

/// V rounded to the float kind K.
inline double roundFloat(double V, ScalarKind K, numerics::Rounding R = numerics::Rounding::NearestEven) {
  if (K == ScalarKind::FP64)
    return V;
  if (K == ScalarKind::FP32)
    return R == numerics::Rounding::NearestEven ? static_cast<double>(static_cast<float>(V))
                                                : static_cast<double>(numerics::roundToFP32(V, R));
  return numerics::roundTo(formatOf(K), V, R);
}

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_TILE_H
