//===- RunCommand.cpp - `tessel run FILE --kernel K --cpu` ----------------===//
/// \file
/// Runs one kernel on the CPU interpreter, once per instance of its launch
/// (sema::planLaunch: --spec, the kernel's directives, or what the file
/// reveals), and reports what each run left in the outputs and every
/// out-of-bounds or uninitialised access and failed device_assert as a
/// diagnostic at the access (TS301-TS303). Each distinct specialization is
/// lowered once (sema::lowerKernel); inputs are generated from --seed.
///
/// Exit status: 0 every instance ran clean, 1 a violation, a spec or
/// lowering error or an instance that could not run, 2 bad usage, an
/// unreadable file, an unknown kernel or config, --gpu, or a --save failure.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/frontend/Parser.h"
#include "compiler/interp/Launch.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "tools/CommandLine.h"
#include "tools/InputFile.h"
#include "tools/NpyFile.h"
#include "tools/RunReport.h"

#include <cctype>
#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tessel::tools {

namespace {

struct RunArgs {
  std::string File;
  std::string Kernel;
  bool Gpu = false;
  std::optional<std::string> Spec;
  std::optional<size_t> Config;
  uint64_t Seed = 0;
  std::optional<std::string> SaveDir;
  bool Json = false;
  ColorMode Color = ColorMode::Auto;
};

} // namespace

static const char RunUsage[] =
    "usage: tessel run FILE --kernel K [--cpu|--gpu] [options]\n"
    "\n"
    "Runs kernel K of FILE on the CPU interpreter, once per instance of its launch spec (the\n"
    "`# tessel: launch` directive above the kernel, or --spec; without either, a launch is derived\n"
    "from the file and what was assumed is printed). Inputs are seeded random data; every output\n"
    "is summarised, and every out-of-bounds or uninitialised access is reported at the access.\n"
    "\n"
    "options:\n"
    "  --kernel K             the @triton.jit kernel to run (required)\n"
    "  --cpu                  run on the CPU interpreter (the default)\n"
    "  --gpu                  run on the GPU (not available yet)\n"
    "  --spec 'SPEC'          launch spec text; replaces the kernel's directives (docs/launch-spec.md)\n"
    "  --config N             use autotune config N (0-based; default 0) for what the spec leaves out\n"
    "  --seed S               seed of the generated inputs (default 0)\n"
    "  --save DIR             write every output as DIR/NAME.npy (NAME-INSTANCE.npy with several instances)\n"
    "  --format=text|json     a readable report (default) or one JSON object\n"
    "  --color=auto|always|never\n"
    "                         colour the text output (auto: only on a terminal)\n"
    "  -h, --help             show this help\n"
    "\n"
    "exit status: 0 clean run, 1 a violation or an error in the file or spec, 2 bad usage or unreadable input\n";

static int usageError(const std::string &Why) {
  std::cerr << "tessel run: error: " << Why << "\nrun `tessel run --help` for usage\n";
  return ExitUsage;
}

template <typename T> static bool parseUnsigned(std::string_view Text, T &Out) {
  if (Text.empty() || Text.size() > 19)
    return false;
  T V = 0;
  for (char C : Text) {
    if (C < '0' || C > '9')
      return false;
    V = V * 10 + static_cast<T>(C - '0');
  }
  Out = V;
  return true;
}

