//===- MaskFacts.cpp - how tile indices vary, for the masking check -------===//
#include "compiler/sema/MaskFacts.h"

#include <algorithm>

namespace tessel::sema {

static bool varies(AxisIndex A) { return A == AxisIndex::Arange || A == AxisIndex::Sliding; }

std::string programIdCause(int64_t Axis) { return "program_id(" + std::to_string(Axis) + ")"; }

IndexFacts alignFacts(const Value &V, size_t Rank) {
  IndexFacts F;
  if (!V.isTensor()) {
    F.resize(Rank);
    return F;
  }
  F = V.Facts;
  F.AxisCauses.resize(F.Axes.size());
  size_t Have = F.Axes.size();
  if (Have < Rank) {
    F.Axes.insert(F.Axes.begin(), Rank - Have, AxisIndex::None);
    F.AxisCauses.insert(F.AxisCauses.begin(), Rank - Have, std::string());
    F.AxisPitches.resize(Have);
    F.AxisPitches.insert(F.AxisPitches.begin(), Rank - Have, std::string());
    if (!F.MaskBounds.empty())
      F.MaskBounds.insert(F.MaskBounds.begin(), Rank - Have, false);
  }
  if (!F.MaskBounds.empty())
    F.MaskBounds.resize(Rank, false);
  F.resize(Rank);
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
  Out.resize(Rank);
  for (size_t I = 0; I < Rank; ++I)
    Out.setAxis(I, join(A.Axes[I], B.Axes[I]), A.Axes[I] == AxisIndex::Sliding ? A.AxisCauses[I] : B.AxisCauses[I]);
  Out.DynScalar = Rank == 0 && (A.DynScalar || B.DynScalar);
  Out.UnitStep = Out.DynScalar && (A.UnitStep || !A.DynScalar) && (B.UnitStep || !B.DynScalar);
  // One dynamic operand keeps its scale (`pid * HQ + i_h * G`); two mix, and
  // so does one with a program-varying remainder (`first_pid_m + pid % g`).
  bool Mixed = (A.DynScalar && B.WrappedDyn) || (B.DynScalar && A.WrappedDyn);
  Out.Scale = Out.DynScalar && A.DynScalar != B.DynScalar && !Mixed ? (A.DynScalar ? A.Scale : B.Scale) : 0;
  Out.WrappedDyn = Rank == 0 && !Out.DynScalar && (A.WrappedDyn || B.WrappedDyn);
  Out.Cause = !A.Cause.empty() ? A.Cause : B.Cause;
  // A row pitch stays with the one side that has it (`TMP + off_hb * P`),
  // and a window sliding beside a scalar `row * P` sits in that row.
  auto Scalar = [](const IndexFacts &F) {
    return std::all_of(F.Axes.begin(), F.Axes.end(), [](AxisIndex X) { return X == AxisIndex::None; });
  };
  if (Rank == 0 && A.Pitch.empty() != B.Pitch.empty() && !A.DynScalar && !B.DynScalar)
    Out.Pitch = A.Pitch.empty() ? B.Pitch : A.Pitch;
  for (size_t I = 0; I < Rank; ++I) {
    if (Out.Axes[I] != AxisIndex::Sliding)
      continue;
    const IndexFacts &Slid = A.Axes[I] == AxisIndex::Sliding ? A : B;
    const IndexFacts &Other = A.Axes[I] == AxisIndex::Sliding ? B : A;
    if (!Slid.axisPitch(I).empty())
      Out.AxisPitches[I] = Slid.axisPitch(I);
    else if (Scalar(Other) && !Other.DynScalar)
      Out.AxisPitches[I] = Other.Pitch;
  }
  return Out;
}

IndexFacts additiveFacts(const Value &L, const Value &R, size_t Rank) {
  IndexFacts Out = joinFacts(L, R, Rank);
  // The slide happens where a dynamic start meets a 1-D index: `pid * B +
  // tl.arange(0, B)`, `row_ptr + cols`, `k + tl.arange(0, BK)`.
  auto Slides = [&](const Value &Scalar, const Value &Index) {
    if (!(Scalar.isTensor() && !Scalar.Type.isBlock() && Scalar.Facts.DynScalar && !Scalar.Facts.UnitStep &&
          Index.isTensor() && Index.Facts.Axes.size() == 1 && Index.Facts.Axes[0] == AxisIndex::Arange))
      return false;
    // Windows of Scale elements wider than the index never overlap: a row
    // or group is chosen, no block runs on into the next.
    int64_t Extent = Index.Type.Shape.empty() ? TileType::UnknownDim : Index.Type.Shape[0];
    return Scalar.Facts.Scale == 0 || Extent == TileType::UnknownDim || Scalar.Facts.Scale <= Extent;
  };
  if (Rank == 1 && (Slides(L, R) || Slides(R, L)))
    Out.setAxis(0, AxisIndex::Sliding, Slides(L, R) ? L.Facts.Cause : R.Facts.Cause);
  return Out;
}

IndexFacts wrapFacts(const IndexFacts &F) {
  IndexFacts Out = F;
  for (AxisIndex &A : Out.Axes)
    if (varies(A))
      A = AxisIndex::Wrapped;
  Out.WrappedDyn = F.DynScalar || F.WrappedDyn;
  Out.DynScalar = false;
  Out.Pitch.clear();
  Out.MaskBounds.clear();
  return Out;
}

IndexFacts compareFacts(const Value &L, const Value &R, size_t Rank) {
  IndexFacts A = alignFacts(L, Rank), B = alignFacts(R, Rank), Out;
  Out.resize(Rank);
  Out.MaskBounds.resize(Rank);
  for (size_t I = 0; I < Rank; ++I)
    Out.MaskBounds[I] = A.Axes[I] != AxisIndex::None || B.Axes[I] != AxisIndex::None;
  for (const Value *V : {&L, &R})
    if (V->isTensor() && !V->Type.isBlock() && V->Facts.DynScalar && !V->Facts.Cause.empty())
      Out.BoundedScalars.push_back(V->Facts.Cause);
  return Out;
}

IndexFacts combineMasks(const Value &L, const Value &R, size_t Rank, bool Intersect) {
  IndexFacts A = alignFacts(L, Rank), B = alignFacts(R, Rank), Out;
  Out.resize(Rank);
  Out.MaskBounds.assign(Rank, false);
  A.MaskBounds.resize(Rank, false);
  B.MaskBounds.resize(Rank, false);
  for (size_t I = 0; I < Rank; ++I)
    Out.MaskBounds[I] = Intersect ? (A.MaskBounds[I] && B.MaskBounds[I]) : (A.MaskBounds[I] || B.MaskBounds[I]);
  // `&`: a scalar either side bounds stays bounded; `|`: only one both bound.
  for (const std::string &C : A.BoundedScalars) {
    bool InB = std::find(B.BoundedScalars.begin(), B.BoundedScalars.end(), C) != B.BoundedScalars.end();
    if (!Intersect || InB)
      Out.BoundedScalars.push_back(C);
  }
  if (!Intersect)
    for (const std::string &C : B.BoundedScalars)
      if (std::find(Out.BoundedScalars.begin(), Out.BoundedScalars.end(), C) == Out.BoundedScalars.end())
        Out.BoundedScalars.push_back(C);
  return Out;
}

IndexFacts insertAxis(const IndexFacts &F, size_t Axis) {
  IndexFacts Out = F;
  Out.AxisCauses.resize(Out.Axes.size());
  Out.AxisCauses.insert(Out.AxisCauses.begin() + std::min(Axis, Out.AxisCauses.size()), std::string());
  Out.Axes.insert(Out.Axes.begin() + std::min(Axis, Out.Axes.size()), AxisIndex::None);
  if (!Out.MaskBounds.empty())
    Out.MaskBounds.insert(Out.MaskBounds.begin() + std::min(Axis, Out.MaskBounds.size()), false);
  Out.DynScalar = false;
  return Out;
}

IndexFacts removeAxis(const IndexFacts &F, size_t Axis) {
  IndexFacts Out = F;
  Out.AxisCauses.resize(Out.Axes.size());
  if (Axis < Out.Axes.size()) {
    Out.Axes.erase(Out.Axes.begin() + Axis);
    Out.AxisCauses.erase(Out.AxisCauses.begin() + Axis);
  }
  Out.MaskBounds.clear();
  return Out;
}

IndexFacts permuteFacts(const IndexFacts &F, const std::vector<int64_t> &Order) {
  IndexFacts In = F;
  In.AxisCauses.resize(In.Axes.size());
  IndexFacts Out = In;
  for (size_t I = 0; I < Order.size() && I < In.Axes.size(); ++I)
    if (Order[I] >= 0 && static_cast<size_t>(Order[I]) < In.Axes.size())
      Out.setAxis(I, In.Axes[Order[I]], In.AxisCauses[Order[I]]);
  Out.MaskBounds.clear();
  return Out;
}

} // namespace tessel::sema
