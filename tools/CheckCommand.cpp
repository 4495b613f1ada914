//===- CheckCommand.cpp - `tessel check FILE...` --------------------------===//
/// \file
/// Headless diagnostics, like `clangd --check` or `ruff check`: reads each
/// file, runs diag::checkFile on it and prints the findings as compiler-style
/// text or as a JSON array of `{"file", "diagnostics"}` whose diagnostics are
/// the very LSP objects the server publishes (lsp/ToProtocol).
///
/// Directories stand for every `.py` file under them. All files share one
/// project model (compiler/project), so each module is parsed once however
/// many checked files import it, and files are checked in parallel; output
/// follows the order of the inputs. A file that cannot be read gets one line
/// on stderr and the others are still checked. Exit status: 2 if any file could not be read or the command
/// line is wrong, else 1 if any error was found, else 0.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/backend/CompileCache.h"
#include "compiler/frontend/Parser.h"
#include "compiler/host/DeviceModel.h"
#include "compiler/project/Project.h"
#include "compiler/support/CacheDirectory.h"
#include "compiler/support/Cores.h"
#include "compiler/support/WorkerPool.h"
#include "diagnostics/Check.h"
#include "diagnostics/JitCheck.h"
#include "diagnostics/checks/SharedMemoryBound.h"
#include "lsp/LineIndex.h"
#include "lsp/ToProtocol.h"
#include "tools/CommandLine.h"
#include "tools/InputFile.h"
#include "tools/JsonOutput.h"
#include "tools/TextOutput.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

namespace tessel::tools {

namespace {

enum class Format { Text, Json };

struct CheckArgs {
  std::vector<std::string> Files;
  Format Fmt = Format::Text;
  ColorMode Color = ColorMode::Auto;
  /// Hover facts are for the language server; the command line prints none.
  diag::CheckOptions Opts{.KeepValueFacts = false, .Prove = false, .Prover = {}, .Project = nullptr};
  /// --jit: compile every kernel and config (diag::jitCheckFile).
  bool Jit = false;
  backend::GpuArch JitArch{90, true};
  /// `--extra-path DIR`: searched for imports after the project root.
  std::vector<std::string> ExtraPaths;
  /// --no-cache: neither the JIT's compiled kernels nor the projects' launch
  /// indexes are read or written.
  bool NoCache = false;
};

} // namespace

static const char CheckUsage[] =
    "usage: tessel check [options] FILE|DIR...\n"
    "\n"
    "Reports the problems Triton would raise for every @triton.jit kernel in FILE\n"
    "(or in every .py file under DIR), under every specialization the project\n"
    "reveals (autotune configs, launch sites). Imports of the project's modules are\n"
    "followed (roots: tessel.toml / pyproject.toml [tool.tessel] extraPaths, src/).\n"
    "\n"
    "options:\n"
    "  --format=text|json     compiler-style text (default) or a JSON array of\n"
    "                         {\"file\", \"diagnostics\"} with LSP Diagnostic objects\n"
    "  --arch=sm_90|sm_90a|sm_80\n"
    "                         target GPU (default sm_90a)\n"
    "  --jit                  also compile every kernel and autotune config to a GPU\n"
    "                         binary and report register spills (TS401), occupancy\n"
    "                         limits (TS402), kernels tessel could not compile (TS403) and\n"
    "                         configs above the shared-memory limit (TS404)\n"
    "  --prove                also run the bounds prover (Z3): every load and store\n"
    "                         proven in bounds, or a counterexample launch (TS203)\n"
    "  --extra-path=DIR       also resolve imports under DIR (repeatable)\n"
    "  --no-cache             neither read nor write tessel's caches (the projects'\n"
    "                         launch indexes, the compiled kernels of --jit)\n"
    "  --color=auto|always|never\n"
    "                         colour the text output (auto: only on a terminal)\n"
    "  -h, --help             show this help\n"
    "\n"
    "exit status: 0 no errors, 1 errors found, 2 bad usage or unreadable input\n";

static int usageError(const std::string &Why) {
  std::cerr << "tessel check: error: " << Why << "\nrun `tessel check --help` for usage\n";
  return ExitUsage;
}

/// Parses the command line; returns an exit status when it should stop.
static std::optional<int> parseArgs(const Args &A, CheckArgs &Out) {
  bool OnlyFiles = false;
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Arg = A[I];
    if (OnlyFiles || Arg.empty() || Arg[0] != '-' || Arg == "-") {
      Out.Files.emplace_back(Arg);
      continue;
    }
    if (Arg == "--") {
      OnlyFiles = true;
      continue;
    }
    if (Arg == "-h" || Arg == "--help") {
      std::cout << CheckUsage;
      return ExitOk;
    }
    if (Arg == "--prove") {
      Out.Opts.Prove = true;
      continue;
    }
    std::string_view Value;
    bool Missing = false;
    if (Arg == "--jit") {
      Out.Jit = true;
      continue;
    }
    if (Arg == "--no-cache") {
      Out.NoCache = true;
      continue;
    }
    if (takeValue(A, I, "--format", Value, Missing)) {
      if (Missing)
        return usageError("--format needs a value (text or json)");
      if (Value == "text")
        Out.Fmt = Format::Text;
      else if (Value == "json")
        Out.Fmt = Format::Json;
      else
        return usageError("unknown format '" + std::string(Value) + "' (expected text or json)");
      continue;
    }
    if (takeValue(A, I, "--arch", Value, Missing)) {
      if (Missing)
        return usageError("--arch needs a value (sm_90 or sm_80)");
      std::optional<backend::GpuArch> Arch = backend::parseArch(Value == "sm90"   ? "sm_90"
                                                                : Value == "sm80" ? "sm_80"
                                                                                  : Value);
      if (!Arch)
        return usageError("unsupported arch '" + std::string(Value) + "' (expected sm_90, sm_90a or sm_80)");
      Out.Opts.Arch = int(Arch->Capability);
      Out.JitArch = *Arch;
      devicemodel::setTargetCapability(Arch->Capability);
      continue;
    }
    if (takeValue(A, I, "--extra-path", Value, Missing)) {
      if (Missing)
        return usageError("--extra-path needs a directory");
      Out.ExtraPaths.emplace_back(Value);
      continue;
    }
    if (takeValue(A, I, "--color", Value, Missing)) {
      if (Missing)
        return usageError("--color needs a value (auto, always or never)");
      if (!parseColorMode(Value, Out.Color))
        return usageError("unknown colour mode '" + std::string(Value) + "' (expected auto, always or never)");
      continue;
    }
    return usageError("unknown option '" + std::string(Arg) + "'");
  }
  if (Out.Files.empty())
    return usageError("no input files");
  return std::nullopt;
}

