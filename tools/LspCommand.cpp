//===- LspCommand.cpp - `tessel lsp` ---------------------------------------===//
/// \file
/// Parses the language server's command line into LspOptions and runs it.
/// Accepts what LSP clients pass (`--stdio`, `--clientProcessId=PID`), TCP
/// for attaching a debugger (`--listen [HOST:]PORT`, loopback by default),
/// and clangd-style test switches (`--lit-test`, `--input-style`).
//===----------------------------------------------------------------------===//
#include "tools/CommandLine.h"
#include "tools/Subcommands.h"

#include "lsp/Server.h"

#include "compiler/host/DeviceModel.h"
#include "compiler/support/Cores.h"
#include "compiler/support/WorkerPool.h"

#include <atomic>
#include <charconv>
#include <chrono>
#include <climits>
#include <iostream>
#include <malloc.h>
#include <mimalloc.h>
#include <string>
#include <thread>
#include <unistd.h>

// The tessel binary links mimalloc, the unit tests of this library do not:
// a weak reference finds mimalloc's collect where it is linked in.
extern "C" void mi_collect(bool Force) __attribute__((weak));
extern "C" void mi_option_set(mi_option_t Option, long Value) __attribute__((weak));
extern "C" void mi_thread_done() __attribute__((weak));

using namespace tessel;

static const char *LspUsage =
    "usage: tessel lsp [--stdio | --listen [HOST:]PORT] [options]\n\n"
    "Runs the tessel language server for one client, over stdio (default) or TCP.\n\n"
    "options:\n"
    "  --stdio                 talk JSON-RPC over stdin/stdout (default)\n"
    "  --listen [HOST:]PORT    accept one client on TCP (HOST defaults to 127.0.0.1)\n"
    "  --log=LEVEL             error | info | verbose (default info), to stderr\n"
    "  --clientProcessId=PID   exit when process PID dies\n"
    "  -j N, --jobs=N          analysis worker threads (default 2)\n"
    "  --arch=sm_80|sm_90|sm_90a\n"
    "                          target GPU architecture (default: the local GPU's, else sm_90a)\n"
    "  --gpu=auto|yes|no       whether to offer Run on GPU (default auto: probe the machine)\n"
    "  --jit=on|off            compile kernels in the background for the code lenses and\n"
    "                          TS401-TS403 (default on; the `tessel.jit` setting too)\n"
    "  --jit-timeout=SECONDS   stop one kernel's compile after this long (default 60)\n"
    "  --prover-memory=MIB     memory one kernel's bounds proof may take, in its own process\n"
    "                          (default 2048); a proof that needs more says so (TS204)\n"
    "  --pretty                indent outgoing JSON\n"
    "testing:\n"
    "  --lit-test              delimited input (`---` between messages), work deferred\n"
    "                          until a `sync` request, no GPU, verbose log\n"
    "  --input-style=STYLE     standard (Content-Length) | delimited\n"
    "  --max-message-bytes=N   refuse larger messages (default 64 MiB)\n"
    "  --jit-worker=PROGRAM    run PROGRAM as the JIT's worker (`PROGRAM jit-worker --serve`)\n";

static int usageError(const std::string &Message) {
  std::cerr << "tessel lsp: error: " << Message << "\n" << LspUsage;
  return tools::ExitUsage;
}

/// How long mimalloc keeps a freed page committed before handing it back.
/// A keystroke in a 5 MB file frees one version's analysis (100 MB) and
/// builds the next: handed back at once (delay 0), every page of the next
/// version was faulted in afresh, a third of the keystroke (issue 14: 85 ms
/// a keystroke, 45-51 ms with the pages kept). Kept for a typing burst's
/// pauses, they are reused; a close or a whole-file parse hands them back
/// (releaseFreedMemory): 67-71 MiB resident after closing the 13,000-kernel
/// file, against 33 MiB with no delay (the main thread keeps what it freed
/// last until it next allocates).
static constexpr long KeepFreedPagesMs = 2000;

static void setDecommitDelay(long Ms) {
  if (!mi_option_set)
    return;
#if MI_MALLOC_VERSION < 210
  mi_option_set(mi_option_decommit_delay, Ms);
  mi_option_set(mi_option_segment_decommit_delay, Ms);
#else
  mi_option_set(mi_option_purge_delay, Ms);
#endif
}

