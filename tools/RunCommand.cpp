//===- RunCommand.cpp - `tessel run FILE --kernel K --cpu` ----------------===//
/// \file
/// Runs one kernel on the CPU interpreter, once per instance of its launch
/// (sema::planLaunch: --spec, the kernel's directives, or what the file
/// reveals), and reports what each run left in the outputs and every
/// out-of-bounds or uninitialised access and failed device_assert as a
/// diagnostic at the access (TS301-TS303). Each distinct specialization is
/// lowered once (sema::lowerKernel); inputs are generated from --seed.
///
/// With --triton, every instance also runs through Triton itself, in one
/// Python process after tessel's runs (tools/TritonBridge.h). With --gpu
/// --reference, every instance also runs the kernel's CUDA C++ reference
/// (tools/CudaReferenceRun.h).
///
/// Exit status: 0 every instance ran clean, 1 a violation, a spec or
/// lowering error, an instance that could not run, Triton's outputs
/// differing from tessel's or Triton not running at all, a reference that
/// cannot run or whose outputs differ, 2 bad usage, an
/// unreadable file, an unknown kernel or config, --gpu without a GPU,
/// --triton without a Python, or a --save failure.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/frontend/Parser.h"
#include "runners/Session.h"
#include "tools/CommandLine.h"
#include "tools/CudaReferenceRun.h"
#include "tools/GpuRun.h"
#include "tools/InputFile.h"
#include "tools/KernelRun.h"
#include "tools/RunnerChoice.h"
#include "tools/Sanitize.h"
#include "tools/TritonBridge.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::tools {

