//===- Reductions.cpp - reduce and scan -----------------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Reductions combine pairwise in a tree (element k with k + ceil(len/2),
/// halving the length each level), rounding every combination to the
/// element type, which is how the GPU's shuffle tree associates; float sums
/// may therefore differ from a sequential loop in the last bits, as they do
/// on the GPU. Scans are inclusive and sequential along the axis.
///
/// A tile is viewed as [Outer, Len, Inner] around the axis, and each step
/// works on all Outer x Inner positions at once, so a custom combine region
/// runs log2(Len) times for a reduce and Len - 1 times for a scan, each time
/// over whole slices rather than per element.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tessel::interp {

using ir::ReduceKind;
using ir::ScanKind;

namespace {

struct AxisView {
  int64_t Outer = 1, Len = 1, Inner = 1;
  AxisView(const std::vector<int64_t> &Shape, int Axis) {
    for (int D = 0; D < static_cast<int>(Shape.size()); ++D) {
      if (D < Axis)
        Outer *= Shape[D];
      else if (D == Axis)
        Len = Shape[D];
      else
        Inner *= Shape[D];
    }
  }
  int64_t at(int64_t O, int64_t K, int64_t I) const { return (O * Len + K) * Inner + I; }
};

std::vector<int64_t> without(const std::vector<int64_t> &Shape, int Axis) {
  std::vector<int64_t> S = Shape;
  S.erase(S.begin() + Axis);
  return S;
}

/// The built-in combination of two elements (value, index) for reductions.
struct Combiner {
  ReduceKind Kind;
  ScalarKind Elem;
  bool Float, Signed, TieLeft;

  void floats(double &A, int64_t &IA, double B, int64_t IB) const {
    switch (Kind) {
    case ReduceKind::Sum:
      A = roundFloat(A + B, Elem);
      return;
    case ReduceKind::Max:
      A = std::fmax(A, B);
      return;
    case ReduceKind::Min:
      A = std::fmin(A, B);
      return;
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin: {
      bool Better = Kind == ReduceKind::ArgMax ? B > A : B < A;
      bool Tie = A == B && (TieLeft ? IB < IA : IB > IA);
      if (Better || Tie) {
        A = B;
        IA = IB;
      }
      return;
    }
    default:
      return;
    }
  }

  void ints(int64_t &A, int64_t &IA, int64_t B, int64_t IB) const {
    auto Less = [&](int64_t X, int64_t Y) {
      return Signed ? X < Y : static_cast<uint64_t>(X) < static_cast<uint64_t>(Y);
    };
    switch (Kind) {
    case ReduceKind::Sum:
      A = wrapInt(static_cast<int64_t>(static_cast<uint64_t>(A) + static_cast<uint64_t>(B)), Elem);
      return;
    case ReduceKind::Max:
      A = Less(A, B) ? B : A;
      return;
    case ReduceKind::Min:
      A = Less(B, A) ? B : A;
      return;
    case ReduceKind::XorSum:
      A ^= B;
      return;
    case ReduceKind::Or:
      A |= B;
      return;
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin: {
      bool Better = Kind == ReduceKind::ArgMax ? Less(A, B) : Less(B, A);
      bool Tie = A == B && (TieLeft ? IB < IA : IB > IA);
      if (Better || Tie) {
        A = B;
        IA = IB;
      }
      return;
    }
    default:
      return;
    }
  }
};

/// Gathers positions K in [From, From + Count) of every (outer, inner) into a
/// tile of Outer * Count * Inner elements, in that order.
void gatherSlab(const Tile &W, const AxisView &V, int64_t From, int64_t Count, Tile &Out) {
  Out.reset(W.Elem, {V.Outer * Count * V.Inner});
  int64_t J = 0;
  for (int64_t O = 0; O < V.Outer; ++O)
    for (int64_t K = From; K < From + Count; ++K)
      for (int64_t I = 0; I < V.Inner; ++I, ++J) {
        if (W.isFloat())
          Out.Floats[J] = W.Floats[V.at(O, K, I)];
        else
          Out.Ints[J] = W.Ints[V.at(O, K, I)];
      }
}

void scatterSlab(const Tile &In, const AxisView &V, int64_t From, int64_t Count, Tile &W) {
  int64_t J = 0;
  const size_t S = In.size() == 1 ? 0 : 1; // a combine may yield a constant
  for (int64_t O = 0; O < V.Outer; ++O)
    for (int64_t K = From; K < From + Count; ++K)
      for (int64_t I = 0; I < V.Inner; ++I, ++J) {
        if (W.isFloat())
          W.Floats[V.at(O, K, I)] = In.Floats[J * S];
        else
          W.Ints[V.at(O, K, I)] = In.Ints[J * S];
      }
}

} // namespace

