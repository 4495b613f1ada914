//===- BuiltinsMath.cpp - elementwise math, where, dot, random ------------===//
/// \file
/// Elementwise builtins (math.py's float-only functions with their dtype
/// check, minimum / maximum / clamp, where, fma...), tl.dot with Triton 3.6's
/// rank, dtype and minimum-size rules, and the Philox random functions.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/MaskFacts.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

namespace tessel::sema {

/// math.py's `_check_dtype(dtypes)`: every tensor argument's dtype must be
/// one of Allowed (Python scalars are not checked).
static bool checkDtypes(BuiltinCall &B, const Value &X, std::initializer_list<ScalarKind> Allowed) {
  if (!X.isTensor() || X.Type.Elem.isPointer() || X.Type.Elem.Scalar == ScalarKind::Unknown)
    return true;
  ScalarKind K = X.Type.Elem.Scalar;
  if (std::find(Allowed.begin(), Allowed.end(), K) != Allowed.end())
    return true;
  std::string List;
  for (ScalarKind A : Allowed)
    List += (List.empty() ? "'" : ", '") + std::string(shortName(A)) + "'";
  B.error(ProblemKind::InvalidOperands, "Expected dtype [" + List + "] but got " + std::string(shortName(K)));
  return false;
}

std::optional<ir::OpKind> unaryMathOp(std::string_view Name) {
  static const std::map<std::string_view, ir::OpKind> Ops = {{"exp", ir::OpKind::Exp},
                                                             {"exp2", ir::OpKind::Exp2},
                                                             {"log", ir::OpKind::Log},
                                                             {"log2", ir::OpKind::Log2},
                                                             {"cos", ir::OpKind::Cos},
                                                             {"sin", ir::OpKind::Sin},
                                                             {"sqrt", ir::OpKind::Sqrt},
                                                             {"sqrt_rn", ir::OpKind::Sqrt},
                                                             {"rsqrt", ir::OpKind::Rsqrt},
                                                             {"erf", ir::OpKind::Erf},
                                                             {"floor", ir::OpKind::Floor},
                                                             {"ceil", ir::OpKind::Ceil},
                                                             {"abs", ir::OpKind::Abs},
                                                             {"fabs", ir::OpKind::Abs},
                                                             // libdevice's (triton.language.extra.cuda.libdevice), its
                                                             // fast variants as the functions they approximate.
                                                             {"fast_expf", ir::OpKind::Exp},
                                                             {"fast_logf", ir::OpKind::Log},
                                                             {"fast_log2f", ir::OpKind::Log2},
                                                             {"fast_tanhf", ir::OpKind::Tanh},
                                                             {"fast_sinf", ir::OpKind::Sin},
                                                             {"fast_cosf", ir::OpKind::Cos},
                                                             {"tanh", ir::OpKind::Tanh},
                                                             {"log1p", ir::OpKind::Log1p},
                                                             {"expm1", ir::OpKind::Expm1},
                                                             {"tan", ir::OpKind::Tan},
                                                             {"asin", ir::OpKind::Asin},
                                                             {"acos", ir::OpKind::Acos},
                                                             {"atan", ir::OpKind::Atan},
                                                             {"sinh", ir::OpKind::Sinh},
                                                             {"cosh", ir::OpKind::Cosh},
                                                             {"cbrt", ir::OpKind::Cbrt},
                                                             {"round", ir::OpKind::Round},
                                                             {"rint", ir::OpKind::Rint},
                                                             {"trunc", ir::OpKind::Trunc}};
  auto It = Ops.find(Name);
  return It == Ops.end() ? std::nullopt : std::optional<ir::OpKind>(It->second);
}

/// X with the op of B's builtin applied (its type is X's).
static Value unaryMath(BuiltinCall &B, const Value &X) {
  if (!X.isTensor())
    return Value::poison();
  Value Out = Value::tensor(X.Type);
  Out.DimNames = X.DimNames;
  if (B.ir())
    Out.IR = B.ir()->unary(B.range(), *unaryMathOp(B.Name), B.C.lower(X, B.rangeOf("x")));
  return Out;
}

static Value floatOnly(BuiltinCall &B) {
  if (!checkDtypes(B, B.value("x"), {ScalarKind::FP32, ScalarKind::FP64}))
    return Value::poison();
  // A Python int passes _check_dtype but becomes an int32 tensor, on which
  // the float op cannot be built (Triton fails in MLIR's verifier): an error
  // here, never tile IR that does not verify.
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!checkDtypes(B, X, {ScalarKind::FP32, ScalarKind::FP64}))
    return Value::poison();
  return unaryMath(B, X);
}

