//===- JitCheck.h - `--jit`: compile every kernel and config ----*- C++ -*-===//
/// \file
/// The JIT tier of a check: every kernel of a file that has no error from
/// the front-end tier is compiled under each of its autotune configs (or
/// its one launch), through backend::jitKernel, and the results become
/// findings (checks/JitResources) and per-config summaries (the language
/// server's code lens: registers, spills, shared memory, occupancy).
///
/// Each compile's LLVM and assembler stages run in a worker process when
/// JitCheckOptions::WorkerProgram is set, so a fatal error in one kernel's
/// compile ends that worker only and the other kernels' findings are still
/// reported. Compiles run on the process's worker pool; results are merged
/// in source order, so the output does not depend on timing.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_JITCHECK_H
#define TESSEL_DIAGNOSTICS_JITCHECK_H

#include "compiler/backend/KernelJit.h"
#include "diagnostics/Finding.h"

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessel::diag {

struct JitCheckOptions {
  backend::GpuArch Arch;
  backend::CompileCache *Cache = nullptr;
  std::string WorkerProgram; ///< see KernelJitOptions::WorkerProgram
  /// A long-lived worker (the language server); see KernelJitOptions::Worker.
  backend::JitWorkerProcess *Worker = nullptr;
  unsigned WorkerTimeoutSeconds = 300;
  /// The project the file belongs to, for kernels that call imported helpers.
  project::Project *Project = nullptr;
  /// Set by another thread to stop between compiles (a newer edit); a
  /// long-lived Worker also abandons the compile in progress.
  const std::atomic<bool> *Cancelled = nullptr;
};

/// One kernel under one config.
struct JitSummary {
  std::string Kernel;
  std::string Specialization; ///< "" when the kernel has one launch
  SourceRange KernelName;
  std::optional<SourceRange> ConfigRange;
  std::optional<backend::CompiledKernel> Compiled; ///< PTX/cubin dropped to keep it small
  std::string Failure;                             ///< why it did not compile, or why no launch was planned
  bool FromCache = false;
  /// What the launch it was compiled under assumed (sema::LaunchPlan).
  std::vector<std::string> Assumptions;
  /// Some constexpr or dtype is a representative value: the figures hold
  /// for the assumptions only.
  bool Representative = false;
};

struct JitReport {
  std::vector<Finding> Findings;
  std::vector<JitSummary> Kernels;
  bool Cancelled = false;
  /// Set when there is no assembler: `--jit` then stops at PTX.
  std::string Note;
};

/// Front-end findings (Existing) tell which kernels have errors: those are
/// not compiled.
/// Helpers are the file's uncalled helpers (sema::uncalledHelpers): Triton
/// compiles them only inside their callers, so they are not compiled alone.
JitReport jitCheckFile(const ParsedFile &File, const ModuleInfo &Info, const std::vector<Finding> &Existing,
                       const JitCheckOptions &Opts, const std::set<std::string> *Helpers = nullptr);

/// The kernels jitCheckFile compiles: @jit functions with a `def`, not
/// among Helpers, with no error from the front-end tier (Existing), in
/// source order.
std::vector<const JitFunction *> jitKernels(const ModuleInfo &Info, const std::vector<Finding> &Existing,
                                            const std::set<std::string> *Helpers = nullptr);

/// One kernel under one config (nullopt: a kernel without autotune configs):
/// the findings and the summary (its Failure says why when no launch can be
/// planned). Under a Representative plan only the figures count: the
/// resource findings are dropped, since the values were assumed, not the
/// code's; under it or assumed pointer dtypes TS403 is a note.
struct ConfigJitReport {
  std::vector<Finding> Findings;
  std::optional<JitSummary> Summary;
};
ConfigJitReport jitCheckConfig(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Fn,
                               std::optional<size_t> Config, const JitCheckOptions &Opts);

/// The findings of every config of one kernel, merged as one kernel's: one
/// TS403 note for tessel's limits (the first), and under @triton.autotune a
/// TS404 (shared memory above the limit) is a warning that the autotuner
/// skips that config, an error only when every config overflows.
void mergeKernelFindings(const JitFunction &Fn, std::vector<Finding> &Findings);

/// Whether a PTX assembler (nvJitLink or ptxas) was found: without one the
/// JIT stops at PTX and has no register figures.
bool canAssemble();

/// "BLOCK=1024, num_warps=4, num_stages=3" for config C.
std::string describeConfig(const PyConfig &C);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_JITCHECK_H
