//===- CodegenFuzzer.cpp - libFuzzer target for lowering and codegen ------===//
/// \file
/// Lowering and code generation of the sample kernels under mutated
/// specializations, as `tessel compile --emit ptx` does them. The input
/// picks a sample file (byte 0), one of its @jit kernels (byte 1), an
/// autotune config (byte 2) and options (byte 3: bit 0 the arch, sm_80 or
/// sm_90; bit 1 a launch spec from the rest of the input, else the file's
/// own plan; bit 2 the back end too); the rest is the launch spec, whose
/// dtypes, shapes, scalars, constexprs and num_warps are the
/// specialization. Each planned launch (at most two) goes through
/// backend::jitKernel: sema::lowerKernel and codegen::emitLLVM (which
/// verifies the module), and with bit 2 the rest (KernelJitOptions::Backend):
/// libdevice linking, the O3 pipeline and the NVPTX back end, in process. That costs about ten times
/// the lowering, so it is the inputs' choice, not every input's; ptxas is
/// never run (a subprocess, and not tessel's code).
///
/// Besides "no crash, hang or sanitizer report", the invariant is the one
/// codegen promises: a construct it cannot lower is a Problem at its token,
/// and it never builds a module LLVM's verifier rejects. Both checks of
/// that ("... (a tessel bug)") trap here.
//===----------------------------------------------------------------------===//
#include "Samples.h"
#include "compiler/backend/KernelJit.h"
#include "compiler/sema/LaunchPlan.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

using namespace tessel;
using fuzz::samples;

namespace {

void requireNoTesselBug(const std::string &Message) {
  if (Message.find("(a tessel bug)") == std::string::npos)
    return;
  std::fprintf(stderr, "fuzz invariant failed: codegen built invalid LLVM IR\n%s\n", Message.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 4)
    return 0;
  const fuzz::Sample &S = samples()[Data[0] % samples().size()];
  const std::string &Kernel = S.Kernels[Data[1] % S.Kernels.size()];
  const JitFunction *Fn = S.Info.jit(Kernel);
  uint8_t Flags = Data[3];

  sema::LaunchPlanOptions PO;
  if (Fn && !Fn->Configs.empty())
    PO.Config = Data[2] % Fn->Configs.size();
  if (Flags & 2)
    PO.SpecText = std::string(reinterpret_cast<const char *>(Data) + 4, Size - 4);
  // Small sizes: the specialization is what matters, not the launch's extent.
  PO.DefaultSize = 64;
  sema::LaunchPlan Plan = sema::planLaunch(*S.File, S.Info, Kernel, PO);

  backend::KernelJitOptions KO;
  KO.Arch = backend::GpuArch{Flags & 1 ? 80u : 90u};
  KO.Assemble = false;
  KO.Backend = Flags & 4; // else jitKernel stops at the verified module
  if (Fn && PO.Config && *PO.Config < Fn->Configs.size())
    KO.MaxNReg = Fn->Configs[*PO.Config].Config.MaxNReg;
  size_t Compiled = 0;
  for (const sema::PlannedLaunch &PL : Plan.Launches) {
    if (++Compiled > 2)
      break;
    backend::KernelJitResult R = backend::jitKernel(*S.File, S.Info, PL.Request, KO);
    for (const Problem &P : R.Problems)
      requireNoTesselBug(P.Message);
    requireNoTesselBug(R.Error);
  }
  return 0;
}
