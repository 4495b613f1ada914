//===- Elementwise.cpp - arithmetic, comparisons, select ------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's elementwise semantics, as the GPU computes them:
///  - integers wrap around at their width; `//` truncates toward zero and `%`
///    takes the dividend's sign (C, PTX div/rem); division by zero gives all
///    ones for `//` and the dividend for `%` (what PTX produces); shifts by at
///    least the width give 0 (or the sign for arithmetic right shifts), as
///    PTX's clamped shifts do;
///  - floats compute exactly in double and round once to their dtype, which
///    is the correctly rounded result for + - * / (double has more than
///    2p+2 bits for every dtype up to fp32); fp64 computes in double;
///  - minimum/maximum return the non-NaN operand unless propagate_nan=all;
///  - comparisons of floats are ordered, except `!=`, which is true for NaN.
/// Unary math functions use the C library in the operand's precision
/// (fp32 through float functions); the GPU's approximate versions may differ
/// in the last bits (documented in docs/tir.md).
//===----------------------------------------------------------------------===//
#include "compiler/interp/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tessel::interp {

using ir::OpKind;

namespace {

/// The result shape of an elementwise op whose operands may be runtime scalars.
const std::vector<int64_t> &widest(const Tile &A, const Tile &B) { return A.size() >= B.size() ? A.Shape : B.Shape; }

template <typename T, typename Fn>
void map2(const std::vector<T> &A, const std::vector<T> &B, std::vector<T> &Out, Fn F) {
  size_t N = Out.size();
  const T *PA = A.data(), *PB = B.data();
  T *PO = Out.data();
  if (A.size() == N && B.size() == N) {
    for (size_t I = 0; I < N; ++I)
      PO[I] = F(PA[I], PB[I]);
    return;
  }
  size_t SA = A.size() == 1 ? 0 : 1, SB = B.size() == 1 ? 0 : 1;
  for (size_t I = 0; I < N; ++I)
    PO[I] = F(PA[I * SA], PB[I * SB]);
}

template <typename T, typename Fn> void map1(const std::vector<T> &A, std::vector<T> &Out, Fn F) {
  size_t N = Out.size();
  for (size_t I = 0; I < N; ++I)
    Out[I] = F(A[I]);
}

/// Applies F in double and rounds to K; the fp32 and fp64 loops are
/// separate so they stay simple enough to vectorise.
template <typename Fn> void floatBinary(const Tile &L, const Tile &R, Tile &Out, ScalarKind K, Fn F) {
  if (K == ScalarKind::FP32)
    return map2(L.Floats, R.Floats, Out.Floats,
                [&](double A, double B) { return static_cast<double>(static_cast<float>(F(A, B))); });
  if (K == ScalarKind::FP64)
    return map2(L.Floats, R.Floats, Out.Floats, F);
  map2(L.Floats, R.Floats, Out.Floats, [&](double A, double B) { return roundFloat(F(A, B), K); });
}

int bitsOf(ScalarKind K) { return ir::scalarBits(K); }

/// Integer ops over one element kind; Wrap truncates a 64-bit result to it.
/// A template over Wrap so the common kinds get a loop without a per-element
/// switch.
template <typename WrapFn>
void intBinaryWith(OpKind Kind, const Tile &L, const Tile &R, Tile &Out, ScalarKind K, WrapFn W) {
  const bool Signed = ir::isSignedScalar(K);
  const int Bits = bitsOf(K);
  auto U = [](int64_t V) { return static_cast<uint64_t>(V); };
  // Unsigned values as their zero-extended bit patterns.
  const uint64_t Mask = Bits >= 64 ? ~0ull : ((1ull << Bits) - 1);
  switch (Kind) {
  case OpKind::Add:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) { return W(U(A) + U(B)); });
  case OpKind::Sub:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) { return W(U(A) - U(B)); });
  case OpKind::Mul:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) { return W(U(A) * U(B)); });
  case OpKind::FloorDiv:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) -> int64_t {
      if (B == 0)
        return W(~0ull);
      if (Signed)
        return B == -1 ? W(0 - U(A)) : W(U(A / B));
      return W((U(A) & Mask) / (U(B) & Mask));
    });
  case OpKind::Mod:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) -> int64_t {
      if (B == 0)
        return A;
      if (Signed)
        return B == -1 ? 0 : A % B;
      return W((U(A) & Mask) % (U(B) & Mask));
    });
  case OpKind::And:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) { return W(U(A) & U(B)); });
  case OpKind::Or:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) { return W(U(A) | U(B)); });
  case OpKind::Xor:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) { return W(U(A) ^ U(B)); });
  case OpKind::Shl:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) -> int64_t {
      uint64_t S = U(B) & Mask;
      return S >= static_cast<uint64_t>(Bits) ? 0 : W(U(A) << S);
    });
  case OpKind::Shr:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) -> int64_t {
      uint64_t S = U(B) & Mask;
      if (Signed)
        return S >= static_cast<uint64_t>(Bits) ? (A < 0 ? -1 : 0) : (A >> S);
      return S >= static_cast<uint64_t>(Bits) ? 0 : W((U(A) & Mask) >> S);
    });
  case OpKind::Minimum:
  case OpKind::Maximum: {
    bool Max = Kind == OpKind::Maximum;
    if (Signed)
      return map2(L.Ints, R.Ints, Out.Ints,
                  [&](int64_t A, int64_t B) { return Max ? std::max(A, B) : std::min(A, B); });
    return map2(L.Ints, R.Ints, Out.Ints,
                [&](int64_t A, int64_t B) { return (U(A) & Mask) < (U(B) & Mask) ? (Max ? B : A) : (Max ? A : B); });
  }
  case OpKind::UMulHi:
    return map2(L.Ints, R.Ints, Out.Ints, [&](int64_t A, int64_t B) -> int64_t {
      unsigned __int128 P = static_cast<unsigned __int128>(U(A) & Mask) * (U(B) & Mask);
      return W(static_cast<uint64_t>(P >> Bits));
    });
  default:
    return;
  }
}

