//===- KernelRun.cpp - one kernel of a file, run over its launch instances ===//
#include "tools/KernelRun.h"

#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/LayoutAssignment.h"
#include "compiler/interp/Launch.h"
#include "compiler/ir/TypeUtils.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "diagnostics/JitCheck.h"
#include "tools/AtomicOrder.h"
#include "tools/CommandLine.h"
#include "tools/CudaReferenceRun.h"
#include "tools/GpuRun.h"
#include "tools/NpyFile.h"
#include "tools/TritonBridge.h"

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>

namespace tessel::tools {

static diag::Finding finding(diag::DiagId Id, SourceRange Range, std::string Message, const std::string &Label) {
  return diag::Finding{Id, diag::codeInfo(Id).DefaultSeverity, Range, std::move(Message), {}, {}, Label};
}

static std::string programText(const std::array<int64_t, 3> &P) {
  return "(" + std::to_string(P[0]) + ", " + std::to_string(P[1]) + ", " + std::to_string(P[2]) + ")";
}

/// The run's violations and failed asserts, one finding per access site.
static void collectFindings(const interp::RunResult &Run, const std::string &Label, InstanceReport &Out) {
  for (const interp::ViolationSite &S : Run.Sites) {
    diag::DiagId Id = S.Kind == interp::ViolationKind::UninitializedRead ? diag::DiagId::UninitializedRead
                                                                         : diag::DiagId::OutOfBoundsAccess;
    Out.Findings.push_back(finding(Id, S.Range, interp::describe(S), Label));
  }
  for (const interp::AssertSite &A : Run.AssertSites) {
    std::string Message = "device_assert failed" + (A.Message.empty() ? "" : ": " + A.Message) + " (" +
                          std::to_string(A.Count) + (A.Count == 1 ? " lane" : " lanes") + ", first in program " +
                          programText(A.FirstProgramId) + ", lane " + std::to_string(A.FirstLane) + ")";
    Out.Findings.push_back(finding(diag::DiagId::DeviceAssertFailed, A.Range, std::move(Message), Label));
  }
}

/// A GPU output that disagrees with the interpreter is a finding at the
/// kernel (TS304): the compiled code, or a race the interpreter's program
/// order hides, computes something else.
static void gpuFindings(SourceRange Kernel, const GpuInstanceReport &G, const std::string &Label, InstanceReport &Out) {
  for (const GpuComparison &C : G.Outputs) {
    if (!C.Mismatches)
      continue;
    if (C.FromAtomic) {
      // Not an error: the programs' order decided what the atomic returned.
      diag::Finding F = finding(diag::DiagId::GpuMismatch, *C.FromAtomic,
                                std::to_string(C.Mismatches) + " of " + std::to_string(C.Compared) + " elements of " +
                                    C.Name + " differ between the GPU and the interpreter: " + C.Name +
                                    " holds values this atomic returned, which depend on the order programs run "
                                    "in (the interpreter runs them one after another)",
                                Label);
      F.Sev = diag::Severity::Information;
      Out.Findings.push_back(std::move(F));
      continue;
    }
    std::string Message = std::to_string(C.Mismatches) + " of " + std::to_string(C.Compared) + " elements of " +
                          C.Name + " differ between the GPU and the interpreter beyond the " + C.DType +
                          " tolerance, first " + C.Name + "[" + std::to_string(C.FirstMismatch) + "]: GPU " +
                          formatNumber(C.Got) + ", interpreter " + formatNumber(C.Expected) + " (max abs error " +
                          formatNumber(C.MaxAbs) + ", max rel error " + formatNumber(C.MaxRel) + ")";
    Out.Findings.push_back(finding(diag::DiagId::GpuMismatch, Kernel, std::move(Message), Label));
  }
}

/// compute-sanitizer's reports as TS301 findings over the line each names
/// (the line's code, without its indentation): the PTX's line table goes no
/// finer than Triton's does.
static void sanitizerFindings(const SourceText &Text, const SanitizerReport &S, const std::string &Label,
                              InstanceReport &Out) {
  for (const SanitizerError &E : S.Errors) {
    if (E.Line <= 0 || static_cast<uint32_t>(E.Line) > Text.lineCount())
      continue; // a line of another file, or none: the text report still shows it
    std::string_view L = Text.line(static_cast<uint32_t>(E.Line - 1));
    uint32_t Begin = Text.offset(LineCol{static_cast<uint32_t>(E.Line - 1), 0});
    size_t Lead = L.find_first_not_of(" \t");
    size_t End = L.find_last_not_of(" \t\r\n");
    if (Lead == std::string_view::npos)
      continue;
    SourceRange R{Begin + static_cast<uint32_t>(Lead), Begin + static_cast<uint32_t>(End + 1)};
    std::string Message = "compute-sanitizer: " + E.What + " in " + E.Kernel + " (" + std::to_string(E.Count) +
                          (E.Count == 1 ? " report" : " reports") + ", first by thread " + E.Thread + " in block " +
                          E.Block + ")";
    Out.Findings.push_back(finding(diag::DiagId::OutOfBoundsAccess, R, std::move(Message), Label));
  }
}

static bool contiguous(const launch::ConcreteTensor &T) {
  int64_t Expected = 1;
  for (size_t D = T.Shape.size(); D-- > 0;) {
    if (T.Shape[D] != 1 && T.Strides[D] != Expected)
      return false;
    Expected *= T.Shape[D];
  }
  return Expected == T.StorageElements;
}

static std::string fileLabel(const std::string &Label) {
  std::string S;
  for (char C : Label)
    S += std::isalnum(static_cast<unsigned char>(C)) || C == '-' || C == '.' ? C : '_';
  return S;
}

namespace {
/// Where --save writes, and whether a write has failed.
struct SaveTarget {
  std::filesystem::path Dir;
  bool ManyInstances = false;
  std::string Error;
};
} // namespace

/// Summaries of the outputs (every tensor when the spec marks none), saved
/// when asked.
static void summarize(const launch::ConcreteLaunch &L, const interp::PreparedLaunch &P, SaveTarget *Save,
                      InstanceReport &Out) {
  bool AnyOutput = false;
  for (const launch::ConcreteTensor &T : L.Tensors)
    AnyOutput |= T.IsOutput;
  for (const launch::ConcreteTensor &T : L.Tensors) {
    if (AnyOutput && !T.IsOutput)
      continue;
    uint32_t Id = P.buffer(T.Name);
    if (!Id)
      continue;
    OutputSummary S{T.Name, T.DType, T.Shape, interp::bufferStats(P.Mem, Id), {}, {}};
    if (Save && Save->Error.empty()) {
      const interp::Buffer &B = P.Mem.buffer(Id);
      std::string Name = T.Name + (Save->ManyInstances ? "-" + fileLabel(L.Label) : "") + ".npy";
      std::filesystem::path Path = Save->Dir / Name;
      std::vector<int64_t> Shape = contiguous(T) ? T.Shape : std::vector<int64_t>{T.StorageElements};
      std::string Error;
      if (writeNpy(Path.string(), B.Elem, Shape, B.Bytes, Error)) {
        S.SavedTo = Path.string();
        if (npySavedAsRawBits(B.Elem))
          S.SavedAs = npyDescr(B.Elem);
      } else {
        Save->Error = "cannot write " + Path.string() + ": " + Error;
      }
    }
    Out.Outputs.push_back(std::move(S));
  }
}

static std::string specSource(sema::SpecOrigin O) {
  switch (O) {
  case sema::SpecOrigin::CommandLine:
    return "from --spec";
  case sema::SpecOrigin::Directive:
    return "from the `# tessel: launch` directive";
  case sema::SpecOrigin::HostCode:
    return "from the file's host code (no launch spec)";
  case sema::SpecOrigin::Derived:
    break;
  }
  return "derived from the file (no launch spec)";
}

static std::string specKind(sema::SpecOrigin O) {
  switch (O) {
  case sema::SpecOrigin::CommandLine:
    return "command-line";
  case sema::SpecOrigin::Directive:
    return "directive";
  case sema::SpecOrigin::HostCode:
    return "host-code";
  case sema::SpecOrigin::Derived:
    break;
  }
  return "derived";
}

/// Why the tensors of L cannot be allocated ("" when they can): a typo in a
/// spec (`n=10000000000`) must be a message, not an out-of-memory kill.
static std::string tooLarge(const launch::ConcreteLaunch &L, uint64_t Limit) {
  uint64_t Total = 0;
  for (const launch::ConcreteTensor &T : L.Tensors) {
    std::optional<ScalarKind> K = ir::scalarFromName(T.DType);
    uint64_t Bytes =
        static_cast<uint64_t>(T.StorageElements) * static_cast<uint64_t>(K ? ir::elemBytes({*K, 0, false}) : 1);
    if (T.StorageElements > 0 && Bytes / static_cast<uint64_t>(T.StorageElements) == 0)
      Bytes = UINT64_MAX;
    // An output also carries its "written" flag per byte.
    if (T.IsOutput)
      Bytes = Bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * Bytes;
    Total = Total + Bytes < Total ? UINT64_MAX : Total + Bytes;
  }
  if (Total <= Limit)
    return "";
  auto GB = [](uint64_t B) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.1f GB", static_cast<double>(B) / 1e9);
    return std::string(Buf);
  };
  return "the tensors of this instance take " + GB(Total) + ", over the " + GB(Limit) + " tessel run allocates";
}

