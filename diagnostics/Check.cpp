//===- Check.cpp - all diagnostics of one file ----------------------------===//
/// \file
/// Runs sema over the file, turns its problems into findings, runs the
/// analysis-based checks of diagnostics/checks/ on every kernel
/// specialization, and merges findings that several specializations share
/// (reported plainly when all of a kernel's specializations agree).
//===----------------------------------------------------------------------===//
#include "diagnostics/Check.h"

#include "compiler/analysis/BoundsCache.h"
#include "diagnostics/checks/BoundsProof.h"
#include "diagnostics/checks/MaskCoverage.h"
#include "diagnostics/checks/SharedMemoryBound.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

namespace tessel::diag {

static bool sameFinding(const Finding &A, const Finding &B) {
  return A.Id == B.Id && A.Range == B.Range && A.Message == B.Message;
}

/// Analysis-based findings of every kernel, merged across specializations.
static std::vector<Finding> analysisFindings(const sema::FileAnalysis &FA, int Arch) {
  // Kernel by kernel in name order (which of two kernels' equal findings
  // is kept depends on it); each record's analyses are one slice of
  // FA.Kernels, so only the records are sorted (a map of 13,000 vectors
  // was built and freed per keystroke).
  std::vector<const sema::KernelRecord *> ByName;
  ByName.reserve(FA.Records.size());
  for (const sema::KernelRecord &Rec : FA.Records)
    if (Rec.NumAnalyses)
      ByName.push_back(&Rec);
  std::stable_sort(ByName.begin(), ByName.end(),
                   [](const sema::KernelRecord *A, const sema::KernelRecord *B) { return A->Kernel < B->Kernel; });
  std::vector<Finding> Out;
  std::vector<const sema::KernelAnalysis *> Specs;
  for (const sema::KernelRecord *Rec : ByName) {
    size_t First = Out.size();
    Specs.clear();
    for (size_t I = Rec->FirstAnalysis; I < Rec->FirstAnalysis + Rec->NumAnalyses; ++I)
      Specs.push_back(&FA.Kernels[I]);
    std::vector<std::vector<Finding>> PerSpec;
    for (const sema::KernelAnalysis *K : Specs) {
      PerSpec.push_back(checkMaskCoverage(*K));
      if (std::optional<Finding> F = checkSharedMemoryBound(*K, Arch))
        PerSpec.back().push_back(std::move(*F));
    }
    for (size_t I = 0; I < PerSpec.size(); ++I) {
      for (Finding F : PerSpec[I]) {
        if (std::any_of(Out.begin(), Out.end(), [&](const Finding &G) { return sameFinding(F, G); }))
          continue;
        size_t Count = 0;
        for (const auto &Other : PerSpec)
          Count += std::any_of(Other.begin(), Other.end(), [&](const Finding &G) { return sameFinding(F, G); });
        if (Count == PerSpec.size())
          F.Specialization.clear();
        else if (!Specs[I]->SpecializationSource.empty())
          F.Related.push_back({Specs[I]->SpecializationSource, "under " + Specs[I]->Specialization, nullptr});
        Out.push_back(std::move(F));
      }
    }
    if (const JitFunction *Fn = FA.Info.jit(Rec->Kernel))
      markAutotuneSkips(*Fn, Out, First);
  }
  return Out;
}

/// R.Findings from its kept sema and structural findings and its verdicts.
static void mergeFindings(FileReport &R) {
  R.Findings = R.SemaFindings;
  std::vector<Finding> Analysed = R.StructuralFindings;
  if (!R.Bounds.empty()) {
    dropDecidedStructural(Analysed, R.Bounds);
    for (const analysis::KernelBounds &K : R.Bounds)
      for (Finding &F : checkBoundsProof(K))
        Analysed.push_back(std::move(F));
  }
  for (Finding &F : Analysed)
    if (!R.Analysis->onBrokenLine(F.Range))
      R.Findings.push_back(std::move(F));
  std::stable_sort(R.Findings.begin(), R.Findings.end(),
                   [](const Finding &A, const Finding &B) { return A.Range < B.Range; });
}

static FileReport check(std::shared_ptr<const ParsedFile> File, const CheckOptions &Opts,
                        const sema::FileAnalysis *Previous, const std::vector<analysis::KernelBounds> *PreviousBounds,
                        const std::vector<std::string> *PreviousUnproved) {
  sema::AnalyzeOptions AO;
  AO.Arch = Opts.Arch;
  AO.RecordValueFacts = Opts.KeepValueFacts;
  AO.Project = Opts.Project;
  FileReport R;
  R.Analysis = sema::analyzeFile(File, AO, Previous);
  for (const Problem &P : R.Analysis->Problems)
    R.SemaFindings.push_back(toFinding(P));
  R.StructuralFindings = analysisFindings(*R.Analysis, Opts.Arch);
  if (Opts.Prove) {
    analysis::ProverOptions PO = Opts.Prover;
    if (!PO.Project)
      PO.Project = Opts.Project;
    R.Bounds = analysis::proveFileCached(*R.Analysis, PO, Previous, PreviousBounds,
                                         Opts.DeferProofs ? &R.Unproved : nullptr, PreviousUnproved);
  }
  mergeFindings(R);
  if (R.Unproved.empty()) {
    R.SemaFindings = {};
    R.StructuralFindings = {};
  }
  R.NumKernels = static_cast<size_t>(std::count_if(R.Analysis->Records.begin(), R.Analysis->Records.end(),
                                                   [](const sema::KernelRecord &Rec) { return Rec.NumAnalyses > 0; }));
  R.NumSpecializations = R.Analysis->Kernels.size();
  return R;
}

FileReport withProofs(const FileReport &Front, std::vector<analysis::KernelBounds> Proved) {
  FileReport R;
  R.NumKernels = Front.NumKernels;
  R.NumSpecializations = Front.NumSpecializations;
  R.Analysis = Front.Analysis;
  R.SemaFindings = Front.SemaFindings;
  R.StructuralFindings = Front.StructuralFindings;
  // Verdicts in the order of the analysis's records, as checkFile gives them.
  std::unordered_map<std::string_view, const analysis::KernelBounds *> ByKernel;
  for (const analysis::KernelBounds &K : Front.Bounds)
    ByKernel.emplace(K.Kernel, &K);
  std::unordered_map<std::string_view, analysis::KernelBounds *> New;
  for (analysis::KernelBounds &K : Proved)
    New.emplace(K.Kernel, &K);
  std::set<std::string_view> Missing(Front.Unproved.begin(), Front.Unproved.end());
  for (const sema::KernelRecord &Rec : R.Analysis->Records) {
    if (auto It = ByKernel.find(Rec.Kernel); It != ByKernel.end()) {
      R.Bounds.push_back(*It->second);
    } else if (auto N = New.find(Rec.Kernel); N != New.end() && Missing.count(Rec.Kernel)) {
      R.Bounds.push_back(std::move(*N->second));
      Missing.erase(Rec.Kernel);
    }
  }
  for (const std::string &Name : Front.Unproved)
    if (Missing.count(Name))
      R.Unproved.push_back(Name);
  mergeFindings(R);
  if (R.Unproved.empty()) {
    R.SemaFindings = {};
    R.StructuralFindings = {};
  }
  return R;
}

FileReport checkFile(std::shared_ptr<const ParsedFile> File, const CheckOptions &Opts,
                     const sema::FileAnalysis *Previous) {
  return check(std::move(File), Opts, Previous, nullptr, nullptr);
}

FileReport checkFile(std::shared_ptr<const ParsedFile> File, const CheckOptions &Opts, const FileReport &Previous) {
  return check(std::move(File), Opts, Previous.Analysis.get(), Opts.Prove ? &Previous.Bounds : nullptr,
               Opts.Prove ? &Previous.Unproved : nullptr);
}

} // namespace tessel::diag
