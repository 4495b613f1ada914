//===- BuiltinsMath.cpp - elementwise math, where, dot, random ------------===//
/// \file
/// Elementwise builtins (math.py's float-only functions with their dtype
/// check, minimum / maximum / clamp, where, fma...), tl.dot with Triton 3.6's
/// rank, dtype and minimum-size rules, and the Philox random functions.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/MaskFacts.h"

#include <algorithm>

namespace tessel::sema {

/// math.py's `_check_dtype(dtypes=["fp32", "fp64"])`.
static Value floatOnly(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!X.isTensor())
    return Value::poison();
  ScalarKind K = X.Type.Elem.Scalar;
  if (!X.Type.Elem.isPointer() && K != ScalarKind::Unknown && K != ScalarKind::FP32 && K != ScalarKind::FP64) {
    B.error(ProblemKind::InvalidOperands,
            "Expected dtype ['fp32', 'fp64'] but got " + std::string(shortName(K)));
    return Value::poison();
  }
  Value Out = Value::tensor(X.Type);
  return Out;
}

static Value sameAsX(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  return X.isTensor() ? Value::tensor(X.Type) : Value::poison();
}

static Value binaryElementwise(BuiltinCall &B, std::string_view L, std::string_view R, bool Wraps) {
  Value A = B.value(L), C = B.value(R);
  Value Out = B.C.binaryOp(ast::BinOpKind::Add, A, C, B.range());
  if (!Out.isTensor())
    return Out;
  Out.Facts = Wraps ? wrapFacts(joinFacts(A, C, Out.Type.Shape.size())) : IndexFacts{};
  Out.Facts.resize(Out.Type.Shape.size());
  return Out;
}

static Value minMax(BuiltinCall &B) { return binaryElementwise(B, "x", "y", true); }

static Value clamp(BuiltinCall &B) {
  Value Lo = binaryElementwise(B, "x", "min", true);
  if (!Lo.isTensor())
    return Lo;
  Value Hi = B.value("max");
  Value Out = B.C.binaryOp(ast::BinOpKind::Add, Lo, Hi, B.range());
  if (Out.isTensor())
    Out.Facts = wrapFacts(Lo.Facts);
  return Out;
}

static Value fdiv(BuiltinCall &B) {
  Value Out = B.C.binaryOp(ast::BinOpKind::Div, B.value("x"), B.value("y"), B.range());
  if (Out.isTensor()) {
    Out.Facts = IndexFacts{};
    Out.Facts.resize(Out.Type.Shape.size());
  }
  return Out;
}

static Value fma(BuiltinCall &B) {
  Value XY = B.C.binaryOp(ast::BinOpKind::Mult, B.value("x"), B.value("y"), B.range());
  return B.C.binaryOp(ast::BinOpKind::Add, XY, B.value("z"), B.range());
}

static Value umulhi(BuiltinCall &B) { return B.C.binaryOp(ast::BinOpKind::Mult, B.value("x"), B.value("y"), B.range()); }

static Value where(BuiltinCall &B) {
  Value Cond = B.C.toTensor(B.value("condition"), B.rangeOf("condition"));
  Value X = B.value("x"), Y = B.value("y");
  Value XY = B.C.binaryOp(ast::BinOpKind::Add, X, Y, B.range());
  if (!XY.isTensor() || !Cond.isTensor())
    return Value::poison();
  auto Shape = broadcastShapes(Cond.Type.Shape, XY.Type.Shape);
  if (!Shape) {
    B.error(ProblemKind::ShapeMismatch, Shape.Error);
    return Value::poison();
  }
  // A load that tl.where guards but that has no mask of its own still reads
  // every lane; the masking check reports it.
  bool Guards = std::any_of(Cond.Facts.MaskBounds.begin(), Cond.Facts.MaskBounds.end(), [](bool X) { return X; });
  for (std::string_view Operand : {"x", "y"}) {
    const Arg *A = B.get(Operand);
    const auto *Load = A ? ast::dyn_cast<ast::CallExpr>(A->E) : nullptr;
    if (!Guards || !Load)
      continue;
    if (MemoryAccess *Access = B.C.accessFor(Load); Access && Access->Op == "tl.load" && !Access->HasMask)
      Access->EnclosingWhere = B.range();
  }
  // Values selected by where keep the varying pattern of the operands.
  IndexFacts F = joinFacts(X, Y, Shape.Result->size());
  F.MaskBounds.clear();
  ElemType Elem = XY.Type.Elem;
  if (X.isTensor() && Y.isConstexpr())
    Elem = X.Type.Elem;
  else if (Y.isTensor() && X.isConstexpr())
    Elem = Y.Type.Elem;
  return Value::tensor(TileType{Elem, *Shape.Result}, F);
}

