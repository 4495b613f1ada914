//===- main.cpp - the `tessel` command-line entry point -------------------===//
/// \file
/// Dispatches `tessel SUBCOMMAND ARGS...` through one table and answers
/// `--help` and `--version` itself. Subcommands live in their own files
/// (CheckCommand.cpp, ...); this file only knows their names and summaries.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/backend/BuildId.h"
#include "tessel/Version.h"

#include <cstdio>
#include <iostream>
#include <string_view>

using namespace tessel::tools;

namespace {

struct Subcommand {
  std::string_view Name;
  std::string_view Summary;
  int (*Run)(const Args &);
};

} // namespace

/// Every subcommand; the first column is what users type.
static const Subcommand Subcommands[] = {
    {"check", "report the problems in Triton kernel files (text or JSON)", runCheck},
    {"run", "run a kernel on the CPU interpreter, reporting out-of-bounds accesses", runRun},
    {"tune", "time every autotune config of a kernel over local, ssh:// and slurm:// runners", runTune},
    {"compile", "lower a kernel and print its tile IR (--emit tir)", runCompile},
    {"lsp", "run the language server (stdio or TCP)", runLsp},
};

static void printHelp(std::ostream &OS) {
  OS << "tessel " TESSEL_VERSION_STRING " - language server and toolchain for Triton kernels\n\n"
     << "usage: tessel <command> [options] [args]\n"
     << "       tessel --help | --version\n\n"
     << "commands:\n";
  for (const Subcommand &S : Subcommands) {
    OS << "  " << S.Name;
    for (size_t I = S.Name.size(); I < 10; ++I)
      OS << ' ';
    OS << S.Summary << '\n';
  }
  OS << "\nRun `tessel <command> --help` for the options of a command.\n";
}

int main(int Argc, char **Argv) {
  // Unsynchronised streams: start-up and output cost matter for `tessel check` in scripts.
  std::ios::sync_with_stdio(false);
  if (Argc < 2) {
    printHelp(std::cerr);
    return ExitUsage;
  }
  std::string_view First = Argv[1];
  if (First == "--help" || First == "-h" || First == "help") {
    printHelp(std::cout);
    return ExitOk;
  }
  if (First == "--version" || First == "-V" || First == "version") {
    std::cout << "tessel " TESSEL_VERSION_STRING " (build " << tessel::backend::buildId() << ")\n";
    return ExitOk;
  }
  // The JIT's worker process (compiler/backend/JitWorker.h): internal, so
  // not in the table `tessel --help` prints.
  if (First == "jit-worker")
    return runJitWorker(Args(Argv + 2, Argv + Argc));
  // The far end of a runner (runners/Serve.h): internal too.
  if (First == "runner")
    return runRunner(Args(Argv + 2, Argv + Argc));
  for (const Subcommand &S : Subcommands) {
    if (S.Name != First)
      continue;
    Args Rest(Argv + 2, Argv + Argc);
    int Status = S.Run(Rest);
    std::cout.flush();
    return Status;
  }
  std::cerr << "tessel: error: unknown command '" << First << "'; run `tessel --help` for the list\n";
  return ExitUsage;
}
