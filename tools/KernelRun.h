//===- KernelRun.h - one kernel of a file, run over its launch instances -*- C++ -*-===//
/// \file
/// What `tessel run` does between reading the file and printing: plan the
/// launches (sema::planLaunch), lower each distinct specialization once
/// (sema::lowerKernel), prepare seeded inputs and run the interpreter per
/// instance, then turn the run's violations and failed asserts into findings
/// at the access (TS301-TS303) and summarise the outputs (saving them as
/// .npy when asked). The command and the tests share it.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_KERNELRUN_H
#define TESSEL_TOOLS_KERNELRUN_H

#include "compiler/frontend/Parser.h"
#include "tools/RunReport.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tessel::tools {

class GpuRunner;
class TritonBatch;

class CudaReferenceRun;

struct KernelRunOptions {
  /// With a runner, every instance the interpreter ran also runs on its GPU
  /// (tools/GpuRun.h) and is compared; Iters timed runs follow.
  GpuRunner *Gpu = nullptr;
  size_t Iters = 0;
  /// With a batch (--triton), every instance tessel could prepare is added
  /// to it with the outputs Triton's are to be compared with
  /// (tools/TritonBridge.h); the caller runs the batch afterwards.
  TritonBatch *Triton = nullptr;
  /// With a reference run (--reference, with Gpu), every instance tessel's GPU ran also runs the
  /// kernel's CUDA C++ reference on the same inputs (tools/CudaReferenceRun.h).
  CudaReferenceRun *CudaRef = nullptr;
  std::optional<std::string> Spec; ///< --spec text
  std::optional<size_t> Config;    ///< autotune config index
  /// Every autotune config in turn (--all-configs): each instance under each
  /// config, and with timing the fastest per instance (RunReport::Fastest).
  bool AllConfigs = false;
  /// Only this instance (0-based, in the launch's order): --instance, which
  /// the --sanitize child is given.
  std::optional<size_t> Instance;
  /// With --sanitize: instance Instance under Config, run again in a child
  /// under compute-sanitizer (tools/Sanitize.h); its reports become TS301
  /// findings at the lines they name.
  std::function<SanitizerReport(std::optional<size_t> Config, size_t Instance)> Sanitize;
  uint64_t Seed = 0;
  /// False (--no-reference): with a GPU runner, skip the interpreter and
  /// run and time on the GPU only, its outputs unchecked (benchmark sizes).
  bool Reference = true;
  std::optional<std::string> SaveDir; ///< an existing directory for the .npy files
  /// Ops one instance may execute before the run is stopped as not ending:
  /// about a second or two of scalar ops, far beyond the samples' needs.
  uint64_t MaxSteps = 50'000'000;
  /// Bytes one instance may allocate for its tensors (outputs count twice,
  /// for their written flags).
  uint64_t MaxBufferBytes = 4'000'000'000;
};

/// Runs Kernel of File (read from Path). False, with Error, when the request
/// itself is wrong (no such kernel or config); everything about the user's
/// code, spec or kernel is in Report.
bool runKernel(const ParsedFile &File, const std::string &Path, const std::string &Kernel, const KernelRunOptions &Opts,
               RunReport &Report, std::string &Error);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_KERNELRUN_H