/// Set while some thread collects: the decommit delay is 0 meanwhile.
static std::atomic<int> Collecting{0};

/// Runs Collect with the decommit delay at 0; the delay comes back when the
/// last thread collecting is done (the server collects on several at once).
template <typename Fn> static void withoutDecommitDelay(Fn Collect) {
  if (Collecting++ == 0)
    setDecommitDelay(0);
  Collect();
  if (--Collecting == 0)
    setDecommitDelay(KeepFreedPagesMs);
}

/// The calling thread's heap: the pages its freed blocks left empty are
/// decommitted (the delay is 0 meanwhile), blocks other threads freed into
/// its pages are taken back. The heap itself stays: its partly used pages
/// stay where this thread's next blocks of their sizes go.
static void collectThreadHeap() { mi_collect(true); }

/// The calling thread's heap collected, then ended. A thread's own segments
/// decommit the pages kept for reuse only when it next allocates there
/// (mimalloc 2.0): ending the heap (mi_thread_done) abandons its segments
/// with those pages decommitted (abandoned_page_decommit); the next
/// allocation starts a new heap that reclaims them. Only after a large
/// document: an ended heap's partly used pages go to whichever thread
/// reclaims their segment next, while this thread starts fresh pages for the
/// sizes it allocates, so ending heaps routinely (every minute, after every
/// JIT compile) spread the same live blocks over ever more pages. Over an
/// hour of typing that was the server's growth: its live heap stayed at
/// 24 MB while the unused part of the pages in use grew from 14 to 25 MiB
/// in 15 minutes (bench/RESULTS.md, issue 34).
static void endThreadHeap() {
  mi_collect(true);
  if (mi_thread_done)
    mi_thread_done();
}

/// The calling thread's heap only (a background tier's thread).
static void releaseThreadMemory() {
  if (!mi_collect) {
    malloc_trim(0);
    return;
  }
  withoutDecommitDelay(collectThreadHeap);
}

