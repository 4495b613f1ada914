//===- KernelJit.h - one kernel specialization, source to cubin -*- C++ -*-===//
/// \file
/// What front ends call to compile a kernel: a planned launch (sema's
/// LaunchPlan) is lowered to tile IR (sema::lowerKernel), built into LLVM IR
/// (codegen::emitLLVM) and handed to the back end (Jit.h), each stage timed.
/// With a CompileCache the result is looked up first, under a key computed
/// from the source before any lowering (jitCacheKey), and stored after.
///
/// The LLVM stages can run in a worker process instead (JitWorker.h), so
/// that an LLVM fatal error or an assembler crash ends the worker, not the
/// caller (`tessel check --jit`, the language server).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_KERNELJIT_H
#define TESSEL_COMPILER_BACKEND_KERNELJIT_H

#include "compiler/backend/CompileCache.h"
#include "compiler/backend/Jit.h"
#include "compiler/backend/JitWorker.h"
#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/sema/Lowering.h"
#include "compiler/support/Problem.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace tessel::backend {

struct KernelJitOptions {
  GpuArch Arch;
  bool Assemble = true; ///< false: stop at PTX
  /// false: a kernel whose planned shared memory is above the arch's
  /// per-block limit (it can never launch: Triton's OutOfResources) stops at
  /// PTX. Its figures come from the plan; ptxas on such tiles can take a
  /// minute (`tessel check --jit`, the language server).
  bool AssembleUnlaunchable = true;
  /// false: stop once the LLVM module is built and verified (no libdevice,
  /// optimizer, NVPTX or assembler; no cache; the result has no Kernel). What a
  /// fuzz target of the code generator asks for.
  bool Backend = true;
  bool KeepLlvm = false; ///< keep the optimized LLVM IR text
  /// `triton.Config(maxnreg=...)` of the config being compiled.
  std::optional<int64_t> MaxNReg;
  AssembleOptions Assembler;
  CompileCache *Cache = nullptr;
  /// The project the file belongs to, for kernels that call imported helpers.
  project::Project *Project = nullptr;
  /// Run the LLVM stages in a worker process: this program's path, run as
  /// `WorkerProgram jit-worker ...` (see runJitWorker). Empty: in process.
  std::string WorkerProgram;
  unsigned WorkerTimeoutSeconds = 300;
  /// A long-lived worker to run the LLVM stages in (the language server);
  /// takes precedence over WorkerProgram.
  JitWorkerProcess *Worker = nullptr;
  /// Set by another thread to abandon the compile (a newer edit); honoured
  /// by Worker while it compiles.
  const std::atomic<bool> *Cancelled = nullptr;
};

struct KernelJitResult {
  std::optional<CompiledKernel> Kernel;
  /// Lowering and code generation problems, at their source ranges (sema's
  /// errors, constructs tessel cannot lower or generate yet).
  std::vector<Problem> Problems;
  /// A back-end failure (LLVM, the assembler, the worker): one message.
  std::string Error;
  std::vector<StageTime> Times; ///< lower, codegen, then the back end's
  bool FromCache = false;
};

/// The cache key of Request's kernel under Opts: the kernel's inputs as sema
/// computes them for reuse (texts of its def, helpers, configs and launch
/// sites; the module names it resolves), where the kernel starts (line
/// info), the request, the options, the environment's developer options
/// (TESSEL_LLVM_PIPELINE, TESSEL_PIPELINE_TL_RANGE), tessel's version and
/// build identity (BuildId.h) and the toolkit's version. nullopt when the
/// inputs are not reusable (a function passed as a constexpr).
std::optional<CacheKey> jitCacheKey(const ParsedFile &File, const ModuleInfo &Info,
                                    const sema::LoweringRequest &Request, const KernelJitOptions &Opts);
/// The key a tessel of build identity Build computes (the one above passes
/// this build's buildId()).
std::optional<CacheKey> jitCacheKey(const ParsedFile &File, const ModuleInfo &Info,
                                    const sema::LoweringRequest &Request, const KernelJitOptions &Opts,
                                    llvm::StringRef Build);

KernelJitResult jitKernel(const ParsedFile &File, const ModuleInfo &Info, const sema::LoweringRequest &Request,
                          const KernelJitOptions &Opts);

/// The options jitKernel lowers under (Opts's arch and project, no value
/// facts): a plan that settles its guessed types (LaunchPlanOptions::Settle)
/// for a compile lowers as that compile will.
sema::AnalyzeOptions loweringOptions(const KernelJitOptions &Opts);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_KERNELJIT_H
