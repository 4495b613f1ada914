//===- BuiltinsShape.cpp - program ids, tile creation and reshaping -------===//
/// \file
/// program_id / num_programs, arange / full / zeros, broadcasting, reshape,
/// trans / permute, expand_dims, join / split, gather and casts, with Triton's block
/// shape rules (`validate_block_shape`) and messages.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/MaskFacts.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

namespace tessel::sema {

static bool isPowerOfTwo(int64_t X) { return X >= 0 && (X & (X - 1)) == 0; }

bool KernelChecker::validateShape(const std::vector<int64_t> &Shape, SourceRange R) {
  if (BlockShapeProblem Problem = blockShapeProblem(Shape)) {
    error(ProblemKind::BlockShape, R, std::move(Problem.Message));
    return false;
  }
  return true;
}

Value KernelChecker::broadcastTo(const Value &V, const std::vector<int64_t> &Shape, SourceRange R) {
  if (!V.isTensor())
    return V;
  Value Out = V;
  Out.Type.Shape = Shape;
  Out.DimNames = broadcastDimNames({&V}, Shape);
  Out.Facts = alignFacts(V, Shape.size());
  if (IRB)
    Out.IR = coerce(lower(V, R), Out.Type, R);
  return Out;
}

static Value programIndex(BuiltinCall &B, bool IsProgramId) {
  std::optional<int64_t> Axis = B.constInt("axis");
  if (Axis && (*Axis < 0 || *Axis > 2)) {
    B.error(ProblemKind::ProgramIdAxis, std::string(IsProgramId ? "program_id" : "num_programs") +
                                            " axis must be 0, 1, or 2 but got " + std::to_string(*Axis));
    return Value::poison();
  }
  IndexFacts F;
  // Under a grid of `N // BLOCK` programs the last one starts at or before
  // the last full block: its offsets do not slide past the end.
  const Specialization *Spec = B.C.specialization();
  bool FloorDivided = Spec && Axis && Spec->FloorDividedGridAxes.count(*Axis);
  if (IsProgramId && !FloorDivided) {
    F.DynScalar = true;
    F.Cause = Axis ? programIdCause(*Axis) : std::string("program_id(?)");
  }
  Value V = Value::tensor(TileType{ElemType{ScalarKind::I32}, {}}, std::move(F));
  if (B.ir() && Axis)
    V.IR = IsProgramId ? B.ir()->programId(B.range(), static_cast<int>(*Axis))
                       : B.ir()->numPrograms(B.range(), static_cast<int>(*Axis));
  return V;
}

static Value programId(BuiltinCall &B) { return programIndex(B, true); }
static Value numPrograms(BuiltinCall &B) { return programIndex(B, false); }

static Value arange(BuiltinCall &B) {
  Value S = B.value("start"), E = B.value("end");
  if (!S.isKnownConstexpr() || !E.isKnownConstexpr()) {
    Value V = Value::tensor(TileType{ElemType{ScalarKind::I32}, {TileType::UnknownDim}});
    V.Facts.Axes = {AxisIndex::Arange};
    // tl.arange(0, BLOCK): the dimension is BLOCK's.
    const Arg *End = B.get("end");
    const auto *N = End && End->E && S.isKnownConstexpr() && S.Const.isIntLike() && S.Const.asInt() == 0
                        ? ast::dyn_cast<ast::NameExpr>(End->E)
                        : nullptr;
    if (N)
      V.DimNames = {N->Id};
    return V;
  }
  if (!S.Const.isIntLike() || !E.Const.isIntLike()) {
    B.error(ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr");
    return Value::poison();
  }
  int64_t Start = S.Const.asInt(), End = E.Const.asInt();
  if ((Start >> 32) != 0 || (End >> 32) != 0) {
    B.error(ProblemKind::ArangeRange, "arange must fit in int32");
    return Value::poison();
  }
  if (End <= Start) {
    B.error(ProblemKind::ArangeRange, "arange's end argument must be greater than the start argument");
    return Value::poison();
  }
  int64_t Range = End - Start;
  if (!isPowerOfTwo(Range)) {
    B.error(ProblemKind::ArangeRange, "arange's range must be a power of 2");
    return Value::poison();
  }
  if (!B.C.validateShape({Range}, B.range()))
    return Value::poison();
  Value V = Value::tensor(TileType{ElemType{ScalarKind::I32}, {Range}});
  V.Facts.Axes = {AxisIndex::Arange};
  if (B.ir())
    V.IR = B.ir()->arange(B.range(), Start, End);
  return V;
}

/// The constexprs a literal shape names (`(BLOCK_M, BLOCK_N)`), for the
/// dimensions whose size is unknown.
static std::vector<std::string> shapeNames(BuiltinCall &B, const Value &V) {
  const Arg *A = B.get("shape");
  const ast::Expr *E = A ? A->E : nullptr;
  const std::vector<ast::Expr *> *Elts = nullptr;
  if (const auto *T = E ? ast::dyn_cast<ast::TupleExpr>(E) : nullptr)
    Elts = &T->Elts;
  else if (const auto *L = E ? ast::dyn_cast<ast::ListExpr>(E) : nullptr)
    Elts = &L->Elts;
  if (!V.isTensor() || !Elts || Elts->size() != V.Type.Shape.size())
    return {};
  std::vector<std::string> Names(Elts->size());
  for (size_t I = 0; I < Elts->size(); ++I)
    if (const auto *N = ast::dyn_cast<ast::NameExpr>((*Elts)[I]); N && V.Type.Shape[I] == TileType::UnknownDim)
      Names[I] = N->Id;
  return Names;
}

/// A tile of the `shape` argument's Shape filled with Fill (a constexpr or
/// scalar tensor), cast to Elem.
static Value fullOf(BuiltinCall &B, std::optional<std::vector<int64_t>> Shape, ElemType Elem, const Value &Fill) {
  if (!Shape)
    return Value::poison();
  if (!Shape->empty() && !B.C.validateShape(*Shape, B.range()))
    return Value::poison();
  Value V = Value::tensor(TileType{Elem, *Shape});
  V.DimNames = shapeNames(B, V);
  if (B.ir())
    V.IR = B.C.lowerAs(Fill, V.Type, B.range());
  return V;
}

static ElemType dtypeOrUnknown(BuiltinCall &B, std::string_view Param) {
  if (auto K = B.dtype(Param))
    return ElemType{*K};
  return ElemType{ScalarKind::Unknown};
}

static const Value &zero() {
  static const Value Zero = Value::constant(PyValue::integer(0));
  return Zero;
}

static Value full(BuiltinCall &B) { return fullOf(B, B.shape("shape"), dtypeOrUnknown(B, "dtype"), B.value("value")); }
static Value zeros(BuiltinCall &B) { return fullOf(B, B.shape("shape"), dtypeOrUnknown(B, "dtype"), zero()); }

static Value zerosLike(BuiltinCall &B) {
  Value In = B.value("input");
  if (!In.isTensor())
    return Value::poison();
  Value V = Value::tensor(In.Type);
  if (B.ir())
    V.IR = B.C.lowerAs(zero(), V.Type, B.range());
  return V;
}

static Value broadcastTo(BuiltinCall &B) {
  Value In = B.value("input");
  auto Shape = B.shape("shape");
  if (!Shape || !In.isTensor())
    return Value::poison();
  std::vector<int64_t> From = In.Type.Shape;
  if (From.size() < Shape->size())
    From.insert(From.begin(), Shape->size() - From.size(), 1);
  if (std::string E = checkBroadcastTo(From, *Shape); !E.empty()) {
    B.error(ProblemKind::ShapeMismatch, E);
    return Value::poison();
  }
  return B.C.broadcastTo(In, *Shape, B.range());
}

/// The common shape of two tensor arguments; nullopt (after reporting a
/// mismatch) when they do not broadcast, or when either is not a tensor.
static std::optional<std::vector<int64_t>> commonShape(BuiltinCall &B, const Value &L, const Value &R) {
  if (!L.isTensor() || !R.isTensor())
    return std::nullopt;
  auto Shape = broadcastShapes(L.Type.Shape, R.Type.Shape);
  if (!Shape) {
    B.error(ProblemKind::ShapeMismatch, Shape.Error);
    return std::nullopt;
  }
  return *Shape.Result;
}

static Value broadcastPair(BuiltinCall &B) {
  Value L = B.value("input"), R = B.value("other");
  auto Shape = commonShape(B, L, R);
  if (!Shape)
    return Value::poison();
  return Value::tuple({B.C.broadcastTo(L, *Shape, B.rangeOf("input")), B.C.broadcastTo(R, *Shape, B.rangeOf("other"))});
}

static Value reshape(BuiltinCall &B) {
  Value In = B.value("input");
  auto Shape = B.shape("shape");
  if (!Shape || !In.isTensor())
    return Value::poison();
  auto Old = In.Type.numel(), New = TileType{ElemType{}, *Shape}.numel();
  if (Old && New && *Old != *New) {
    B.error(ProblemKind::ShapeMismatch, "reshape() cannot change total number of elements in tensor");
    return Value::poison();
  }
  if (!B.C.validateShape(*Shape, B.range()))
    return Value::poison();
  Value V = Value::tensor(TileType{In.Type.Elem, *Shape});
  if (B.ir())
    V.IR = B.ir()->reshape(B.range(), B.lower("input"), *Shape);
  return V;
}

static Value ravel(BuiltinCall &B) {
  Value In = B.value("x");
  if (!In.isTensor())
    return Value::poison();
  auto N = In.Type.numel();
  Value V = Value::tensor(TileType{In.Type.Elem, {N ? *N : TileType::UnknownDim}});
  if (B.ir() && N)
    V.IR = B.ir()->reshape(B.range(), B.lower("x"), {*N});
  return V;
}

static Value permute(BuiltinCall &B) {
  Value In = B.value("input");
  if (!In.isTensor())
    return Value::poison();
  size_t Rank = In.Type.Shape.size();
  std::vector<int64_t> Order;
  auto Dims = B.shape("dims");
  if (!Dims)
    return Value::poison();
  Order = *Dims;
  if (Order.empty()) {
    if (Rank != 2 && B.Name == "trans") {
      Order.resize(Rank);
      std::iota(Order.rbegin(), Order.rend(), 0);
    } else {
      Order = {1, 0};
    }
  }
  // semantic.permute's two checks, in its order and words.
  if (Order.size() != Rank) {
    B.error(ProblemKind::ShapeMismatch, "permute dims must have the same length as input shape");
    return Value::poison();
  }
  if (std::find(Order.begin(), Order.end(), TileType::UnknownDim) != Order.end())
    return Value::tensor(TileType{In.Type.Elem, std::vector<int64_t>(Rank, TileType::UnknownDim)});
  std::vector<int64_t> Sorted = Order;
  std::sort(Sorted.begin(), Sorted.end());
  for (size_t I = 0; I < Rank; ++I) {
    if (Sorted[I] == static_cast<int64_t>(I))
      continue;
    std::string Were = "[";
    for (size_t J = 0; J < Order.size(); ++J)
      Were += (J ? ", " : "") + std::string("'constexpr[") + std::to_string(Order[J]) + "]'";
    B.error(ProblemKind::ShapeMismatch, "permute dims must be a permutation of 0, 1, ..., n-1, but were " + Were + "]");
    return Value::poison();
  }
  std::vector<int64_t> Shape(Rank);
  for (size_t I = 0; I < Rank; ++I)
    Shape[I] = In.Type.Shape[Order[I]];
  Value V = Value::tensor(TileType{In.Type.Elem, Shape}, permuteFacts(In.Facts, Order));
  if (B.ir())
    V.IR = B.ir()->permute(B.range(), B.lower("input"), Order);
  return V;
}

/// core.expand_dims: `to_tensor(input)`, then each axis (an int or a tuple
/// of ints) wrapped against the result's rank and inserted in sorted order.
static Value expandDims(BuiltinCall &B) {
  Value In = B.value("input");
  if (In.isKnownConstexpr()) {
    const PyValue &C = In.Const;
    if (C.isNone() || C.isStr()) {
      B.error(ProblemKind::InvalidOperands, "cannot convert " + (C.isNone() ? std::string("None") : C.asStr()) +
                                                " of type <class '" + (C.isNone() ? "NoneType" : "str") +
                                                "'> to tensor");
      return Value::poison();
    }
    if (C.isNumber())
      In = B.C.toTensor(In, B.rangeOf("input"));
  }
  if (!In.isTensor())
    return Value::poison();
  Value AxisV = B.value("axis");
  std::vector<int64_t> Axes;
  if (AxisV.isKnownConstexpr() && AxisV.Const.kind() == PyValue::Kind::Tuple) {
    for (const PyValue &E : AxisV.Const.elements()) {
      if (!E.isIntLike())
        return Value::poison();
      Axes.push_back(E.asInt());
    }
  } else if (std::optional<int64_t> Axis = B.constInt("axis")) {
    Axes.push_back(*Axis);
  } else {
    return Value::poison();
  }
  size_t Rank = In.Type.Shape.size();
  int64_t NewRank = static_cast<int64_t>(Rank + Axes.size());
  std::vector<size_t> Wrapped;
  for (int64_t Axis : Axes) {
    auto A = normaliseAxis(Axis, static_cast<size_t>(NewRank));
    if (!A) {
      // core._wrap_axis, against the rank of the result.
      B.error(ProblemKind::ShapeMismatch, "invalid axis " + std::to_string(Axis) + ". Expected " +
                                              std::to_string(-NewRank) + " <= axis < " + std::to_string(NewRank));
      return Value::poison();
    }
    Wrapped.push_back(*A);
  }
  std::vector<size_t> Sorted = Wrapped;
  std::sort(Sorted.begin(), Sorted.end());
  if (std::adjacent_find(Sorted.begin(), Sorted.end()) != Sorted.end()) {
    std::string List;
    for (size_t A : Wrapped)
      List += (List.empty() ? "" : ", ") + std::to_string(A);
    B.error(ProblemKind::ShapeMismatch, "expand_dims received duplicate axes, normalized axes = [" + List + "]");
    return Value::poison();
  }
  std::vector<int64_t> Shape = In.Type.Shape;
  IndexFacts Facts = In.Facts;
  ir::Value *IR = B.ir() ? B.C.lower(In, B.rangeOf("input")) : nullptr;
  for (size_t A : Sorted) {
    Shape.insert(Shape.begin() + static_cast<std::ptrdiff_t>(A), 1);
    Facts = insertAxis(Facts, A);
    if (IR)
      IR = B.ir()->expandDims(B.range(), IR, static_cast<int>(A));
  }
  Value V = Value::tensor(TileType{In.Type.Elem, Shape}, Facts);
  V.IR = IR;
  return V;
}

static Value join(BuiltinCall &B) {
  Value L = B.value("a"), R = B.value("b");
  auto Shape = commonShape(B, L, R);
  if (!Shape)
    return Value::poison();
  std::vector<int64_t> Out = *Shape;
  Out.push_back(2);
  Value V = Value::tensor(TileType{L.Type.Elem, Out});
  if (B.ir())
    V.IR = B.ir()->join(B.range(), B.lowerAs("a", TileType{L.Type.Elem, *Shape}),
                        B.lowerAs("b", TileType{L.Type.Elem, *Shape}));
  return V;
}

/// standard.interleave: join, then the last two dimensions as one (two
/// scalars stay the joined pair).
static Value interleave(BuiltinCall &B) {
  Value J = join(B);
  if (!J.isTensor() || J.Type.Shape.size() < 2)
    return J;
  std::vector<int64_t> Shape(J.Type.Shape.begin(), J.Type.Shape.end() - 2);
  int64_t Last = J.Type.Shape[J.Type.Shape.size() - 2];
  Shape.push_back(Last == TileType::UnknownDim ? Last : 2 * Last);
  Value V = Value::tensor(TileType{J.Type.Elem, Shape});
  if (B.ir() && J.IR)
    V.IR = B.ir()->reshape(B.range(), J.IR, Shape);
  return V;
}

static Value split(BuiltinCall &B) {
  Value In = B.value("a");
  if (!In.isTensor())
    return Value::poison();
  const std::vector<int64_t> &S = In.Type.Shape;
  if (S.empty() || (S.back() != 2 && S.back() != TileType::UnknownDim)) {
    B.error(ProblemKind::ShapeMismatch, "split(): the last dimension must be 2, got " +
                                            (S.empty() ? std::string("a scalar") : In.Type.tritonStr()));
    return Value::poison();
  }
  Value Half = Value::tensor(TileType{In.Type.Elem, std::vector<int64_t>(S.begin(), S.end() - 1)});
  Value Other = Half;
  if (B.ir())
    std::tie(Half.IR, Other.IR) = B.ir()->split(B.range(), B.lower("a"));
  return Value::tuple({Half, Other});
}

/// semantic.gather: its assertions in its order, with its messages (the
/// last names the gather axis where it means the mismatched dimension, as
/// Triton 3.6's does).
static Value gather(BuiltinCall &B) {
  const Value &Src = B.value("src"), &Index = B.value("index");
  if (!Src.isTensor() || !Index.isTensor())
    return Value::poison();
  if (Index.Type.Elem.isPointer() || !isInt(Index.Type.Elem.Scalar)) {
    B.error(ProblemKind::InvalidOperands, "index must be an integer tensor");
    return Value::poison();
  }
  const std::vector<int64_t> &SrcShape = Src.Type.Shape, &IdxShape = Index.Type.Shape;
  int64_t Rank = static_cast<int64_t>(SrcShape.size());
  if (IdxShape.size() != SrcShape.size()) {
    B.error(ProblemKind::ShapeMismatch, "source and index tensors must have the same rank");
    return Value::poison();
  }
  std::optional<int64_t> Axis = B.constInt("axis");
  if (!Axis)
    return Value::poison();
  if (*Axis < -Rank || *Axis >= Rank) {
    B.error(ProblemKind::ShapeMismatch,
            "gather axis " + std::to_string(*Axis) + " must be < source rank (" + std::to_string(Rank) + ")");
    return Value::poison();
  }
  int64_t A = *Axis < 0 ? *Axis + Rank : *Axis;
  for (int64_t D = 0; D < Rank; ++D) {
    int64_t S = SrcShape[static_cast<size_t>(D)], I = IdxShape[static_cast<size_t>(D)];
    if (D != A && S != TileType::UnknownDim && I != TileType::UnknownDim && S != I) {
      B.error(ProblemKind::ShapeMismatch,
              "index dim " + std::to_string(*Axis) + " must match the corresponding source dim");
      return Value::poison();
    }
  }
  Value V = Value::tensor(TileType{Src.Type.Elem, IdxShape});
  if (B.ir())
    V.IR = B.ir()->gather(B.range(), B.lower("src"), B.lower("index"), static_cast<int>(A));
  return V;
}

std::string pointerTypePath(ScalarKind Pointee) {
  return "triton.language.pointer_type(" + std::string(languageName(Pointee)) + ")";
}

std::optional<ElemType> pointerTypeFromPath(std::string_view Path) {
  constexpr std::string_view Prefix = "triton.language.pointer_type(";
  if (Path.substr(0, Prefix.size()) != Prefix || Path.back() != ')')
    return std::nullopt;
  std::optional<ScalarKind> K = scalarKindFromLanguageName(Path.substr(Prefix.size(), Path.size() - Prefix.size() - 1));
  if (!K)
    return std::nullopt;
  return ElemType{*K, 1};
}

/// core.pointer_type(element_ty): a dtype `.to()` and tl.cast accept (an
/// int64 address loaded from a table of pointers becomes a pointer).
static Value pointerType(BuiltinCall &B) {
  std::optional<ScalarKind> K = B.dtype("element_ty");
  return Value::constant(K ? PyValue::qualified(pointerTypePath(*K)) : PyValue());
}

static Value cast(BuiltinCall &B) {
  Value In = B.value("input");
  if (In.isConstexpr())
    In = B.C.toTensor(In, B.rangeOf("input"));
  if (!In.isTensor())
    return Value::poison();
  std::optional<ElemType> K = B.elemType("dtype");
  Value Out = In;
  Out.Facts.MaskBounds.clear();
  Out.Facts.BoundedScalars.clear();
  if (!K) {
    Out.Type.Elem = ElemType{ScalarKind::Unknown};
    return Out;
  }
  const ElemType Src = In.Type.Elem;
  const ElemType Dst = *K;
  // A mask cast between integer types through int1 keeps which lanes are on
  // (`(offs < n).to(tl.int1)`, `m.to(tl.int8).to(tl.int1)`: a bool becomes
  // 0 or 1, and a cast to int1 is `!= 0`), so it keeps the axes it bounds.
  if (!Src.isPointer() && !Dst.isPointer() && isInt(Src.Scalar) && isInt(Dst.Scalar) &&
      (Src.Scalar == ScalarKind::I1 || Dst.Scalar == ScalarKind::I1)) {
    Out.Facts.MaskBounds = In.Facts.MaskBounds;
    Out.Facts.BoundedScalars = In.Facts.BoundedScalars;
  }
  bool SrcKnown = Src.isPointer() || Src.Scalar != ScalarKind::Unknown;
  Value Bitcast = B.value("bitcast");
  if (Bitcast.isKnownConstexpr() && Bitcast.Const.truthy().value_or(false)) {
    // semantic.bitcast: pointers go through cast; other types keep their size.
    if (SrcKnown && !Src.isPointer() && !Dst.isPointer() && !(Src == Dst) &&
        bitWidth(Src.Scalar) != bitWidth(Dst.Scalar)) {
      B.error(ProblemKind::InvalidOperands, "Cannot bitcast data-type of size " + std::to_string(bitWidth(Src.Scalar)) +
                                                " to data-type of size " + std::to_string(bitWidth(Dst.Scalar)));
      return Value::poison();
    }
  } else if (SrcKnown && !(Src == Dst)) {
    // semantic.cast: a rounding mode is for truncating fp conversions only.
    Value Rounding = B.value("fp_downcast_rounding");
    if (Rounding.isKnownConstexpr() && Rounding.Const.isStr()) {
      const std::string &Mode = Rounding.Const.asStr();
      if (Mode != "rtne" && Mode != "rtz") {
        B.error(ProblemKind::InvalidOperands,
                "Invalid rounding mode: " + Mode + ". Supported rounding modes are 'rtne' and 'rtz'.");
        return Value::poison();
      }
      bool Truncating =
          !Src.isPointer() && isFloat(Src.Scalar) && isFloat(Dst.Scalar) && bitWidth(Dst.Scalar) < bitWidth(Src.Scalar);
      if (!Truncating) {
        B.error(ProblemKind::InvalidOperands,
                "fp_downcast_rounding should be set only for truncating fp conversions. Source scalar type is " +
                    (Src.isPointer() ? Src.str() : std::string(shortName(Src.Scalar))) + " and destination type is " +
                    std::string(shortName(Dst.Scalar)));
        return Value::poison();
      }
    }
  }
  Out.Type.Elem = Dst;
  if (B.ir()) {
    ir::Value *X = B.C.lower(In, B.rangeOf("input"));
    bool IsBitcast = Bitcast.isKnownConstexpr() && Bitcast.Const.truthy().value_or(false);
    bool PointerCast = X->type().Elem.isPointer() != Dst.isPointer();
    if (X->type().Elem == Dst)
      Out.IR = X;
    else if (PointerCast && isFloat(X->type().Elem.isPointer() ? Dst.Scalar : X->type().Elem.Scalar)) {
      B.C.loweringLimit(B.range(), "a cast between a pointer and a float");
      return Value::poison();
    } else if (PointerCast && !Dst.isPointer() && Dst.Scalar != ScalarKind::I1 && Dst.Scalar != ScalarKind::I64)
      // semantic.cast: a pointer becomes an int64 first.
      Out.IR = B.ir()->cast(B.range(), B.ir()->cast(B.range(), X, ElemType{ScalarKind::I64}), Dst);
    else if (IsBitcast && !Src.isPointer())
      Out.IR = B.ir()->bitcast(B.range(), X, Dst);
    else
      Out.IR = B.ir()->cast(B.range(), X, Dst,
                            B.str("fp_downcast_rounding") == "rtz" ? ir::RoundingMode::RTZ : ir::RoundingMode::RTNE);
  }
  return Out;
}

static Value cdiv(BuiltinCall &B) {
  Value X = B.value("x"), D = B.value("div");
  Value Sum = B.C.binaryOp(ast::BinOpKind::Add, X, D, B.range());
  Value Dec = B.C.binaryOp(ast::BinOpKind::Sub, Sum, Value::constant(PyValue::integer(1)), B.range());
  Value Out = B.C.binaryOp(ast::BinOpKind::FloorDiv, Dec, D, B.range());
  // standard.cdiv is a @jit function: a constexpr result decays to a tensor
  // at its return (visit_Return), so tl.cdiv(BLOCK, 16) cannot size a tile.
  if (Out.isKnownConstexpr() && Out.Const.isNumber())
    return B.C.toTensor(Out, B.range());
  return Out;
}

/// standard.swizzle2d, the @jit function, step by step: the row-major index
/// (i, j) of a size_i x size_j grid renumbered so that groups of size_g rows
/// are walked column by column (the last group may have fewer rows).
static Value swizzle2d(BuiltinCall &B) {
  using ast::BinOpKind;
  SourceRange R = B.range();
  auto Op = [&](BinOpKind K, const Value &L, const Value &Rhs) { return B.C.binaryOp(K, L, Rhs, R); };
  Value SizeJ = B.value("size_j"), SizeG = B.value("size_g");
  Value IJ = Op(BinOpKind::Add, Op(BinOpKind::Mult, B.value("i"), SizeJ), B.value("j"));
  Value SizeGJ = Op(BinOpKind::Mult, SizeG, SizeJ);
  Value OffI = Op(BinOpKind::Mult, Op(BinOpKind::FloorDiv, IJ, SizeGJ), SizeG);
  Value Rows = Op(BinOpKind::Sub, B.value("size_i"), OffI);
  std::vector<Arg> MinArgs{Arg{B.C.toTensor(Rows, R), nullptr, R}, Arg{B.C.toTensor(SizeG, R), nullptr, R}};
  Value G = callLanguageBuiltin(B.C, "minimum", B.Call, std::move(MinArgs), {});
  IJ = Op(BinOpKind::Mod, IJ, SizeGJ);
  Value NewI = Op(BinOpKind::Add, OffI, Op(BinOpKind::Mod, IJ, G));
  Value NewJ = Op(BinOpKind::FloorDiv, IJ, G);
  if (NewI.isPoison() || NewJ.isPoison())
    return Value::poison();
  return Value::tuple({B.C.toTensor(NewI, R), B.C.toTensor(NewJ, R)});
}

const std::vector<BuiltinEntry> &shapeBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"program_id", "axis:C", programId},
      {"num_programs", "axis:C", numPrograms},
      {"arange", "start:C, end:C", arange},
      {"full", "shape:C, value, dtype:C", full},
      {"zeros", "shape:C, dtype:C", zeros},
      {"zeros_like", "input", zerosLike},
      {"broadcast_to", "input, *shape:C", broadcastTo},
      {"broadcast", "input, other", broadcastPair},
      {"reshape", "input, *shape:C, can_reorder:C=", reshape},
      {"view", "input, *shape:C", reshape},
      {"ravel", "x, can_reorder=", ravel},
      {"trans", "input, *dims:C", permute},
      {"permute", "input, *dims:C", permute},
      {"expand_dims", "input, axis:C", expandDims},
      {"join", "a, b", join},
      {"interleave", "a, b", interleave},
      {"split", "a", split},
      {"gather", "src, index, axis:C", gather},
      {"cast", "input, dtype:C, fp_downcast_rounding:C=, bitcast:C=", cast},
      {"pointer_type", "element_ty:C, address_space:C=, const:C=", pointerType},
      {"to", "input, dtype:C, fp_downcast_rounding:C=, bitcast:C=", cast},
      {"cdiv", "x, div", cdiv},
      {"swizzle2d", "i, j, size_i, size_j, size_g", swizzle2d},
  };
  return Entries;
}

} // namespace tessel::sema
