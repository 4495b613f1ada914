//===- Check.h - all diagnostics of one file --------------------*- C++ -*-===//
/// \file
/// The single entry point that front ends (tessel check, the language
/// server) call: parse, discover, check every kernel under every
/// specialization the file reveals, run the checks in diagnostics/checks/, and
/// return the findings sorted by position.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_CHECK_H
#define TESSEL_DIAGNOSTICS_CHECK_H

#include "compiler/analysis/BoundsProver.h"
#include "compiler/frontend/Parser.h"
#include "compiler/sema/Analysis.h"
#include "diagnostics/Finding.h"

#include <memory>
#include <vector>

namespace tessel::diag {

struct CheckOptions {
  /// Target compute capability (90 = sm_90); affects fp8 support and limits.
  int Arch = 90;
  /// Keep what sema learned about each named value, for hovers and inlay
  /// hints (the language server); the command line has no use for it.
  bool KeepValueFacts = true;
  /// Run the bounds prover (compiler/analysis/BoundsProver.h) on every kernel:
  /// the language server does; `tessel check` with --prove (bench/RESULTS.md
  /// has its cost per kernel).
  bool Prove = false;
  analysis::ProverOptions Prover;
  /// With Prove: take the verdicts that hold already (the previous report's,
  /// the cache's) and list the kernels that need a proof in
  /// FileReport::Unproved instead of proving them; withProofs adds them
  /// later (the language server's proof tier, off the keystroke's path).
  bool DeferProofs = false;
  /// The project the file belongs to (sema::AnalyzeOptions::Project).
  project::Project *Project = nullptr;
};

struct FileReport {
  std::vector<Finding> Findings;
  size_t NumKernels = 0;         ///< @jit functions checked
  size_t NumSpecializations = 0; ///< kernel x specialization pairs analysed
  /// What sema learned, for hovers and inlay hints (never null).
  std::shared_ptr<const sema::FileAnalysis> Analysis;
  /// The bounds prover's verdicts per kernel (empty without CheckOptions::Prove).
  std::vector<analysis::KernelBounds> Bounds;
  /// Kernels whose proof CheckOptions::DeferProofs left for later.
  std::vector<std::string> Unproved;
  /// The findings before the prover's (sema's problems; the structural
  /// checks' findings that the prover's verdicts may replace), kept while
  /// proofs are deferred so that withProofs can merge without checking again.
  std::vector<Finding> SemaFindings, StructuralFindings;
};

/// Previous, the analysis of an earlier version of the same document, lets
/// sema reuse the kernels an edit did not touch (sema::analyzeFile).
FileReport checkFile(std::shared_ptr<const ParsedFile> File, const CheckOptions &Opts = {},
                     const sema::FileAnalysis *Previous = nullptr);
/// The same with the whole previous report (made with the same Opts): the
/// prover also takes its verdicts for the kernels whose inputs are unchanged,
/// so a keystroke proves only the kernel it touched, whatever the file size.
FileReport checkFile(std::shared_ptr<const ParsedFile> File, const CheckOptions &Opts, const FileReport &Previous);

/// Front (made with CheckOptions::DeferProofs) with the verdicts of some of
/// its Unproved kernels added (Proved, in any order): the findings are those
/// checkFile gives with these verdicts, and the kernels still missing stay in
/// Unproved. The analysis is shared, not copied.
FileReport withProofs(const FileReport &Front, std::vector<analysis::KernelBounds> Proved);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_CHECK_H
