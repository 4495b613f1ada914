//===- BuiltinsReduce.cpp - reductions and scans --------------------------===//
/// \file
/// sum / max / min / argmax / argmin / xor_sum / reduce and the scans, with
/// Triton's axis handling and result types (narrow integers summed as 32-bit),
/// and user combine functions checked by inlining them on scalars.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/MaskFacts.h"

namespace tessel::sema {

/// The shape after reducing Axis (nullopt = all axes), or nullopt after a
/// reported error.
static std::optional<TileType> reducedType(BuiltinCall &B, const Value &In, ElemType Elem) {
  Value AxisV = B.value("axis");
  bool KeepDims = B.value("keep_dims").isKnownConstexpr() && B.value("keep_dims").Const.truthy().value_or(false);
  if (AxisV.isConstexpr() && AxisV.Const.isNone())
    return TileType{Elem, KeepDims ? std::vector<int64_t>(In.Type.Shape.size(), 1) : std::vector<int64_t>{}};
  if (!AxisV.isKnownConstexpr() || !AxisV.Const.isIntLike())
    return TileType{Elem,
                    std::vector<int64_t>(In.Type.Shape.empty() ? 0 : In.Type.Shape.size() - 1, TileType::UnknownDim)};
  auto Axis = normaliseAxis(AxisV.Const.asInt(), In.Type.Shape.size());
  if (!Axis) {
    // Triton's outermost frame in the user's code is the call (the raise is
    // inside core.reduce).
    B.error(ProblemKind::ShapeMismatch, "invalid axis " + std::to_string(AxisV.Const.asInt()) + ". Expected " +
                                            std::to_string(-static_cast<int64_t>(In.Type.Shape.size())) +
                                            " <= axis < " + std::to_string(In.Type.Shape.size()));
    return std::nullopt;
  }
  std::vector<int64_t> Shape = In.Type.Shape;
  if (KeepDims)
    Shape[*Axis] = 1;
  else
    Shape.erase(Shape.begin() + *Axis);
  return TileType{Elem, Shape};
}

/// In's DimNames with the reduced axis dropped (or kept as an unnamed 1).
static std::vector<std::string> reducedNames(BuiltinCall &B, const Value &In) {
  Value AxisV = B.value("axis");
  if (In.DimNames.size() != In.Type.Shape.size() || !AxisV.isKnownConstexpr() || !AxisV.Const.isIntLike())
    return {};
  auto Axis = normaliseAxis(AxisV.Const.asInt(), In.Type.Shape.size());
  if (!Axis)
    return {};
  std::vector<std::string> Names = In.DimNames;
  if (B.value("keep_dims").isKnownConstexpr() && B.value("keep_dims").Const.truthy().value_or(false))
    Names[*Axis].clear();
  else
    Names.erase(Names.begin() + static_cast<std::ptrdiff_t>(*Axis));
  return Names;
}

static Value input(BuiltinCall &B) { return B.C.toTensor(B.value("input"), B.rangeOf("input")); }

ir::Value *emitReduce(BuiltinCall &B, ir::ReduceKind K, ir::Value *X, std::optional<int64_t> Axis, bool KeepDims,
                      bool TieBreakLeft) {
  ir::Builder &IRB = *B.ir();
  SourceRange R = B.range();
  size_t Rank = X->type().Shape.size();
  if (!Axis) {
    int64_t N = 1;
    for (int64_t D : X->type().Shape)
      N *= D;
    if (Rank != 1)
      X = IRB.reshape(R, X, {N});
    ir::Value *Out = IRB.reduce(R, K, X, 0, TieBreakLeft);
    return KeepDims ? IRB.reshape(R, Out, std::vector<int64_t>(Rank, 1)) : Out;
  }
  int A = static_cast<int>(normaliseAxis(*Axis, Rank).value_or(0));
  ir::Value *Out = IRB.reduce(R, K, X, A, TieBreakLeft);
  return KeepDims ? IRB.expandDims(R, Out, A) : Out;
}

/// The axis argument: nullopt for None (every axis).
static std::optional<int64_t> axisOf(BuiltinCall &B) { return B.constInt("axis"); }

/// Emits kind K over the input converted to Elem, giving Out's IR.
static Value reduced(BuiltinCall &B, const Value &In, const TileType &T, ir::ReduceKind K, bool TieBreakLeft = true) {
  Value Out = Value::tensor(T);
  Out.DimNames = reducedNames(B, In);
  if (B.ir()) {
    ir::Value *X = B.C.lowerAs(
        In, TileType{K == ir::ReduceKind::ArgMax || K == ir::ReduceKind::ArgMin ? In.Type.Elem : T.Elem, In.Type.Shape},
        B.rangeOf("input"));
    Out.IR = emitReduce(B, K, X, axisOf(B), B.flag("keep_dims"), TieBreakLeft);
  }
  return Out;
}

/// standard._pick_sum_dtype: narrow integers are summed in 32 bits of their
/// signedness, and int1 counts as unsigned there (dtype.UINT_TYPES), so a
/// sum of booleans is uint32.
static ElemType sumType(BuiltinCall &B, ElemType E) {
  if (auto D = B.dtype("dtype"))
    return ElemType{*D};
  if (!E.isPointer() && isInt(E.Scalar) && bitWidth(E.Scalar) < 32)
    return ElemType{isUnsigned(E.Scalar) || E.Scalar == ScalarKind::I1 ? ScalarKind::U32 : ScalarKind::I32};
  return E;
}

/// core._promote_bfloat16_to_float32, which max, min, cumsum and cumprod
/// apply to their input first.
static ElemType promoteBf16(ElemType E) {
  return !E.isPointer() && E.Scalar == ScalarKind::BF16 ? ElemType{ScalarKind::FP32} : E;
}

static Value sum(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  auto T = reducedType(B, In, sumType(B, In.Type.Elem));
  return T ? reduced(B, In, *T, ir::ReduceKind::Sum) : Value::poison();
}

static Value maxMin(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  // standard.max / min: with indices only bf16 widens; without, every
  // input narrower than 32 bits does.
  bool Indices =
      B.value("return_indices").isKnownConstexpr() && B.value("return_indices").Const.truthy().value_or(false);
  ElemType Elem = Indices ? promoteBf16(In.Type.Elem) : widenedMinMaxType(In.Type.Elem);
  auto T = reducedType(B, In, Elem);
  if (!T)
    return Value::poison();
  bool IsMax = B.Name == "max";
  if (Indices) {
    bool Left = B.flag("return_indices_tie_break_left", true);
    Value Widened = Value::tensor(TileType{Elem, In.Type.Shape}, {},
                                  B.C.lowerAs(In, TileType{Elem, In.Type.Shape}, B.rangeOf("input")));
    return Value::tuple({reduced(B, Widened, *T, IsMax ? ir::ReduceKind::Max : ir::ReduceKind::Min),
                         reduced(B, Widened, TileType{ElemType{ScalarKind::I32}, T->Shape},
                                 IsMax ? ir::ReduceKind::ArgMax : ir::ReduceKind::ArgMin, Left)});
  }
  return reduced(B, In, *T, IsMax ? ir::ReduceKind::Max : ir::ReduceKind::Min);
}

static Value argMaxMin(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  auto T = reducedType(B, In, ElemType{ScalarKind::I32});
  if (!T)
    return Value::poison();
  // standard.argmax is max(..., return_indices=True)[1]: bf16 widens first.
  Value Widened = In;
  if (B.ir() && !In.Type.Elem.isPointer() && In.Type.Elem.Scalar == ScalarKind::BF16) {
    Widened.Type.Elem = ElemType{ScalarKind::FP32};
    Widened.IR = B.C.lowerAs(In, Widened.Type, B.rangeOf("input"));
  }
  return reduced(B, Widened, *T, B.Name == "argmax" ? ir::ReduceKind::ArgMax : ir::ReduceKind::ArgMin,
                 B.flag("tie_break_left", true));
}

static Value xorSum(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  ScalarKind K = In.Type.Elem.Scalar;
  if (K != ScalarKind::Unknown && (In.Type.Elem.isPointer() || !isInt(K))) {
    B.error(ProblemKind::InvalidOperands, "xor_sum only supported for integers");
    return Value::poison();
  }
  auto T = reducedType(B, In, In.Type.Elem);
  return T ? reduced(B, In, *T, ir::ReduceKind::XorSum) : Value::poison();
}

/// Fills the combine region of a custom reduce / scan by inlining the user's
/// combine_fn on the region's scalar arguments; false when it gives no
/// scalar of the input's type.
static bool emitCombine(BuiltinCall &B, ir::Block *Region, const TileType &Scalar) {
  Value Fn = B.value("combine_fn");
  if (!Fn.isKnownConstexpr() || Fn.Const.kind() != PyValue::Kind::Function)
    return false;
  ir::Builder::InsertionGuard G(*B.ir());
  B.ir()->setInsertionPointToEnd(Region);
  std::vector<Arg> Args = {Arg{Value::tensor(Scalar, {}, Region->argument(0)), nullptr, B.range()},
                           Arg{Value::tensor(Scalar, {}, Region->argument(1)), nullptr, B.range()}};
  Value R = B.C.callJit(*Fn.Const.asFunction(), std::move(Args), {}, B.Call);
  if (!R.isTensor() || !(R.Type == Scalar)) {
    B.ir()->yield(B.range(), {B.C.lowerAs(Value::constant(PyValue::integer(0)), Scalar, B.range())});
    return false;
  }
  B.ir()->yield(B.range(), {B.C.lower(R, B.range())});
  return true;
}

/// Checks a user combine function by inlining it on two scalars of Elem.
static std::optional<ElemType> combineType(BuiltinCall &B, ElemType Elem) {
  Value Fn = B.value("combine_fn");
  if (!Fn.isKnownConstexpr() || Fn.Const.kind() != PyValue::Kind::Function)
    return std::nullopt;
  const ast::FunctionDefStmt *Def = Fn.Const.asFunction();
  Value Scalar = Value::tensor(TileType{Elem, {}});
  std::vector<Arg> Args = {Arg{Scalar, nullptr, B.range()}, Arg{Scalar, nullptr, B.range()}};
  Value R = B.C.callJit(*Def, std::move(Args), {}, B.Call);
  if (!R.isTensor())
    return std::nullopt;
  return R.Type.Elem;
}

static Value reduce(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  if (B.ir()) {
    auto T = reducedType(B, In, In.Type.Elem);
    if (!T)
      return Value::poison();
    std::optional<int64_t> Axis = axisOf(B);
    ir::Value *X = B.C.lower(In, B.rangeOf("input"));
    size_t Rank = In.Type.Shape.size();
    int A = static_cast<int>(normaliseAxis(Axis.value_or(0), Rank).value_or(0));
    if (!Axis) {
      // Every axis: Triton reshapes to 1-D first, as for the built-in kinds.
      X = B.ir()->reshape(B.range(), X, {In.Type.numel().value_or(1)});
      A = 0;
    }
    ir::ReduceOp *Op = B.ir()->customReduce(B.range(), {X}, A);
    TileType Scalar{In.Type.Elem, {}};
    if (!emitCombine(B, Op->combine(), Scalar))
      B.C.loweringLimit(B.range(), "a combine_fn that does not return one scalar of the input's type");
    Value Out = Value::tensor(*T);
    ir::Value *R = Op->result(0);
    if (B.flag("keep_dims"))
      R = Axis ? B.ir()->expandDims(B.range(), R, A) : B.ir()->reshape(B.range(), R, std::vector<int64_t>(Rank, 1));
    Out.IR = R;
    return Out;
  }
  ElemType Elem = combineType(B, In.Type.Elem).value_or(In.Type.Elem);
  auto T = reducedType(B, In, Elem);
  return T ? Value::tensor(*T) : Value::poison();
}

static Value scan(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  ElemType Elem = In.Type.Elem;
  if (B.Name == "cumsum")
    Elem = sumType(B, promoteBf16(Elem));
  else if (B.Name == "cumprod")
    Elem = promoteBf16(Elem);
  if (B.ir()) {
    Value Out = Value::tensor(TileType{Elem, In.Type.Shape});
    int A = static_cast<int>(normaliseAxis(axisOf(B).value_or(0), In.Type.Shape.size()).value_or(0));
    bool Reverse = B.flag("reverse");
    if (B.Name == "associative_scan") {
      ir::ScanOp *Op = B.ir()->customScan(B.range(), {B.C.lower(In, B.rangeOf("input"))}, A, Reverse);
      if (!emitCombine(B, Op->combine(), TileType{In.Type.Elem, {}}))
        B.C.loweringLimit(B.range(), "a combine_fn that does not return one scalar of the input's type");
      Out.IR = Op->result(0);
    } else {
      ir::Value *X = B.C.lowerAs(In, Out.Type, B.rangeOf("input"));
      Out.IR =
          B.ir()->scan(B.range(), B.Name == "cumsum" ? ir::ScanKind::CumSum : ir::ScanKind::CumProd, X, A, Reverse);
    }
    return Out;
  }
  if (B.Name == "associative_scan")
    Elem = combineType(B, In.Type.Elem).value_or(In.Type.Elem);
  return Value::tensor(TileType{Elem, In.Type.Shape});
}

const std::vector<BuiltinEntry> &reductionBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"sum", "input, axis=, keep_dims=, dtype:C=", sum},
      {"max", "input, axis=, return_indices=, return_indices_tie_break_left=, keep_dims=", maxMin},
      {"min", "input, axis=, return_indices=, return_indices_tie_break_left=, keep_dims=", maxMin},
      {"argmax", "input, axis, tie_break_left=, keep_dims=", argMaxMin},
      {"argmin", "input, axis, tie_break_left=, keep_dims=", argMaxMin},
      {"xor_sum", "input, axis=, keep_dims=", xorSum},
      {"reduce", "input, axis:C, combine_fn:C, keep_dims:C=", reduce},
      {"cumsum", "input, axis=, reverse=, dtype:C=", scan},
      {"cumprod", "input, axis=, reverse=", scan},
      {"associative_scan", "input, axis:C, combine_fn:C, reverse:C=", scan},
  };
  return Entries;
}

} // namespace tessel::sema