void intBinary(OpKind Kind, const Tile &L, const Tile &R, Tile &Out, ScalarKind K) {
  switch (K) {
  case ScalarKind::I32:
    return intBinaryWith(Kind, L, R, Out, K, [](uint64_t V) { return static_cast<int64_t>(static_cast<int32_t>(V)); });
  case ScalarKind::I64:
    return intBinaryWith(Kind, L, R, Out, K, [](uint64_t V) { return static_cast<int64_t>(V); });
  case ScalarKind::I1:
    return intBinaryWith(Kind, L, R, Out, K, [](uint64_t V) { return static_cast<int64_t>(V & 1); });
  default:
    return intBinaryWith(Kind, L, R, Out, K, [K](uint64_t V) { return wrapInt(static_cast<int64_t>(V), K); });
  }
}

} // namespace

void evalBinary(const ir::Op &O, const Tile &L, const Tile &R, Tile &Out) {
  Out.reset(L.Elem, widest(L, R));
  ScalarKind K = L.Elem.Scalar;
  if (!L.isFloat())
    return intBinary(O.kind(), L, R, Out, K);
  bool PropNan = O.intAttr() == static_cast<int64_t>(ir::PropagateNan::All);
  switch (O.kind()) {
  case OpKind::Add:
    return floatBinary(L, R, Out, K, [](double A, double B) { return A + B; });
  case OpKind::Sub:
    return floatBinary(L, R, Out, K, [](double A, double B) { return A - B; });
  case OpKind::Mul:
    return floatBinary(L, R, Out, K, [](double A, double B) { return A * B; });
  case OpKind::Div:
  case OpKind::DivRn:
    return floatBinary(L, R, Out, K, [](double A, double B) { return A / B; });
  case OpKind::Mod:
    return floatBinary(L, R, Out, K, [](double A, double B) { return std::fmod(A, B); });
  case OpKind::Pow: // powf in float precision, as libdevice's __nv_powf
    if (K == ScalarKind::FP64)
      return floatBinary(L, R, Out, K, [](double A, double B) { return std::pow(A, B); });
    return floatBinary(L, R, Out, K, [](double A, double B) {
      return static_cast<double>(std::pow(static_cast<float>(A), static_cast<float>(B)));
    });
  case OpKind::FloorDiv:
    return floatBinary(L, R, Out, K, [](double A, double B) { return std::floor(A / B); });
  case OpKind::Minimum:
    return floatBinary(L, R, Out, K, [PropNan](double A, double B) {
      if (PropNan && (std::isnan(A) || std::isnan(B)))
        return NAN * 1.0;
      return std::fmin(A, B);
    });
  case OpKind::Maximum:
    return floatBinary(L, R, Out, K, [PropNan](double A, double B) {
      if (PropNan && (std::isnan(A) || std::isnan(B)))
        return NAN * 1.0;
      return std::fmax(A, B);
    });
  default:
    return;
  }
}

