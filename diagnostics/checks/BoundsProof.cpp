//===- BoundsProof.cpp - lanes the bounds prover drives out of bounds ------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Turns the prover's verdicts into findings (see the header).
//===----------------------------------------------------------------------===//
#include "diagnostics/checks/BoundsProof.h"

#include <algorithm>

namespace tessel::diag {

std::vector<Finding> checkBoundsProof(const analysis::KernelBounds &Kernel) {
  std::vector<Finding> Out;
  if (!Kernel.Failure.empty()) {
    // The proof's own process failed (out of memory, a crash): said once, on
    // the kernel, so the user knows why its accesses have no verdicts.
    Out.push_back(Finding{DiagId::BoundsUndecided,
                          codeInfo(DiagId::BoundsUndecided).DefaultSeverity,
                          Kernel.NameRange,
                          "the bounds prover " + Kernel.Failure + " on '" + Kernel.Kernel +
                              "'; its accesses are neither proven nor reported (the next edit tries again)",
                          {},
                          {},
                          {}});
    return Out;
  }
  if (!Kernel.Analysed)
    return Out;
  for (const analysis::AccessBounds &A : Kernel.Accesses) {
    if (A.Verdict != analysis::BoundsVerdict::Refuted)
      continue;
    Finding F{DiagId::BoundsViolation,
              A.Certain ? Severity::Error : codeInfo(DiagId::BoundsViolation).DefaultSeverity,
              A.Range,
              "tl." + A.Op + " can go out of bounds: " + A.Example.Text,
              {},
              {},
              {}};
    if (!A.Certain) {
      std::string Assumed;
      for (const std::string &S : Kernel.Assumptions)
        Assumed += (Assumed.empty() ? "" : "; ") + S;
      F.Related.push_back({Kernel.NameRange, "assumed: " + Assumed, nullptr});
    }
    F.Related.push_back(
        {Kernel.NameRange, "reproduce with `# tessel: launch " + analysis::launchSpecText(A.Example) + "`", nullptr});
    Out.push_back(std::move(F));
  }
  if (Kernel.TimedOut) {
    size_t Open = static_cast<size_t>(std::count_if(Kernel.Accesses.begin(), Kernel.Accesses.end(), [](const auto &A) {
      return A.Verdict == analysis::BoundsVerdict::Undecided && A.OutOfLimits;
    }));
    Out.push_back(Finding{DiagId::BoundsUndecided,
                          codeInfo(DiagId::BoundsUndecided).DefaultSeverity,
                          Kernel.NameRange,
                          "the bounds prover could not decide " + std::to_string(Open) + " of " +
                              std::to_string(Kernel.Accesses.size()) + " accesses of '" + Kernel.Kernel +
                              "' within its time limits; they are neither proven nor reported",
                          {},
                          {},
                          {}});
  }
  return Out;
}

void dropDecidedStructural(std::vector<Finding> &Findings, const std::vector<analysis::KernelBounds> &Kernels) {
  auto Decided = [&](const Finding &F) {
    if (F.Id != DiagId::UnmaskedAxis && F.Id != DiagId::LoadInWhere)
      return false;
    for (const analysis::KernelBounds &K : Kernels)
      for (const analysis::AccessBounds &A : K.Accesses)
        if (A.Verdict != analysis::BoundsVerdict::Undecided && A.Range.Begin <= F.Range.Begin &&
            F.Range.End <= A.Range.End)
          return true;
    return false;
  };
  Findings.erase(std::remove_if(Findings.begin(), Findings.end(), Decided), Findings.end());
}

} // namespace tessel::diag
