//===- TuneCommand.cpp - `tessel tune FILE --kernel K [--runner R]...` ----===//
/// \file
/// Times every autotune config of a kernel under every instance of its
/// launch (the key's shapes), spread over every worker the runners give
/// (runners/Dispatch.h), and prints per instance the config triton.autotune
/// would keep (tools/Tune.h). --prune rewrites the file's configs=[...] list
/// to the configs that won somewhere (diag::configListEdit), only after a
/// complete tune.
///
/// What the runners did (workers, their failures, wall time) goes to
/// stderr; stdout holds only the tune's answer, which is the same whatever
/// ran it. SIGINT or SIGTERM stops every worker.
///
/// Exit status: 0 a complete tune, 1 an incomplete one or an instance no
/// config ran correctly, 2 bad usage, unreadable input, no runner usable.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "diagnostics/ConfigListEdit.h"
#include "runners/Dispatch.h"
#include "tools/CommandLine.h"
#include "tools/InputFile.h"
#include "tools/RunnerChoice.h"
#include "tools/Tune.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <map>

namespace tessel::tools {

namespace {

struct TuneArgs {
  std::string File, Kernel;
  std::vector<std::string> Runners;
  bool Gpu = false, Prune = false, Json = false, Progress = false, NoReference = false;
  uint64_t Seed = 0, Iters = 20;
  std::optional<unsigned> Workers;
  std::optional<std::string> Spec, TextFrom, JsonOut;
};

} // namespace

static const char TuneUsage[] =
    "usage: tessel tune FILE --kernel K [--runner R]... [--cpu|--gpu] [options]\n"
    "\n"
    "Runs kernel K under every @triton.autotune config and every instance of its launch (the key's\n"
    "shapes), spreading the runs over every worker of the runners, and prints per instance the config\n"
    "triton.autotune would keep: on the GPU the least median time, on the CPU interpreter the fewest\n"
    "ops executed (the same on every machine). Runners:\n"
    "  local[?workers=N]                                      this machine (the default)\n"
    "  ssh://[user@]host[:port][?workers=N&tessel=PATH]       through OpenSSH's ssh (TESSEL_SSH overrides)\n"
    "  slurm://PARTITION[?workers=N&gpus=N&queue-timeout=S&time=MIN&tessel=PATH]\n"
    "                                                         job steps through srun (--gres=gpu:N)\n"
    "Without --runner, tessel.toml's `runners` (or `defaultRunner`), else local.\n"
    "\n"
    "options:\n"
    "  --kernel K             the autotuned @triton.jit kernel (required)\n"
    "  --runner R             where to run (repeatable)\n"
    "  --cpu                  run on the CPU interpreter (the default)\n"
    "  --gpu                  run on GPUs, one worker per GPU, each run checked against the interpreter\n"
    "  --iters N              timed runs per config and instance with --gpu (default 20)\n"
    "  --no-reference         with --gpu: skip the interpreter, outputs unchecked (benchmark sizes)\n"
    "  --workers N            at most N workers per runner\n"
    "  --spec 'SPEC'          launch spec text (docs/launch-spec.md)\n"
    "  --seed S               seed of the generated inputs (default 0)\n"
    "  --prune                rewrite FILE's configs=[...] to the configs that are best somewhere\n"
    "  --text-from F          tune the text of file F as if it were FILE (an editor's unsaved buffer)\n"
    "  --format=text|json     a readable report (default) or one JSON object\n"
    "  --json-out F           also write the JSON report to file F (the editor's Tune)\n"
    "  --progress             print `progress: DONE/TOTAL` lines on stderr\n"
    "  -h, --help             show this help\n"
    "\n"
    "exit status: 0 complete, 1 incomplete or an instance with no correct config, 2 bad usage or no runner\n";

static int usageError(const std::string &Why) {
  std::cerr << "tessel tune: error: " << Why << "\nrun `tessel tune --help` for usage\n";
  return ExitUsage;
}

static std::optional<int> parseArgs(const Args &A, TuneArgs &Out) {
  bool SawDevice = false;
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Arg = A[I];
    if (Arg == "-h" || Arg == "--help") {
      std::cout << TuneUsage;
      return ExitOk;
    }
    if (Arg == "--cpu" || Arg == "--gpu") {
      if (SawDevice && Out.Gpu != (Arg == "--gpu"))
        return usageError("--cpu and --gpu exclude each other");
      SawDevice = true;
      Out.Gpu = Arg == "--gpu";
      continue;
    }
    if (Arg == "--prune" || Arg == "--progress" || Arg == "--no-reference") {
      (Arg == "--prune" ? Out.Prune : Arg == "--progress" ? Out.Progress : Out.NoReference) = true;
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
    uint64_t N = 0;
    if (takeValue(A, I, "--kernel", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--kernel", "the kernel's name");
      Out.Kernel = std::string(Value);
    } else if (takeValue(A, I, "--runner", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--runner", "local, ssh://host or slurm://partition");
      Out.Runners.emplace_back(Value);
    } else if (takeValue(A, I, "--spec", Value, Missing)) {
      if (Missing)
        return Needs("--spec", "launch spec text");
      Out.Spec = std::string(Value);
    } else if (takeValue(A, I, "--text-from", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--text-from", "a file");
      Out.TextFrom = std::string(Value);
    } else if (takeValue(A, I, "--json-out", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--json-out", "a file");
      Out.JsonOut = std::string(Value);
    } else if (takeValue(A, I, "--seed", Value, Missing)) {
      if (Missing || !parseUnsigned(Value, Out.Seed))
        return usageError("--seed takes a non-negative integer");
    } else if (takeValue(A, I, "--iters", Value, Missing)) {
      if (Missing || !parseUnsigned(Value, N) || N == 0 || N > 100000)
        return usageError("--iters takes an integer from 1 to 100000");
      Out.Iters = N;
    } else if (takeValue(A, I, "--workers", Value, Missing)) {
      if (Missing || !parseUnsigned(Value, N) || N == 0 || N > 4096)
        return usageError("--workers takes an integer from 1 to 4096");
      Out.Workers = static_cast<unsigned>(N);
    } else if (takeValue(A, I, "--format", Value, Missing)) {
      if (Missing || (Value != "text" && Value != "json"))
        return usageError("--format takes text or json");
      Out.Json = Value == "json";
    } else {
      return usageError("unknown option '" + std::string(Arg) + "'");
    }
  }
  if (Out.File.empty())
    return usageError("no input file");
  if (Out.Kernel.empty())
    return usageError("which kernel? pass --kernel NAME");
  if (Out.NoReference && !Out.Gpu)
    return usageError("--no-reference times GPU runs unchecked: add --gpu");
  if (Out.Prune && Out.TextFrom)
    return usageError("--prune rewrites FILE on disk; with --text-from the editor applies the edit instead");
  return std::nullopt;
}

static std::atomic<bool> Interrupted{false};

static void onSignal(int) { Interrupted.store(true); }

/// Rewrites Path's configs=[...] to the configs Keep; false after saying why not.
static bool prune(const TuneArgs &TA, const std::string &Text, const std::vector<size_t> &Keep) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text, TA.File));
  ProblemSink Sink;
  ModuleInfo Info = processProject().discoverFile(*File, Sink);
  const JitFunction *Fn = Info.jit(TA.Kernel);
  std::string Why;
  std::optional<TextEdit> E = Fn ? diag::configListEdit(File->text(), *Fn, Keep, Why) : std::nullopt;
  if (!E) {
    std::cerr << "tessel tune: error: --prune: " << (Fn ? Why : "the kernel is gone from the file") << '\n';
    return false;
  }
  std::string NewText = Text.substr(0, E->Range.Begin) + E->NewText + Text.substr(E->Range.End);
  std::ofstream Out(TA.File, std::ios::binary | std::ios::trunc);
  Out << NewText;
  if (!Out) {
    std::cerr << "tessel tune: error: --prune: cannot write " << TA.File << '\n';
    return false;
  }
  std::cerr << "tessel tune: pruned " << TA.File << " to configs";
  for (size_t K : Keep)
    std::cerr << ' ' << K;
  std::cerr << " of " << Fn->Configs.size() << '\n';
  return true;
}

int runTune(const Args &A) {
  TuneArgs TA;
  if (std::optional<int> Stop = parseArgs(A, TA))
    return *Stop;
  std::string Error;
  std::optional<std::vector<runners::RunnerSpec>> Runners = chooseRunners(TA.Runners, TA.File, RunnerUse::Tune, Error);
  if (!Runners)
    return usageError(Error);
  InputFile In = readInputFile(TA.TextFrom ? *TA.TextFrom : TA.File);
  if (!In.Text) {
    std::cerr << "tessel: error: " << (TA.TextFrom ? *TA.TextFrom : TA.File) << ": " << In.Error << '\n';
    return ExitUsage;
  }
  auto File = ParsedFile::parse(std::make_shared<SourceText>(*In.Text, TA.File));
  TunePlan Plan;
  if (!planTune(*File, TA.File, TA.Kernel, TA.Spec, Plan, Error)) {
    std::cerr << "tessel tune: error: " << TA.File << ": " << Error << '\n';
    return ExitUsage;
  }
  TuneTaskOptions TO{*In.Text, TA.Gpu, TA.Seed, TA.Iters, TA.Spec, !TA.NoReference};
  std::vector<runners::Task> Tasks = tuneTasks(Plan, TO);

  struct sigaction SA = {};
  SA.sa_handler = onSignal;
  sigaction(SIGINT, &SA, nullptr);
  sigaction(SIGTERM, &SA, nullptr);
  runners::DispatchOptions DO;
  DO.Session = sessionOptions(TA.Gpu);
  DO.MaxWorkersPerRunner = TA.Workers;
  DO.Cancel = &Interrupted;
  if (TA.Progress)
    DO.Progress = [](size_t Done, size_t Total) { std::cerr << "progress: " << Done << '/' << Total << std::endl; };
  auto Start = std::chrono::steady_clock::now();
  runners::DispatchResult D = runners::dispatch(*Runners, Tasks, DO);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();

  for (const std::string &F : D.Failures)
    std::cerr << "tessel tune: " << F << '\n';
  if (D.Cancelled) {
    std::cerr << "tessel tune: cancelled; " << D.missing() << " of " << Tasks.size() << " runs have no result\n";
    return ExitFindings;
  }
  if (D.Workers.empty()) {
    std::cerr << "tessel tune: error: no runner could start a worker\n";
    return ExitUsage;
  }
  std::map<std::string, std::pair<size_t, size_t>> PerRunner; // workers, tasks
  for (const runners::WorkerSummary &W : D.Workers) {
    ++PerRunner[W.Runner + " (" + W.Host + ")"].first;
    PerRunner[W.Runner + " (" + W.Host + ")"].second += W.Tasks;
  }
  std::cerr << "tessel tune: " << Tasks.size() - D.missing() << " of " << Tasks.size() << " runs in "
            << formatNumber(Seconds) << " s over " << D.Workers.size() << " workers:";
  for (const auto &[Name, Counts] : PerRunner)
    std::cerr << ' ' << Name << " x" << Counts.first << " (" << Counts.second << " runs)";
  std::cerr << '\n';

  TuneResult R = gatherTune(Plan, TO, D.Results);
  if (TA.Json)
    renderTuneJson(std::cout, R);
  else
    renderTuneText(std::cout, R);
  if (TA.JsonOut) {
    std::ofstream Out(*TA.JsonOut);
    renderTuneJson(Out, R);
    if (!Out) {
      std::cerr << "tessel tune: error: cannot write --json-out " << *TA.JsonOut << '\n';
      return ExitUsage;
    }
  }
  bool AllBest = R.Best.size() == Plan.Labels.size();
  if (TA.Prune) {
    if (R.Missing || !AllBest) {
      std::cerr << "tessel tune: error: --prune: the tune is incomplete, so " << TA.File << " is left as it is\n";
      return ExitFindings;
    }
    if (!prune(TA, *In.Text, R.keep()))
      return ExitUsage;
  }
  return R.Missing || !AllBest ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
