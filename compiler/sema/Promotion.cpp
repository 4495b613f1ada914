//===- Promotion.cpp - Triton's broadcasting and type promotion -----------===//
/// \file
/// Follows python/triton/language/semantic.py (TritonSemantic) of Triton 3.6:
/// the error sentences are Triton's, word for word.
//===----------------------------------------------------------------------===//
#include "compiler/sema/Promotion.h"

#include <cmath>
#include <limits>

namespace tessel::sema {

static constexpr int64_t Unknown = TileType::UnknownDim;

OrError<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t> &L, const std::vector<int64_t> &R) {
  size_t Rank = std::max(L.size(), R.size());
  std::vector<int64_t> A(Rank - L.size(), 1), B(Rank - R.size(), 1);
  A.insert(A.end(), L.begin(), L.end());
  B.insert(B.end(), R.begin(), R.end());
  std::vector<int64_t> Out(Rank);
  for (size_t I = 0; I < Rank; ++I) {
    int64_t X = A[I], Y = B[I];
    if (X == 1)
      Out[I] = Y;
    else if (Y == 1)
      Out[I] = X;
    else if (X == Unknown || Y == Unknown)
      Out[I] = X == Unknown ? Y : X;
    else if (X == Y)
      Out[I] = X;
    else
      return OrError<std::vector<int64_t>>::fail("Cannot make_shape_compatible: incompatible dimensions at index " +
                                                 std::to_string(I) + ": " + std::to_string(X) + " and " +
                                                 std::to_string(Y));
  }
  return OrError<std::vector<int64_t>>::ok(std::move(Out));
}

static std::string shapeList(const std::vector<int64_t> &S) {
  std::string Out = "[";
  for (size_t I = 0; I < S.size(); ++I)
    Out += (I ? ", " : "") + (S[I] == Unknown ? std::string("?") : std::to_string(S[I]));
  return Out + "]";
}

std::string checkBroadcastTo(const std::vector<int64_t> &From, const std::vector<int64_t> &To) {
  if (From.size() != To.size())
    return "Cannot broadcast, rank mismatch: " + shapeList(From) + ", " + shapeList(To);
  for (size_t I = 0; I < From.size(); ++I) {
    if (From[I] == Unknown || To[I] == Unknown || From[I] == To[I] || From[I] == 1)
      continue;
    return "Cannot broadcast, the expanded size of the tensor (" + std::to_string(To[I]) +
           ") must match the existing size (" + std::to_string(From[I]) + ") at non-singleton dimension " +
           std::to_string(I) + ": " + shapeList(From) + ", " + shapeList(To);
  }
  return {};
}

std::string typeRepr(const ElemType &T) {
  if (T.isPointer())
    return T.str();
  return "triton.language." + std::string(languageName(T.Scalar));
}

std::string typeRepr(const TileType &T) { return T.isBlock() ? T.tritonStr() : typeRepr(T.Elem); }

OrError<ScalarKind> literalType(const PyValue &V) {
  if (V.isBool())
    return OrError<ScalarKind>::ok(ScalarKind::I1);
  if (V.isFloat()) {
    // to_tensor_type: fp32 unless the magnitude is outside fp32's normal
    // range (0, inf and nan stay fp32).
    double A = std::fabs(V.asFloat());
    bool Fp32 = A == 0.0 || std::isinf(A) || std::isnan(A) ||
                (A >= std::ldexp(1.0, -126) && A <= (2.0 - std::ldexp(1.0, -23)) * std::ldexp(1.0, 127));
    return OrError<ScalarKind>::ok(Fp32 ? ScalarKind::FP32 : ScalarKind::FP64);
  }
  if (!V.isInt())
    return OrError<ScalarKind>::fail("");
  int64_t X = V.asInt();
  if (X >= std::numeric_limits<int32_t>::min() && X <= std::numeric_limits<int32_t>::max())
    return OrError<ScalarKind>::ok(ScalarKind::I32);
  if (X >= 0 && X <= static_cast<int64_t>(std::numeric_limits<uint32_t>::max()))
    return OrError<ScalarKind>::ok(ScalarKind::U32);
  return OrError<ScalarKind>::ok(ScalarKind::I64);
}

namespace {
/// Triton's dtype.kind() ordering: BOOLEAN < INTEGRAL < FLOATING. Signed and
/// unsigned integers are one kind (core.py), so `x_u8 + 1` stays uint8.
enum class TypeKindOrder { Bool, Int, Fp };
} // namespace

static TypeKindOrder kindOrder(ScalarKind K) {
  if (K == ScalarKind::I1)
    return TypeKindOrder::Bool;
  if (isInt(K))
    return TypeKindOrder::Int;
  return TypeKindOrder::Fp;
}

ScalarKind integerPromote(ScalarKind A, ScalarKind B) {
  int RA = bitWidth(A), RB = bitWidth(B);
  bool UA = isUnsigned(A), UB = isUnsigned(B);
  if (UA == UB)
    return RA > RB ? A : B;
  if (UA)
    return RA >= RB ? A : B;
  return RB >= RA ? B : A;
}

