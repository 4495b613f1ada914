//===- BuiltinsReduce.cpp - reductions and scans --------------------------===//
/// \file
/// sum / max / min / argmax / argmin / xor_sum / reduce_or / reduce, the scans
/// and histogram, with Triton's axis handling and result types (narrow
/// integers summed as 32-bit), and user combine functions checked by
/// inlining them on scalars.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/MaskFacts.h"
#include "compiler/sema/Promotion.h"

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

/// A reduction standard.py allows on integers only (its static_assert),
/// in the input's type: xor_sum, reduce_or.
static Value integerReduction(BuiltinCall &B, ir::ReduceKind Kind, ProblemKind Problem) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  ScalarKind K = In.Type.Elem.Scalar;
  if (K != ScalarKind::Unknown && (In.Type.Elem.isPointer() || !isInt(K))) {
    B.error(Problem, B.Name + " only supported for integers");
    return Value::poison();
  }
  auto T = reducedType(B, In, In.Type.Elem);
  return T ? reduced(B, In, *T, Kind) : Value::poison();
}

static Value xorSum(BuiltinCall &B) {
  return integerReduction(B, ir::ReduceKind::XorSum, ProblemKind::InvalidOperands);
}

static Value reduceOr(BuiltinCall &B) { return integerReduction(B, ir::ReduceKind::Or, ProblemKind::StaticAssert); }

/// The operands of a custom reduce / scan: `input` is one tensor or, as
/// core.reduce and core.associative_scan take it, a tuple of tensors that the
/// combine function sees side by side. Empty after a non-tensor operand.
struct Operands {
  std::vector<Value> Tensors;
  bool Tuple = false;
};

static Operands operands(BuiltinCall &B) {
  Operands Ops;
  Value In = B.value("input");
  Ops.Tuple = In.K == Value::Kind::Tuple;
  for (const Value &V : Ops.Tuple ? In.Elts : std::vector<Value>{In}) {
    Value T = B.C.toTensor(V, B.rangeOf("input"));
    if (!T.isTensor())
      return {};
    Ops.Tensors.push_back(std::move(T));
  }
  return Ops;
}

/// The scalar of each operand, as the combine function receives it.
static std::vector<TileType> scalarsOf(const Operands &Ops) {
  std::vector<TileType> S;
  for (const Value &V : Ops.Tensors)
    S.push_back(TileType{V.Type.Elem, {}});
  return S;
}

/// The combine function's results as a list: one tensor, or a tuple of them
/// (make_combine_region takes either).
static std::vector<Value> combineResults(const Value &R) {
  if (R.K == Value::Kind::Tuple)
    return R.Elts;
  return {R};
}

/// Calls the user's combine_fn on Left then Right (one scalar per operand).
static std::optional<std::vector<Value>> callCombine(BuiltinCall &B, std::vector<Value> Left,
                                                     std::vector<Value> Right) {
  Value Fn = B.value("combine_fn");
  if (!Fn.isKnownConstexpr() || Fn.Const.kind() != PyValue::Kind::Function)
    return std::nullopt;
  std::vector<Arg> Args;
  for (std::vector<Value> *Side : {&Left, &Right})
    for (Value &V : *Side)
      Args.push_back(Arg{std::move(V), nullptr, B.range()});
  return combineResults(B.C.callJit(*Fn.Const.asFunction(), std::move(Args), {}, B.Call));
}

/// Fills the combine region of a custom reduce / scan by inlining the user's
/// combine_fn on the region's scalar arguments; false when it does not give
/// one scalar of each operand's type.
static bool emitCombine(BuiltinCall &B, ir::Block *Region, const std::vector<TileType> &Scalars) {
  ir::Builder::InsertionGuard G(*B.ir());
  B.ir()->setInsertionPointToEnd(Region);
  size_t N = Scalars.size();
  std::vector<Value> Left, Right;
  for (size_t I = 0; I < N; ++I) {
    Left.push_back(Value::tensor(Scalars[I], {}, Region->argument(static_cast<unsigned>(I))));
    Right.push_back(Value::tensor(Scalars[I], {}, Region->argument(static_cast<unsigned>(N + I))));
  }
  auto Results = callCombine(B, std::move(Left), std::move(Right));
  bool Ok = Results && Results->size() == N;
  for (size_t I = 0; Ok && I < N; ++I)
    Ok = (*Results)[I].isTensor() && (*Results)[I].Type == Scalars[I] && (*Results)[I].IR;
  std::vector<ir::Value *> Yield;
  for (size_t I = 0; I < N; ++I)
    Yield.push_back(Ok ? B.C.lower((*Results)[I], B.range())
                       : B.C.lowerAs(Value::constant(PyValue::integer(0)), Scalars[I], B.range()));
  B.ir()->yield(B.range(), Yield);
  B.ir()->eraseDeadValueOps(Region);
  if (!Ok)
    B.C.loweringLimit(B.range(), N == 1 ? "a combine_fn that does not return one scalar of the input's type"
                                        : "a combine_fn that does not return one scalar of each input's type");
  return Ok;
}