static bool isDotOperandType(ScalarKind K) {
  return K == ScalarKind::I8 || K == ScalarKind::U8 || K == ScalarKind::FP16 || K == ScalarKind::BF16 ||
         K == ScalarKind::FP32 || K == ScalarKind::FP64 || isFP8(K);
}

static bool knownDim(int64_t D) { return D != TileType::UnknownDim; }

static Value dot(BuiltinCall &B) {
  Value A = B.value("input"), Bv = B.value("other");
  if (!A.isTensor() || !Bv.isTensor())
    return Value::poison();
  const std::vector<int64_t> &SA = A.Type.Shape, &SB = Bv.Type.Shape;
  if (!(SA.size() == SB.size() && SA.size() >= 2)) {
    B.error(ProblemKind::Dot, "input and other must have equal ranks >= 2");
    return Value::poison();
  }
  for (size_t I = 0; I + 2 < SA.size(); ++I)
    if (knownDim(SA[I]) && knownDim(SB[I]) && SA[I] != SB[I]) {
      B.error(ProblemKind::Dot, "input and other must have equal batch shapes");
      return Value::poison();
    }
  int64_t K = SA[SA.size() - 1], K2 = SB[SB.size() - 2];
  if (knownDim(K) && knownDim(K2) && K != K2) {
    B.error(ProblemKind::Dot, "input and other must have equal reduction dimensions");
    return Value::poison();
  }
  std::vector<int64_t> CShape(SA.begin(), SA.end() - 1);
  CShape.push_back(SB.back());
  Value Acc = B.value("acc");
  bool HasAcc = B.present("acc");
  if (HasAcc && Acc.isTensor()) {
    bool Compatible = Acc.Type.Shape.size() == CShape.size();
    for (size_t I = 0; Compatible && I < CShape.size(); ++I)
      Compatible = !knownDim(CShape[I]) || !knownDim(Acc.Type.Shape[I]) || CShape[I] == Acc.Type.Shape[I];
    if (!Compatible) {
      B.error(ProblemKind::Dot, "accumulator shape is incompatible");
      return Value::poison();
    }
  }
  ScalarKind TA = A.Type.Elem.Scalar, TB = Bv.Type.Elem.Scalar;
  bool Known = TA != ScalarKind::Unknown && TB != ScalarKind::Unknown && !A.Type.Elem.isPointer() &&
               !Bv.Type.Elem.isPointer();
  if (Known) {
    for (ScalarKind T : {TA, TB})
      if (!isDotOperandType(T)) {
        B.error(ProblemKind::Dot, "Unsupported dtype " + std::string(shortName(T)) + " for tl.dot: operands must be "
                                  "int8, uint8, fp16, bf16, fp32, fp64 or fp8");
        return Value::poison();
      }
    if (TA != TB && !(isFP8(TA) && isFP8(TB))) {
      B.error(ProblemKind::Dot,
              "Both operands must be same dtype. Got " + std::string(shortName(TA)) + " and " +
                  std::string(shortName(TB)));
      return Value::poison();
    }
  }
  bool EightBit = Known && bitWidth(TA) == 8;
  int64_t MinK = EightBit ? 32 : 16;
  int64_t M = SA[SA.size() - 2], N = SB.back();
  bool TooSmall = (knownDim(M) && M < 1) || (knownDim(N) && N < 1) || (knownDim(K) && K < MinK);
  if (TooSmall && (Known || (knownDim(K) && K < 16))) {
    B.error(ProblemKind::Dot, "Input shapes should have M >= 1, N >= 1 and K >= " + std::to_string(MinK));
    return Value::poison();
  }
  if (auto Imprecise = B.constInt("max_num_imprecise_acc"); Imprecise && knownDim(K) && *Imprecise > K) {
    B.error(ProblemKind::Dot, "max_num_imprecise_acc (" + std::to_string(*Imprecise) + ") must be <= K (" +
                                  std::to_string(K) + ")");
    return Value::poison();
  }
  Value Precision = B.value("input_precision");
  if (Precision.isKnownConstexpr() && Precision.Const.isStr()) {
    const std::string &P = Precision.Const.asStr();
    if (P != "tf32" && P != "tf32x3" && P != "ieee" && P != "bf16x3" && P != "bf16x6") {
      B.errorAt(ProblemKind::Dot, B.rangeOf("input_precision"),
                "input_precision must be one of 'tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6', got '" + P + "'");
      return Value::poison();
    }
  }
  ElemType Result{ScalarKind::Unknown};
  if (HasAcc && Acc.isTensor())
    Result = Acc.Type.Elem;
  else if (Known && (TA == ScalarKind::I8 || TA == ScalarKind::U8))
    Result = ElemType{ScalarKind::I32};
  else if (Known && TA == ScalarKind::FP64)
    Result = ElemType{ScalarKind::FP64};
  else if (Known && (TA == ScalarKind::FP32 || TA == ScalarKind::BF16))
    Result = ElemType{ScalarKind::FP32};
  else if (Known)
    Result = ElemType{B.dtype("out_dtype").value_or(ScalarKind::FP32)};
  return Value::tensor(TileType{Result, CShape});
}

