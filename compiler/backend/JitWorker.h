//===- JitWorker.h - the JIT's LLVM stages in a worker process --*- C++ -*-===//
/// \file
/// LLVM reports some errors (a selection failure in the NVPTX back end, an
/// invalid intrinsic) by ending the process, and an assembler may crash or
/// hang. Callers that must outlive one kernel's compile (`tessel check
/// --jit`, the language server) run compileModule in a worker process: the
/// module goes to it as bitcode on stdin, and the CompiledKernel comes back
/// on stdout, serialized (Jit.h). A worker that crashes, hangs past its
/// time limit or answers garbage becomes an error value naming what
/// happened, never a crash of the caller.
///
/// Protocol: `PROGRAM jit-worker --arch A --threads N --shared N --assemble
/// 0|1 --keep-llvm 0|1`, bitcode on stdin; the reply is "OK\n" followed by
/// serialize(kernel), or "ERR\n" followed by a message.
///
/// A long-lived worker (`PROGRAM jit-worker --serve`, JitWorkerProcess) takes
/// one request after another, so LLVM's set-up, libdevice and nvJitLink are
/// loaded once and not per compile (the language server's keystrokes): a
/// request is one line, the flags above then the bitcode's size in bytes,
/// followed by the bitcode; the reply is its size in bytes on one line, then
/// the one-shot reply. The worker runs in its own process group, so stopping
/// it (a crash, a time-out, a cancelled compile) also stops the ptxas it ran;
/// the next compile starts a fresh one.
///
/// `PROGRAM jit-worker --local-arch` prints the local GPU's architecture
/// (defaultArch): the language server asks a worker rather than load the
/// CUDA driver into its own process.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_JITWORKER_H
#define TESSEL_COMPILER_BACKEND_JITWORKER_H

#include "compiler/backend/Jit.h"

#include <atomic>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <vector>

namespace tessel::backend {

/// The caller's side: runs Program as a worker on M.
llvm::Expected<CompiledKernel> compileInWorker(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts,
                                               const std::string &Program, unsigned TimeoutSeconds);

/// The worker's side: Args are the arguments after `jit-worker`, Stdin the
/// bitcode; returns the reply to write to stdout.
std::string runJitWorker(const std::vector<std::string> &Args, llvm::StringRef Stdin);

/// The worker's side of `--serve`: answers requests from InFd on OutFd until
/// InFd ends; returns the process's exit status.
int serveJitWorker(int InFd, int OutFd);

/// The caller's side of `--serve`: one worker process, started on the first
/// compile and again after it died. One compile at a time (callers on other
/// threads wait their turn). Every failure is an error value naming what
/// happened (the worker crashed with its stderr's tail, ran past the time
/// limit, was cancelled), after which the worker is stopped and the next
/// compile starts another.
class JitWorkerProcess {
public:
  /// Program: the tessel executable, run as `Program jit-worker --serve`.
  explicit JitWorkerProcess(std::string Program);
  ~JitWorkerProcess();
  JitWorkerProcess(const JitWorkerProcess &) = delete;
  JitWorkerProcess &operator=(const JitWorkerProcess &) = delete;

  /// Compiles M in the worker. When *Cancelled becomes true the compile is
  /// abandoned (the worker stopped) and the error says so.
  llvm::Expected<CompiledKernel> compile(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts,
                                         unsigned TimeoutSeconds, const std::atomic<bool> *Cancelled = nullptr);

  /// Processes started so far (restarts = starts - 1).
  unsigned starts() const;
  /// The worker's pid, -1 when none runs (tests).
  pid_t pid() const;

private:
  llvm::Error start();
  void stop();
  /// The reply to one request; stops the worker on any failure.
  llvm::Expected<std::string> exchange(const std::string &Request, unsigned TimeoutSeconds,
                                       const std::atomic<bool> *Cancelled);
  /// Why the worker ended, with the tail of its stderr.
  std::string deathNote();

  std::string Program;
  mutable std::mutex Mu;
  pid_t Pid = -1;
  int ToChild = -1, FromChild = -1, ErrFile = -1;
  unsigned Starts = 0;
};

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_JITWORKER_H
