//===- ShapeOps.cpp - constants, broadcasts, permutes, joins --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Ops that move elements without computing on them. All but gather are
/// strided copies over row-major layouts; reshape and expand_dims need no
/// code at all (the interpreter keeps the elements and takes the new shape
/// from the IR).
//===----------------------------------------------------------------------===//
#include "compiler/interp/Kernels.h"

namespace tessel::interp {

namespace {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &Shape) {
  std::vector<int64_t> S(Shape.size(), 1);
  for (int I = static_cast<int>(Shape.size()) - 2; I >= 0; --I)
    S[I] = S[I + 1] * Shape[I + 1];
  return S;
}

/// Out[i] = In[src(i)] where src is a linear map of the output index given
/// by per-output-dimension source strides.
template <typename T>
void stridedCopy(const std::vector<T> &In, std::vector<T> &Out, const std::vector<int64_t> &OutShape,
                 const std::vector<int64_t> &SrcStrides) {
  const size_t Rank = OutShape.size();
  if (Rank == 0) {
    Out[0] = In[0];
    return;
  }
  std::vector<int64_t> Idx(Rank, 0);
  const int64_t Inner = OutShape[Rank - 1], InnerStride = SrcStrides[Rank - 1];
  int64_t Src = 0;
  size_t N = Out.size();
  for (size_t O = 0; O < N; O += static_cast<size_t>(Inner)) {
    if (InnerStride == 1)
      std::copy(In.begin() + Src, In.begin() + Src + Inner, Out.begin() + static_cast<int64_t>(O));
    else
      for (int64_t J = 0; J < Inner; ++J)
        Out[O + J] = In[Src + J * InnerStride];
    // Advance the outer index (all but the last dimension).
    for (int D = static_cast<int>(Rank) - 2; D >= 0; --D) {
      Src += SrcStrides[D];
      if (++Idx[D] < OutShape[D])
        break;
      Src -= SrcStrides[D] * OutShape[D];
      Idx[D] = 0;
    }
  }
}

template <typename Fn> void onStorage(const Tile &In, Tile &Out, Fn F) {
  if (In.isFloat())
    F(In.Floats, Out.Floats);
  else
    F(In.Ints, Out.Ints);
}

} // namespace

void evalConstant(const ir::ConstantOp &O, Tile &Out) {
  const TileType &T = O.result()->type();
  Out.reset(T.Elem, T.Shape);
  if (Out.isFloat())
    std::fill(Out.Floats.begin(), Out.Floats.end(), roundFloat(O.floatValue(), T.Elem.Scalar));
  else
    std::fill(Out.Ints.begin(), Out.Ints.end(), wrapInt(O.intValue(), T.Elem.Scalar));
}

void evalBroadcast(const Tile &X, const std::vector<int64_t> &To, Tile &Out) {
  Out.reset(X.Elem, To);
  if (X.size() == 1) {
    if (X.isFloat())
      std::fill(Out.Floats.begin(), Out.Floats.end(), X.Floats[0]);
    else
      std::fill(Out.Ints.begin(), Out.Ints.end(), X.Ints[0]);
    return;
  }
  std::vector<int64_t> Src = rowMajorStrides(X.Shape);
  for (size_t D = 0; D < To.size() && D < X.Shape.size(); ++D)
    if (X.Shape[D] == 1)
      Src[D] = 0;
  onStorage(X, Out, [&](const auto &In, auto &O) { stridedCopy(In, O, To, Src); });
}

void evalPermute(const Tile &X, const std::vector<int64_t> &Order, Tile &Out) {
  std::vector<int64_t> Shape, Src;
  std::vector<int64_t> InStrides = rowMajorStrides(X.Shape);
  for (int64_t D : Order) {
    Shape.push_back(X.Shape[D]);
    Src.push_back(InStrides[D]);
  }
  Out.reset(X.Elem, Shape);
  onStorage(X, Out, [&](const auto &In, auto &O) { stridedCopy(In, O, Shape, Src); });
}

void evalJoin(const Tile &A, const Tile &B, Tile &Out) {
  std::vector<int64_t> Shape = A.Shape;
  Shape.push_back(2);
  Out.reset(A.Elem, Shape);
  size_t N = A.size();
  for (size_t I = 0; I < N; ++I) {
    if (A.isFloat()) {
      Out.Floats[2 * I] = A.Floats[I];
      Out.Floats[2 * I + 1] = B.Floats[I];
    } else {
      Out.Ints[2 * I] = A.Ints[I];
      Out.Ints[2 * I + 1] = B.Ints[I];
    }
  }
}

void evalSplit(const Tile &X, Tile &Lo, Tile &Hi) {
  std::vector<int64_t> Shape = X.Shape;
  Shape.pop_back();
  Lo.reset(X.Elem, Shape);
  Hi.reset(X.Elem, Shape);
  size_t N = Lo.size();
  for (size_t I = 0; I < N; ++I) {
    if (X.isFloat()) {
      Lo.Floats[I] = X.Floats[2 * I];
      Hi.Floats[I] = X.Floats[2 * I + 1];
    } else {
      Lo.Ints[I] = X.Ints[2 * I];
      Hi.Ints[I] = X.Ints[2 * I + 1];
    }
  }
}

void evalArange(int64_t Start, int64_t End, Tile &Out) {
  Out.reset({ScalarKind::I32, 0, false}, {End - Start});
  for (int64_t I = 0; I < End - Start; ++I)
    Out.Ints[I] = Start + I;
}

std::optional<int64_t> evalGather(const Tile &Src, const Tile &Index, int Axis, Tile &Out) {
  Out.reset(Src.Elem, Index.Shape);
  std::vector<int64_t> SrcStrides = rowMajorStrides(Src.Shape);
  const size_t Rank = Index.Shape.size(), A = static_cast<size_t>(Axis);
  const int64_t Extent = Src.Shape[A];
  std::vector<int64_t> Idx(Rank, 0);
  for (size_t I = 0; I < Index.Ints.size(); ++I) {
    int64_t V = Index.Ints[I];
    if (V < 0 || V >= Extent)
      return V;
    int64_t From = 0;
    for (size_t D = 0; D < Rank; ++D)
      From += (D == A ? V : Idx[D]) * SrcStrides[D];
    if (Out.isFloat())
      Out.Floats[I] = Src.Floats[static_cast<size_t>(From)];
    else
      Out.Ints[I] = Src.Ints[static_cast<size_t>(From)];
    for (size_t D = Rank; D-- > 0;) {
      if (++Idx[D] < Index.Shape[D])
        break;
      Idx[D] = 0;
    }
  }
  return std::nullopt;
}

} // namespace tessel::interp
