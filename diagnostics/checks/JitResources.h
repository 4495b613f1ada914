//===- JitResources.h - what compiling a kernel to a cubin finds -*- C++ -*-===//
/// \file
/// ## What it does
/// Turns the JIT's result for one kernel under one config (compiler/backend
/// KernelJit) into findings: register spills (TS401, warning at the
/// kernel's name with a related location at the autotune config), an
/// occupancy limited by registers or shared memory to under half of the
/// SM's warps (TS402, information), and a kernel tessel could not compile
/// (TS403: an error where the lowering finds what Triton rejects under the
/// specialization; one information-level note at the first construct tessel
/// cannot lower yet, or at the kernel's name when its own back end fails,
/// since tessel's limits are never the user's errors), and shared memory above
/// the per-block limit (TS404, error at the config, with what takes it). A kernel with a tl.dot
/// gets no TS401/TS402: tessel lowers it on FMA units for now, with far
/// more registers than Triton's tensor-core code, so its figures would not
/// be the user's.
///
/// ## Why is this bad?
/// Spilled values live in local memory (DRAM behind L1): every use is a
/// memory round trip. Low occupancy leaves the SM without warps to hide
/// memory latency. Triton reports neither: its n_regs / n_spills appear only
/// after a launch, in the compiled kernel's metadata.
///
/// ## Example
/// ```python
/// triton.Config({'BLOCK': 16384}, num_warps=1)  # 512 live floats per thread
/// ```
/// Use instead:
/// ```python
/// triton.Config({'BLOCK': 16384}, num_warps=16)
/// ```
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_CHECKS_JITRESOURCES_H
#define TESSEL_DIAGNOSTICS_CHECKS_JITRESOURCES_H

#include "compiler/backend/KernelJit.h"
#include "compiler/backend/Occupancy.h"
#include "diagnostics/Finding.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::diag {

struct JitSite {
  std::string Kernel;
  SourceRange KernelName;                 ///< the `def`'s name
  std::string Specialization;             ///< "BLOCK=16384, num_warps=1, num_stages=3"; "" for the only one
  std::optional<SourceRange> ConfigRange; ///< the autotune Config(...) that produced it
  backend::GpuArch Arch;
};

/// TS404: the kernel's shared memory above the arch's per-block opt-in limit
/// (Triton's "out of resource: shared memory" at launch), at the autotune
/// config (else the kernel's name), naming the buffers live at the peak,
/// each also a related location at its op.
std::optional<Finding> sharedMemoryOveruse(const JitSite &Site, const backend::CompiledKernel &K);

/// Findings for one compiled (or failed) kernel specialization.
std::vector<Finding> jitFindings(const JitSite &Site, const backend::KernelJitResult &Result);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_CHECKS_JITRESOURCES_H
