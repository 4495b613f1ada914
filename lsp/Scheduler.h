//===- Scheduler.h - per-document analysis workers --------------*- C++ -*-===//
/// \file
/// Runs the analysis of each open document off the main thread, and runs
/// feature requests against the analysis of the version that preceded them.
///
/// Model (after clangd's TUScheduler):
///  - Each document has one worker: an Asio strand on the io_context of its
///    home worker thread (each worker thread runs its own, so a document's
///    versions are allocated and freed by one thread, which keeps a per-thread
///    allocator's retired pages reusable). Its queue is FIFO, so a request
///    queued after an edit sees that edit and never a later one.
///  - Tier 1 (front end): every update is parsed (incrementally, reusing the
///    previous tree) and checked right away, and its diagnostics published
///    with the document's version. The check reuses the previous version's
///    analysis of every kernel whose inputs the edits did not touch
///    (sema/KernelReuse.h), so a keystroke re-checks one kernel, not the file. An update that is followed by another
///    update with no request in between is dead: nobody will see it, so it is
///    skipped and its edits are folded into the next one, as soon as the next
///    arrives if the worker has not taken it yet (a burst of keys in a large
///    file then holds one text snapshot, not one per key).
///  - Tier 2 (background): compile-based findings, per kernel and
///    specialization, run after an adaptive debounce (the last run's duration,
///    clamped to 50-500 ms) so they rebuild when the user stops typing, not
///    when they start. A newer update cancels the run in progress (checked
///    between kernels). Results are cached by kernel source text +
///    specialization, so an edit recompiles only the kernels it touched.
///    Until the code generator exists no compile function is installed and
///    this tier does nothing.
///  - Proof tier: with CheckOptions::Prove, the front end takes the bounds
///    verdicts that hold already (the previous version's, moved; the
///    process-wide cache's) and publishes without proving anything; the
///    kernels left unproved are proved after a debounce on the proof tier's
///    own thread, outside every document's strand, and the same version is published again
///    with their findings (TS203/TS204 added, the TS201/TS202 they decide
///    dropped), becoming the analysis requests read. A newer update stops the
///    run before its next kernel; the verdicts it got are kept for the next
///    version. In deferred mode the front end proves inline instead (one
///    publish per version, as transcripts expect).
///  - Requests marked InvalidateOnUpdate (inlay hints, code lenses, code
///    actions: things the client asks for on its own) fail with
///    ContentModified when an edit arrived after them; explicit cancellation
///    fails a queued request with RequestCancelled.
///
/// With zero worker threads the scheduler is deferred: nothing runs until
/// runDeferred() (the `--lit-test` mode and the `sync` request), which makes
/// transcript tests deterministic.
///
/// Threading: update(), remove() and runWithFile() are called from the main
/// thread. Callbacks and actions run on worker threads (or inside
/// runDeferred()); a document's callbacks never run concurrently.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_SCHEDULER_H
#define TESSEL_LSP_SCHEDULER_H

#include "diagnostics/Check.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/Error.h"
#include "lsp/Workspace.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel::lsp {

/// Compiles one kernel under one specialization and returns its findings
/// (byte ranges in File's text). Must return early when Cancelled is set.
using KernelCompileFn = std::function<std::vector<diag::Finding>(
    const AnalyzedFile &File, const sema::KernelAnalysis &Kernel, const std::atomic<bool> &Cancelled)>;

struct SchedulerOptions {
  /// Worker threads; 0 makes the scheduler deferred (see above).
  unsigned WorkerThreads = 2;
  diag::CheckOptions Check;
  /// The background tier; empty disables it.
  KernelCompileFn Compile;
  /// Larger documents are not analysed: one keystroke would cost seconds.
  size_t MaxFileBytes = size_t(8) << 20;
  std::chrono::milliseconds MinDebounce{50};
  std::chrono::milliseconds MaxDebounce{500};
  /// How long the proof tier waits after a version is published: a burst of
  /// keys proves the edited kernel once, after the last.
  std::chrono::milliseconds ProofDebounce{100};
  /// Gives freed memory back (the server's mimalloc collect on every pooled
  /// thread). Called on the worker after it retires a version that was parsed
  /// and checked whole: that version's tree and analyses were allocated on
  /// the pool's threads, and an allocator returns blocks another thread frees
  /// only when their owner allocates or collects again, which after the open
  /// they rarely do; so the open's version would stay resident beside every
  /// later one (about 100 MiB on a 5 MB file).
  std::function<void()> ReleaseMemory;
  /// The routine clean-up: every heap's empty pages returned, no heap ended;
  /// run instead of ReleaseMemory after a document smaller than
  /// ReleaseAfterBytes, and by collectMemory(). Ending heaps hands their
  /// partly used pages to other threads and starts fresh ones: done after
  /// every small document and once a minute, it spread the server's live
  /// blocks over ever more pages (issue 34: its resident memory grew over an
  /// hour of typing while its live heap did not).
  std::function<void()> CollectMemory;
  /// Text size from which a retired or closed document's memory is given
  /// back with ReleaseMemory rather than CollectMemory.
  size_t ReleaseAfterBytes = size_t(1) << 20;
};

class SchedulerCallbacks {
public:
  virtual ~SchedulerCallbacks() = default;
  /// A version's findings: the front end's, plus the background tier's for
  /// every kernel it has compiled (called again when those arrive).
  virtual void onDiagnostics(const AnalyzedFile &File, const std::vector<diag::Finding> &Findings) = 0;
  /// Background work began (Done = false) or ended (Done = true) for Uri.
  virtual void onBackgroundWork(const std::string &Uri, bool Done, const std::string &Message) {}
};

enum class Staleness { Allowed, InvalidateOnUpdate };

class Scheduler {
public:
  using Action = std::function<void(Expected<std::shared_ptr<const AnalyzedFile>>)>;

  Scheduler(SchedulerOptions Opts, SchedulerCallbacks &Callbacks);
  ~Scheduler();
  Scheduler(const Scheduler &) = delete;
  Scheduler &operator=(const Scheduler &) = delete;

  void update(DocumentUpdate U);
  /// Forgets a document; diagnostics of its queued updates are not published.
  /// AfterFree (optional) runs on the worker once its analysis is freed.
  void remove(const std::string &Uri, std::function<void()> AfterFree = {});
  /// Runs A on Uri's worker with the analysis of the version current now.
  /// A receives RequestCancelled once *Cancelled is set, ContentModified (for
  /// InvalidateOnUpdate) once a newer update was queued, InvalidParams for a
  /// document that is not open.
  void runWithFile(const std::string &Uri, std::string Name, Staleness S,
                   std::shared_ptr<const std::atomic<bool>> Cancelled, Action A);

  /// Runs SchedulerOptions::CollectMemory on every worker thread (each
  /// gives back the empty pages its own heap keeps): the server's periodic
  /// clean-up.
  void collectMemory();

  /// Deferred mode: runs queued work until none is left. Threaded mode: waits
  /// until the workers are idle or Timeout passes; false on timeout.
  bool blockUntilIdle(std::chrono::milliseconds Timeout = std::chrono::seconds(60));

  /// Counters for tests and benchmarks.
  struct Stats {
    uint64_t Builds = 0;         ///< tier-1 analyses run
    uint64_t DroppedUpdates = 0; ///< dead updates skipped
    uint64_t Compiles = 0;       ///< tier-2 kernel compiles run
    uint64_t CacheHits = 0;      ///< tier-2 kernels answered from the cache
    uint64_t Proofs = 0;         ///< kernels the proof tier proved
  };
  Stats stats() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_SCHEDULER_H
