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

std::optional<Finding> sharedMemoryOveruse(const JitSite &Site, const backend::CompiledKernel &K) {
  unsigned Limit = backend::smLimits(Site.Arch).MaxSharedPerBlock;
  uint64_t Required = K.sharedBytes();
  if (Required <= Limit)
    return std::nullopt;
  // Triton's words (runtime/errors.py), then what takes the space.
  std::string Msg = backend::sharedMemoryOutOfResource(Required, Limit) + " In use at once (" + Site.Arch.name() + "):";
  std::vector<codegen::SharedBuffer> Live;
  for (const codegen::SharedBuffer &B : K.SharedBuffers)
    if (B.Offset + B.Bytes > 0)
      Live.push_back(B);
  // The buffers live together with the one that ends highest.
  const codegen::SharedBuffer *Top = nullptr;
  for (const codegen::SharedBuffer &B : Live)
    if (!Top || B.Offset + B.Bytes > Top->Offset + Top->Bytes)
      Top = &B;
  std::vector<codegen::SharedBuffer> Taking;
  for (const codegen::SharedBuffer &B : Live)
    if (Top && B.Begin <= Top->End && Top->Begin <= B.End)
      Taking.push_back(B);
  std::stable_sort(Taking.begin(), Taking.end(),
                   [](const codegen::SharedBuffer &A, const codegen::SharedBuffer &B) { return A.Offset < B.Offset; });
  SourceRange At = Site.ConfigRange ? *Site.ConfigRange : Site.KernelName;
  Finding F{DiagId::SharedMemoryOveruse, codeInfo(DiagId::SharedMemoryOveruse).DefaultSeverity, At, "", {}, {},
            Site.Specialization};
  for (size_t I = 0; I < Taking.size(); ++I) {
    const codegen::SharedBuffer &B = Taking[I];
    std::string Part =
        std::string(codegen::sharedBufferKindName(B.Kind)) + " " + B.What + ": " + std::to_string(B.Bytes) + " bytes";
    if (B.Stages > 1)
      Part += " (" + std::to_string(B.Stages) + " stages of " + std::to_string(B.Bytes / B.Stages) + ")";
    Msg += (I ? "; " : " ") + Part;
    if (!B.Where.empty())
      F.Related.push_back({B.Where, Part, nullptr});
  }
  F.Message = std::move(Msg);
  if (Site.ConfigRange)
    F.Related.push_back({Site.KernelName, "the kernel compiled under this config", nullptr});
  return F;
}

std::vector<Finding> jitFindings(const JitSite &Site, const backend::KernelJitResult &Result) {
  std::vector<Finding> Out;
  std::string Arch = Site.Arch.name();
  // A construct tessel cannot lower yet, or a failure of its own back end,
  // is tessel's limit: one note, never the user's error. What else the
  // lowering reports under a concrete specialization is what Triton rejects.
  bool Noted = false;
  for (const Problem &P : Result.Problems) {
    bool Ours = P.Kind == ProblemKind::UnsupportedConstruct;
    if (Ours && Noted)
      continue;
    Finding F = make(DiagId::JitFailed, P.Range.empty() ? Site.KernelName : P.Range,
                     Ours ? "figures unavailable for " + Arch + ": " + P.Message
                          : "tessel could not compile this kernel for " + Arch + ": " + P.Message,
                     Site);
    if (Ours) {
      F.Sev = Severity::Information;
      Noted = true;
    }
    Out.push_back(std::move(F));
  }
  if (!Result.Error.empty() && !Noted) {
    Finding F =
        make(DiagId::JitFailed, Site.KernelName,
             "figures unavailable for " + Arch + ": tessel's own compile failed: " + firstLines(Result.Error), Site);
    F.Sev = Severity::Information;
    Out.push_back(std::move(F));
  }
  if (!Result.Kernel)
    return Out;
  const backend::CompiledKernel &K = *Result.Kernel;
  // Triton's launch-time check (CompiledKernel._init_handles), known here
  // from the planned buffers without a GPU or an assembler.
  if (std::optional<Finding> F = sharedMemoryOveruse(Site, K))
    Out.push_back(std::move(*F));
  if (!K.assembled())
    return Out;
  if (!backend::spillsAreTritons(K))
    return Out;
  const backend::ResourceUsage &U = K.Resources;
  if (U.HasSpillCounts && U.spillBytes() > 0)
    Out.push_back(make(DiagId::RegisterSpill, Site.KernelName,
                       "kernel " + Site.Kernel + " spills registers: " + std::to_string(U.SpillStores) +
                           " bytes stored and " + std::to_string(U.SpillLoads) +
                           " bytes loaded from local memory per thread, with " + std::to_string(U.Registers) +
                           " registers (" + Arch + ")" +
                           (K.FmaDot ? "; the accumulator of its tl.dot alone takes " +
                                           std::to_string(K.DotAccumulatorRegs) + " registers per thread"
                                     : ""),
                       Site));
  // A pipelined dot keeps num_stages operand buffers and few blocks per SM
  // by design (Triton's matmuls run one or two): low occupancy there is the
  // schedule's, not a problem to report.
  if (K.FmaDot)
    return Out;
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
