//===- JitTier.h - the language server's background compiles ----*- C++ -*-===//
/// \file
/// Tier 2 of the server (DESIGN.md "Tiers in the server"): after the front
/// end has analysed and published a version, every kernel without a
/// front-end error is compiled under each of its autotune configs
/// (diag::jitCheckConfig: lowering, codegen, PTX, cubin, resources), and the
/// findings (TS401-TS403) are published together with that version's
/// front-end diagnostics; the code lenses show the figures.
///
/// Model:
///  - Results are kept per kernel with the inputs they were computed from
///    (sema's KernelInputs of that version). A later version whose kernel
///    has equal inputs (sema::Rebaser::match, and equal imported files)
///    takes them, moved to where the kernel now sits: an edit in one kernel
///    recompiles that kernel only, and the findings of the others are
///    published with the front end's at once, never dropped and re-added.
///    Below that, the backend's in-memory CompileCache answers a kernel whose
///    text went back to an earlier state (an undo).
///  - A version is compiled after a debounce (the document's last JIT run
///    time, clamped to 50-200 ms: a slow matmul must not delay the next
///    keystroke's vector add by half a second). A newer version stops the run before its
///    next compile; the compile in progress is abandoned (its worker
///    stopped) only when the newer version changed that kernel's inputs, so
///    typing in one kernel never starves a slow compile of another. One
///    thread compiles, so a kernel and config is never compiled twice at once.
///  - LLVM's stages run in one long-lived worker process
///    (backend::JitWorkerProcess): an LLVM fatal error, a crashing or hanging
///    ptxas ends the worker, that kernel gets TS403, the next compile starts
///    a fresh worker, and the other kernels are unaffected.
///  - The GPU architecture is the `--arch` of the server, else the local
///    GPU's as a `tessel jit-worker --local-arch` process reports it (the
///    server never loads the CUDA driver itself), else sm_90.
///  - IR views (LLVM IR, PTX, SASS) are compiled on the same thread, ahead of
///    background work, through the same cache.
///
/// Deferred mode (the server's `--lit-test`): no thread; queued work runs
/// inside waitIdle(), which the `sync` request calls, so transcripts are
/// deterministic.
///
/// Threading: update(), remove(), lenses() may be called from any thread (the
/// scheduler's workers); callbacks run on the JIT thread (or inside
/// waitIdle()).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_JITTIER_H
#define TESSEL_LSP_JITTIER_H

#include "diagnostics/JitCheck.h"
#include "lsp/Error.h"
#include "lsp/Workspace.h"
#include "lsp/features/CodeLens.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct JitTierOptions {
  /// Background compiles (the `jit` setting); IR views work either way.
  bool Enabled = true;
  bool Deferred = false;
  /// nullopt: ask a worker for the local GPU's, else sm_90.
  std::optional<backend::GpuArch> Arch;
  /// The tessel executable, run as `PROGRAM jit-worker --serve`.
  std::string WorkerProgram = "tessel";
  /// One compile's limit: past it the worker is stopped and the kernel
  /// gets TS403.
  unsigned TimeoutSeconds = 60;
  std::chrono::milliseconds MinDebounce{50};
  std::chrono::milliseconds MaxDebounce{200};
  /// Files with more @jit functions are not compiled in the background (a
  /// generated file of thousands would keep a core busy for hours).
  size_t MaxKernels = 200;
  project::Project *Project = nullptr;
  /// Gives the calling thread's freed memory back to the system; run on the
  /// tier's thread when a compile leaves nothing queued.
  std::function<void()> ReleaseMemory;
};

/// One analysed version, as the tier needs it.
struct JitVersion {
  DocumentSnapshot Doc;
  std::shared_ptr<const sema::FileAnalysis> Analysis;
  /// The front end's findings: kernels with an error there are not compiled.
  std::vector<diag::Finding> FrontEnd;
};

class JitTierCallbacks {
public:
  virtual ~JitTierCallbacks() = default;
  /// The JIT findings of every kernel of Doc's version (byte ranges in its
  /// text), once all are known.
  virtual void onJitFindings(const DocumentSnapshot &Doc, const std::vector<diag::Finding> &Findings) = 0;
};

class JitTier {
public:
  JitTier(JitTierOptions Opts, JitTierCallbacks &Callbacks);
  ~JitTier();
  JitTier(const JitTier &) = delete;
  JitTier &operator=(const JitTier &) = delete;

  /// A new version was analysed: schedules its compile and returns the
  /// findings that hold already (kernels whose inputs are unchanged).
  std::vector<diag::Finding> update(JitVersion V);
  void remove(const std::string &Uri);
  void setEnabled(bool On);
  bool enabled() const;

  /// What the code lenses of V's version show, per kernel name.
  std::map<std::string, KernelJitLens> lenses(const JitVersion &V);

  /// Kind "llvm", "ptx" or "sass" of Kernel under Config (nullopt: the
  /// first config) in V; Reply gets the text or why there is none.
  using ViewReply = std::function<void(Expected<std::string>)>;
  void view(JitVersion V, std::string Kernel, std::optional<size_t> Config, std::string Kind, ViewReply Reply);

  /// Deferred mode: runs queued work until none is left. Threaded: waits
  /// until the queue is empty and nothing compiles, or Timeout passes.
  bool waitIdle(std::chrono::milliseconds Timeout = std::chrono::seconds(120));

  struct Stats {
    uint64_t Compiles = 0;     ///< kernel x config compiles run
    uint64_t Reused = 0;       ///< kernels whose results a later version took
    uint64_t Cancelled = 0;    ///< compiles abandoned for a newer version
    uint64_t WorkerStarts = 0; ///< worker processes started
  };
  Stats stats() const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_JITTIER_H