/// Fn on every pooled thread and the calling one, with the decommit delay at
/// 0. Each thread's heap holds the pages it allocated; the parse and check
/// ran on the pool's threads too, so each of them runs it as well (a short
/// pause per item lets every pooled thread take one).
static void onEveryPooledThread(void (*Fn)()) {
  withoutDecommitDelay([Fn] {
    parallelFor(4 * usableCores(), usableCores(), [Fn](size_t) {
      Fn();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    Fn();
  });
}

/// The server's routine clean-up: every heap collected, none ended.
static void collectFreedMemory() {
  if (!mi_collect) {
    malloc_trim(0);
    return;
  }
  onEveryPooledThread(collectThreadHeap);
}

/// After a large document's memory was freed: every heap collected and ended.
static void releaseFreedMemory() {
  if (!mi_collect) {
    malloc_trim(0);
    return;
  }
  onEveryPooledThread(endThreadHeap);
}

int tools::runLsp(const Args &A) {
  lsp::LspOptions Opts;
  Opts.SelfExecutable = tools::selfExecutable();
  Opts.ReleaseMemory = releaseFreedMemory;
  Opts.CollectMemory = collectFreedMemory;
  Opts.ReleaseThreadMemory = releaseThreadMemory;
  setDecommitDelay(KeepFreedPagesMs);
  if (mi_option_set)
    mi_option_set(mi_option_abandoned_page_decommit, 1);
  std::optional<lsp::LogLevel> Log;
  std::optional<lsp::FramingStyle> Style;
  bool LitTest = false;
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Arg = A[I];
    // `--flag=value` or `--flag value`.
    auto Value = [&](std::string_view Flag, std::string_view &Out) {
      if (Arg.substr(0, Flag.size()) != Flag)
        return false;
      if (Arg.size() > Flag.size() && Arg[Flag.size()] == '=') {
        Out = Arg.substr(Flag.size() + 1);
        return true;
      }
      if (Arg.size() == Flag.size() && I + 1 < A.size()) {
        Out = A[++I];
        return true;
      }
      return false;
    };
    std::string_view V;
    uint64_t N = 0;
    if (Arg == "--help" || Arg == "-h") {
      std::cout << LspUsage;
      return tools::ExitOk;
    }
    if (Arg == "--stdio")
      continue;
    if (Arg == "--pretty") {
      Opts.Transport.Pretty = true;
      continue;
    }
    if (Arg == "--lit-test") {
      LitTest = true;
      continue;
    }
    if (Value("--listen", V)) {
      std::string_view Host = "127.0.0.1", Port = V;
      if (size_t Colon = V.rfind(':'); Colon != std::string_view::npos) {
        Host = V.substr(0, Colon);
        Port = V.substr(Colon + 1);
      }
      if (!tools::parseUnsigned(Port, N) || N > 65535)
        return usageError("bad --listen port '" + std::string(Port) + "'");
      Opts.ListenHost = std::string(Host.empty() ? "127.0.0.1" : Host);
      Opts.ListenPort = static_cast<unsigned short>(N);
      continue;
    }
    if (Value("--log", V)) {
      lsp::LogLevel L;
      if (!lsp::parseLogLevel(V, L))
        return usageError("--log must be error, info or verbose");
      Log = L;
      continue;
    }
    if (Value("--clientProcessId", V)) {
      if (!tools::parseUnsigned(V, N) || N == 0 || N > INT_MAX)
        return usageError("bad --clientProcessId '" + std::string(V) + "'");
      Opts.ClientProcessId = static_cast<int64_t>(N);
      continue;
    }
    if (Value("--jobs", V) || Value("-j", V)) {
      if (!tools::parseUnsigned(V, N) || N == 0 || N > 256)
        return usageError("--jobs needs a number from 1 to 256");
      Opts.WorkerThreads = static_cast<unsigned>(N);
      continue;
    }
    if (Value("--arch", V)) {
      if (V != "sm_80" && V != "sm_90")
        return usageError("--arch must be sm_80 or sm_90");
      Opts.Arch = V == "sm_80" ? 80 : 90;
      Opts.ArchGiven = true;
      devicemodel::setTargetCapability(Opts.Arch);
      continue;
    }
    if (Value("--jit", V)) {
      if (V != "on" && V != "off")
        return usageError("--jit must be on or off");
      Opts.Jit = V == "on";
      continue;
    }
    if (Value("--jit-timeout", V)) {
      if (!tools::parseUnsigned(V, N) || N == 0 || N > 3600)
        return usageError("--jit-timeout needs a number of seconds from 1 to 3600");
      Opts.JitTimeoutSeconds = static_cast<unsigned>(N);
      continue;
    }
    if (Value("--prover-memory", V)) {
      if (!tools::parseUnsigned(V, N) || N == 0 || N > (1u << 20))
        return usageError("--prover-memory needs a number of MiB from 1 to 1048576");
      Opts.ProverMemoryBytes = static_cast<uint64_t>(N) << 20;
      continue;
    }
    if (Value("--jit-worker", V)) {
      if (V.empty())
        return usageError("--jit-worker needs a program");
      Opts.JitWorkerProgram = std::string(V);
      continue;
    }
    if (Value("--gpu", V)) {
      if (V == "yes")
        Opts.GpuAvailable = true;
      else if (V == "no")
        Opts.GpuAvailable = false;
      else if (V != "auto")
        return usageError("--gpu must be auto, yes or no");
      continue;
    }
    if (Value("--input-style", V)) {
      if (V != "standard" && V != "delimited")
        return usageError("--input-style must be standard or delimited");
      Style = V == "delimited" ? lsp::FramingStyle::Delimited : lsp::FramingStyle::Standard;
      continue;
    }
    if (Value("--max-message-bytes", V)) {
      if (!tools::parseUnsigned(V, N) || N == 0)
        return usageError("bad --max-message-bytes");
      Opts.Transport.MaxMessageBytes = static_cast<size_t>(N);
      continue;
    }
    if (Arg.substr(0, 6) == "--pipe" || Arg.substr(0, 8) == "--socket" || Arg == "--node-ipc")
      return usageError(std::string(Arg) + " is not supported; use --stdio (or --listen for TCP)");
    return usageError("unknown option '" + std::string(Arg) + "'");
  }
  if (LitTest) {
    Opts.Transport.InputStyle = lsp::FramingStyle::Delimited;
    Opts.WorkerThreads = 0;
    if (!Opts.GpuAvailable)
      Opts.GpuAvailable = false;
    Opts.Log = lsp::LogLevel::Verbose;
  }
  if (Style)
    Opts.Transport.InputStyle = *Style;
  if (Log)
    Opts.Log = *Log;
  return lsp::runLanguageServer(Opts);
}