void evalUnary(OpKind Kind, const Tile &X, Tile &Out) {
  Out.reset(X.Elem, X.Shape);
  ScalarKind K = X.Elem.Scalar;
  if (!X.isFloat()) {
    switch (Kind) {
    case OpKind::Neg:
      return map1(X.Ints, Out.Ints,
                  [K](int64_t A) { return wrapInt(static_cast<int64_t>(0 - static_cast<uint64_t>(A)), K); });
    case OpKind::Not:
      return map1(X.Ints, Out.Ints, [K](int64_t A) { return wrapInt(~A, K); });
    case OpKind::Abs:
      return map1(X.Ints, Out.Ints, [K](int64_t A) {
        return ir::isSignedScalar(K) && A < 0 ? wrapInt(static_cast<int64_t>(0 - static_cast<uint64_t>(A)), K) : A;
      });
    default:
      return;
    }
  }
  // fp32 math in float precision, everything narrower through fp32 too.
  const bool Double = K == ScalarKind::FP64;
  auto apply = [&](auto FnF, auto FnD) {
    map1(X.Floats, Out.Floats, [&](double A) {
      double R = Double ? FnD(A) : static_cast<double>(FnF(static_cast<float>(A)));
      return roundFloat(R, K);
    });
  };
  switch (Kind) {
  case OpKind::Neg:
    return map1(X.Floats, Out.Floats, [](double A) { return -A; });
  case OpKind::Abs:
    return map1(X.Floats, Out.Floats, [](double A) { return std::fabs(A); });
  case OpKind::Exp:
    return apply([](float A) { return std::exp(A); }, [](double A) { return std::exp(A); });
  case OpKind::Exp2:
    return apply([](float A) { return std::exp2(A); }, [](double A) { return std::exp2(A); });
  case OpKind::Log:
    return apply([](float A) { return std::log(A); }, [](double A) { return std::log(A); });
  case OpKind::Log2:
    return apply([](float A) { return std::log2(A); }, [](double A) { return std::log2(A); });
  case OpKind::Sqrt:
    return apply([](float A) { return std::sqrt(A); }, [](double A) { return std::sqrt(A); });
  case OpKind::Rsqrt:
    return apply([](float A) { return 1.0f / std::sqrt(A); }, [](double A) { return 1.0 / std::sqrt(A); });
  case OpKind::Sin:
    return apply([](float A) { return std::sin(A); }, [](double A) { return std::sin(A); });
  case OpKind::Cos:
    return apply([](float A) { return std::cos(A); }, [](double A) { return std::cos(A); });
  case OpKind::Erf:
    return apply([](float A) { return std::erf(A); }, [](double A) { return std::erf(A); });
  case OpKind::Tanh:
    return apply([](float A) { return std::tanh(A); }, [](double A) { return std::tanh(A); });
  case OpKind::Log1p:
    return apply([](float A) { return std::log1p(A); }, [](double A) { return std::log1p(A); });
  case OpKind::Expm1:
    return apply([](float A) { return std::expm1(A); }, [](double A) { return std::expm1(A); });
  case OpKind::Tan:
    return apply([](float A) { return std::tan(A); }, [](double A) { return std::tan(A); });
  case OpKind::Asin:
    return apply([](float A) { return std::asin(A); }, [](double A) { return std::asin(A); });
  case OpKind::Acos:
    return apply([](float A) { return std::acos(A); }, [](double A) { return std::acos(A); });
  case OpKind::Atan:
    return apply([](float A) { return std::atan(A); }, [](double A) { return std::atan(A); });
  case OpKind::Sinh:
    return apply([](float A) { return std::sinh(A); }, [](double A) { return std::sinh(A); });
  case OpKind::Cosh:
    return apply([](float A) { return std::cosh(A); }, [](double A) { return std::cosh(A); });
  case OpKind::Cbrt:
    return apply([](float A) { return std::cbrt(A); }, [](double A) { return std::cbrt(A); });
  case OpKind::Round:
    return apply([](float A) { return std::round(A); }, [](double A) { return std::round(A); });
  case OpKind::Rint:
    return apply([](float A) { return std::nearbyint(A); }, [](double A) { return std::nearbyint(A); });
  case OpKind::Trunc:
    return apply([](float A) { return std::trunc(A); }, [](double A) { return std::trunc(A); });
  case OpKind::Floor:
    return map1(X.Floats, Out.Floats, [](double A) { return std::floor(A); });
  case OpKind::Ceil:
    return map1(X.Floats, Out.Floats, [](double A) { return std::ceil(A); });
  default:
    return;
  }
}