static Value randomFloat(BuiltinCall &B) {
  Value Offset = B.C.toTensor(B.value("offset"), B.rangeOf("offset"));
  if (!Offset.isTensor())
    return Value::poison();
  return Value::tensor(TileType{ElemType{ScalarKind::FP32}, Offset.Type.Shape});
}

static Value randomInt(BuiltinCall &B) {
  Value Offset = B.C.toTensor(B.value("offset"), B.rangeOf("offset"));
  if (!Offset.isTensor())
    return Value::poison();
  return Value::tensor(TileType{ElemType{ScalarKind::U32}, Offset.Type.Shape});
}

static Value randomInt4x(BuiltinCall &B) {
  Value One = randomInt(B);
  if (One.isPoison())
    return One;
  return Value::tuple({One, One, One, One});
}

static Value sigmoidLike(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!X.isTensor())
    return Value::poison();
  ElemType E = X.Type.Elem;
  if (!E.isPointer() && E.Scalar != ScalarKind::Unknown && isInt(E.Scalar))
    E = ElemType{ScalarKind::FP32};
  return Value::tensor(TileType{E, X.Type.Shape});
}

const std::vector<BuiltinEntry> &mathBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"exp", "x", floatOnly},
      {"exp2", "x", floatOnly},
      {"log", "x", floatOnly},
      {"log2", "x", floatOnly},
      {"cos", "x", floatOnly},
      {"sin", "x", floatOnly},
      {"sqrt", "x", floatOnly},
      {"sqrt_rn", "x", floatOnly},
      {"rsqrt", "x", floatOnly},
      {"erf", "x", floatOnly},
      {"floor", "x", floatOnly},
      {"ceil", "x", floatOnly},
      {"abs", "x", sameAsX},
      {"fdiv", "x, y, ieee_rounding=", fdiv},
      {"div_rn", "x, y", fdiv},
      {"fma", "x, y, z", fma},
      {"umulhi", "x, y", umulhi},
      {"minimum", "x, y, propagate_nan:C=", minMax},
      {"maximum", "x, y, propagate_nan:C=", minMax},
      {"clamp", "x, min, max, propagate_nan:C=", clamp},
      {"where", "condition, x, y", where},
      {"dot", "input, other, acc=, input_precision:C=, allow_tf32:C=, max_num_imprecise_acc:C=, out_dtype:C=", dot},
      {"rand", "seed, offset, n_rounds:C=", randomFloat},
      {"randn", "seed, offset, n_rounds:C=", randomFloat},
      {"randint", "seed, offset, n_rounds:C=", randomInt},
      {"randint4x", "seed, offset, n_rounds:C=", randomInt4x},
      {"sigmoid", "x", sigmoidLike},
      {"softmax", "x, dim=, keep_dims=, ieee_rounding=", sigmoidLike},
  };
  return Entries;
}

} // namespace tessel::sema