/// Reads standard input for the path "-", with the same limits as a file.
static InputFile readStdin() {
  std::string Text;
  char Buf[1 << 16];
  while (true) {
    ssize_t N = ::read(STDIN_FILENO, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Text.append(Buf, static_cast<size_t>(N));
    if (Text.size() > MaxInputBytes)
      return {std::nullopt, "input is over the 50 MB limit for checked files"};
  }
  if (Text.find('\0') != std::string::npos)
    return {std::nullopt, "binary input (contains NUL bytes), not checked"};
  if (firstInvalidUtf8(Text))
    return {std::nullopt, "input is not valid UTF-8"};
  return {std::move(Text), {}};
}

/// Keeps the last checked file's tree and analysis alive until the process
/// exits, like clang's -disable-free: tearing them down right before exit
/// costs about a twentieth of the check of a large file. Earlier files are
/// still freed, so memory stays bounded by one file however many are given.
static void keepUntilExit(std::shared_ptr<const ParsedFile> File, diag::FileReport Report) {
  struct Kept {
    std::shared_ptr<const ParsedFile> File;
    diag::FileReport Report;
  };
  static Kept *Last = new Kept; // never deleted, on purpose
  static std::mutex Mu;         // files are checked on several threads
  std::lock_guard<std::mutex> L(Mu);
  *Last = Kept{std::move(File), std::move(Report)};
}

/// Compiles every kernel and config of the file (each in a `tessel
/// jit-worker` process, results kept in the JIT cache) and merges the
/// findings into Report in source order.
static std::vector<diag::JitSummary> addJitFindings(const ParsedFile &File, diag::FileReport &Report,
                                                    const CheckArgs &CA) {
  // Files are checked in parallel; the compiles of one file already run two
  // worker processes at a time, so the JIT itself takes the files in turn.
  static std::mutex OneAtATime;
  std::lock_guard<std::mutex> Lock(OneAtATime);
  static backend::CompileCache Cache(CA.NoCache ? "" : backend::CompileCache::defaultDirectory());
  static bool Noted = false;
  diag::JitCheckOptions JO;
  JO.Arch = CA.JitArch;
  JO.Project = CA.Opts.Project;
  JO.Cache = &Cache;
  JO.WorkerProgram = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::set<std::string> Helpers = sema::uncalledHelpers(*Report.Analysis);
  diag::JitReport JR = diag::jitCheckFile(File, Report.Analysis->Info, Report.Findings, JO, &Helpers);
  if (!JR.Note.empty() && !Noted) {
    std::cerr << "tessel check: note: " << JR.Note << "\n";
    Noted = true;
  }
  for (diag::Finding &F : JR.Findings)
    Report.Findings.push_back(std::move(F));
  diag::preferExactSharedMemory(Report.Findings);
  std::stable_sort(Report.Findings.begin(), Report.Findings.end(),
                   [](const diag::Finding &A, const diag::Finding &B) { return A.Range.Begin < B.Range.Begin; });
  return std::move(JR.Kernels);
}

/// One kernel's figures for the JSON report: registers, spills, shared
/// memory and occupancy, or why there are none, and what the launch assumed.
static nlohmann::json kernelJson(const diag::JitSummary &S, const lsp::LineIndex &Index, bool Assembler) {
  nlohmann::json J;
  J["kernel"] = S.Kernel;
  J["line"] = Index.position(S.KernelName.Begin).Line + 1;
  if (!S.Specialization.empty())
    J["config"] = S.Specialization;
  if (S.Compiled && !S.Compiled->Assembler.empty()) {
    const backend::CompiledKernel &K = *S.Compiled;
    J["figures"] = {{"registers", K.Resources.Registers},
                    {"spill_bytes", K.Resources.spillBytes()},
                    {"shared_bytes", K.sharedBytes()},
                    {"occupancy", K.Occ.fraction()}};
  } else if (S.Compiled && !Assembler) {
    J["unavailable"] = "PTX only: no PTX assembler was found";
  } else if (S.Compiled) {
    // Not assembled: its shared memory is above the block limit (TS404).
    J["unavailable"] = "needs " + std::to_string(S.Compiled->sharedBytes()) +
                       " bytes of shared memory per block, more than the GPU has: not assembled";
    J["shared_bytes"] = S.Compiled->sharedBytes();
  } else {
    J["unavailable"] = S.Failure;
  }
  J["representative"] = S.Representative;
  J["assumed"] = S.Assumptions;
  return J;
}

namespace {
/// What checking one file produced, kept until every file is done so that
/// the output follows the order of the inputs whatever the threads did.
struct FileOutcome {
  std::string Error; ///< a line for stderr (unreadable file, internal error)
  bool Checked = false;
  std::string Text;     ///< rendered findings (text format)
  FileDiagnostics Json; ///< JSON format
  CheckTotals Totals;
};
} // namespace

/// The files to check: each FILE as given, each DIR as every `.py` file under
/// it (sorted, as Project::pythonFiles lists them), each once.
static std::vector<std::string> expandInputs(const std::vector<std::string> &Inputs, project::Project &P,
                                             std::vector<std::string> &Missing) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  for (const std::string &In : Inputs) {
    if (In != "-" && P.files().isDirectory(In)) {
      std::vector<std::string> Files = P.pythonFiles(In);
      if (Files.empty())
        Missing.push_back(In);
      // Named under DIR as the user wrote it (`samples/project/kernels.py`).
      std::string Base = project::normalPath(In);
      for (std::string &F : Files)
        if (Seen.insert(F).second)
          Out.push_back(In + (In.back() == '/' ? "" : "/") + F.substr(Base.size() + 1));
      continue;
    }
    if (In == "-" || Seen.insert(project::normalPath(In)).second)
      Out.push_back(In);
  }
  return Out;
}

