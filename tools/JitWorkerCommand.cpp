//===- JitWorkerCommand.cpp - `tessel jit-worker` (internal) --------------===//
/// \file
/// The worker process of the JIT: LLVM bitcode on stdin, a reply on stdout
/// (backend/JitWorker.h). `tessel check --jit` and the language server run
/// one per compile, so an LLVM fatal error or an assembler crash ends this
/// process and not theirs. Not listed in `tessel --help`.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/backend/JitWorker.h"

#include <cerrno>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace tessel::tools {

int runJitWorker(const Args &A) {
  std::string In;
  char Buf[1 << 16];
  while (true) {
    ssize_t N = ::read(STDIN_FILENO, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    In.append(Buf, size_t(N));
  }
  std::vector<std::string> Args(A.begin(), A.end());
  std::string Out = backend::runJitWorker(Args, In);
  size_t Done = 0;
  while (Done < Out.size()) {
    ssize_t N = ::write(STDOUT_FILENO, Out.data() + Done, Out.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return ExitUsage;
    Done += size_t(N);
  }
  return ExitOk;
}

} // namespace tessel::tools