/// Checks a user combine function by inlining it on scalars of the operands'
/// types (no IR): its errors are reported at their tokens.
static void checkCombine(BuiltinCall &B, const std::vector<TileType> &Scalars) {
  std::vector<Value> Left, Right;
  for (const TileType &S : Scalars) {
    Left.push_back(Value::tensor(S));
    Right.push_back(Value::tensor(S));
  }
  callCombine(B, std::move(Left), std::move(Right));
}

/// One result Value per operand, or the single one when input was a tensor.
static Value packResults(const Operands &Ops, std::vector<Value> Results) {
  if (!Ops.Tuple && Results.size() == 1)
    return std::move(Results[0]);
  return Value::tuple(std::move(Results));
}

static Value reduce(BuiltinCall &B) {
  Operands Ops = operands(B);
  if (Ops.Tensors.empty())
    return Value::poison();
  // semantic.reduction: every result has its operand's scalar type, and the
  // shape of the first operand reduced.
  const Value &First = Ops.Tensors[0];
  std::vector<Value> Results;
  for (const Value &In : Ops.Tensors) {
    auto T = reducedType(B, In, In.Type.Elem);
    if (!T)
      return Value::poison();
    Value Out = Value::tensor(*T);
    Out.DimNames = reducedNames(B, In);
    Results.push_back(std::move(Out));
  }
  if (!B.ir()) {
    checkCombine(B, scalarsOf(Ops));
    return packResults(Ops, std::move(Results));
  }
  std::optional<int64_t> Axis = axisOf(B);
  size_t Rank = First.Type.Shape.size();
  int A = static_cast<int>(normaliseAxis(Axis.value_or(0), Rank).value_or(0));
  std::vector<ir::Value *> Xs;
  for (const Value &In : Ops.Tensors) {
    ir::Value *X = B.C.lower(In, B.rangeOf("input"));
    // Every axis: Triton reshapes to 1-D first, as for the built-in kinds.
    if (!Axis)
      X = B.ir()->reshape(B.range(), X, {In.Type.numel().value_or(1)});
    Xs.push_back(X);
  }
  if (!Axis)
    A = 0;
  ir::ReduceOp *Op = B.ir()->customReduce(B.range(), Xs, A);
  emitCombine(B, Op->combine(), scalarsOf(Ops));
  for (size_t I = 0; I < Results.size(); ++I) {
    ir::Value *R = Op->result(static_cast<unsigned>(I));
    if (B.flag("keep_dims"))
      R = Axis ? B.ir()->expandDims(B.range(), R, A) : B.ir()->reshape(B.range(), R, std::vector<int64_t>(Rank, 1));
    Results[I].IR = R;
  }
  return packResults(Ops, std::move(Results));
}

static Value associativeScan(BuiltinCall &B) {
  Operands Ops = operands(B);
  if (Ops.Tensors.empty())
    return Value::poison();
  std::vector<Value> Results;
  for (const Value &In : Ops.Tensors) {
    Value Out = Value::tensor(In.Type);
    Out.DimNames = In.DimNames;
    Results.push_back(std::move(Out));
  }
  if (!B.ir()) {
    checkCombine(B, scalarsOf(Ops));
    return packResults(Ops, std::move(Results));
  }
  int A = static_cast<int>(normaliseAxis(axisOf(B).value_or(0), Ops.Tensors[0].Type.Shape.size()).value_or(0));
  std::vector<ir::Value *> Xs;
  for (const Value &In : Ops.Tensors)
    Xs.push_back(B.C.lower(In, B.rangeOf("input")));
  ir::ScanOp *Op = B.ir()->customScan(B.range(), Xs, A, B.flag("reverse"));
  emitCombine(B, Op->combine(), scalarsOf(Ops));
  for (size_t I = 0; I < Results.size(); ++I)
    Results[I].IR = Op->result(static_cast<unsigned>(I));
  return packResults(Ops, std::move(Results));
}