static FileOutcome checkOne(const std::string &Path, const CheckArgs &CA, project::Project &P, const TextStyle &Style) {
  FileOutcome O;
  // A file on disk is parsed through the project, so a module that other
  // checked files import is parsed once for all of them.
  std::shared_ptr<const ParsedFile> Parsed;
  std::optional<std::string> Text;
  if (Path != "-") {
    project::FileSet::Contents C = P.files().contents(Path);
    if (C.Text)
      if (std::shared_ptr<const project::Module> M = P.moduleAt(Path)) {
        Parsed = M->File;
        Text = *C.Text;
      }
  }
  if (!Parsed) {
    InputFile In = Path == "-" ? readStdin() : readInputFile(Path);
    if (!In.Text) {
      O.Error = "tessel: error: " + Path + ": " + In.Error;
      return O;
    }
    Text = std::move(In.Text);
  }
  diag::FileReport Report;
  std::vector<diag::JitSummary> Figures;
  try {
    if (!Parsed)
      Parsed = ParsedFile::parse(std::make_shared<SourceText>(*Text, Path));
    Report = diag::checkFile(Parsed, CA.Opts);
    if (CA.Jit)
      Figures = addJitFindings(*Parsed, Report, CA);
  } catch (const std::exception &E) {
    // A bug in tessel, not in the user's file: say so and keep going.
    O.Error = "tessel: internal error while checking " + Path + ": " + E.what();
    return O;
  }
  O.Checked = true;
  ++O.Totals.Files;
  O.Totals.Kernels += Report.NumKernels;
  lsp::LineIndex Index(std::move(*Text));
  std::ostringstream OS;
  O.Json.File = Path;
  for (const diag::Finding &F : Report.Findings) {
    O.Totals.count(F);
    if (CA.Fmt == Format::Json)
      O.Json.Diagnostics.push_back(lsp::toProtocol(F, Index, Path));
    else
      renderFinding(OS, F, Index, Path, Style);
  }
  if (CA.Jit && CA.Fmt == Format::Json) {
    O.Json.Kernels.emplace();
    for (const diag::JitSummary &S : Figures)
      O.Json.Kernels->push_back(kernelJson(S, Index, diag::canAssemble()));
  }
  O.Text = OS.str();
  keepUntilExit(std::move(Parsed), std::move(Report));
  return O;
}

