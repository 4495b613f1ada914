//===- Server.h - the tessel language server --------------------*- C++ -*-===//
/// \file
/// Entry point of `tessel lsp`: options from the command line, and a
/// function that serves one client until `exit` or the end of the input.
/// The exit code is 0 only when `shutdown` preceded `exit` (LSP's rule);
/// 1 otherwise.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_SERVER_H
#define TESSEL_LSP_SERVER_H

#include "lsp/Logger.h"
#include "lsp/Transport.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tessel::lsp {

struct LspOptions {
  /// `--listen HOST:PORT`: serve one TCP client instead of stdio.
  std::optional<std::string> ListenHost;
  unsigned short ListenPort = 0;
  TransportOptions Transport;
  LogLevel Log = LogLevel::Info;
  /// `--clientProcessId`: exit when that process dies.
  std::optional<int64_t> ClientProcessId;
  /// Analysis threads; 0 runs work only on `sync` and at exit (`--lit-test`).
  unsigned WorkerThreads = 2;
  /// Whether the machine has a GPU: probed (/dev/nvidiactl) unless set.
  std::optional<bool> GpuAvailable;
  int Arch = 90;
  /// `--arch` was given: the JIT compiles for it; otherwise for the local
  /// GPU's architecture, as a worker process reports it (else sm_90).
  bool ArchGiven = false;
  /// The JIT tier (lsp/JitTier.h): background compiles, code-lens figures
  /// (the `jit` setting; `--jit=off`).
  bool Jit = true;
  /// The program run as `PROGRAM jit-worker --serve`; empty: SelfExecutable.
  std::string JitWorkerProgram;
  /// One compile's time limit in the worker.
  unsigned JitTimeoutSeconds = 60;
  /// The memory one kernel's proof may take in its process (the proof tier
  /// proves each kernel in a forked child: analysis/IsolatedProof.h).
  uint64_t ProverMemoryBytes = uint64_t(2) << 30;
  /// The `tessel` executable that Run actions spawn (`tessel run ...`).
  std::string SelfExecutable;
  /// Honour `initialize`'s processId by exiting when that process dies. The
  /// fuzzer turns it off: a made-up pid must not end the fuzzing process.
  bool WatchClientProcess = true;
  /// Returns freed memory to the system (the allocator's collect call, and
  /// every thread's heap ended so that the pages it kept for reuse go too),
  /// run after a large document is closed or its whole-file parse retired:
  /// a closed 5 MB file's analysis must not stay in the process. The tool
  /// sets it, as it chooses the allocator.
  std::function<void()> ReleaseMemory;
  /// The routine clean-up (once a minute, after a small document is closed):
  /// every thread's empty pages returned, no heap ended (see
  /// SchedulerOptions::ReleaseAfterBytes).
  std::function<void()> CollectMemory;
  /// The calling thread's own heap collected: a background tier's thread
  /// runs it when its work is done.
  std::function<void()> ReleaseThreadMemory;
};

/// Serves over stdio or TCP as Opts says; returns the process exit code.
int runLanguageServer(const LspOptions &Opts);
/// Serves over an existing transport (tests, the fuzzer).
int runLanguageServer(const LspOptions &Opts, Transport &T);

} // namespace tessel::lsp

#endif // TESSEL_LSP_SERVER_H