/// sqrt_rn: `_check_dtype(dtypes=["fp32"])`.
static Value fp32Only(BuiltinCall &B) {
  if (!checkDtypes(B, B.value("x"), {ScalarKind::FP32}))
    return Value::poison();
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!checkDtypes(B, X, {ScalarKind::FP32}))
    return Value::poison();
  return unaryMath(B, X);
}

static Value sameAsX(BuiltinCall &B) { return unaryMath(B, B.C.toTensor(B.value("x"), B.rangeOf("x"))); }

/// tl.PropagateNan.ALL given as propagate_nan.
static ir::PropagateNan propagateNan(BuiltinCall &B) {
  Value V = B.value("propagate_nan");
  bool All = V.isKnownConstexpr() && V.Const.kind() == PyValue::Kind::Qualified &&
             V.Const.qualifiedPath().size() >= 3 &&
             V.Const.qualifiedPath().compare(V.Const.qualifiedPath().size() - 3, 3, "ALL") == 0;
  return All ? ir::PropagateNan::All : ir::PropagateNan::None;
}

/// An operand of fma / umulhi / div_rn: math.py calls to_tensor on each
/// before core.binary_op_type_legalization, so Python numbers promote like
/// tensors there.
static Value mathOperand(BuiltinCall &B, std::string_view Param) {
  return B.C.toTensor(B.value(Param), B.rangeOf(Param));
}

/// `_promote_bfloat16_to_float32`: min/max/clamp and some reductions widen
/// bf16 first (no bf16 FMAX/FMIN/CMP in hardware).
/// core.minimum / core.maximum: both operands go through to_tensor (a Python
/// number is no scalar operand here) and bf16 becomes fp32, in the type and
/// in the lowered value alike (torchao's Hadamard amax kernels).
static Value minMaxOperand(BuiltinCall &B, std::string_view Param) {
  Value V = B.C.toTensor(B.value(Param), B.rangeOf(Param));
  if (!V.isTensor() || V.Type.Elem.isPointer() || V.Type.Elem.Scalar != ScalarKind::BF16)
    return V;
  Value Wide = V;
  Wide.Type.Elem = ElemType{ScalarKind::FP32};
  if (B.ir() && V.IR)
    Wide.IR = B.C.lowerAs(V, Wide.Type, B.rangeOf(Param));
  return Wide;
}

static Value minMax(BuiltinCall &B) {
  Value X = minMaxOperand(B, "x"), Y = minMaxOperand(B, "y");
  Value Out = B.C.binaryOp(ast::BinOpKind::Add, X, Y, B.range(), ArithKind::MinMax);
  if (!Out.isTensor())
    return Out;
  if (B.ir()) {
    ir::Value *L = B.C.lowerAs(X, Out.Type, B.rangeOf("x")), *R = B.C.lowerAs(Y, Out.Type, B.rangeOf("y"));
    Out.IR = B.Name == "minimum" ? B.ir()->minimum(B.range(), L, R, propagateNan(B))
                                 : B.ir()->maximum(B.range(), L, R, propagateNan(B));
  }
  Out.Facts = wrapFacts(joinFacts(X, Y, Out.Type.Shape.size()));
  Out.Facts.resize(Out.Type.Shape.size());
  return Out;
}