void evalReduce(const ir::ReduceOp &O, const std::vector<const Tile *> &Ins, std::vector<Tile *> &Outs,
                const RegionRunner &Run) {
  const int Axis = O.axis();
  const AxisView V(Ins[0]->Shape, Axis);
  const std::vector<int64_t> OutShape = without(Ins[0]->Shape, Axis);

  if (O.reduceKind() == ReduceKind::Custom) {
    std::vector<Tile> W(Ins.size());
    for (size_t J = 0; J < Ins.size(); ++J)
      W[J] = *Ins[J];
    std::vector<Tile> Left(Ins.size()), Right(Ins.size()), Res;
    for (int64_t Len = V.Len; Len > 1;) {
      int64_t H = (Len + 1) / 2, Pairs = Len - H;
      std::vector<const Tile *> Args;
      for (size_t J = 0; J < W.size(); ++J) {
        gatherSlab(W[J], V, 0, Pairs, Left[J]);
        gatherSlab(W[J], V, H, Pairs, Right[J]);
      }
      for (Tile &T : Left)
        Args.push_back(&T);
      for (Tile &T : Right)
        Args.push_back(&T);
      Run(*O.combine(), Args, Res);
      for (size_t J = 0; J < W.size() && J < Res.size(); ++J)
        scatterSlab(Res[J], V, 0, Pairs, W[J]);
      Len = H;
    }
    for (size_t J = 0; J < Outs.size(); ++J) {
      Outs[J]->reset(W[J].Elem, OutShape);
      gatherSlab(W[J], V, 0, 1, *Outs[J]);
      Outs[J]->Shape = OutShape;
    }
    return;
  }

  const Tile &X = *Ins[0];
  const ReduceKind K = O.reduceKind();
  const bool Arg = K == ReduceKind::ArgMax || K == ReduceKind::ArgMin;
  Combiner C{K, X.Elem.Scalar, X.isFloat(), ir::isSignedScalar(X.Elem.Scalar), O.tieBreakLeft()};
  Tile W = X;
  std::vector<int64_t> Idx(Arg ? X.size() : 0);
  if (Arg)
    for (int64_t Oi = 0; Oi < V.Outer; ++Oi)
      for (int64_t Ki = 0; Ki < V.Len; ++Ki)
        for (int64_t I = 0; I < V.Inner; ++I)
          Idx[V.at(Oi, Ki, I)] = Ki;
  int64_t Dummy = 0;
  for (int64_t Len = V.Len; Len > 1;) {
    int64_t H = (Len + 1) / 2;
    for (int64_t Oi = 0; Oi < V.Outer; ++Oi)
      for (int64_t Ki = 0; Ki < Len - H; ++Ki) {
        int64_t A = V.at(Oi, Ki, 0), B = V.at(Oi, Ki + H, 0);
        for (int64_t I = 0; I < V.Inner; ++I) {
          int64_t &IA = Arg ? Idx[A + I] : Dummy;
          int64_t IB = Arg ? Idx[B + I] : 0;
          if (C.Float)
            C.floats(W.Floats[A + I], IA, W.Floats[B + I], IB);
          else
            C.ints(W.Ints[A + I], IA, W.Ints[B + I], IB);
        }
      }
    Len = H;
  }
  Tile &Out = *Outs[0];
  Out.reset(Arg ? ElemType{ScalarKind::I32, 0, false} : X.Elem, OutShape);
  for (int64_t Oi = 0; Oi < V.Outer; ++Oi)
    for (int64_t I = 0; I < V.Inner; ++I) {
      int64_t From = V.at(Oi, 0, I), To = Oi * V.Inner + I;
      if (Arg)
        Out.Ints[To] = Idx[From];
      else if (Out.isFloat())
        Out.Floats[To] = W.Floats[From];
      else
        Out.Ints[To] = W.Ints[From];
    }
}