static std::optional<int> parseArgs(const Args &A, RunArgs &Out) {
  bool SawDevice = false;
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Arg = A[I];
    if (Arg == "-h" || Arg == "--help") {
      std::cout << RunUsage;
      return ExitOk;
    }
    if (Arg == "--cpu" || Arg == "--gpu") {
      if (SawDevice && Out.Gpu != (Arg == "--gpu"))
        return usageError("--cpu and --gpu exclude each other");
      SawDevice = true;
      Out.Gpu = Arg == "--gpu";
      continue;
    }
    if (Arg.empty() || Arg[0] != '-') {
      if (!Out.File.empty())
        return usageError("one file at a time: got '" + Out.File + "' and '" + std::string(Arg) + "'");
      Out.File = std::string(Arg);
      continue;
    }
    std::string_view Value;
    bool Missing = false;
    auto Needs = [&](const char *Option, const char *What) {
      return usageError(std::string(Option) + " needs a value (" + What + ")");
    };
    if (takeValue(A, I, "--kernel", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--kernel", "the kernel's name");
      Out.Kernel = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--spec", Value, Missing)) {
      if (Missing)
        return Needs("--spec", "launch spec text");
      Out.Spec = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--config", Value, Missing)) {
      size_t N = 0;
      if (Missing)
        return Needs("--config", "an autotune config index");
      if (!parseUnsigned(Value, N))
        return usageError("--config takes a config index (0, 1, ...), not '" + std::string(Value) + "'");
      Out.Config = N;
      continue;
    }
    if (takeValue(A, I, "--seed", Value, Missing)) {
      if (Missing)
        return Needs("--seed", "a non-negative integer");
      if (!parseUnsigned(Value, Out.Seed))
        return usageError("--seed takes a non-negative integer, not '" + std::string(Value) + "'");
      continue;
    }
    if (takeValue(A, I, "--save", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--save", "a directory");
      Out.SaveDir = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--format", Value, Missing)) {
      if (Missing)
        return Needs("--format", "text or json");
      if (Value != "text" && Value != "json")
        return usageError("unknown format '" + std::string(Value) + "' (expected text or json)");
      Out.Json = Value == "json";
      continue;
    }
    if (takeValue(A, I, "--color", Value, Missing)) {
      if (Missing)
        return Needs("--color", "auto, always or never");
      if (!parseColorMode(Value, Out.Color))
        return usageError("unknown colour mode '" + std::string(Value) + "' (expected auto, always or never)");
      continue;
    }
    return usageError("unknown option '" + std::string(Arg) + "'");
  }
  if (Out.File.empty())
    return usageError("no input file");
  if (Out.Kernel.empty())
    return usageError("which kernel? pass --kernel NAME");
  if (Out.Gpu) {
    std::cerr << "tessel run: error: GPU execution needs the code generator, which is not built yet; use --cpu\n";
    return ExitUsage;
  }
  return std::nullopt;
}

/// A text key for a LoweringRequest: instances that share it share one lowering.
static std::string requestKey(const sema::LoweringRequest &R) {
  std::string K = R.Kernel + "|" + std::to_string(R.NumWarps) + "|" + std::to_string(R.NumStages);
  for (const auto &[Name, V] : R.Constexprs)
    K += "|" + Name + "=" + V.repr();
  for (const auto &[Name, T] : R.ArgTypes)
    K += "|" + Name + ":" + T.str();
  for (const std::string &Name : R.EqualToOne)
    K += "|" + Name + "==1";
  return K;
}

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
  // Asserts: the first failure per assert site, with how many lanes failed there.
  std::map<std::pair<uint32_t, uint32_t>, size_t> Failures;
  for (const interp::AssertFailure &A : Run.Asserts)
    ++Failures[{A.Range.Begin, A.Range.End}];
  for (const interp::AssertFailure &A : Run.Asserts) {
    auto It = Failures.find({A.Range.Begin, A.Range.End});
    if (It == Failures.end())
      continue;
    std::string Message = "device_assert failed" + (A.Message.empty() ? "" : ": " + A.Message) + " (" +
                          std::to_string(It->second) + (It->second == 1 ? " lane" : " lanes") + ", first in program " +
                          programText(A.ProgramId) + ", lane " + std::to_string(A.Lane) + ")";
    Out.Findings.push_back(finding(diag::DiagId::DeviceAssertFailed, A.Range, std::move(Message), Label));
    Failures.erase(It);
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
  case sema::SpecOrigin::Derived:
    break;
  }
  return "derived";
}

