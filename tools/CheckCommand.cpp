//===- CheckCommand.cpp - `tessel check FILE...` --------------------------===//
/// \file
/// Headless diagnostics, like `clangd --check` or `ruff check`: reads each
/// file, runs diag::checkFile on it and prints the findings as compiler-style
/// text or as a JSON array of `{"file", "diagnostics"}` whose diagnostics are
/// the very LSP objects the server publishes (lsp/ToProtocol).
///
/// A file that cannot be read gets one line on stderr and the others are
/// still checked. Exit status: 2 if any file could not be read or the command
/// line is wrong, else 1 if any error was found, else 0.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/backend/CompileCache.h"
#include "compiler/frontend/Parser.h"
#include "diagnostics/Check.h"
#include "diagnostics/JitCheck.h"
#include "lsp/LineIndex.h"
#include "lsp/ToProtocol.h"
#include "tools/CommandLine.h"
#include "tools/InputFile.h"
#include "tools/JsonOutput.h"
#include "tools/TextOutput.h"

#include "llvm/Support/FileSystem.h"
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
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
  diag::CheckOptions Opts{.KeepValueFacts = false, .Prove = false, .Prover = {}};
  /// --jit: compile every kernel and config (diag::jitCheckFile).
  bool Jit = false;
  backend::GpuArch JitArch{90, false};
};

} // namespace

static const char CheckUsage[] =
    "usage: tessel check [options] FILE...\n"
    "\n"
    "Reports the problems Triton would raise for every @triton.jit kernel in FILE,\n"
    "under every specialization the file reveals (autotune configs, launch sites).\n"
    "\n"
    "options:\n"
    "  --format=text|json     compiler-style text (default) or a JSON array of\n"
    "                         {\"file\", \"diagnostics\"} with LSP Diagnostic objects\n"
    "  --arch=sm_90|sm_90a|sm_80\n"
    "                         target GPU (default sm_90)\n"
    "  --jit                  also compile every kernel and autotune config to a GPU\n"
    "                         binary and report register spills (TS401), occupancy\n"
    "                         limits (TS402) and kernels tessel could not compile (TS403)\n"
    "  --prove                also run the bounds prover (Z3): every load and store\n"
    "                         proven in bounds, or a counterexample launch (TS203)\n"
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
  *Last = Kept{std::move(File), std::move(Report)};
}

/// Compiles every kernel and config of the file (each in a `tessel
/// jit-worker` process, results kept in the JIT cache) and merges the
/// findings into Report in source order.
static void addJitFindings(const ParsedFile &File, diag::FileReport &Report, const CheckArgs &CA) {
  static backend::CompileCache Cache(backend::CompileCache::defaultDirectory());
  static bool Noted = false;
  diag::JitCheckOptions JO;
  JO.Arch = CA.JitArch;
  JO.Cache = &Cache;
  JO.WorkerProgram = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  diag::JitReport JR = diag::jitCheckFile(File, Report.Analysis->Info, Report.Findings, JO);
  if (!JR.Note.empty() && !Noted) {
    std::cerr << "tessel check: note: " << JR.Note << "\n";
    Noted = true;
  }
  for (diag::Finding &F : JR.Findings)
    Report.Findings.push_back(std::move(F));
  std::stable_sort(Report.Findings.begin(), Report.Findings.end(),
                   [](const diag::Finding &A, const diag::Finding &B) { return A.Range.Begin < B.Range.Begin; });
}

int runCheck(const Args &A) {
  CheckArgs CA;
  if (std::optional<int> Stop = parseArgs(A, CA))
    return *Stop;

  TextStyle Style{CA.Fmt == Format::Text && useColor(CA.Color)};
  CheckTotals Totals;
  std::vector<FileDiagnostics> Json;
  bool IoProblem = false;

  for (const std::string &Path : CA.Files) {
    InputFile In = Path == "-" ? readStdin() : readInputFile(Path);
    if (!In.Text) {
      std::cerr << "tessel: error: " << Path << ": " << In.Error << '\n';
      IoProblem = true;
      continue;
    }
    diag::FileReport Report;
    std::shared_ptr<const ParsedFile> Parsed;
    try {
      auto Text = std::make_shared<SourceText>(*In.Text, Path);
      Parsed = ParsedFile::parse(std::move(Text));
      Report = diag::checkFile(Parsed, CA.Opts);
      if (CA.Jit)
        addJitFindings(*Parsed, Report, CA);
    } catch (const std::exception &E) {
      // A bug in tessel, not in the user's file: say so and keep going.
      std::cerr << "tessel: internal error while checking " << Path << ": " << E.what() << '\n';
      IoProblem = true;
      continue;
    }
    ++Totals.Files;
    Totals.Kernels += Report.NumKernels;
    lsp::LineIndex Index(std::move(*In.Text));
    if (CA.Fmt == Format::Json) {
      FileDiagnostics &FD = Json.emplace_back(FileDiagnostics{Path, {}});
      for (const diag::Finding &F : Report.Findings) {
        Totals.count(F);
        FD.Diagnostics.push_back(lsp::toProtocol(F, Index, Path));
      }
      keepUntilExit(std::move(Parsed), std::move(Report));
      continue;
    }
    for (const diag::Finding &F : Report.Findings) {
      Totals.count(F);
      renderFinding(std::cout, F, Index, Path, Style);
    }
    keepUntilExit(std::move(Parsed), std::move(Report));
  }

  if (CA.Fmt == Format::Json)
    writeJsonReport(std::cout, Json);
  else
    std::cout << summaryLine(Totals) << '\n';
  if (IoProblem)
    return ExitUsage;
  return Totals.Errors ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