/// Adds the instance to the --triton batch (TritonBridge.h); its report
/// carries the job, or why it could not be added.
static void addToTriton(TritonBatch &Batch, const sema::PlannedLaunch &PL, const interp::PreparedLaunch &P,
                        const interp::Memory &Inputs, TritonReference Ref, const ir::Function &Fn, InstanceReport &I) {
  I.Triton.emplace();
  Ref.FromAtomic = atomicOrderedOutputs(Fn);
  Batch.add(PL.Launch, PL.Request.Constexprs, P, Inputs, Ref, *I.Triton);
}

/// Lowers each distinct specialization once and runs every instance.
static void runInstances(const ParsedFile &File, const ModuleInfo &Info, const sema::LaunchPlan &Plan,
                         const KernelRunOptions &RA, SaveTarget *Save, RunReport &Report) {
  std::map<std::string, sema::LoweredKernel> Lowered;
  // A lowering problem is reported once; under the instance it first came
  // from, unless every distinct specialization had it.
  struct Seen {
    size_t Index;
    size_t Count;
  };
  std::map<std::pair<std::pair<uint32_t, uint32_t>, std::string>, Seen> LoweringProblems;
  std::vector<diag::Finding> Pending;
  for (size_t Index = 0; Index < Plan.Launches.size(); ++Index) {
    if (RA.Instance && Index != *RA.Instance)
      continue;
    const sema::PlannedLaunch &PL = Plan.Launches[Index];
    InstanceReport &I = Report.Instances.emplace_back();
    const launch::ConcreteLaunch &L = PL.Launch;
    I.Label = L.Label;
    I.Grid = L.Grid;
    I.NumWarps = L.NumWarps;
    I.NumStages = L.NumStages;
    std::string Key = sema::specializationKey(PL.Request);
    auto It = Lowered.find(Key);
    if (It == Lowered.end()) {
      sema::AnalyzeOptions AO;
      AO.Project = &processProject();
      It = Lowered.emplace(Key, sema::lowerKernel(File, Info, PL.Request, AO)).first;
      for (const Problem &P : It->second.Problems) {
        auto [At, New] =
            LoweringProblems.try_emplace({{P.Range.Begin, P.Range.End}, P.Message}, Seen{Pending.size(), 0});
        ++At->second.Count;
        if (!New)
          continue;
        diag::Finding F = diag::toFinding(P);
        if (F.Specialization.empty())
          F.Specialization = L.Label;
        Pending.push_back(std::move(F));
      }
    }
    // Triton runs on the inputs tessel prepares: without them it has nothing to run on.
    auto NoTriton = [&] {
      if (RA.Triton)
        I.Triton.emplace().Error = "not run: tessel has no inputs for this instance";
    };
    if (!It->second.Function) {
      I.Error = "the kernel could not be lowered for this instance (see the errors above)";
      NoTriton();
      continue;
    }
    const ir::Function &Fn = *It->second.Function;
    if (std::string Why = tooLarge(L, RA.MaxBufferBytes); !Why.empty()) {
      I.Error = Why;
      NoTriton();
      continue;
    }
    interp::PreparedLaunch P = interp::prepareLaunch(Fn, L, RA.Seed);
    P.Opts.MaxSteps = RA.MaxSteps;
    if (!P.Errors.empty()) {
      for (const std::string &E : P.Errors)
        I.Error += (I.Error.empty() ? "" : "; ") + E;
      NoTriton();
      continue;
    }
    std::string FindingLabel = Plan.Launches.size() > 1 ? L.Label : std::string();
    GpuOutputBytes GpuOutputs; // for Triton's comparison
    GpuOutputBytes *KeepGpu = RA.Triton || RA.CudaRef ? &GpuOutputs : nullptr;
    if (RA.Gpu && !RA.Reference) {
      I.Gpu = RA.Gpu->run(Key, Fn, L, P.Mem, P.Args, nullptr, RA.Iters, &File.text(), 0, KeepGpu);
      I.Unchecked = true;
      if (RA.CudaRef)
        I.CudaRef = RA.CudaRef->run(L, P, P.Mem, nullptr, I.Gpu->Ran ? KeepGpu : nullptr, RA.Iters);
      if (RA.Triton)
        addToTriton(*RA.Triton, PL, P, P.Mem, TritonReference{nullptr, I.Gpu->Ran ? KeepGpu : nullptr, {}}, Fn, I);
      continue;
    }
    std::optional<interp::Memory> GpuInputs;
    if (RA.Gpu || RA.Triton)
      GpuInputs = P.Mem; // the interpreter writes into P.Mem: the GPU gets the inputs as prepared
    // The reference the GPU's outputs are held to reads tf32 operands as the
    // compiled kernel's instruction does: truncated where it is wgmma.
    if (RA.Gpu)
      if (std::optional<backend::GpuArch> A = RA.Gpu->arch(); A && A->ArchSpecific && codegen::wgmmaFromEnv())
        P.Opts.Tf32Truncates = [Cap = A->Capability, Warps = static_cast<unsigned>(L.NumWarps)](const ir::DotOp &D) {
          return codegen::dotEngine(D, Cap, Warps, true) == codegen::DotEngine::Wgmma;
        };
    auto Start = std::chrono::steady_clock::now();
    interp::RunResult Run = interp::run(Fn, P.Mem, P.Args, P.Opts);
    I.Millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
    I.Ran = Run.Completed;
    I.Steps = Run.Steps;
    I.Violations = Run.TotalViolations;
    I.PrintLog = Run.PrintLog;
    if (!Run.Completed)
      I.Error = "the interpreter stopped: " + Run.Error;
    collectFindings(Run, Plan.Launches.size() > 1 ? L.Label : std::string(), I);
    summarize(L, P, Save, I);
    if (RA.Gpu && Run.Completed) {
      I.Gpu = RA.Gpu->run(Key, Fn, L, *GpuInputs, P.Args, &P.Mem, RA.Iters, &File.text(), Run.DotFlops, KeepGpu);
      const JitFunction *JF = Info.jit(Plan.Kernel);
      gpuFindings(JF && JF->Def ? JF->Def->NameRange : SourceRange{}, *I.Gpu, FindingLabel, I);
      if (RA.CudaRef)
        I.CudaRef = RA.CudaRef->run(L, P, *GpuInputs, &P.Mem, nullptr, RA.Iters);
    }
    if (RA.Triton)
      addToTriton(*RA.Triton, PL, P, *GpuInputs,
                  TritonReference{Run.Completed ? &P.Mem : nullptr, I.Gpu && I.Gpu->Ran ? KeepGpu : nullptr, {}}, Fn,
                  I);
    // Even after a fault (the likeliest outcome of a masking bug), which is
    // exactly when the sanitizer's line is wanted.
    if (RA.Gpu && RA.Sanitize && I.Gpu) {
      I.Gpu->Sanitizer = RA.Sanitize(RA.Config, Index);
      sanitizerFindings(File.text(), *I.Gpu->Sanitizer, FindingLabel, I);
    }
  }
  for (const auto &[Key, S] : LoweringProblems)
    if (S.Count == Lowered.size())
      Pending[S.Index].Specialization.clear();
  for (diag::Finding &F : Pending)
    Report.Findings.push_back(std::move(F));
}