/// Lowers each distinct specialization once and runs every instance.
static void runInstances(const ParsedFile &File, const ModuleInfo &Info, const sema::LaunchPlan &Plan,
                         const RunArgs &RA, SaveTarget *Save, RunReport &Report) {
  std::map<std::string, sema::LoweredKernel> Lowered;
  // A lowering problem is reported once; under the instance it first came
  // from, unless every distinct specialization had it.
  struct Seen {
    size_t Index;
    size_t Count;
  };
  std::map<std::pair<std::pair<uint32_t, uint32_t>, std::string>, Seen> LoweringProblems;
  std::vector<diag::Finding> Pending;
  for (const sema::PlannedLaunch &PL : Plan.Launches) {
    InstanceReport &I = Report.Instances.emplace_back();
    const launch::ConcreteLaunch &L = PL.Launch;
    I.Label = L.Label;
    I.Grid = L.Grid;
    I.NumWarps = L.NumWarps;
    I.NumStages = L.NumStages;
    std::string Key = requestKey(PL.Request);
    auto It = Lowered.find(Key);
    if (It == Lowered.end()) {
      It = Lowered.emplace(Key, sema::lowerKernel(File, Info, PL.Request)).first;
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
    if (!It->second.Function) {
      I.Error = "the kernel could not be lowered for this instance (see the errors above)";
      continue;
    }
    const ir::Function &Fn = *It->second.Function;
    interp::PreparedLaunch P = interp::prepareLaunch(Fn, L, RA.Seed);
    if (!P.Errors.empty()) {
      for (const std::string &E : P.Errors)
        I.Error += (I.Error.empty() ? "" : "; ") + E;
      continue;
    }
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
  }
  for (const auto &[Key, S] : LoweringProblems)
    if (S.Count == Lowered.size())
      Pending[S.Index].Specialization.clear();
  for (diag::Finding &F : Pending)
    Report.Findings.push_back(std::move(F));
}

int runRun(const Args &A) {
  RunArgs RA;
  if (std::optional<int> Stop = parseArgs(A, RA))
    return *Stop;
  InputFile In = readInputFile(RA.File);
  if (!In.Text) {
    std::cerr << "tessel: error: " << RA.File << ": " << In.Error << '\n';
    return ExitUsage;
  }
  std::optional<SaveTarget> Save;
  if (RA.SaveDir) {
    std::error_code EC;
    std::filesystem::create_directories(*RA.SaveDir, EC);
    if (EC || !std::filesystem::is_directory(*RA.SaveDir)) {
      std::cerr << "tessel run: error: cannot create --save directory " << *RA.SaveDir << ": "
                << (EC ? EC.message() : "not a directory") << '\n';
      return ExitUsage;
    }
    Save = SaveTarget{*RA.SaveDir, false, {}};
  }

  RunReport Report;
  Report.Path = RA.File;
  Report.Kernel = RA.Kernel;
  Report.Seed = RA.Seed;
  std::shared_ptr<const ParsedFile> File;
  try {
    File = ParsedFile::parse(std::make_shared<SourceText>(*In.Text, RA.File));
    ProblemSink Sink;
    ModuleInfo Info = discover(File->module(), Sink);
    for (const ast::SyntaxError &E : File->module().SyntaxErrors)
      Report.Findings.push_back(diag::toFinding(Problem{ProblemKind::SyntaxError, E.Range, E.Message, {}, {}, {}}));
    sema::LaunchPlanOptions Opts;
    Opts.SpecText = RA.Spec;
    Opts.Config = RA.Config;
    sema::LaunchPlan Plan = sema::planLaunch(*File, Info, RA.Kernel, Opts);
    if (!Plan.Error.empty()) {
      std::cerr << "tessel run: error: " << RA.File << ": " << Plan.Error << '\n';
      return ExitUsage;
    }
    Report.SpecSource = specSource(Plan.Origin);
    Report.SpecKind = specKind(Plan.Origin);
    Report.Assumptions = Plan.Assumptions;
    for (const Problem &P : Plan.Problems)
      (Plan.Origin == sema::SpecOrigin::CommandLine && P.Kind == ProblemKind::LaunchSpec ? Report.SpecFindings
                                                                                         : Report.Findings)
          .push_back(diag::toFinding(P));
    if (Save)
      Save->ManyInstances = Plan.Launches.size() > 1;
    // A file with syntax errors is not run: the kernel would not be the one the user wrote.
    if (File->module().SyntaxErrors.empty())
      runInstances(*File, Info, Plan, RA, Save ? &*Save : nullptr, Report);
  } catch (const std::exception &E) {
    std::cerr << "tessel: internal error while running " << RA.Kernel << " in " << RA.File << ": " << E.what() << '\n';
    return ExitUsage;
  }

  lsp::LineIndex FileIndex(*In.Text);
  std::optional<lsp::LineIndex> SpecIndex;
  if (RA.Spec)
    SpecIndex.emplace(*RA.Spec);
  RunSources Src{FileIndex, SpecIndex ? &*SpecIndex : nullptr};
  if (RA.Json)
    renderRunJson(std::cout, Report, Src);
  else
    renderRunText(std::cout, Report, Src, TextStyle{useColor(RA.Color)});
  if (Save && !Save->Error.empty()) {
    std::cerr << "tessel run: error: " << Save->Error << '\n';
    return ExitUsage;
  }
  return Report.errors() ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