static Value clamp(BuiltinCall &B) {
  Value X = minMaxOperand(B, "x"), Lo = minMaxOperand(B, "min"), Hi = minMaxOperand(B, "max");
  Value Bounds = B.C.binaryOp(ast::BinOpKind::Add, Lo, Hi, B.range(), ArithKind::MinMax);
  if (!Bounds.isTensor())
    return Bounds;
  Value XLo = B.C.binaryOp(ast::BinOpKind::Add, X, Lo, B.range(), ArithKind::MinMax);
  if (!XLo.isTensor())
    return XLo;
  Value Out = B.C.binaryOp(ast::BinOpKind::Add, XLo, Hi, B.range(), ArithKind::MinMax);
  if (!Out.isTensor())
    return Out;
  ScalarKind K = Out.Type.Elem.Scalar;
  if (!Out.Type.Elem.isPointer() && K != ScalarKind::Unknown && !isFloat(K)) {
    B.error(ProblemKind::InvalidOperands,
            "Unexpected dtype " + std::string(shortName(K)) + ". Only floating point clamp is supported");
    return Value::poison();
  }
  Out.Facts = wrapFacts(joinFacts(X, X, Out.Type.Shape.size()));
  Out.Facts.resize(Out.Type.Shape.size());
  if (B.ir()) {
    // clampf: max with the lower bound, then min with the upper one.
    ir::Value *V = B.C.lowerAs(X, Out.Type, B.rangeOf("x"));
    V = B.ir()->maximum(B.range(), V, B.C.lowerAs(Lo, Out.Type, B.rangeOf("min")), propagateNan(B));
    Out.IR = B.ir()->minimum(B.range(), V, B.C.lowerAs(Hi, Out.Type, B.rangeOf("max")), propagateNan(B));
  }
  return Out;
}

static bool knownNonFloat(const Value &V) {
  return V.isTensor() && !V.Type.Elem.isPointer() && V.Type.Elem.Scalar != ScalarKind::Unknown &&
         !isFloat(V.Type.Elem.Scalar);
}

/// semantic.fdiv: both operands floating; no promotion (the result has x's
/// element type).
static Value fdiv(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x")), Y = B.C.toTensor(B.value("y"), B.rangeOf("y"));
  if (!X.isTensor() || !Y.isTensor())
    return Value::poison();
  if (knownNonFloat(X) || knownNonFloat(Y)) {
    B.error(ProblemKind::InvalidOperands, "both operands of fdiv must have floating scalar type");
    return Value::poison();
  }
  auto Shape = broadcastShapes(X.Type.Shape, Y.Type.Shape);
  if (!Shape) {
    B.error(ProblemKind::ShapeMismatch, Shape.Error);
    return Value::poison();
  }
  Value Out = Value::tensor(TileType{X.Type.Elem, *Shape.Result});
  if (B.ir())
    Out.IR = B.ir()->binary(B.range(), ir::OpKind::Div, B.C.lowerAs(X, Out.Type, B.rangeOf("x")),
                            B.C.lowerAs(Y, Out.Type, B.rangeOf("y")));
  return Out;
}

/// div_rn: `_check_dtype(dtypes=["fp32"])`, binary_op_type_legalization (typed
/// as `/`), then `create_precise_divf` (correctly rounded, where `/` is
/// `div.full.f32` on the GPU).
static Value divRn(BuiltinCall &B) {
  if (!checkDtypes(B, B.value("x"), {ScalarKind::FP32}) || !checkDtypes(B, B.value("y"), {ScalarKind::FP32}))
    return Value::poison();
  Value X = mathOperand(B, "x"), Y = mathOperand(B, "y");
  Value Out;
  {
    KernelChecker::TypingOnly Typing(B.C);
    Out = B.C.binaryOp(ast::BinOpKind::Div, X, Y, B.range());
  }
  if (!Out.isTensor())
    return Out;
  Out.Facts = IndexFacts{};
  Out.Facts.resize(Out.Type.Shape.size());
  if (B.ir())
    Out.IR = B.ir()->binary(B.range(), ir::OpKind::DivRn, B.C.lowerAs(X, Out.Type, B.rangeOf("x")),
                            B.C.lowerAs(Y, Out.Type, B.rangeOf("y")));
  return Out;
}