/// cumsum and cumprod.
static Value scan(BuiltinCall &B) {
  Value In = input(B);
  if (!In.isTensor())
    return Value::poison();
  ElemType Elem = In.Type.Elem;
  if (B.Name == "cumsum")
    Elem = sumType(B, promoteBf16(Elem));
  else
    Elem = promoteBf16(Elem);
  Value Out = Value::tensor(TileType{Elem, In.Type.Shape});
  Out.DimNames = In.DimNames;
  if (B.ir()) {
    int A = static_cast<int>(normaliseAxis(axisOf(B).value_or(0), In.Type.Shape.size()).value_or(0));
    ir::Value *X = B.C.lowerAs(In, Out.Type, B.rangeOf("input"));
    Out.IR = B.ir()->scan(B.range(), B.Name == "cumsum" ? ir::ScanKind::CumSum : ir::ScanKind::CumProd, X, A,
                          B.flag("reverse"));
  }
  return Out;
}

/// core.histogram / semantic.histogram: a 1-D integer input, a mask
/// broadcast to it, an int32 tile of num_bins (a block shape, so a power of
/// 2 within TRITON_MAX_TENSOR_NUMEL, as block_type's validation requires).
static Value histogram(BuiltinCall &B) {
  const Value &X = B.value("input");
  if (!X.isTensor())
    return Value::poison();
  if (X.Type.Shape.size() != 1) {
    B.error(ProblemKind::ShapeMismatch, "histogram only supports 1D input");
    return Value::poison();
  }
  if (X.Type.Elem.isPointer() || !isInt(X.Type.Elem.Scalar)) {
    B.error(ProblemKind::InvalidOperands, "histogram only supports integer input");
    return Value::poison();
  }
  bool Masked = B.present("mask");
  const Value &M = B.value("mask");
  if (Masked) {
    if (M.isPoison())
      return Value::poison();
    if (M.isBlock()) {
      if (std::string E = checkBroadcastTo(M.Type.Shape, X.Type.Shape); !E.empty()) {
        B.error(ProblemKind::ShapeMismatch, E);
        return Value::poison();
      }
    }
    bool Bool = M.isTensor() ? (!M.Type.Elem.isPointer() && M.Type.Elem.Scalar == ScalarKind::I1)
                             : M.isKnownConstexpr() && M.Const.isBool();
    if (!Bool && (M.isTensor() || M.isKnownConstexpr())) {
      B.error(ProblemKind::InvalidOperands, "Mask must have boolean scalar type");
      return Value::poison();
    }
  }
  std::optional<int64_t> Bins = B.constInt("num_bins");
  if (!Bins)
    return Value::poison();
  // validate_block_shape lets 0 through (`0 & -1 == 0`); what fails then is
  // not Triton's front end.
  if (*Bins == 0 || !B.C.validateShape({*Bins}, B.range()))
    return Value::poison();
  Value V = Value::tensor(TileType{ElemType{ScalarKind::I32}, {*Bins}});
  if (!B.ir())
    return V;
  if (X.Type.Shape[0] == TileType::UnknownDim) {
    B.C.loweringLimit(B.range(), "tl.histogram of an input of unknown size");
    return Value::poison();
  }
  ir::Value *Mask = Masked ? B.lowerAs("mask", TileType{ElemType{ScalarKind::I1}, X.Type.Shape}) : nullptr;
  V.IR = B.ir()->histogram(B.range(), B.lower("input"), *Bins, Mask);
  return V;
}

const std::vector<BuiltinEntry> &reductionBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"sum", "input, axis=, keep_dims=, dtype:C=", sum},
      {"max", "input, axis=, return_indices=, return_indices_tie_break_left=, keep_dims=", maxMin},
      {"min", "input, axis=, return_indices=, return_indices_tie_break_left=, keep_dims=", maxMin},
      {"argmax", "input, axis, tie_break_left=, keep_dims=", argMaxMin},
      {"argmin", "input, axis, tie_break_left=, keep_dims=", argMaxMin},
      {"xor_sum", "input, axis=, keep_dims=", xorSum},
      {"reduce_or", "input, axis, keep_dims=", reduceOr},
      {"reduce", "input, axis:C, combine_fn:C, keep_dims:C=", reduce},
      {"cumsum", "input, axis=, reverse=, dtype:C=", scan},
      {"cumprod", "input, axis=, reverse=", scan},
      {"associative_scan", "input, axis:C, combine_fn:C, reverse:C=", associativeScan},
      {"histogram", "input, num_bins:C, mask=", histogram},
  };
  return Entries;
}

} // namespace tessel::sema
