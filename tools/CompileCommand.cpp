//===- CompileCommand.cpp - `tessel compile FILE --kernel K --emit tir` ---===//
/// \file
/// Lowers one kernel to tile IR and prints it, verified, once per distinct
/// specialization of its launch (sema::planLaunch: --spec, the kernel's
/// `# tessel: launch` directives, or what the file reveals, with the
/// assumptions printed as comments). Problems (sema's errors, lowering
/// limits, spec errors) are printed like `tessel check`'s findings.
///
/// Exit status: 0 printed, 1 an error in the file or spec, 2 bad usage, an
/// unreadable file, an unknown kernel or config.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/frontend/Parser.h"
#include "compiler/ir/Printer.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "diagnostics/Finding.h"
#include "lsp/LineIndex.h"
#include "tools/CommandLine.h"
#include "tools/InputFile.h"
#include "tools/TextOutput.h"

#include <iostream>
#include <optional>
#include <set>
#include <string>

namespace tessel::tools {

namespace {
struct CompileArgs {
  std::string File;
  std::string Kernel;
  std::string Emit = "tir";
  std::optional<std::string> Spec;
  std::optional<size_t> Config;
  bool Locations = true;
  ColorMode Color = ColorMode::Auto;
};
} // namespace

static const char CompileUsage[] =
    "usage: tessel compile FILE --kernel K --emit tir [options]\n"
    "\n"
    "Lowers kernel K of FILE to tessel's tile IR (docs/tir.md) and prints it, verified, once per\n"
    "distinct specialization of its launch: the `# tessel: launch` directive above the kernel, or\n"
    "--spec; without either, the launch is derived from the file and what was assumed is printed.\n"
    "\n"
    "options:\n"
    "  --kernel K             the @triton.jit kernel to compile (required)\n"
    "  --emit tir             what to print: the tile IR (the only stage so far)\n"
    "  --spec 'SPEC'          launch spec text; replaces the kernel's directives (docs/launch-spec.md)\n"
    "  --config N             use autotune config N (0-based; default 0) for what the spec leaves out\n"
    "  --no-locations         leave out the `loc(line:col)` of each op\n"
    "  --color=auto|always|never\n"
    "                         colour the error output (auto: only on a terminal)\n"
    "  -h, --help             show this help\n"
    "\n"
    "exit status: 0 printed, 1 an error in the file or spec, 2 bad usage or unreadable input\n";

static int usageError(const std::string &Why) {
  std::cerr << "tessel compile: error: " << Why << "\nrun `tessel compile --help` for usage\n";
  return ExitUsage;
}

static std::optional<int> parseArgs(const Args &A, CompileArgs &Out) {
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Arg = A[I];
    if (Arg == "-h" || Arg == "--help") {
      std::cout << CompileUsage;
      return ExitOk;
    }
    if (Arg == "--no-locations") {
      Out.Locations = false;
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
    if (takeValue(A, I, "--kernel", Value, Missing)) {
      if (Missing || Value.empty())
        return usageError("--kernel needs a value (the kernel's name)");
      Out.Kernel = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--emit", Value, Missing)) {
      if (Missing || Value != "tir")
        return usageError("--emit takes 'tir' (the tile IR), the only stage tessel emits so far");
      continue;
    }
    if (takeValue(A, I, "--spec", Value, Missing)) {
      if (Missing)
        return usageError("--spec needs a value (launch spec text)");
      Out.Spec = std::string(Value);
      continue;
    }
    if (takeValue(A, I, "--config", Value, Missing)) {
      uint64_t N = 0;
      if (Missing || Value.size() >= 10 || !parseUnsigned(Value, N))
        return usageError("--config takes a config index (0, 1, ...)");
      Out.Config = N;
      continue;
    }
    if (takeValue(A, I, "--color", Value, Missing)) {
      if (Missing || !parseColorMode(Value, Out.Color))
        return usageError("--color takes auto, always or never");
      continue;
    }
    return usageError("unknown option '" + std::string(Arg) + "'");
  }
  if (Out.File.empty())
    return usageError("no input file");
  if (Out.Kernel.empty())
    return usageError("which kernel? pass --kernel NAME");
  return std::nullopt;
}

int runCompile(const Args &A) {
  CompileArgs CA;
  if (std::optional<int> Status = parseArgs(A, CA))
    return *Status;
  InputFile In = readInputFile(CA.File);
  if (!In.Text) {
    std::cerr << "tessel compile: error: " << CA.File << ": " << In.Error << "\n";
    return ExitUsage;
  }
  auto Text = std::make_shared<SourceText>(*In.Text, CA.File);
  auto File = ParsedFile::parse(Text);
  ProblemSink Discovery;
  ModuleInfo Info = discover(File->module(), Discovery);
  sema::LaunchPlanOptions PO;
  PO.SpecText = CA.Spec;
  PO.Config = CA.Config;
  sema::LaunchPlan Plan = sema::planLaunch(*File, Info, CA.Kernel, PO);
  if (!Plan.Error.empty()) {
    std::cerr << "tessel compile: error: " << Plan.Error << "\n";
    return ExitUsage;
  }
  TextStyle Style{useColor(CA.Color)};
  lsp::LineIndex FileIndex(*In.Text);
  std::optional<lsp::LineIndex> SpecIndex;
  if (Plan.Origin == sema::SpecOrigin::CommandLine && CA.Spec)
    SpecIndex.emplace(*CA.Spec);
  bool Failed = false;
  auto Report = [&](const Problem &P, bool InSpec) {
    diag::Finding F = diag::toFinding(P);
    Failed |= F.Sev == diag::Severity::Error;
    if (InSpec && SpecIndex)
      renderFinding(std::cerr, F, *SpecIndex, "--spec", Style);
    else
      renderFinding(std::cerr, F, FileIndex, CA.File, Style);
  };
  for (const Problem &P : Plan.Problems)
    Report(P, true);
  for (const std::string &Assumed : Plan.Assumptions)
    std::cout << "// " << Assumed << "\n";
  // Instances that differ only in sizes share their IR: print each text once.
  std::set<std::string> Printed;
  ir::PrintOptions Print{Text.get(), CA.Locations};
  for (const sema::PlannedLaunch &PL : Plan.Launches) {
    sema::AnalyzeOptions AO;
    AO.Project = &processProject();
    sema::LoweredKernel L = sema::lowerKernel(*File, Info, PL.Request, AO);
    for (const Problem &P : L.Problems)
      Report(P, false);
    if (!L.Function)
      continue;
    std::string IR = ir::printFunction(*L.Function, Print);
    if (!Printed.insert(IR).second)
      continue;
    if (Plan.Launches.size() > 1 && !PL.Launch.Label.empty())
      std::cout << "// instance " << PL.Launch.Label << "\n";
    std::cout << IR;
  }
  return Failed ? ExitFindings : ExitOk;
}

} // namespace tessel::tools
