//===- JitCheck.cpp - `--jit`: compile every kernel and config ------------===//
/// \file
/// Plans one launch per kernel and config (sema::planLaunch with the
/// config's index, so the sizes are those of docs/launch-spec.md "Without a
/// spec"), compiles the distinct specializations, and collects findings.
//===----------------------------------------------------------------------===//
#include "diagnostics/JitCheck.h"

#include "compiler/backend/Occupancy.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/support/WorkerPool.h"
#include "diagnostics/checks/JitResources.h"
#include "diagnostics/checks/SharedMemoryBound.h"

#include <algorithm>
#include <set>

namespace tessel::diag {

std::string describeConfig(const PyConfig &C) {
  std::string S;
  for (const auto &[Name, V] : C.Kwargs)
    S += (S.empty() ? "" : ", ") + (Name.kind() == PyValue::Kind::Str ? Name.asStr() : Name.repr()) + "=" + V.repr();
  S += (S.empty() ? "" : ", ") + std::string("num_warps=") + std::to_string(C.NumWarps) +
       ", num_stages=" + std::to_string(C.NumStages);
  if (C.MaxNReg)
    S += ", maxnreg=" + std::to_string(*C.MaxNReg);
  return S;
}

namespace {
/// One compile to do: a kernel under one config.
struct Job {
  const JitFunction *Fn;
  std::optional<size_t> Config;
};
} // namespace

/// An error of the front tier in R. Its TS404 (a shared-memory lower bound)
/// is no error in the code: the JIT computes the exact figure for it.
static bool hasErrorIn(const std::vector<Finding> &Findings, SourceRange R) {
  for (const Finding &F : Findings)
    if (F.Sev == Severity::Error && F.Id != DiagId::SharedMemoryOveruse && F.Range.Begin >= R.Begin &&
        F.Range.Begin < R.End)
      return true;
  return false;
}

std::vector<const JitFunction *> jitKernels(const ModuleInfo &Info, const std::vector<Finding> &Existing,
                                            const std::set<std::string> *Helpers) {
  std::vector<const JitFunction *> Kernels;
  for (const auto &[Name, Fn] : Info.Jit)
    if (Fn.IsKernel && Fn.Def && !hasErrorIn(Existing, Fn.Def->Range) && !(Helpers && Helpers->count(Name)))
      Kernels.push_back(&Fn);
  std::sort(Kernels.begin(), Kernels.end(),
            [](const JitFunction *A, const JitFunction *B) { return A->Def->Range.Begin < B->Def->Range.Begin; });
  return Kernels;
}

bool canAssemble() {
  const backend::Toolkit &Tools = backend::toolkit();
  return backend::hasAssembler(Tools, backend::AssemblerKind::NvJitLink) ||
         backend::hasAssembler(Tools, backend::AssemblerKind::Ptxas);
}

ConfigJitReport jitCheckConfig(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Fn,
                               std::optional<size_t> Config, const JitCheckOptions &Opts) {
  ConfigJitReport Out;
  backend::KernelJitOptions KO;
  KO.Arch = Opts.Arch;
  KO.Assemble = canAssemble();
  KO.AssembleUnlaunchable = false; // its TS404 needs no cubin
  KO.Cache = Opts.Cache;
  KO.WorkerProgram = Opts.WorkerProgram;
  KO.Worker = Opts.Worker;
  KO.WorkerTimeoutSeconds = Opts.WorkerTimeoutSeconds;
  KO.Cancelled = Opts.Cancelled;
  KO.Project = Opts.Project;
  if (Config)
    KO.MaxNReg = Fn.Configs[*Config].Config.MaxNReg;
  sema::LaunchPlanOptions PO;
  PO.Config = Config;
  const sema::AnalyzeOptions Lowering = backend::loweringOptions(KO);
  PO.Settle = &Lowering;
  sema::LaunchPlan Plan = sema::planLaunch(File, Info, Fn.Name, PO);
  JitSite Site;
  Site.Kernel = Fn.Name;
  Site.KernelName = Fn.Def->NameRange;
  Site.Arch = Opts.Arch;
  if (Config) {
    const AutotuneConfig &C = Fn.Configs[*Config];
    Site.ConfigRange = C.Range;
    if (Fn.Configs.size() > 1)
      Site.Specialization = describeConfig(C.Config);
  }
  JitSummary S;
  S.Kernel = Site.Kernel;
  S.Specialization = Site.Specialization;
  S.KernelName = Site.KernelName;
  S.ConfigRange = Site.ConfigRange;
  S.Assumptions = std::move(Plan.Assumptions);
  S.Representative = Plan.Representative;
  if (!Plan.Error.empty() || Plan.Launches.empty()) {
    // Nothing can be planned: no finding (the front-end tier reports what is
    // wrong in the code), but the figures say why they are missing.
    S.Failure = !Plan.Error.empty()      ? Plan.Error
                : !Plan.Problems.empty() ? Plan.Problems.front().Message
                                         : "no launch could be planned";
    Out.Summary = std::move(S);
    return Out;
  }
  // Launch instances that differ only in sizes compile alike: the first
  // instance stands for the config.
  backend::KernelJitResult R = backend::jitKernel(File, Info, Plan.Launches.front().Request, KO);
  if (Opts.Cancelled && Opts.Cancelled->load())
    return Out; // abandoned: its error is no finding
  // Sizes tessel made up for an uncalled wrapper (a 1024-wide head
  // dimension, a block of a whole tensor) are no reason for a kernel to
  // have no figures: the file's own values stand in, and the figures say so.
  const unsigned SharedLimit = backend::smLimits(Opts.Arch).MaxSharedPerBlock;
  if (Plan.FromMadeUpCall && (!R.Kernel || R.Kernel->sharedBytes() > SharedLimit)) {
    PO.FromWrappers = false;
    sema::LaunchPlan Own = sema::planLaunch(File, Info, Fn.Name, PO);
    if (Own.Error.empty() && !Own.Launches.empty()) {
      backend::KernelJitResult OwnR = backend::jitKernel(File, Info, Own.Launches.front().Request, KO);
      if (OwnR.Kernel && OwnR.Kernel->sharedBytes() <= SharedLimit) {
        sema::replaceMadeUpLaunch(Own, R.Kernel ? "it needs " + std::to_string(R.Kernel->sharedBytes()) +
                                                      " bytes of shared memory there, more than the GPU has"
                                                : "it does not compile there");
        Plan = std::move(Own);
        S.Assumptions = std::move(Plan.Assumptions);
        S.Representative = Plan.Representative;
        R = std::move(OwnR);
      }
    }
  }
  Out.Findings = jitFindings(Site, R);
  if (Plan.Representative)
    std::erase_if(Out.Findings, [](const Finding &F) { return F.Id != DiagId::JitFailed; });
  if (Plan.Representative || Plan.AssumedDtypes)
    for (Finding &F : Out.Findings)
      if (F.Id == DiagId::JitFailed)
        F.Sev = Severity::Information;
  S.FromCache = R.FromCache;
  if (R.Kernel) {
    S.Compiled = std::move(R.Kernel);
    // Swapped with empty strings: clear() keeps a string's buffer, and so
    // does libstdc++'s move assignment from a short string. The editor keeps
    // every kernel's summary, and these are ~90 KB a kernel.
    for (std::string *Text : {&S.Compiled->Cubin, &S.Compiled->Ptx, &S.Compiled->Llvm, &S.Compiled->AssemblerLog})
      std::string().swap(*Text);
  } else {
    S.Failure = !R.Error.empty() ? R.Error : !R.Problems.empty() ? R.Problems.front().Message : "not compiled";
  }
  Out.Summary = std::move(S);
  return Out;
}

void mergeKernelFindings(const JitFunction &Fn, std::vector<Finding> &Findings) {
  // tessel's own limits: one note per kernel, however many configs meet them.
  bool Noted = false;
  std::erase_if(Findings, [&](const Finding &F) {
    if (F.Id != DiagId::JitFailed || F.Sev != Severity::Information)
      return false;
    bool Drop = Noted;
    Noted = true;
    return Drop;
  });
  markAutotuneSkips(Fn, Findings);
}

JitReport jitCheckFile(const ParsedFile &File, const ModuleInfo &Info, const std::vector<Finding> &Existing,
                       const JitCheckOptions &Opts, const std::set<std::string> *Helpers) {
  JitReport Report;
  if (!canAssemble())
    Report.Note = "no PTX assembler (ptxas or libnvJitLink.so) was found, so --jit compiled to PTX only and "
                  "reports no register figures; searched " +
                  backend::toolkit().searched();
  // A kernel with an error is not compiled, as Triton would not compile it;
  // its figures say so rather than nothing.
  for (const auto &[Name, Fn] : Info.Jit)
    if (Fn.IsKernel && Fn.Def && !(Helpers && Helpers->count(Name)) && hasErrorIn(Existing, Fn.Def->Range)) {
      JitSummary S;
      S.Kernel = Name;
      S.KernelName = Fn.Def->NameRange;
      S.Failure = "the kernel has errors; fix them first";
      Report.Kernels.push_back(std::move(S));
    }
  std::vector<Job> Jobs;
  for (const JitFunction *Fn : jitKernels(Info, Existing, Helpers)) {
    if (Fn->Configs.empty())
      Jobs.push_back({Fn, std::nullopt});
    for (size_t I = 0; I < Fn->Configs.size(); ++I)
      Jobs.push_back({Fn, I});
  }
  std::vector<ConfigJitReport> Results(Jobs.size());
  // Two at a time: each compile is a worker process with a core of its own.
  parallelFor(Jobs.size(), 2, [&](size_t J) {
    if (Opts.Cancelled && Opts.Cancelled->load())
      return;
    Results[J] = jitCheckConfig(File, Info, *Jobs[J].Fn, Jobs[J].Config, Opts);
  });
  for (size_t J = 0; J < Jobs.size();) {
    // The compiles of one kernel, its configs in order.
    std::vector<Finding> Kernel;
    size_t End = J;
    for (; End < Jobs.size() && Jobs[End].Fn == Jobs[J].Fn; ++End) {
      for (Finding &F : Results[End].Findings)
        Kernel.push_back(std::move(F));
      if (Results[End].Summary)
        Report.Kernels.push_back(std::move(*Results[End].Summary));
    }
    mergeKernelFindings(*Jobs[J].Fn, Kernel);
    for (Finding &F : Kernel)
      Report.Findings.push_back(std::move(F));
    J = End;
  }
  std::stable_sort(Report.Kernels.begin(), Report.Kernels.end(),
                   [](const JitSummary &A, const JitSummary &B) { return A.KernelName.Begin < B.KernelName.Begin; });
  Report.Cancelled = Opts.Cancelled && Opts.Cancelled->load();
  return Report;
}

} // namespace tessel::diag