static bool runOneConfig(const ParsedFile &File, const std::string &Path, const std::string &Kernel,
                         const KernelRunOptions &Opts, RunReport &Report, std::string &Error) {
  Report.Path = Path;
  Report.Kernel = Kernel;
  Report.Seed = Opts.Seed;
  ProblemSink Sink;
  ModuleInfo Info = processProject().discoverFile(File, Sink);
  for (const ast::SyntaxError &E : File.module().SyntaxErrors)
    Report.Findings.push_back(diag::toFinding(Problem{ProblemKind::SyntaxError, E.Range, E.Message, {}, {}, {}}));
  sema::LaunchPlanOptions PlanOpts;
  PlanOpts.SpecText = Opts.Spec;
  PlanOpts.Config = Opts.Config;
  sema::AnalyzeOptions Lowering; // as the instances lower, below
  Lowering.Project = &processProject();
  PlanOpts.Settle = &Lowering;
  sema::LaunchPlan Plan = sema::planLaunch(File, Info, Kernel, PlanOpts);
  if (Opts.CudaRef) {
    Opts.CudaRef->prepare(File, Info, Path, Kernel, Report);
    // The PyTorch end of the gap runs in the Triton bridge's Python process, on the same inputs.
    if (Opts.Triton)
      Opts.Triton->setTorch(Opts.CudaRef->torch());
  }
  if (!Plan.Error.empty()) {
    Error = Plan.Error;
    return false;
  }
  if (Opts.Instance && *Opts.Instance >= Plan.Launches.size()) {
    Error = "--instance " + std::to_string(*Opts.Instance) + ": the launch has " +
            std::to_string(Plan.Launches.size()) + " instance" + (Plan.Launches.size() == 1 ? "" : "s");
    return false;
  }
  Report.SpecSource = specSource(Plan.Origin);
  Report.SpecKind = specKind(Plan.Origin);
  Report.Assumptions = Plan.Assumptions;
  for (const Problem &P : Plan.Problems)
    (Plan.Origin == sema::SpecOrigin::CommandLine && P.Kind == ProblemKind::LaunchSpec ? Report.SpecFindings
                                                                                       : Report.Findings)
        .push_back(diag::toFinding(P));
  std::optional<SaveTarget> Save;
  if (Opts.SaveDir)
    Save = SaveTarget{*Opts.SaveDir, Plan.Launches.size() > 1, {}};
  // A file with syntax errors is not run: the kernel would not be the one the user wrote.
  Report.Planned = Plan.Launches.size();
  if (File.module().SyntaxErrors.empty())
    runInstances(File, Info, Plan, Opts, Save ? &*Save : nullptr, Report);
  else
    Report.NotRun = "the file has syntax errors, so the kernel is not the one written";
  if (Save)
    Report.SaveError = Save->Error;
  return true;
}

} // namespace tessel::tools

