//===- MaskCoverage.cpp - loads and stores that can run past the end ------===//
#include "diagnostics/checks/MaskCoverage.h"

#include <algorithm>

namespace tessel::diag {

static Finding make(DiagId Id, SourceRange R, std::string Message, const sema::KernelAnalysis &K) {
  return Finding{Id, codeInfo(Id).DefaultSeverity, R, std::move(Message), {}, {}, K.Specialization};
}

std::vector<Finding> checkMaskCoverage(const sema::KernelAnalysis &Kernel) {
  std::vector<Finding> Out;
  for (const sema::MemoryAccess &A : Kernel.Accesses) {
    if (A.IsBlockPointer)
      continue; // bounds are the block pointer's boundary_check
    if (A.InUndecidedBranch)
      continue; // `if EVEN_K:` (a heuristic) is what makes the unmasked arm safe
    if (A.EnclosingWhere && !A.HasMask) {
      Out.push_back(make(DiagId::LoadInWhere, A.CallRange,
                         A.Op + " inside tl.where has no mask: the load reads every lane before tl.where selects, "
                                "so the lanes the condition excludes still read out of bounds; pass the condition "
                                "as the load's `mask=` (with `other=`)",
                         Kernel));
      continue;
    }
    for (size_t Axis = 0; Axis < A.PointerAxes.size(); ++Axis) {
      if (A.PointerAxes[Axis] != sema::AxisIndex::Sliding)
        continue;
      bool Bounded = A.HasMask && Axis < A.MaskBounds.size() && A.MaskBounds[Axis];
      bool Known = Axis < A.SlidingCause.size() && !A.SlidingCause[Axis].empty();
      // `mask=s_idx < S` over `s_idx * D + tl.arange(0, D)`: the scalar that
      // moves the window is compared, as a mask on the offsets would be.
      Bounded = Bounded || (A.HasMask && Known &&
                            std::find(A.MaskBoundedScalars.begin(), A.MaskBoundedScalars.end(), A.SlidingCause[Axis]) !=
                                A.MaskBoundedScalars.end());
      if (Bounded)
        continue;
      std::string AxisText = "axis " + std::to_string(Axis);
      std::string Cause = Known ? A.SlidingCause[Axis] : std::string("a program-id or loop-derived index");
      std::string Message = A.Op + " offsets can run past the end along " + AxisText + ": they depend on " + Cause;
      if (!A.HasMask) {
        Message += ", and there is no mask; add `mask=` comparing the offsets along " + AxisText + " with the size";
      } else {
        std::string BoundedAxes;
        for (size_t I = 0; I < A.MaskBounds.size(); ++I)
          if (A.MaskBounds[I])
            BoundedAxes += (BoundedAxes.empty() ? "" : ", ") + std::to_string(I);
        Message += BoundedAxes.empty() ? ", and no mask term bounds " + AxisText
                                       : ", and the mask bounds axis " + BoundedAxes + " but not " + AxisText;
      }
      Out.push_back(make(DiagId::UnmaskedAxis, A.PointerRange, std::move(Message), Kernel));
    }
  }
  return Out;
}

} // namespace tessel::diag
