//===- Subcommands.h - the `tessel` binary's subcommands --------*- C++ -*-===//
/// \file
/// Every subcommand is one function taking its own arguments (everything
/// after the subcommand's name) and returning the process exit status. The
/// table in main.cpp maps names to these functions, so adding a subcommand is
/// one file plus one line there.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_SUBCOMMANDS_H
#define TESSEL_TOOLS_SUBCOMMANDS_H

#include <string_view>
#include <vector>

namespace tessel::tools {

/// Exit statuses shared by every subcommand.
enum ExitCode : int {
  ExitOk = 0,       ///< nothing wrong was found
  ExitFindings = 1, ///< the user's code has at least one error
  ExitUsage = 2,    ///< bad command line, unreadable input or environment failure
};

using Args = std::vector<std::string_view>;

/// `tessel check FILE... [--format=text|json] [--arch=sm_90|sm_80] [--color=auto|always|never]`
int runCheck(const Args &A);

/// `tessel run FILE --kernel K [--cpu|--gpu] [--spec S] [--config N] [--seed S] [--save DIR] [--format=text|json]`
int runRun(const Args &A);

/// `tessel compile FILE --kernel K --emit tir [--spec S] [--config N] [--no-locations]`
int runCompile(const Args &A);

/// `tessel lsp [--stdio|--listen [HOST:]PORT] [--log=LEVEL] [--clientProcessId=PID]`
int runLsp(const Args &A);

/// `tessel tune FILE --kernel K [--runner R]... [--cpu|--gpu] [--prune]`
int runTune(const Args &A);

/// `tessel runner [--device N]`: the far end of a runner (internal, not in --help).
int runRunner(const Args &A);

/// `tessel jit-worker`: the JIT's worker process (internal, not in --help).
int runJitWorker(const Args &A);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_SUBCOMMANDS_H