int runCheck(const Args &A) {
  CheckArgs CA;
  if (std::optional<int> Stop = parseArgs(A, CA))
    return *Stop;

  TextStyle Style{CA.Fmt == Format::Text && useColor(CA.Color)};
  // Never deleted, on purpose (as keepUntilExit): tearing down every parsed
  // module of a large tree right before exit only costs time.
  project::Project &Project = *new project::Project(CA.ExtraPaths);
  // Where the launch sites of a file's kernels are in other files, a later
  // check of that file reads only what changed since this one.
  if (!CA.NoCache)
    Project.setIndexDirectory(userCacheDirectory("index"));
  CA.Opts.Project = &Project;
  std::vector<std::string> Empty;
  std::vector<std::string> Files = expandInputs(CA.Files, Project, Empty);
  bool IoProblem = false;
  for (const std::string &D : Empty) {
    std::cerr << "tessel: error: " << D << ": is a directory with no Python files in it\n";
    IoProblem = true;
  }

  // Files are independent given the shared project (its caches are
  // thread-safe), so several are checked at once; each file's kernels are
  // checked in parallel too, on the same pool.
  std::vector<FileOutcome> Outcomes(Files.size());
  bool Stdin = std::find(Files.begin(), Files.end(), "-") != Files.end();
  parallelFor(Files.size(), Stdin ? 1 : usableCores(),
              [&](size_t I) { Outcomes[I] = checkOne(Files[I], CA, Project, Style); });

  CheckTotals Totals;
  std::vector<FileDiagnostics> Json;
  for (FileOutcome &O : Outcomes) {
    if (!O.Error.empty()) {
      std::cerr << O.Error << '\n';
      IoProblem = true;
      continue;
    }
    Totals.Errors += O.Totals.Errors;
    Totals.Warnings += O.Totals.Warnings;
    Totals.Notes += O.Totals.Notes;
    Totals.Hints += O.Totals.Hints;
    Totals.Files += O.Totals.Files;
    Totals.Kernels += O.Totals.Kernels;
    if (CA.Fmt == Format::Json)
      Json.push_back(std::move(O.Json));
    else
      std::cout << O.Text;
  }

  Project.saveIndexes();
  if (CA.Fmt == Format::Json)
    writeJsonReport(std::cout, Json);
  else
    std::cout << summaryLine(Totals) << '\n';
  if (IoProblem)
    return ExitUsage;
  return Totals.Errors ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
