//===- BoundsCache.h - bounds verdicts reused per kernel --------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The prover is the slowest tier, so its verdicts are kept per kernel,
/// keyed like sema's per-kernel reuse (KernelReuse.h): the text of the
/// kernel's `def` and of every helper it may reach, the module-level facts
/// it reads, and the file's launch directives. A kernel whose key is
/// unchanged takes the stored verdicts, their ranges moved to where its
/// text now sits (sema::Rebaser); an edit elsewhere in the file re-proves
/// nothing. The verdicts of the previous version of the same document are
/// taken first, however many kernels the file has; then a process-wide,
/// bounded cache (for other documents and reopened files), which keeps the
/// texts it keys on, never a file's tree, and is safe to use from several
/// threads.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_BOUNDSCACHE_H
#define TESSEL_COMPILER_ANALYSIS_BOUNDSCACHE_H

#include "compiler/analysis/BoundsProver.h"
#include "compiler/sema/Analysis.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::analysis {

/// The verdicts of every kernel of FA's file, from Previous (the analysis FA
/// was made from, as analyzeFile's Previous, whose verdicts PreviousBounds
/// are, proved with the same Opts) or the cache where the kernel's inputs are unchanged,
/// and from proveKernel otherwise. With Unproved, nothing is proved: the
/// kernels that would need a proof are listed there instead (the language
/// server proves them later, off the keystroke's path: FileProofs::prove);
/// PreviousUnproved are the kernels Previous's call listed so, and those
/// among them whose inputs are Previous's, moved, are listed again without a
/// cache lookup.
std::vector<KernelBounds> proveFileCached(const sema::FileAnalysis &FA, const ProverOptions &Opts = {},
                                          const sema::FileAnalysis *Previous = nullptr,
                                          const std::vector<KernelBounds> *PreviousBounds = nullptr,
                                          std::vector<std::string> *Unproved = nullptr,
                                          const std::vector<std::string> *PreviousUnproved = nullptr);

/// Proving the kernels of one analysed file one at a time: the file's launch
/// directives are scanned once, its host launches shared, and every verdict
/// proved is kept in the process-wide cache. FA must outlive it.
class FileProofs {
public:
  FileProofs(const sema::FileAnalysis &FA, const ProverOptions &Opts);
  /// A @jit function the prover has something to say about (a kernel, not a
  /// helper); R is one of FA's records.
  bool isProvable(const sema::KernelRecord &R) const;
  /// R's verdicts without proving: moved from the previous version's
  /// (PreviousRecord, PreviousBounds of Previous) or from the cache.
  std::optional<KernelBounds> known(const sema::KernelRecord &R, const sema::FileAnalysis *Previous = nullptr,
                                    const sema::KernelRecord *PreviousRecord = nullptr,
                                    const KernelBounds *PreviousBounds = nullptr) const;
  /// Proves R's kernel (thread-safe: the language server's proof tier).
  KernelBounds prove(const sema::KernelRecord &R) const;
  const std::string &directives() const { return Directives; }

private:
  /// The key of R's kernel's launch from an uncalled host wrapper, or "".
  std::string launchKey(const std::string &Kernel) const;

  const sema::FileAnalysis &FA;
  ProverOptions Opts;
  std::vector<launch::LaunchDirective> Found;
  std::string Directives;                                          ///< their texts, part of every key
  const std::map<std::string, SymbolicLaunch> *Wrappers = nullptr; ///< FA.Host's, shared
};

/// Counters, for tests and benchmarks.
struct BoundsCacheStats {
  size_t Hits = 0, Misses = 0;
  size_t PreviousHits = 0; ///< taken from the previous version of the document
};
BoundsCacheStats boundsCacheStats();
void clearBoundsCache();

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_BOUNDSCACHE_H
