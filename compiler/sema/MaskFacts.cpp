//===- MaskFacts.cpp - how tile indices vary, for the masking check -------===//
#include "compiler/sema/MaskFacts.h"

#include <algorithm>

namespace tessel::sema {

static bool varies(AxisIndex A) { return A == AxisIndex::Arange || A == AxisIndex::Sliding; }

IndexFacts alignFacts(const Value &V, size_t Rank) {
  IndexFacts F;
  if (!V.isTensor()) {
    F.Axes.assign(Rank, AxisIndex::None);
    return F;
  }
  F = V.Facts;
  size_t Have = F.Axes.size();
  if (Have < Rank) {
    F.Axes.insert(F.Axes.begin(), Rank - Have, AxisIndex::None);
    if (!F.MaskBounds.empty())
      F.MaskBounds.insert(F.MaskBounds.begin(), Rank - Have, false);
  }
  if (!F.MaskBounds.empty())
    F.MaskBounds.resize(Rank, false);
  F.Axes.resize(Rank, AxisIndex::None);
  return F;
}

static AxisIndex join(AxisIndex A, AxisIndex B) {
  if (A == AxisIndex::Sliding || B == AxisIndex::Sliding)
    return AxisIndex::Sliding;
  if (A == AxisIndex::Arange || B == AxisIndex::Arange)
    return AxisIndex::Arange;
  if (A == AxisIndex::Wrapped || B == AxisIndex::Wrapped)
    return AxisIndex::Wrapped;
  return AxisIndex::None;
}

IndexFacts joinFacts(const Value &L, const Value &R, size_t Rank) {
  IndexFacts A = alignFacts(L, Rank), B = alignFacts(R, Rank), Out;
  Out.Axes.resize(Rank);
  for (size_t I = 0; I < Rank; ++I)
    Out.Axes[I] = join(A.Axes[I], B.Axes[I]);
  Out.DynScalar = Rank == 0 && (A.DynScalar || B.DynScalar);
  Out.Cause = !A.Cause.empty() ? A.Cause : B.Cause;
  return Out;
}

IndexFacts additiveFacts(const Value &L, const Value &R, size_t Rank) {
  IndexFacts Out = joinFacts(L, R, Rank);
  // The slide happens where a dynamic start meets a 1-D index: `pid * B +
  // tl.arange(0, B)`, `row_ptr + cols`, `k + tl.arange(0, BK)`.
  auto Slides = [&](const Value &Scalar, const Value &Index) {
    return Scalar.isTensor() && !Scalar.Type.isBlock() && Scalar.Facts.DynScalar && Index.isTensor() &&
           Index.Facts.Axes.size() == 1 && Index.Facts.Axes[0] == AxisIndex::Arange;
  };
  if (Rank == 1 && (Slides(L, R) || Slides(R, L))) {
    Out.Axes[0] = AxisIndex::Sliding;
    Out.Cause = Slides(L, R) ? L.Facts.Cause : R.Facts.Cause;
  }
  return Out;
}

IndexFacts wrapFacts(const IndexFacts &F) {
  IndexFacts Out = F;
  for (AxisIndex &A : Out.Axes)
    if (varies(A))
      A = AxisIndex::Wrapped;
  Out.DynScalar = false;
  Out.MaskBounds.clear();
  return Out;
}

IndexFacts compareFacts(const Value &L, const Value &R, size_t Rank) {
  IndexFacts A = alignFacts(L, Rank), B = alignFacts(R, Rank), Out;
  Out.Axes.assign(Rank, AxisIndex::None);
  Out.MaskBounds.resize(Rank);
  for (size_t I = 0; I < Rank; ++I)
    Out.MaskBounds[I] = A.Axes[I] != AxisIndex::None || B.Axes[I] != AxisIndex::None;
  return Out;
}

IndexFacts combineMasks(const Value &L, const Value &R, size_t Rank, bool Intersect) {
  IndexFacts A = alignFacts(L, Rank), B = alignFacts(R, Rank), Out;
  Out.Axes.assign(Rank, AxisIndex::None);
  Out.MaskBounds.assign(Rank, false);
  A.MaskBounds.resize(Rank, false);
  B.MaskBounds.resize(Rank, false);
  for (size_t I = 0; I < Rank; ++I)
    Out.MaskBounds[I] = Intersect ? (A.MaskBounds[I] && B.MaskBounds[I]) : (A.MaskBounds[I] || B.MaskBounds[I]);
  return Out;
}

IndexFacts insertAxis(const IndexFacts &F, size_t Axis) {
  IndexFacts Out = F;
  Out.Axes.insert(Out.Axes.begin() + std::min(Axis, Out.Axes.size()), AxisIndex::None);
  if (!Out.MaskBounds.empty())
    Out.MaskBounds.insert(Out.MaskBounds.begin() + std::min(Axis, Out.MaskBounds.size()), false);
  Out.DynScalar = false;
  return Out;
}

IndexFacts removeAxis(const IndexFacts &F, size_t Axis) {
  IndexFacts Out = F;
  if (Axis < Out.Axes.size())
    Out.Axes.erase(Out.Axes.begin() + Axis);
  Out.MaskBounds.clear();
  return Out;
}

IndexFacts permuteFacts(const IndexFacts &F, const std::vector<int64_t> &Order) {
  IndexFacts Out = F;
  for (size_t I = 0; I < Order.size() && I < F.Axes.size(); ++I)
    if (Order[I] >= 0 && static_cast<size_t>(Order[I]) < F.Axes.size())
      Out.Axes[I] = F.Axes[Order[I]];
  Out.MaskBounds.clear();
  return Out;
}

} // namespace tessel::sema
