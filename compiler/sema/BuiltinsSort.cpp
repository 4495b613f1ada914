//===- BuiltinsSort.cpp - sort, topk, bitonic_merge and flip --------------===//
/// \file
/// Triton 3.6 writes its sort family in Python (standard.py: sort_impl,
/// _bitonic_merge_hypercube, _compare_and_swap, flip) on top of reshape,
/// xor_sum, where and max/min. These handlers emit exactly that network of
/// ops, so the IR, the registers it needs and the interpreter's results are
/// those of Triton's own code: the tile is reshaped to a hypercube of 2s,
/// a partner's value is `x ^ xor_sum(x, axis, keep_dims=True)` on the bits,
/// and each compare-and-swap keeps the smaller or larger of the pair.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

namespace tessel::sema {

namespace {

/// The ops of standard.py's bitonic network, on one call's source range.
class Network {
public:
  explicit Network(BuiltinCall &B) : B(B), IRB(*B.ir()), R(B.range()) {}

  /// standard._indicator: `arange(0, 2)` standing on dimension J counted from
  /// the innermost of NDims.
  ir::Value *indicator(size_t NDims, size_t J) {
    std::vector<int64_t> Shape(NDims, 1);
    Shape[NDims - 1 - J] = 2;
    return IRB.reshape(R, IRB.arange(R, 0, 2), Shape);
  }

  /// X ^ xor_sum(X, Axis, keep_dims=True): each element's partner along Axis
  /// of a hypercube (Axis has size 2), as integers of X's width.
  ir::Value *partnerBits(ir::Value *X, int64_t Axis) {
    ir::Value *Sum = emitReduce(B, ir::ReduceKind::XorSum, X, Axis, true);
    return IRB.binary(R, ir::OpKind::Xor, X, full(Sum, X->type().Shape));
  }

  /// standard._compare_and_swap on the Ith innermost dimension. Flip is an
  /// int32 tile of the hypercube's rank (the alternating order) or nullptr
  /// for the constant FlipConst.
  ir::Value *compareAndSwap(ir::Value *X, ir::Value *Flip, int64_t FlipConst, size_t I) {
    const TileType T = X->type();
    size_t NDims = T.Shape.size();
    ElemType IntE{*intDtype(bitWidth(T.Elem.Scalar), true)};
    ir::Value *IY = partnerBits(bitcastTo(X, IntE), static_cast<int64_t>(NDims - 1 - I));
    ir::Value *Y = bitcastTo(IY, T.Elem);
    ir::Value *Right = full(indicator(NDims, I), T.Shape);
    ir::Value *Side = Flip        ? IRB.binary(R, ir::OpKind::Xor, full(Flip, T.Shape), Right)
                      : FlipConst ? IRB.binary(R, ir::OpKind::Xor, constant(FlipConst, T.Shape), Right)
                                  : Right;
    // `(x > y) != (flip ^ is_right)`: the comparison's i1 widened to int32.
    ir::Value *Greater = IRB.cast(R, IRB.cmp(R, ir::CmpPredicate::GT, X, Y), ElemType{ScalarKind::I32});
    ir::Value *Swap = IRB.cmp(R, ir::CmpPredicate::NE, Greater, Side);
    return IRB.select(R, Swap, Y, X);
  }

  /// standard._bitonic_merge_hypercube; Order 0 ascending, 1 descending,
  /// 2 alternating.
  ir::Value *mergeHypercube(ir::Value *X, size_t Stage, int64_t Order) {
    size_t NDims = X->type().Shape.size();
    ir::Value *Flip = Order == 2 ? indicator(NDims, Stage) : nullptr;
    for (size_t I = 0; I < Stage; ++I)
      X = compareAndSwap(X, Flip, Order == 2 ? 0 : Order, Stage - 1 - I);
    return X;
  }

  /// standard.max / standard.min without indices along Axis: narrow types
  /// widened first, as those functions do.
  ir::Value *extremum(ir::Value *X, int64_t Axis, bool Max) {
    ElemType Wide = widenedMinMaxType(X->type().Elem);
    if (!(Wide == X->type().Elem))
      X = IRB.cast(R, X, Wide);
    return emitReduce(B, Max ? ir::ReduceKind::Max : ir::ReduceKind::Min, X, Axis, false);
  }