namespace tessel::tools {

static bool sameFinding(const diag::Finding &A, const diag::Finding &B) {
  return A.Id == B.Id && A.Range.Begin == B.Range.Begin && A.Range.End == B.Range.End && A.Message == B.Message;
}

bool runKernel(const ParsedFile &File, const std::string &Path, const std::string &Kernel, const KernelRunOptions &Opts,
               RunReport &Report, std::string &Error) {
  if (!Opts.AllConfigs)
    return runOneConfig(File, Path, Kernel, Opts, Report, Error);
  ProblemSink Sink;
  ModuleInfo Info = processProject().discoverFile(File, Sink);
  const JitFunction *Fn = Info.jit(Kernel);
  // A kernel without autotune configs has one way to run: the plain run.
  if (!Fn || Fn->Configs.size() <= 1)
    return runOneConfig(File, Path, Kernel, Opts, Report, Error);
  for (size_t C = 0; C < Fn->Configs.size(); ++C) {
    KernelRunOptions One = Opts;
    One.AllConfigs = false;
    One.Config = C;
    RunReport R;
    if (!runOneConfig(File, Path, Kernel, One, R, Error))
      return false;
    std::string Text = diag::describeConfig(Fn->Configs[C].Config);
    for (InstanceReport &I : R.Instances) {
      I.Config = C;
      I.ConfigText = Text;
    }
    if (C == 0) {
      Report = std::move(R);
      continue;
    }
    // The file's own findings are the same under every config; a config's
    // lowering problem is new.
    for (diag::Finding &F : R.Findings) {
      bool Seen = false;
      for (const diag::Finding &G : Report.Findings)
        Seen |= sameFinding(F, G);
      if (!Seen)
        Report.Findings.push_back(std::move(F));
    }
    Report.Planned += R.Planned;
    if (Report.SaveError.empty())
      Report.SaveError = R.SaveError;
    for (InstanceReport &I : R.Instances)
      Report.Instances.push_back(std::move(I));
  }
  // Config 0's values were assumed only for config 0's instances.
  std::vector<std::string> Kept;
  for (std::string &A : Report.Assumptions)
    if (A.find("from autotune config") == std::string::npos)
      Kept.push_back(std::move(A));
  Kept.push_back("each autotune config's constexprs, num_warps and num_stages in turn (--all-configs)");
  Report.Assumptions = std::move(Kept);
  Report.ConfigsRun = Fn->Configs.size();
  chooseFastest(Report);
  return true;
}

} // namespace tessel::tools