static Value fma(BuiltinCall &B) {
  Value X = mathOperand(B, "x"), Y = mathOperand(B, "y"), Z = mathOperand(B, "z");
  Value Out;
  {
    KernelChecker::TypingOnly Typing(B.C);
    Value XY = B.C.binaryOp(ast::BinOpKind::Mult, X, Y, B.range());
    Out = B.C.binaryOp(ast::BinOpKind::Add, XY, Z, B.range());
  }
  if (B.ir() && Out.isTensor())
    Out.IR = B.ir()->fma(B.range(), B.C.lowerAs(X, Out.Type, B.rangeOf("x")), B.C.lowerAs(Y, Out.Type, B.rangeOf("y")),
                         B.C.lowerAs(Z, Out.Type, B.rangeOf("z")));
  return Out;
}

/// umulhi: `_check_dtype(dtypes=["int32", "int64", "uint32", "uint64"])`.
static Value umulhi(BuiltinCall &B) {
  for (std::string_view P : {"x", "y"})
    if (!checkDtypes(B, B.value(P), {ScalarKind::I32, ScalarKind::I64, ScalarKind::U32, ScalarKind::U64}))
      return Value::poison();
  Value X = mathOperand(B, "x"), Y = mathOperand(B, "y");
  Value Out;
  {
    KernelChecker::TypingOnly Typing(B.C);
    Out = B.C.binaryOp(ast::BinOpKind::Mult, X, Y, B.range());
  }
  if (B.ir() && Out.isTensor())
    Out.IR = B.ir()->binary(B.range(), ir::OpKind::UMulHi, B.C.lowerAs(X, Out.Type, B.rangeOf("x")),
                            B.C.lowerAs(Y, Out.Type, B.rangeOf("y")));
  return Out;
}