  /// standard.py's sort_impl / _bitonic_merge: X reshaped to a hypercube of
  /// 2s (`[1]` for a single element).
  ir::Value *hypercube(const Value &X) {
    size_t NDims = static_cast<size_t>(standardLog2(*X.Type.numel()));
    return reshape(B.C.lowerAs(X, X.Type, B.rangeOf("x")),
                   NDims ? std::vector<int64_t>(NDims, 2) : std::vector<int64_t>{1});
  }

  ir::Value *bitcastTo(ir::Value *X, ElemType E) { return E == X->type().Elem ? X : IRB.bitcast(R, X, E); }
  ir::Value *reshape(ir::Value *X, std::vector<int64_t> Shape) {
    return X->type().Shape == Shape ? X : IRB.reshape(R, X, std::move(Shape));
  }
  ir::Value *full(ir::Value *X, const std::vector<int64_t> &Shape) {
    return X->type().Shape == Shape ? X : IRB.broadcast(R, X, Shape);
  }
  ir::Value *constant(int64_t V, const std::vector<int64_t> &Shape) {
    return IRB.constantInt(R, V, TileType{ElemType{ScalarKind::I32}, Shape});
  }

private:
  BuiltinCall &B;
  ir::Builder &IRB;
  SourceRange R;
};

/// The tensor argument of the family, or nullopt (with nothing said) where
/// tessel cannot follow it: a scalar, a pointer tile, a size still unknown.
std::optional<Value> sortable(BuiltinCall &B) {
  Value X = B.C.toTensor(B.value("x"), B.rangeOf("x"));
  if (!X.isTensor() || X.Type.Shape.empty())
    return std::nullopt;
  return X;
}

/// sort_impl's and bitonic_merge's check that `dim` is the last dimension.
/// `dim` is compared as given: Triton 3.6 does not normalise -1.
bool minorDim(BuiltinCall &B, const Value &X) {
  if (!B.present("dim"))
    return true;
  std::optional<int64_t> Dim = B.constInt("dim");
  if (!Dim || *Dim == static_cast<int64_t>(X.Type.Shape.size()) - 1)
    return true;
  B.error(ProblemKind::StaticAssert, "only minor dimension is currently supported");
  return false;
}

bool lowerable(BuiltinCall &B, const Value &X) {
  if (X.Type.hasUnknownDim() || X.Type.Elem.isPointer() || X.Type.Elem.Scalar == ScalarKind::Unknown) {
    B.C.loweringLimit(B.range(), "tl." + B.Name + " of " + X.Type.tritonStr());
    return false;
  }
  return true;
}

/// standard.sort_impl: sort (K unset) and topk.
Value sortImpl(BuiltinCall &B, std::optional<int64_t> K) {
  std::optional<Value> X = sortable(B);
  if (!X || !minorDim(B, *X))
    return Value::poison();
  bool Descending = B.flag("descending", B.Name == "topk");
  std::vector<int64_t> Shape = X->Type.Shape;
  int64_t N = Shape.back();
  Value Out = Value::tensor(X->Type);
  if (K) {
    Out.Type.Shape.back() = *K;
    // standard.max / min widen narrow types when k < n.
    if (N == TileType::UnknownDim || *K < N)
      Out.Type.Elem = widenedMinMaxType(X->Type.Elem);
  }
  if (!B.ir())
    return Out;
  if (!lowerable(B, *X))
    return Value::poison();
  int64_t LogN = standardLog2(N), LogK = K ? standardLog2(*K) : LogN;
  if (LogK > LogN) {
    B.C.loweringLimit(B.range(), "tl.topk with k larger than the sorted dimension");
    return Value::poison();
  }
  int64_t Order = Descending ? 1 : 0;
  Network Net(B);
  ir::Value *H = Net.hypercube(*X);
  for (int64_t I = 1; I <= LogK; ++I)
    H = Net.mergeHypercube(H, static_cast<size_t>(I), I < LogN ? 2 : Order);
  // Bitonic top-k (standard.py cites Shanbhag et al.): halve, then merge.
  for (int64_t I = LogK + 1; I <= LogN; ++I) {
    int64_t Axis = static_cast<int64_t>(H->type().Shape.size()) - 1 - LogK;
    H = Net.extremum(H, Axis, Descending);
    H = Net.mergeHypercube(H, static_cast<size_t>(LogK), I < LogN ? 2 : Order);
  }
  Shape.back() = int64_t{1} << LogK;
  Out.IR = Net.reshape(H, Shape);
  Out.Type = TileType{H->type().Elem, Shape};
  return Out;
}

Value sort(BuiltinCall &B) { return sortImpl(B, std::nullopt); }

Value topk(BuiltinCall &B) {
  std::optional<int64_t> K = B.constInt("k");
  if (!K) {
    std::optional<Value> X = sortable(B);
    if (!X || !minorDim(B, *X))
      return Value::poison();
    Value Out = Value::tensor(X->Type);
    Out.Type.Shape.back() = TileType::UnknownDim;
    if (B.ir())
      B.C.loweringLimit(B.range(), "tl.topk with an unknown k");
    return B.ir() ? Value::poison() : Out;
  }
  return sortImpl(B, K);
}

/// standard.bitonic_merge: one merge of the whole last dimension.
Value bitonicMerge(BuiltinCall &B) {
  std::optional<Value> X = sortable(B);
  if (!X || !minorDim(B, *X))
    return Value::poison();
  Value Out = Value::tensor(X->Type);
  if (!B.ir())
    return Out;
  if (!lowerable(B, *X))
    return Value::poison();
  Network Net(B);
  int64_t Stage = standardLog2(X->Type.Shape.back());
  ir::Value *H = Net.mergeHypercube(Net.hypercube(*X), static_cast<size_t>(Stage), B.flag("descending") ? 1 : 0);
  Out.IR = Net.reshape(H, X->Type.Shape);
  return Out;
}

/// standard.flip: the flipped dimension as 2s, each bit of the position
/// inverted by one xor with the partner's bits.
Value flip(BuiltinCall &B) {
  std::optional<Value> X = sortable(B);
  if (!X)
    return Value::poison();
  size_t Rank = X->Type.Shape.size();
  // A dimension still unknown is -1 here: nothing to check, nothing to lower.
  int64_t Dim = static_cast<int64_t>(Rank) - 1;
  // standard.flip's `static_assert(-len(x.shape) <= dim and dim < ...)`
  // compares an int with its default None (Triton 3.6 on an H100).
  if (const Value &D = B.value("dim"); !B.present("dim") || (D.isKnownConstexpr() && D.Const.isNone())) {
    B.error(ProblemKind::InvalidOperands, "'<=' not supported between instances of 'int' and 'NoneType'");
    return Value::poison();
  }
  if (B.present("dim")) {
    std::optional<int64_t> D = B.constInt("dim");
    std::optional<size_t> Normal = D ? normaliseAxis(*D, Rank) : std::nullopt;
    if (D && !Normal) {
      B.error(ProblemKind::StaticAssert, "static assertion failed");
      return Value::poison();
    }
    Dim = Normal ? static_cast<int64_t>(*Normal) : -1;
  }
  Value Out = Value::tensor(X->Type);
  if (!B.ir())
    return Out;
  if (Dim < 0) {
    B.C.loweringLimit(B.range(), "tl.flip along an unknown dimension");
    return Value::poison();
  }
  if (!lowerable(B, *X))
    return Value::poison();
  const std::vector<int64_t> &Shape = X->Type.Shape;
  int64_t Steps = standardLog2(Shape[static_cast<size_t>(Dim)]);
  std::vector<int64_t> Cube(Shape.begin(), Shape.begin() + Dim);
  Cube.insert(Cube.end(), static_cast<size_t>(Steps), 2);
  Cube.insert(Cube.end(), Shape.begin() + Dim + 1, Shape.end());
  Network Net(B);
  ElemType IntE{*intDtype(bitWidth(X->Type.Elem.Scalar), true)};
  ir::Value *Y = Net.reshape(Net.bitcastTo(B.C.lowerAs(*X, X->Type, B.rangeOf("x")), IntE), Cube);
  for (int64_t I = 0; I < Steps; ++I)
    Y = Net.partnerBits(Y, Dim + I);
  Out.IR = Net.bitcastTo(Net.reshape(Y, Shape), X->Type.Elem);
  return Out;
}

} // namespace

const std::vector<BuiltinEntry> &sortBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"sort", "x, dim:C=, descending:C=", sort},
      {"topk", "x, k:C, dim:C=, descending:C=", topk},
      {"bitonic_merge", "x, dim:C=, descending:C=", bitonicMerge},
      {"flip", "x, dim=", flip},
  };
  return Entries;
}

} // namespace tessel::sema