namespace {

struct RunArgs {
  std::string File;
  std::string Kernel;
  bool Gpu = false;
  size_t Iters = 0;
  std::optional<std::string> Spec;
  std::optional<size_t> Config;
  bool AllConfigs = false;
  std::optional<size_t> Instance;
  bool Sanitize = false;
  bool Triton = false;
  bool NoReference = false;
  bool CudaReference = false; ///< --reference: the kernel's CUDA C++ reference beside it
  uint64_t Seed = 0;
  std::optional<std::string> SaveDir;
  bool Json = false;
  ColorMode Color = ColorMode::Auto;
  /// The editor's Run: the unsaved text, and the JSON report beside the text.
  std::optional<std::string> TextFrom, JsonOut;
  /// --runner: where the run happens (runners/); none: in this process.
  std::optional<std::string> Runner;
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
    "  --gpu                  also compile it for the GPU present, run it there on the same inputs and\n"
    "                         compare every output with the interpreter's (per-dtype tolerance)\n"
    "  --iters N              time N runs after warm-up (median, L2 flushed): with --gpu tessel's, with GB/s,\n"
    "                         TFLOP/s for tl.dot, and each as a fraction of the device's peak (measured\n"
    "                         once per device and cached); with --triton Triton's too\n"
    "  --spec 'SPEC'          launch spec text; replaces the kernel's directives (docs/launch-spec.md)\n"
    "  --config N             use autotune config N (0-based; default 0) for what the spec leaves out\n"
    "  --all-configs          run under every autotune config in turn; with --gpu, time each (--iters,\n"
    "                         default 20) and name the fastest per instance, as triton.autotune would\n"
    "  --instance N           run only instance N (0-based) of the launch\n"
    "  --no-reference         with --gpu: skip the interpreter and run (and time) on the GPU alone, its\n"
    "                         outputs unchecked: for benchmark sizes the interpreter would take minutes on\n"
    "  --sanitize             with --gpu: run each instance again under compute-sanitizer memcheck and\n"
    "                         report its errors at the lines they name\n"
    "  --triton               also run every instance through Triton itself (python3 with torch and triton\n"
    "                         on a CUDA GPU; TESSEL_PYTHON names another Python): the file is imported, the\n"
    "                         @triton.jit function launched on tessel's inputs, grid and config, each output\n"
    "                         compared with tessel's (per-dtype tolerance), both times given (with --iters)\n"
    "                         and Triton's metadata.shared, n_regs and n_spills put beside tessel's figures;\n"
    "                         TESSEL_TRITON_TIMEOUT limits the runner (seconds)\n"
    "  --reference            with --gpu: also run the kernel's CUDA C++ reference (its `# tessel: reference`\n"
    "                         directive, docs/reference-kernels.md), compiled in process by Clang, on the same\n"
    "                         inputs: its outputs compared, both times (with --iters), fractions of peak and\n"
    "                         resources, and the gap (\"Triton kernel at 0.93x the CUDA reference\")\n"
    "  --seed S               seed of the generated inputs (default 0)\n"
    "  --save DIR             write every output as DIR/NAME.npy (NAME-INSTANCE.npy with several instances)\n"
    "  --format=text|json     a readable report (default) or one JSON object\n"
    "  --text-from F          run the text of file F as if it were FILE (an editor's unsaved buffer)\n"
    "  --json-out F           also write the JSON report to file F\n"
    "  --runner R             run it there: local, ssh://[user@]host[:port] or slurm://PARTITION (the\n"
    "                         same tessel runs it there on this file's text; `tessel tune --help` has\n"
    "                         the settings); default: tessel.toml's defaultRunner, else this process\n"
    "  --color=auto|always|never\n"
    "                         colour the text output (auto: only on a terminal)\n"
    "  -h, --help             show this help\n"
    "\n"
    "exit status: 0 clean run, 1 a violation or an error in the file or spec, 2 bad usage or unreadable input\n";

static int usageError(const std::string &Why) {
  std::cerr << "tessel run: error: " << Why << "\nrun `tessel run --help` for usage\n";
  return ExitUsage;
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
    if (Arg == "--all-configs") {
      Out.AllConfigs = true;
      continue;
    }
    if (Arg == "--no-reference") {
      Out.NoReference = true;
      continue;
    }
    if (Arg == "--sanitize") {
      Out.Sanitize = true;
      continue;
    }
    if (Arg == "--triton") {
      Out.Triton = true;
      continue;
    }
    if (Arg == "--reference") {
      Out.CudaReference = true;
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
      uint64_t N = 0;
      if (Missing)
        return Needs("--config", "an autotune config index");
      if (!parseUnsigned(Value, N))
        return usageError("--config takes a config index (0, 1, ...), not '" + std::string(Value) + "'");
      Out.Config = N;
      continue;
    }
    if (takeValue(A, I, "--instance", Value, Missing)) {
      uint64_t N = 0;
      if (Missing)
        return Needs("--instance", "an instance index");
      if (!parseUnsigned(Value, N))
        return usageError("--instance takes an instance index (0, 1, ...), not '" + std::string(Value) + "'");
      Out.Instance = N;
      continue;
    }
    if (takeValue(A, I, "--iters", Value, Missing)) {
      if (Missing)
        return Needs("--iters", "a non-negative integer");
      uint64_t N = 0;
      if (!parseUnsigned(Value, N) || N > 100000)
        return usageError("--iters takes an integer from 0 to 100000, not '" + std::string(Value) + "'");
      Out.Iters = static_cast<size_t>(N);
      continue;
    }
    if (takeValue(A, I, "--seed", Value, Missing)) {
      if (Missing)
        return Needs("--seed", "a non-negative integer");
      if (!parseUnsigned(Value, Out.Seed))
        return usageError("--seed takes a non-negative integer, not '" + std::string(Value) + "'");
      continue;
    }
    if (takeValue(A, I, "--runner", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--runner", "local, ssh://host or slurm://partition");
      if (Out.Runner)
        return usageError("one --runner for a run (tessel tune spreads over several)");
      Out.Runner = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--text-from", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--text-from", "a file");
      Out.TextFrom = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--json-out", Value, Missing)) {
      if (Missing || Value.empty())
        return Needs("--json-out", "a file");
      Out.JsonOut = std::string(Value);
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
  if (Out.Iters && !Out.Gpu && !Out.Triton)
    return usageError("--iters times GPU runs: add --gpu or --triton");
  if (Out.NoReference && !Out.Gpu)
    return usageError("--no-reference runs on the GPU alone: add --gpu");
  if (Out.CudaReference && !Out.Gpu)
    return usageError("--reference runs the CUDA reference on the GPU: add --gpu");
  if (Out.Sanitize && !Out.Gpu)
    return usageError("--sanitize checks the GPU's run: add --gpu");
  if (Out.AllConfigs && Out.Config)
    return usageError("--config and --all-configs exclude each other");
  if (Out.AllConfigs && Out.SaveDir)
    return usageError("--save writes one set of outputs: choose a config with --config instead of --all-configs");
  if (Out.AllConfigs && Out.Gpu && !Out.Iters)
    Out.Iters = 20;
  return std::nullopt;
}

static std::atomic<bool> Interrupted{false};

static void onSignal(int) { Interrupted.store(true); }

/// The run as one task of Runner: its report printed as the runner's
/// `tessel run` printed it, its exit status returned.
static int runElsewhere(const RunArgs &RA, const std::string &Text, const runners::RunnerSpec &Runner) {
  if (RA.Triton || RA.Sanitize || RA.SaveDir || RA.AllConfigs || RA.NoReference)
    return usageError("--triton, --sanitize, --save, --all-configs and --no-reference run in this process: "
                      "leave out --runner (or run them on the runner's host)");
  runners::Task T;
  T.File = RA.File;
  T.Text = Text;
  T.Kernel = RA.Kernel;
  T.Gpu = RA.Gpu;
  T.Seed = RA.Seed;
  T.Config = RA.Config;
  T.Instance = RA.Instance;
  T.Iters = RA.Iters;
  T.Spec = RA.Spec;
  T.Json = RA.Json;
  T.ReportToo = RA.JsonOut.has_value();
  struct sigaction SA = {};
  SA.sa_handler = onSignal;
  sigaction(SIGINT, &SA, nullptr);
  sigaction(SIGTERM, &SA, nullptr);
  std::string Failure;
  std::unique_ptr<runners::Session> S = runners::Session::open(Runner, sessionOptions(RA.Gpu), Interrupted, Failure);
  runners::Result R;
  if (!S || !S->run(T, R, Interrupted, Failure)) {
    std::cerr << "tessel run: error: " << Failure << '\n';
    return ExitUsage;
  }
  std::cout << R.Stdout;
  std::cerr << R.Stderr;
  if (RA.JsonOut) {
    std::ofstream Out(*RA.JsonOut, std::ios::binary);
    Out << R.Report;
    if (!Out) {
      std::cerr << "tessel run: error: cannot write --json-out " << *RA.JsonOut << '\n';
      return ExitUsage;
    }
  }
  if (R.Signal) {
    std::cerr << "tessel run: error: " << Runner.Text << ": the run was killed by signal " << R.Signal << '\n';
    return ExitUsage;
  }
  return R.Exit;
}

/// The --triton batch's settings; nullopt after saying why there is no
/// Python to run, or a bad TESSEL_TRITON_TIMEOUT.
static std::optional<TritonBatchOptions> tritonOptions(const RunArgs &RA, const InputFile &In) {
  TritonBatchOptions TO;
  std::string Why;
  TO.Python = findPython(Why);
  if (TO.Python.empty()) {
    std::cerr << "tessel run: error: --triton: " << Why << '\n';
    return std::nullopt;
  }
  if (const char *T = std::getenv("TESSEL_TRITON_TIMEOUT"); T && *T) {
    uint64_t Seconds = 0;
    if (!parseUnsigned(T, Seconds) || Seconds == 0 || Seconds > 86400) {
      std::cerr << "tessel run: error: TESSEL_TRITON_TIMEOUT takes seconds from 1 to 86400, not '" << T << "'\n";
      return std::nullopt;
    }
    TO.TimeoutSeconds = static_cast<unsigned>(Seconds);
  }
  std::error_code EC;
  std::filesystem::path Abs = std::filesystem::absolute(RA.File, EC);
  TO.File = EC ? RA.File : Abs.lexically_normal().string();
  // The editor's unsaved text is what Triton must compile too (--text-from).
  if (RA.TextFrom)
    TO.Text = *In.Text;
  // As `python FILE` would see imports: the file's directory first, then the
  // project's roots (Project::searchRoots, pyright's order).
  TO.Search.push_back(std::filesystem::path(TO.File).parent_path().string());
  for (std::string &R : processProject().searchRoots(TO.File))
    if (R != TO.Search.front())
      TO.Search.push_back(std::move(R));
  TO.Kernel = RA.Kernel;
  TO.Iters = RA.Iters;
  return TO;
}

int runRun(const Args &A) {
  RunArgs RA;
  if (std::optional<int> Stop = parseArgs(A, RA))
    return *Stop;
  InputFile In = readInputFile(RA.TextFrom ? *RA.TextFrom : RA.File);
  if (!In.Text) {
    std::cerr << "tessel: error: " << (RA.TextFrom ? *RA.TextFrom : RA.File) << ": " << In.Error << '\n';
    return ExitUsage;
  }
  std::string RunnerError;
  std::optional<std::vector<runners::RunnerSpec>> Runners =
      chooseRunners(RA.Runner ? std::vector<std::string>{*RA.Runner} : std::vector<std::string>{}, RA.File,
                    RunnerUse::Run, RunnerError);
  if (!Runners)
    return usageError(RunnerError);
  if (!Runners->empty())
    return runElsewhere(RA, *In.Text, Runners->front());
  KernelRunOptions Opts;
  Opts.Spec = RA.Spec;
  Opts.Config = RA.Config;
  Opts.AllConfigs = RA.AllConfigs;
  Opts.Instance = RA.Instance;
  Opts.Reference = !RA.NoReference;
  Opts.Seed = RA.Seed;
  Opts.Iters = RA.Iters;
  std::unique_ptr<GpuRunner> Gpu;
  if (RA.Gpu) {
    Gpu = std::make_unique<GpuRunner>();
    if (!Gpu->unavailable().empty()) {
      std::cerr << "tessel run: error: --gpu: " << Gpu->unavailable() << "\n";
      return ExitUsage;
    }
    Opts.Gpu = Gpu.get();
  }
  std::unique_ptr<CudaReferenceRun> CudaRef;
  if (RA.CudaReference) {
    CudaRef = std::make_unique<CudaReferenceRun>(*Gpu);
    Opts.CudaRef = CudaRef.get();
  }
  std::unique_ptr<TritonBatch> Triton;
  if (RA.Triton) {
    std::optional<TritonBatchOptions> TO = tritonOptions(RA, In);
    if (!TO)
      return ExitUsage;
    Triton = std::make_unique<TritonBatch>(std::move(*TO));
    Opts.Triton = Triton.get();
  } else if (std::string Why; RA.CudaReference && !findPython(Why).empty()) {
    // The reference directive's PyTorch operation, through the bridge's Python process without
    // Triton's launches; without a Python the report says only the reference's side.
    if (std::optional<TritonBatchOptions> TO = tritonOptions(RA, In)) {
      TO->LaunchTriton = false;
      Triton = std::make_unique<TritonBatch>(std::move(*TO));
      Opts.Triton = Triton.get();
    }
  }
  if (RA.Sanitize) {
    std::string Searched;
    std::string Sanitizer = findComputeSanitizer(Searched);
    if (Sanitizer.empty()) {
      std::cerr << "tessel run: error: --sanitize: compute-sanitizer is not installed (searched " << Searched
                << "); it comes with the CUDA toolkit\n";
      return ExitUsage;
    }
    std::string Self = selfExecutable();
    // The child runs one instance on the same inputs (same file text, spec,
    // config and seed), untimed: the sanitizer slows a kernel many times.
    Opts.Sanitize = [RA, Sanitizer, Self](std::optional<size_t> Config, size_t Instance) {
      std::vector<std::string> Cmd = {Self, "run", RA.File, "--kernel", RA.Kernel, "--gpu"};
      if (RA.Spec)
        Cmd.insert(Cmd.end(), {"--spec", *RA.Spec});
      if (Config)
        Cmd.insert(Cmd.end(), {"--config", std::to_string(*Config)});
      if (RA.TextFrom)
        Cmd.insert(Cmd.end(), {"--text-from", *RA.TextFrom});
      Cmd.insert(Cmd.end(),
                 {"--seed", std::to_string(RA.Seed), "--instance", std::to_string(Instance), "--format=json"});
      return runUnderSanitizer(Sanitizer, Cmd);
    };
  }
  if (RA.SaveDir) {
    std::error_code EC;
    std::filesystem::create_directories(*RA.SaveDir, EC);
    if (EC || !std::filesystem::is_directory(*RA.SaveDir)) {
      std::cerr << "tessel run: error: cannot create --save directory " << *RA.SaveDir << ": "
                << (EC ? EC.message() : "not a directory") << '\n';
      return ExitUsage;
    }
    Opts.SaveDir = RA.SaveDir;
  }

  RunReport Report;
  try {
    auto File = ParsedFile::parse(std::make_shared<SourceText>(*In.Text, RA.File));
    std::string Error;
    if (Gpu)
      Report.GpuDevice = Gpu->device();
    if (!runKernel(*File, RA.File, RA.Kernel, Opts, Report, Error)) {
      std::cerr << "tessel run: error: " << RA.File << ": " << Error << '\n';
      return ExitUsage;
    }
    if (Triton)
      Triton->run(Report);
  } catch (const std::exception &E) {
    // A bug in tessel, not in the user's file: say so.
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
  if (RA.JsonOut) {
    std::ofstream Out(*RA.JsonOut);
    renderRunJson(Out, Report, Src);
    if (!Out) {
      std::cerr << "tessel run: error: cannot write --json-out " << *RA.JsonOut << '\n';
      return ExitUsage;
    }
  }
  if (!Report.SaveError.empty()) {
    std::cerr << "tessel run: error: " << Report.SaveError << '\n';
    return ExitUsage;
  }
  return Report.errors() ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