static Value where(BuiltinCall &B) {
  Value Cond = B.C.toTensor(B.value("condition"), B.rangeOf("condition"));
  Value X = B.value("x"), Y = B.value("y");
  // Two Python numbers are both scalars: they promote like two tensors.
  if (X.isConstexpr() && Y.isConstexpr())
    X = B.C.toTensor(X, B.rangeOf("x"));
  // semantic.where: binary_op_type_checking_impl(x, y, True, True), so x and
  // y promote like a binary operation (int32 and 0.5 give fp32) and may both
  // be pointers.
  Value XY = B.C.binaryOp(ast::BinOpKind::Add, X, Y, B.range(), ArithKind::Select);
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
  // `tl.where(offs < M, offs, 0)` clamps: along an axis the condition
  // bounds, the selected offsets stay in range however far they slid.
  IndexFacts CondFacts = alignFacts(Cond, Shape.Result->size());
  for (size_t I = 0; I < F.Axes.size() && I < CondFacts.MaskBounds.size(); ++I)
    if (CondFacts.MaskBounds[I] && F.Axes[I] == AxisIndex::Sliding)
      F.setAxis(I, AxisIndex::Wrapped);
  Value Out = Value::tensor(TileType{XY.Type.Elem, *Shape.Result}, std::move(F));
  Out.DimNames = broadcastDimNames({&X, &Y, &Cond}, *Shape.Result);
  if (B.ir())
    Out.IR = B.ir()->select(
        B.range(), B.C.lowerAs(Cond, TileType{ElemType{ScalarKind::I1}, Out.Type.Shape}, B.rangeOf("condition")),
        B.C.lowerAs(X, Out.Type, B.rangeOf("x")), B.C.lowerAs(Y, Out.Type, B.rangeOf("y")));
  return Out;
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
  bool Known =
      TA != ScalarKind::Unknown && TB != ScalarKind::Unknown && !A.Type.Elem.isPointer() && !Bv.Type.Elem.isPointer();
  if (Known) {
    for (ScalarKind T : {TA, TB})
      if (!isDotOperandType(T)) {
        B.error(ProblemKind::Dot, "Unsupported dtype " + std::string(shortName(T)) +
                                      " for tl.dot: operands must be "
                                      "int8, uint8, fp16, bf16, fp32, fp64 or fp8");
        return Value::poison();
      }
    if (TA != TB && !(isFP8(TA) && isFP8(TB))) {
      B.error(ProblemKind::Dot, "Both operands must be same dtype. Got " + std::string(shortName(TA)) + " and " +
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
    B.error(ProblemKind::Dot,
            "max_num_imprecise_acc (" + std::to_string(*Imprecise) + ") must be <= K (" + std::to_string(K) + ")");
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
  // semantic.dot: integer operands must be int8; other operands cannot
  // produce bf16.
  if (Known && isInt(TA) && TA != ScalarKind::I8) {
    B.error(ProblemKind::Dot, "only int8 supported!");
    return Value::poison();
  }
  if (Known && !isInt(TA) && B.given("out_dtype") && B.dtype("out_dtype") == ScalarKind::BF16) {
    B.error(ProblemKind::Dot, "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with "
                              "`.to(tl.bfloat16)`");
    return Value::poison();
  }
  // semantic.dot asserts `acc.type.element_ty == out_dtype` (out_dtype
  // defaults to float32, whatever the inputs are): an int32 or fp16
  // accumulator needs out_dtype spelled out. Triton's assertion has no
  // message, so tessel says what it checks.
  std::optional<ScalarKind> OutDtype =
      B.given("out_dtype") ? B.dtype("out_dtype") : std::optional<ScalarKind>(ScalarKind::FP32);
  if (HasAcc && Acc.isTensor() && OutDtype && !Acc.Type.Elem.isPointer() &&
      Acc.Type.Elem.Scalar != ScalarKind::Unknown && Acc.Type.Elem.Scalar != *OutDtype) {
    B.error(ProblemKind::Dot, "the accumulator's element type " + std::string(shortName(Acc.Type.Elem.Scalar)) +
                                  " must equal out_dtype (" + std::string(shortName(*OutDtype)) +
                                  "); pass out_dtype=tl." + std::string(languageName(Acc.Type.Elem.Scalar)));
    return Value::poison();
  }
  if (SA.size() == 2 && SB.size() == 2) {
    DotFact D;
    D.CallRange = B.range();
    D.AShape = SA;
    D.BShape = SB;
    D.AElem = A.Type.Elem.isPointer() ? ScalarKind::Unknown : TA;
    D.BElem = Bv.Type.Elem.isPointer() ? ScalarKind::Unknown : TB;
    D.ALoaded = A.Loaded;
    D.BLoaded = Bv.Loaded;
    B.C.recordDot(std::move(D));
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
  Value Out = Value::tensor(TileType{Result, CShape});
  if (A.DimNames.size() == SA.size() && Bv.DimNames.size() == SB.size()) {
    Out.DimNames = A.DimNames;
    Out.DimNames.back() = Bv.DimNames.back();
  }
  if (B.ir() && Result.Scalar != ScalarKind::Unknown) {
    // input_precision, else allow_tf32=False meaning ieee; tf32 is the
    // default (it only affects fp32 operands).
    static const std::map<std::string, ir::InputPrecision> Precisions = {{"tf32", ir::InputPrecision::TF32},
                                                                         {"tf32x3", ir::InputPrecision::TF32x3},
                                                                         {"ieee", ir::InputPrecision::IEEE},
                                                                         {"bf16x3", ir::InputPrecision::BF16x3},
                                                                         {"bf16x6", ir::InputPrecision::BF16x6}};
    ir::InputPrecision P = ir::InputPrecision::TF32;
    if (auto It = Precisions.find(B.str("input_precision")); It != Precisions.end())
      P = It->second;
    else if (!B.flag("allow_tf32", true))
      P = ir::InputPrecision::IEEE;
    ir::Value *AccIR = HasAcc ? B.C.lowerAs(Acc, Out.Type, B.rangeOf("acc")) : nullptr;
    Out.IR = B.ir()->dot(B.range(), B.lower("input"), B.lower("other"), AccIR, P,
                         B.constInt("max_num_imprecise_acc").value_or(0), Result.Scalar);
  }
  return Out;
}

/// rand / randn / randint: Philox on (seed, offset) with n_rounds rounds.
static Value random(BuiltinCall &B, ScalarKind Elem) {
  Value Offset = B.C.toTensor(B.value("offset"), B.rangeOf("offset"));
  if (!Offset.isTensor())
    return Value::poison();
  Value Out = Value::tensor(TileType{ElemType{Elem}, Offset.Type.Shape});
  if (B.ir()) {
    ir::OpKind K = B.Name == "rand" ? ir::OpKind::Rand : B.Name == "randn" ? ir::OpKind::Randn : ir::OpKind::Randint;
    Value Seed = B.C.toTensor(B.value("seed"), B.rangeOf("seed"));
    Out.IR = B.ir()->random(B.range(), K, B.C.lower(Seed, B.rangeOf("seed")), B.C.lower(Offset, B.rangeOf("offset")),
                            static_cast<int>(B.constInt("n_rounds").value_or(10)));
  }
  return Out;
}

static Value randomFloat(BuiltinCall &B) { return random(B, ScalarKind::FP32); }
static Value randomInt(BuiltinCall &B) { return random(B, ScalarKind::U32); }

/// The four uint32 words of Philox4x32 keyed by Seed on the counter C
/// (random.py's philox: the counters broadcast together and are read bit
/// for bit as uint32). Triton's Philox4x64, for 64-bit counters, is a
/// lowering limit.
static Value philoxWords(BuiltinCall &B, const Value &Seed, const std::array<Value, 4> &C, int NRounds) {
  if (!Seed.isTensor() || !isInt(Seed.Type.Elem.Scalar))
    return Value::poison();
  std::vector<int64_t> Shape;
  bool Wide = false;
  for (const Value &V : C) {
    if (!V.isTensor() || V.Type.Elem.isPointer() || !isInt(V.Type.Elem.Scalar))
      return Value::poison();
    OrError<std::vector<int64_t>> S = broadcastShapes(Shape, V.Type.Shape);
    if (!S) {
      B.C.error(ProblemKind::ShapeMismatch, B.range(), S.Error);
      return Value::poison();
    }
    Shape = *S.Result;
    Wide |= bitWidth(V.Type.Elem.Scalar) > 32;
  }
  std::array<Value, 4> Words;
  for (Value &W : Words)
    W = Value::tensor(TileType{ElemType{ScalarKind::U32}, Shape});
  if (B.ir()) {
    if (Wide) {
      B.C.loweringLimit(B.range(), "Philox on 64-bit counters");
    } else {
      std::array<ir::Value *, 4> Ctr;
      for (size_t I = 0; I < 4; ++I)
        Ctr[I] = B.C.lower(B.C.broadcastTo(C[I], Shape, B.range()), B.range());
      ir::Value *S = B.C.lower(Seed, B.rangeOf("seed"));
      for (int W = 0; W < 4; ++W)
        Words[W].IR = B.ir()->philox(B.range(), S, Ctr, NRounds, W);
    }
  }
  return Value::tuple({Words[0], Words[1], Words[2], Words[3]});
}

static Value randomInt4x(BuiltinCall &B) {
  // random.py: philox(seed, offset, _0, _0, _0) with _0 = offset * 0.
  Value Offset = B.C.toTensor(B.value("offset"), B.rangeOf("offset"));
  if (!Offset.isTensor())
    return Value::poison();
  Value Zero = B.C.toTensor(Value::constant(PyValue::integer(0)), B.range()); // broadcast with the offset
  return philoxWords(B, B.C.toTensor(B.value("seed"), B.rangeOf("seed")), {Offset, Zero, Zero, Zero},
                     static_cast<int>(B.constInt("n_rounds").value_or(10)));
}

static Value philox(BuiltinCall &B) {
  std::array<Value, 4> C;
  for (int I = 0; I < 4; ++I) {
    std::string Name = "c" + std::to_string(I);
    C[I] = B.C.toTensor(B.value(Name), B.rangeOf(Name));
  }
  return philoxWords(B, B.C.toTensor(B.value("seed"), B.rangeOf("seed")), C,
                     static_cast<int>(B.constInt("n_rounds").value_or(10)));
}

/// The element type standard.max / standard.min reduce in: bf16 and other
/// floats narrower than 32 bits become fp32, narrower integers int32.
ElemType widenedMinMaxType(ElemType E) {
  if (E.isPointer() || E.Scalar == ScalarKind::Unknown)
    return E;
  if (isFloat(E.Scalar) && bitWidth(E.Scalar) < 32)
    return ElemType{ScalarKind::FP32};
  if (isInt(E.Scalar) && bitWidth(E.Scalar) < 32)
    return ElemType{ScalarKind::I32};
  return E;
}

/// standard.sigmoid is `1 / (1 + math.exp(-x))`: exp's dtype check decides.
static Value sigmoid(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!X.isTensor() || !checkDtypes(B, X, {ScalarKind::FP32, ScalarKind::FP64}))
    return Value::poison();
  Value Out = Value::tensor(X.Type);
  if (ir::Builder *IRB = B.ir()) {
    SourceRange R = B.range();
    ir::Value *V = B.C.lower(X, B.rangeOf("x"));
    ir::Value *Zero = B.C.lowerAs(Value::constant(PyValue::integer(0)), X.Type, R);
    ir::Value *One = B.C.lowerAs(Value::constant(PyValue::integer(1)), X.Type, R);
    ir::Value *E = IRB->unary(R, ir::OpKind::Exp, IRB->sub(R, Zero, V));
    Out.IR = IRB->binary(R, ir::OpKind::Div, One, IRB->add(R, One, E));
  }
  return Out;
}

/// standard.softmax's body: z = x - max(x, dim), exp(z) / sum(exp(z), dim).
static ir::Value *emitSoftmax(BuiltinCall &B, const Value &X, int64_t Dim, bool KeepDims) {
  ir::Builder &IRB = *B.ir();
  SourceRange R = B.range();
  ir::Value *In = B.C.lower(X, B.rangeOf("x"));
  ir::Value *Widened = B.C.coerce(In, TileType{widenedMinMaxType(X.Type.Elem), X.Type.Shape}, R);
  ir::Value *Max = emitReduce(B, ir::ReduceKind::Max, Widened, Dim, KeepDims);
  Value Z = B.C.binaryOp(ast::BinOpKind::Sub, X, Value::tensor(Max->type(), {}, Max), R);
  ir::Value *Num = IRB.unary(R, ir::OpKind::Exp, B.C.lower(Z, R));
  ir::Value *Den = emitReduce(B, ir::ReduceKind::Sum, Num, Dim, KeepDims);
  return IRB.binary(R, ir::OpKind::Div, Num, B.C.coerce(Den, Num->type(), R));
}

/// standard.softmax: z = x - max(x) (max widens to fp32 / int32), then
/// exp(z) with exp's dtype check, then fdiv by the sum: the result has z's
/// type.
static Value softmax(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!X.isTensor())
    return Value::poison();
  Value Max = Value::tensor(TileType{widenedMinMaxType(X.Type.Elem), {}});
  Value Z;
  {
    KernelChecker::TypingOnly Typing(B.C);
    Z = B.C.binaryOp(ast::BinOpKind::Sub, Value::tensor(X.Type), Max, B.range());
  }
  if (!Z.isTensor() || !checkDtypes(B, Z, {ScalarKind::FP32, ScalarKind::FP64}))
    return Value::poison();
  Value Out = Value::tensor(TileType{Z.Type.Elem, X.Type.Shape});
  if (B.ir())
    Out.IR = emitSoftmax(B, X, B.constInt("dim").value_or(0), B.flag("keep_dims"));
  return Out;
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
      {"sqrt_rn", "x", fp32Only},
      {"rsqrt", "x", floatOnly},
      {"erf", "x", floatOnly},
      {"floor", "x", floatOnly},
      {"ceil", "x", floatOnly},
      {"abs", "x", sameAsX},
      {"fdiv", "x, y, ieee_rounding=", fdiv},
      {"div_rn", "x, y", divRn},
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
      {"philox", "seed, c0, c1, c2, c3, n_rounds:C=", philox},
      {"sigmoid", "x", sigmoid},
      {"softmax", "x, dim=, keep_dims=, ieee_rounding=", softmax},
  };
  return Entries;
}

} // namespace tessel::sema
