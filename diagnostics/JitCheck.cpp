//===- JitCheck.cpp - `--jit`: compile every kernel and config ------------===//
/// \file
/// Plans one launch per kernel and config (sema::planLaunch with the
/// config's index, so the sizes are those of docs/launch-spec.md "Without a
/// spec"), compiles the distinct specializations, and collects findings.
//===----------------------------------------------------------------------===//
#include "diagnostics/JitCheck.h"

#include "compiler/backend/Toolkit.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/support/WorkerPool.h"
#include "diagnostics/checks/JitResources.h"

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

static bool hasErrorIn(const std::vector<Finding> &Findings, SourceRange R) {
  for (const Finding &F : Findings)
    if (F.Sev == Severity::Error && F.Range.Begin >= R.Begin && F.Range.Begin < R.End)
      return true;
  return false;
}

JitReport jitCheckFile(const ParsedFile &File, const ModuleInfo &Info, const std::vector<Finding> &Existing,
                       const JitCheckOptions &Opts) {
  JitReport Report;
  const backend::Toolkit &Tools = backend::toolkit();
  bool CanAssemble = backend::hasAssembler(Tools, backend::AssemblerKind::NvJitLink) ||
                     backend::hasAssembler(Tools, backend::AssemblerKind::Ptxas);
  if (!CanAssemble)
    Report.Note = "no PTX assembler (ptxas or libnvJitLink.so) was found, so --jit compiled to PTX only and "
                  "reports no register figures; searched " +
                  Tools.searched();
  std::vector<const JitFunction *> Kernels;
  for (const auto &[Name, Fn] : Info.Jit)
    if (Fn.IsKernel && Fn.Def && !hasErrorIn(Existing, Fn.Def->Range))
      Kernels.push_back(&Fn);
  std::sort(Kernels.begin(), Kernels.end(),
            [](const JitFunction *A, const JitFunction *B) { return A->Def->Range.Begin < B->Def->Range.Begin; });
  std::vector<Job> Jobs;
  for (const JitFunction *Fn : Kernels) {
    if (Fn->Configs.empty())
      Jobs.push_back({Fn, std::nullopt});
    for (size_t I = 0; I < Fn->Configs.size(); ++I)
      Jobs.push_back({Fn, I});
  }
  struct Done {
    std::vector<Finding> Findings;
    std::vector<JitSummary> Kernels;
  };
  std::vector<Done> Results(Jobs.size());
  // Two at a time: each compile is a worker process with a core of its own.
  parallelFor(Jobs.size(), 2, [&](size_t J) {
    if (Opts.Cancelled && Opts.Cancelled->load())
      return;
    const Job &Jb = Jobs[J];
    sema::LaunchPlanOptions PO;
    PO.Config = Jb.Config;
    sema::LaunchPlan Plan = sema::planLaunch(File, Info, Jb.Fn->Name, PO);
    if (!Plan.Error.empty() || Plan.Launches.empty())
      return; // nothing can be planned: the front-end tier says why, or nothing is known
    JitSite Site;
    Site.Kernel = Jb.Fn->Name;
    Site.KernelName = Jb.Fn->Def->NameRange;
    Site.Arch = Opts.Arch;
    if (Jb.Config) {
      const AutotuneConfig &C = Jb.Fn->Configs[*Jb.Config];
      Site.ConfigRange = C.Range;
      if (Jb.Fn->Configs.size() > 1)
        Site.Specialization = describeConfig(C.Config);
    }
    backend::KernelJitOptions KO;
    KO.Arch = Opts.Arch;
    KO.Assemble = CanAssemble;
    KO.Cache = Opts.Cache;
    KO.WorkerProgram = Opts.WorkerProgram;
    if (Jb.Config)
      KO.MaxNReg = Jb.Fn->Configs[*Jb.Config].Config.MaxNReg;
    // Launch instances that differ only in sizes compile alike: the first
    // instance stands for the config.
    backend::KernelJitResult R = backend::jitKernel(File, Info, Plan.Launches.front().Request, KO);
    Results[J].Findings = jitFindings(Site, R);
    JitSummary S;
    S.Kernel = Site.Kernel;
    S.Specialization = Site.Specialization;
    S.KernelName = Site.KernelName;
    S.ConfigRange = Site.ConfigRange;
    S.FromCache = R.FromCache;
    if (R.Kernel) {
      S.Compiled = std::move(R.Kernel);
      S.Compiled->Cubin.clear();
      S.Compiled->Ptx.clear();
      S.Compiled->Llvm.clear();
    } else {
      S.Failure = !R.Error.empty() ? R.Error : !R.Problems.empty() ? R.Problems.front().Message : "not compiled";
    }
    Results[J].Kernels.push_back(std::move(S));
  });
  for (Done &D : Results) {
    for (Finding &F : D.Findings)
      Report.Findings.push_back(std::move(F));
    for (JitSummary &S : D.Kernels)
      Report.Kernels.push_back(std::move(S));
  }
  Report.Cancelled = Opts.Cancelled && Opts.Cancelled->load();
  return Report;
}

} // namespace tessel::diag