void evalScan(const ir::ScanOp &O, const std::vector<const Tile *> &Ins, std::vector<Tile *> &Outs,
              const RegionRunner &Run) {
  const AxisView V(Ins[0]->Shape, O.axis());
  const bool Rev = O.reverse();
  for (size_t J = 0; J < Ins.size() && J < Outs.size(); ++J)
    *Outs[J] = *Ins[J];
  if (V.Len <= 1)
    return;

  if (O.scanKind() == ScanKind::Custom) {
    std::vector<Tile> Prev(Ins.size()), Cur(Ins.size()), Res;
    for (int64_t Step = 1; Step < V.Len; ++Step) {
      int64_t K = Rev ? V.Len - 1 - Step : Step, P = Rev ? K + 1 : K - 1;
      std::vector<const Tile *> Args;
      for (size_t J = 0; J < Outs.size(); ++J) {
        gatherSlab(*Outs[J], V, P, 1, Prev[J]);
        gatherSlab(*Outs[J], V, K, 1, Cur[J]);
      }
      for (Tile &T : Prev)
        Args.push_back(&T);
      for (Tile &T : Cur)
        Args.push_back(&T);
      Run(*O.combine(), Args, Res);
      for (size_t J = 0; J < Outs.size() && J < Res.size(); ++J)
        scatterSlab(Res[J], V, K, 1, *Outs[J]);
    }
    return;
  }

  Tile &W = *Outs[0];
  const ScalarKind E = W.Elem.Scalar;
  const bool Sum = O.scanKind() == ScanKind::CumSum;
  for (int64_t Oi = 0; Oi < V.Outer; ++Oi)
    for (int64_t Step = 1; Step < V.Len; ++Step) {
      int64_t K = Rev ? V.Len - 1 - Step : Step, P = Rev ? K + 1 : K - 1;
      int64_t A = V.at(Oi, P, 0), B = V.at(Oi, K, 0);
      for (int64_t I = 0; I < V.Inner; ++I) {
        if (W.isFloat()) {
          double X = W.Floats[A + I], Y = W.Floats[B + I];
          W.Floats[B + I] = roundFloat(Sum ? X + Y : X * Y, E);
        } else {
          uint64_t X = static_cast<uint64_t>(W.Ints[A + I]), Y = static_cast<uint64_t>(W.Ints[B + I]);
          W.Ints[B + I] = wrapInt(static_cast<int64_t>(Sum ? X + Y : X * Y), E);
        }
      }
    }
}

void evalHistogram(const Tile &X, const Tile *Mask, int64_t Bins, Tile &Out) {
  Out.reset(ElemType{ScalarKind::I32}, {Bins});
  std::fill(Out.Ints.begin(), Out.Ints.end(), 0);
  // Triton 3.6's ballot histogram bins each value by its low log2(max(bins,
  // 32)) bits; bins past the result are padding that is never read.
  const uint64_t Padded = static_cast<uint64_t>(std::max<int64_t>(Bins, 32));
  for (size_t I = 0; I < X.Ints.size(); ++I) {
    if (Mask && !Mask->Ints[I]) // the verifier gives the mask the input's shape
      continue;
    uint64_t Bin = static_cast<uint64_t>(X.Ints[I]) & (Padded - 1);
    if (Bin < static_cast<uint64_t>(Bins))
      ++Out.Ints[Bin];
  }
}

} // namespace tessel::interp
