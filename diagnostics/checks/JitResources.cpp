//===- JitResources.cpp - what compiling a kernel to a cubin finds --------===//
/// \file
/// The three JIT findings; the figures come from the assembler's report
/// (backend/ResourceReport) and the occupancy table (backend/Occupancy).
//===----------------------------------------------------------------------===//
#include "diagnostics/checks/JitResources.h"

namespace tessel::diag {

static Finding make(DiagId Id, SourceRange R, std::string Message, const JitSite &Site) {
  Finding F{Id, codeInfo(Id).DefaultSeverity, R, std::move(Message), {}, {}, Site.Specialization};
  if (Site.ConfigRange)
    F.Related.push_back({*Site.ConfigRange, "the config this launch uses", nullptr});
  return F;
}

static std::string trimEnd(std::string S) {
  while (!S.empty() && (S.back() == '\n' || S.back() == ' '))
    S.pop_back();
  return S;
}

/// The first lines of a tool's message: a ptxas log can be long.
static std::string firstLines(const std::string &S, size_t Max = 8) {
  size_t Pos = 0;
  for (size_t I = 0; I < Max; ++I) {
    Pos = S.find('\n', Pos);
    if (Pos == std::string::npos)
      return trimEnd(S);
    ++Pos;
  }
  return Pos >= S.size() ? trimEnd(S) : trimEnd(S.substr(0, Pos)) + "\n...";
}

std::vector<Finding> jitFindings(const JitSite &Site, const backend::KernelJitResult &Result) {
  std::vector<Finding> Out;
  std::string Arch = Site.Arch.name();
  for (const Problem &P : Result.Problems)
    Out.push_back(make(DiagId::JitFailed, P.Range.empty() ? Site.KernelName : P.Range,
                       "tessel could not compile this kernel for " + Arch + ": " + P.Message, Site));
  if (!Result.Error.empty())
    Out.push_back(make(DiagId::JitFailed, Site.KernelName,
                       "tessel could not compile this kernel for " + Arch + ": " + firstLines(Result.Error), Site));
  if (!Result.Kernel || !Result.Kernel->assembled())
    return Out;
  const backend::CompiledKernel &K = *Result.Kernel;
  // tl.dot on FMA units needs far more registers than Triton's tensor-core
  // code: a spill there would be tessel's, not the user's.
  if (K.FmaDot)
    return Out;
  const backend::ResourceUsage &U = K.Resources;
  if (U.HasSpillCounts && U.spillBytes() > 0)
    Out.push_back(make(DiagId::RegisterSpill, Site.KernelName,
                       "kernel " + Site.Kernel + " spills registers: " + std::to_string(U.SpillStores) +
                           " bytes stored and " + std::to_string(U.SpillLoads) +
                           " bytes loaded from local memory per thread, with " + std::to_string(U.Registers) +
                           " registers (" + Arch + ")",
                       Site));
  const backend::Occupancy &O = K.Occ;
  bool Limited = O.Limit == backend::OccupancyLimit::Registers || O.Limit == backend::OccupancyLimit::SharedMemory;
  if (Limited && O.fraction() < 0.5) {
    unsigned Warps = O.BlocksPerSm ? O.WarpsPerSm / O.BlocksPerSm : 0;
    std::string Msg = std::string("occupancy is limited by ") + backend::occupancyLimitName(O.Limit) + ": " +
                      std::to_string(O.BlocksPerSm) + (O.BlocksPerSm == 1 ? " block" : " blocks") + " of " +
                      std::to_string(Warps) + (Warps == 1 ? " warp" : " warps") + " per SM (" +
                      std::to_string(O.WarpsPerSm) + " of " + std::to_string(O.MaxWarpsPerSm) + " warps, " +
                      std::to_string(unsigned(O.fraction() * 100 + 0.5)) + "%) with ";
    Msg += O.Limit == backend::OccupancyLimit::Registers
               ? std::to_string(U.Registers) + " registers per thread"
               : std::to_string(K.sharedBytes()) + " bytes of shared memory per block";
    Out.push_back(make(DiagId::OccupancyLimit, Site.KernelName, Msg + " (" + Arch + ")", Site));
  }
  return Out;
}

} // namespace tessel::diag
