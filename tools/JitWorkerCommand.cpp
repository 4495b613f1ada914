//===- JitWorkerCommand.cpp - `tessel jit-worker` (internal) --------------===//
/// \file
/// The worker process of the JIT: LLVM bitcode on stdin, a reply on stdout
/// (backend/JitWorker.h). `tessel check --jit` runs one per compile and the
/// language server one long-lived `--serve` worker, so an LLVM fatal error or
/// an assembler crash ends this process and not theirs. `--local-arch`
/// prints the local GPU's architecture (the server never loads the CUDA
/// driver itself). Not listed in `tessel --help`.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "compiler/backend/JitWorker.h"
#include "compiler/backend/Target.h"

#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <unistd.h>

namespace tessel::tools {

int runJitWorker(const Args &A) {
  if (A.size() == 1 && std::string_view(A[0]) == "--serve")
    return backend::serveJitWorker(STDIN_FILENO, STDOUT_FILENO);
  if (A.size() == 1 && std::string_view(A[0]) == "--local-arch") {
    std::string Name = backend::defaultArch().name() + "\n";
    return ::write(STDOUT_FILENO, Name.data(), Name.size()) == ssize_t(Name.size()) ? ExitOk : ExitUsage;
  }
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
