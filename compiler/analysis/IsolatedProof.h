//===- IsolatedProof.h - a kernel's proof in a child process ----*- C++ -*-===//
/// \file
/// Z3 out of memory is not an error a process recovers from: it throws from
/// places that cannot throw, or dereferences the null it was given. The
/// language server, which must outlive any one kernel's proof, proves in a
/// forked child (support/ForkedCall.h) under an address-space budget and a
/// time limit; the verdicts come back as bytes (ProofWire.h). A child that
/// fails becomes verdicts that say so (KernelBounds::Failure), for that
/// kernel alone.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_ISOLATEDPROOF_H
#define TESSEL_COMPILER_ANALYSIS_ISOLATEDPROOF_H

#include "compiler/analysis/BoundsProver.h"

namespace tessel::analysis {

/// proveKernel(File, Info, Kernel, Opts, Shared) in a child process.
KernelBounds proveKernelIsolated(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                 const ProverOptions &Opts, const FileLaunches &Shared);

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_ISOLATEDPROOF_H
