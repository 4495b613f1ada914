//===- Casts.cpp - conversions and bitcasts -------------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's cast rules (semantic.py `cast`), as the GPU executes them:
///  - int -> int: sign- or zero-extension by the source's signedness, then
///    truncation to the destination width;
///  - anything -> i1 is `x != 0` (Triton lowers bool casts to a compare);
///    i1 -> anything is 0 or 1;
///  - int -> float rounds to nearest even; float -> int truncates toward zero
///    and saturates, NaN giving 0 (PTX `cvt.rzi`);
///  - float -> float rounds to nearest even, or toward zero for `rtz`, with
///    the saturation rules of numerics/FloatFormats.h;
///  - pointer -> pointer keeps the address;
///  - bitcast reinterprets the bits between types of one width.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Kernels.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tessel::interp {

namespace {

numerics::Rounding toNumerics(ir::RoundingMode R) {
  return R == ir::RoundingMode::RTZ ? numerics::Rounding::TowardZero : numerics::Rounding::NearestEven;
}

/// The numeric value of an integer element (u64 read as unsigned).
double intAsDouble(int64_t V, ScalarKind K) {
  return K == ScalarKind::U64 ? static_cast<double>(static_cast<uint64_t>(V)) : static_cast<double>(V);
}

/// Float -> integer of kind K: truncation with saturation, NaN -> 0.
int64_t floatToInt(double V, ScalarKind K) {
  if (std::isnan(V))
    return 0;
  V = std::trunc(V);
  int Bits = ir::scalarBits(K);
  if (K == ScalarKind::U64) {
    if (V <= 0)
      return 0;
    if (V >= 18446744073709551616.0)
      return -1; // all ones
    return static_cast<int64_t>(static_cast<uint64_t>(V));
  }
  double Lo, Hi;
  if (ir::isSignedScalar(K)) {
    Lo = -std::ldexp(1.0, Bits - 1);
    Hi = std::ldexp(1.0, Bits - 1) - 1;
  } else {
    Lo = 0;
    Hi = std::ldexp(1.0, Bits) - 1;
  }
  if (V <= Lo)
    return static_cast<int64_t>(Lo);
  if (V >= Hi)
    return Bits == 64 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(Hi);
  return static_cast<int64_t>(V);
}

} // namespace

void evalCast(const Tile &X, const ElemType &To, ir::RoundingMode R, Tile &Out) {
  Out.reset(To, X.Shape);
  const size_t N = X.size();
  const ElemType &From = X.Elem;
  if (From.isPointer() || To.isPointer()) {
    if (!X.isFloat() && !Out.isFloat())
      Out.Ints = X.Ints;
    // A pointer's truth: not null (buffer id 0 is never allocated).
    if (To.Scalar == ScalarKind::I1 && !To.isPointer())
      for (int64_t &V : Out.Ints)
        V = V != 0;
    return;
  }
  const ScalarKind FK = From.Scalar, TK = To.Scalar;
  if (TK == ScalarKind::I1) {
    for (size_t I = 0; I < N; ++I)
      Out.Ints[I] = X.isFloat() ? X.Floats[I] != 0 : X.Ints[I] != 0;
    return;
  }
  const bool FromFloat = X.isFloat(), ToFloat = Out.isFloat();
  if (!FromFloat && !ToFloat) {
    for (size_t I = 0; I < N; ++I)
      Out.Ints[I] = wrapInt(X.Ints[I], TK);
    return;
  }
  if (!FromFloat) {
    numerics::Rounding Mode = toNumerics(R);
    for (size_t I = 0; I < N; ++I) {
      // int64 -> fp32 must round once, not through double.
      if (TK == ScalarKind::FP32 && Mode == numerics::Rounding::NearestEven)
        Out.Floats[I] = FK == ScalarKind::U64 ? static_cast<float>(static_cast<uint64_t>(X.Ints[I]))
                                              : static_cast<float>(X.Ints[I]);
      else
        Out.Floats[I] = roundFloat(intAsDouble(X.Ints[I], FK), TK, Mode);
    }
    return;
  }
  if (!ToFloat) {
    for (size_t I = 0; I < N; ++I)
      Out.Ints[I] = floatToInt(X.Floats[I], TK);
    return;
  }
  numerics::Rounding Mode = toNumerics(R);
  if (TK == ScalarKind::FP64 || (TK == FK && Mode == numerics::Rounding::NearestEven)) {
    Out.Floats = X.Floats;
    return;
  }
  for (size_t I = 0; I < N; ++I)
    Out.Floats[I] = roundFloat(X.Floats[I], TK, Mode);
}

uint64_t elementBits(const Tile &X, size_t I) {
  if (!X.isFloat()) {
    int Bits = X.Elem.isPointer() ? 64 : ir::scalarBits(X.Elem.Scalar);
    uint64_t Mask = Bits >= 64 ? ~0ull : ((1ull << Bits) - 1);
    return static_cast<uint64_t>(X.Ints[I]) & Mask;
  }
  double V = X.Floats[I];
  switch (X.Elem.Scalar) {
  case ScalarKind::FP64: {
    uint64_t B;
    std::memcpy(&B, &V, 8);
    return B;
  }
  case ScalarKind::FP32: {
    float F = static_cast<float>(V);
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return B;
  }
  default:
    return numerics::encode(formatOf(X.Elem.Scalar), V);
  }
}

void evalBitcast(const Tile &X, const ElemType &To, Tile &Out) {
  Out.reset(To, X.Shape);
  const size_t N = X.size();
  for (size_t I = 0; I < N; ++I) {
    uint64_t B = elementBits(X, I);
    if (!Out.isFloat()) {
      Out.Ints[I] = To.isPointer() ? static_cast<int64_t>(B) : wrapInt(static_cast<int64_t>(B), To.Scalar);
      continue;
    }
    switch (To.Scalar) {
    case ScalarKind::FP64: {
      double D;
      std::memcpy(&D, &B, 8);
      Out.Floats[I] = D;
      break;
    }
    case ScalarKind::FP32: {
      uint32_t B32 = static_cast<uint32_t>(B);
      float F;
      std::memcpy(&F, &B32, 4);
      Out.Floats[I] = F;
      break;
    }
    default:
      Out.Floats[I] = numerics::decode(formatOf(To.Scalar), static_cast<uint32_t>(B));
    }
  }
}

} // namespace tessel::interp
