//===- IsolatedProof.cpp - a kernel's proof in a child process ------------===//
#include "compiler/analysis/IsolatedProof.h"

#include "compiler/analysis/ProofWire.h"
#include "compiler/support/ForkedCall.h"

namespace tessel::analysis {

KernelBounds proveKernelIsolated(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                 const ProverOptions &Opts, const FileLaunches &Shared) {
  ForkLimits Limits;
  Limits.MemoryBytes = Opts.IsolatedMemoryBytes;
  // The prover keeps to its own wall-clock limits (a wrapper's launch and the
  // conventional reading may each take the kernel's); this one only ends a
  // child that stopped answering.
  Limits.TimeoutMs = 2 * Opts.KernelTimeoutMs + 5000;
  ForkedResult R = runForked([&] { return encodeKernelBounds(proveKernel(File, Info, Kernel, Opts, Shared)); }, Limits);
  if (R.ok())
    if (std::optional<KernelBounds> K = decodeKernelBounds(R.Output))
      return std::move(*K);
  KernelBounds K;
  K.Kernel = std::string(Kernel);
  if (const JitFunction *Fn = Info.jit(K.Kernel); Fn && Fn->Def)
    K.NameRange = Fn->Def->NameRange;
  K.Failure = R.ok() ? "answered with verdicts that could not be read" : describeFailure(R, Limits);
  K.Reason = "the bounds prover " + K.Failure;
  return K;
}

} // namespace tessel::analysis