void evalFma(const Tile &A, const Tile &B, const Tile &C, Tile &Out) {
  size_t N = std::max({A.size(), B.size(), C.size()});
  const Tile &Widest = A.size() == N ? A : (B.size() == N ? B : C);
  Out.reset(A.Elem, Widest.Shape);
  ScalarKind K = A.Elem.Scalar;
  size_t SA = A.size() == 1 ? 0 : 1, SB = B.size() == 1 ? 0 : 1, SC = C.size() == 1 ? 0 : 1;
  for (size_t I = 0; I < N; ++I) {
    double X = A.Floats[I * SA], Y = B.Floats[I * SB], Z = C.Floats[I * SC];
    // One rounding, as the hardware fma: exact in float for fp32, in double otherwise.
    Out.Floats[I] =
        K == ScalarKind::FP32
            ? static_cast<double>(std::fma(static_cast<float>(X), static_cast<float>(Y), static_cast<float>(Z)))
            : roundFloat(std::fma(X, Y, Z), K);
  }
}

/// Out[i] = Pred(L[i], R[i]) over values read through Get(i, j).
template <typename T, typename Pred>
void cmpLoop(const std::vector<T> &L, const std::vector<T> &R, std::vector<int64_t> &Out, Pred P) {
  const size_t N = Out.size(), SA = L.size() == 1 ? 0 : 1, SB = R.size() == 1 ? 0 : 1;
  for (size_t I = 0; I < N; ++I)
    Out[I] = P(L[I * SA], R[I * SB]);
}

template <typename T, typename ToKey>
void cmpDispatch(ir::CmpPredicate P, const std::vector<T> &L, const std::vector<T> &R, std::vector<int64_t> &Out,
                 ToKey Key) {
  using ir::CmpPredicate;
  switch (P) {
  case CmpPredicate::EQ:
    return cmpLoop(L, R, Out, [&](T A, T B) { return Key(A) == Key(B); });
  case CmpPredicate::NE:
    return cmpLoop(L, R, Out, [&](T A, T B) { return !(Key(A) == Key(B)); });
  case CmpPredicate::LT:
    return cmpLoop(L, R, Out, [&](T A, T B) { return Key(A) < Key(B); });
  case CmpPredicate::LE:
    return cmpLoop(L, R, Out, [&](T A, T B) { return Key(A) <= Key(B); });
  case CmpPredicate::GT:
    return cmpLoop(L, R, Out, [&](T A, T B) { return Key(A) > Key(B); });
  case CmpPredicate::GE:
    return cmpLoop(L, R, Out, [&](T A, T B) { return Key(A) >= Key(B); });
  }
}

void evalCmp(ir::CmpPredicate P, const Tile &L, const Tile &R, Tile &Out) {
  Out.reset({ScalarKind::I1, 0, false}, widest(L, R));
  if (L.isFloat())
    return cmpDispatch(P, L.Floats, R.Floats, Out.Ints, [](double V) { return V; });
  if (!L.Elem.isPointer() && !ir::isSignedScalar(L.Elem.Scalar))
    return cmpDispatch(P, L.Ints, R.Ints, Out.Ints, [](int64_t V) { return static_cast<uint64_t>(V); });
  cmpDispatch(P, L.Ints, R.Ints, Out.Ints, [](int64_t V) { return V; });
}

void evalSelect(const Tile &Cond, const Tile &A, const Tile &B, Tile &Out) {
  size_t N = std::max({Cond.size(), A.size(), B.size()});
  const Tile &Widest = A.size() == N ? A : (B.size() == N ? B : Cond);
  Out.reset(A.Elem, Widest.Shape);
  size_t SC = Cond.size() == 1 ? 0 : 1, SA = A.size() == 1 ? 0 : 1, SB = B.size() == 1 ? 0 : 1;
  if (A.isFloat()) {
    for (size_t I = 0; I < N; ++I)
      Out.Floats[I] = Cond.Ints[I * SC] ? A.Floats[I * SA] : B.Floats[I * SB];
    return;
  }
  for (size_t I = 0; I < N; ++I)
    Out.Ints[I] = Cond.Ints[I * SC] ? A.Ints[I * SA] : B.Ints[I * SB];
}

void evalAddPtr(const Tile &Ptr, const Tile &Offset, Tile &Out) {
  Out.reset(Ptr.Elem, widest(Ptr, Offset));
  const int64_t Size = ir::elemBytes(Ptr.Elem.pointee());
  map2(Ptr.Ints, Offset.Ints, Out.Ints, [Size](int64_t P, int64_t Off) {
    return static_cast<int64_t>(static_cast<uint64_t>(P) + static_cast<uint64_t>(Off * Size));
  });
}

} // namespace tessel::interp