/// computation_type_impl.
static OrError<ScalarKind> computationType(ScalarKind A, bool AScalar, ScalarKind B, bool BScalar, bool DivOrMod) {
  using R = OrError<ScalarKind>;
  if (AScalar != BScalar) {
    ScalarKind S = AScalar ? A : B, T = AScalar ? B : A;
    if (kindOrder(S) <= kindOrder(T)) {
      if (DivOrMod && (T == ScalarKind::FP16 || T == ScalarKind::BF16))
        return R::ok(ScalarKind::FP32);
      return R::ok(T);
    }
  }
  if (A == ScalarKind::FP64 || B == ScalarKind::FP64)
    return R::ok(ScalarKind::FP64);
  if (A == ScalarKind::FP32 || B == ScalarKind::FP32)
    return R::ok(ScalarKind::FP32);
  if (A == ScalarKind::FP16 || B == ScalarKind::FP16)
    return R::ok(DivOrMod ? ScalarKind::FP32 : ScalarKind::FP16);
  if (A == ScalarKind::BF16 && B == ScalarKind::BF16)
    return R::ok(DivOrMod ? ScalarKind::FP32 : ScalarKind::BF16);
  if (A == ScalarKind::BF16 || B == ScalarKind::BF16)
    return R::ok(ScalarKind::FP32);
  if (isFP8(A) && isFP8(B))
    return R::ok(A == B ? A : ScalarKind::FP16);
  if (!isInt(A) || !isInt(B))
    return R::fail("unexpected type " + std::string(shortName(A)) + " and " + std::string(shortName(B)));
  if (DivOrMod && isUnsigned(A) != isUnsigned(B))
    return R::fail("Cannot use /, #, or % with " + typeRepr(ElemType{A}) + " and " + typeRepr(ElemType{B}) +
                   " because they have different signedness;this is unlikely to result in a useful answer. Cast "
                   "them to the same signedness.");
  return R::ok(integerPromote(A, B));
}

static std::string incompatible(const ElemType &A, const ElemType &B) {
  return "invalid operands of type " + typeRepr(A) + " and " + typeRepr(B);
}

/// check_ptr_type_impl.
static std::string checkPointerOperand(const ElemType &A, const ElemType &B, bool AllowPtrA) {
  if (!A.isPointer())
    return {};
  if (!AllowPtrA)
    return incompatible(A, B);
  if (B.isPointer() && !(A == B))
    return incompatible(A, B);
  if (!B.isPointer() && isFloat(B.Scalar))
    return incompatible(A, B);
  return {};
}

OrError<ElemType> binaryComputationType(const BinaryOperand &L, const BinaryOperand &R, ArithKind Op) {
  using Res = OrError<ElemType>;
  ElemType A = L.Elem, B = R.Elem;
  // binary_op_type_checking_impl's allow_lhs_ptr / allow_rhs_ptr: add and
  // where take pointers on either side, sub on the left; comparisons take
  // none (`p < q` is rejected like any other pointer operand).
  bool AllowLhsPtr = Op == ArithKind::AddSub || Op == ArithKind::Add || Op == ArithKind::Sub || Op == ArithKind::Select;
  bool AllowRhsPtr = Op == ArithKind::Add || Op == ArithKind::AddSub || Op == ArithKind::Select;
  if (std::string E = checkPointerOperand(A, B, AllowLhsPtr); !E.empty())
    return Res::fail(E);
  if (std::string E = checkPointerOperand(B, A, AllowRhsPtr); !E.empty())
    return Res::fail(E);
  if (A.isPointer() || B.isPointer()) {
    if (Op == ArithKind::Add && A.isPointer() && B.isPointer())
      return Res::fail("cannot add pointers together");
    return Res::ok(A.isPointer() ? A : B);
  }
  if (A.Scalar == ScalarKind::Unknown || B.Scalar == ScalarKind::Unknown)
    return Res::ok(ElemType{ScalarKind::Unknown});
  bool DivOrMod = Op == ArithKind::TrueDiv || Op == ArithKind::FloorDivMod;
  OrError<ScalarKind> T = computationType(A.Scalar, L.IsPythonScalar, B.Scalar, R.IsPythonScalar, DivOrMod);
  if (!T)
    return Res::fail(T.Error);
  // bitwise_op_type_checking_impl checks after both operands were cast to the
  // computation type, so both sides of the message show that type.
  if ((Op == ArithKind::Bitwise || Op == ArithKind::Shift) && !isInt(*T.Result))
    return Res::fail(incompatible(ElemType{*T.Result}, ElemType{*T.Result}));
  bool NegativeScalar = (L.IsPythonScalar && L.Literal.isNumber() && L.Literal.asFloat() < 0) ||
                        (R.IsPythonScalar && R.Literal.isNumber() && R.Literal.asFloat() < 0);
  if (NegativeScalar && isUnsigned(*T.Result))
    return Res::fail("Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform "
                     "a explicit cast on one of them.");
  // binary_op_type_checking_impl: a Python int must fit the integer type
  // the operation computes in (`x_i32 & 0xFFFFFFFF` does not).
  if (isInt(*T.Result) && *T.Result != ScalarKind::I1) {
    int Bits = bitWidth(*T.Result);
    bool Unsigned = isUnsigned(*T.Result);
    for (const BinaryOperand *O : {&L, &R}) {
      if (!O->IsPythonScalar || !O->Literal.isIntLike() || O->Literal.isBool())
        continue;
      int64_t X = O->Literal.asInt();
      bool Fits = Unsigned ? X >= 0 && (Bits >= 64 || X <= (int64_t(1) << Bits) - 1)
                           : Bits >= 64 || (X >= -(int64_t(1) << (Bits - 1)) && X <= (int64_t(1) << (Bits - 1)) - 1);
      if (!Fits)
        return Res::fail("Scalar " + std::to_string(X) + " is out of range for type " +
                         std::string(shortName(*T.Result)));
    }
  }
  return Res::ok(ElemType{*T.Result});
}

} // namespace tessel::sema
