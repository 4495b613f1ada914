//===- Scheduler.cpp - per-document analysis workers ----------------------===//
/// \file
/// Implements the model described in Scheduler.h with one Asio io_context:
/// worker threads run it (or runDeferred() polls it), each document owns a
/// strand and a debounce timer. Every posted job is counted so that
/// blockUntilIdle() knows when the queue is empty.
///
/// Per-document state touched only on the strand: the last parsed tree and
/// the edits not yet applied to it, the current analysis, the background
/// findings. State shared with the main thread: the sequence number of the
/// latest queued update, the set of sequence numbers a request is waiting on
/// (those updates must be built, not dropped), and the Removed flag.
//===----------------------------------------------------------------------===//
#include "lsp/Scheduler.h"

#include "compiler/analysis/BoundsCache.h"
#include "compiler/support/TextDigest.h"
#include "lsp/CrashReporter.h"
#include "lsp/Logger.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace tessel::lsp {

namespace {

struct Document {
  Document(asio::io_context &Io, size_t Home, std::string Uri)
      : Uri(std::move(Uri)), Home(Home), Strand(asio::make_strand(Io)), Debounce(Io), ProofTimer(Io) {}

  const std::string Uri;
  const size_t Home; ///< the worker whose thread runs the strand
  asio::strand<asio::io_context::executor_type> Strand;
  asio::steady_timer Debounce;
  asio::steady_timer ProofTimer; ///< the proof tier's debounce (strand-only)

  // Strand-only.
  std::shared_ptr<const ParsedFile> LastParsed;
  /// Current was parsed whole (ParsedFile::parse, on the pool's threads).
  bool CurrentParsedWhole = false;
  std::vector<ByteEdit> PendingEdits;
  bool PendingReset = true;
  std::shared_ptr<const AnalyzedFile> Current;
  std::vector<diag::Finding> Background; ///< tier-2 findings for Current
  /// Proof runs started and not yet ended; a close waits for them before
  /// giving memory back (AfterFree), since a run holds its version.
  int ProofRuns = 0;
  std::function<void()> AfterFree;
  std::chrono::microseconds LastCompileTime{0};

  // Shared with the main thread.
  std::atomic<uint64_t> LatestSeq{0};
  std::atomic<uint64_t> Generation{0}; ///< bumped by every update; cancels tier 2
  std::atomic<bool> CompileCancelled{false};
  /// Bumped by every update and the close: a proof run of an older version
  /// stops before its next kernel.
  std::atomic<uint64_t> ProofGeneration{0};
  /// Verdicts the proof tier proved for ProofFor (the analysis of Current)
  /// that Current does not hold yet: a run a newer update interrupted leaves
  /// them here, and the next front-end check takes them as the previous
  /// version's, so no proof is lost to typing.
  std::mutex ProofM;
  std::shared_ptr<const sema::FileAnalysis> ProofFor;
  std::vector<analysis::KernelBounds> ProofExtra;
  std::mutex M;
  std::set<uint64_t> ReadSeqs; ///< updates a queued request needs built
  /// An update posted but not yet taken by the worker. Seq is the latest
  /// update folded into it; Id the sequence number it was posted with, which
  /// its job looks for (a request may have applied it first).
  struct QueuedUpdate {
    uint64_t Seq;
    uint64_t Id;
    DocumentUpdate U;
  };
  /// Oldest first (under M); a new update folds into the last while no
  /// request needs its version.
  std::deque<QueuedUpdate> Queued;
  /// Guards Removed and every publish, so nothing is published after the
  /// close; separate from M so a slow client (a full pipe) never blocks the
  /// main thread's requests, only a didClose of this document.
  std::mutex PublishM;
  bool Removed = false;
};

/// A cached tier-2 result: findings with ranges relative to the kernel's
/// `def`, so a kernel that moved (an edit above it) still hits.
struct CachedKernel {
  std::vector<diag::Finding> Findings;
};

} // namespace

struct Scheduler::Impl {
  Impl(SchedulerOptions Opts, SchedulerCallbacks &CB) : Opts(std::move(Opts)), CB(CB) {}

  SchedulerOptions Opts;
  SchedulerCallbacks &CB;
  /// One io_context per worker thread (one in deferred mode): a document's
  /// strand runs on its home worker only, so each version is allocated and
  /// freed by the same thread. mimalloc gives a block freed by another thread
  /// back only when the owner next allocates in that page; with the strand
  /// moving between two threads, each held a retired 5 MB file's version
  /// (issue 9: 366 MiB resident after 41 keys, 282 MiB with one thread).
  /// Threaded, one more context and thread run the proof tier, so a proof run
  /// (one job for all of a version's unproved kernels) never holds up a
  /// document's front end, whichever worker is its home.
  std::vector<std::unique_ptr<asio::io_context>> Ios;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> Guards;
  std::vector<std::thread> Threads;
  size_t NextHome = 0; ///< under DocsMutex

  std::mutex DocsMutex;
  std::map<std::string, std::shared_ptr<Document>> Docs;

  /// Requests jump the queue of their document's home worker: it runs them
  /// before its next job, as clangd answers the active file first. Opening a
  /// folder queues every file's first analysis; a request waiting behind
  /// all of them (the soak's signatureHelp: 234-436 ms behind 25 files per
  /// worker) would wait for files the user is not looking at. One per
  /// worker thread; deferred mode keeps plain FIFO order, which transcripts
  /// rely on.
  struct Lane {
    std::mutex M;
    std::deque<std::function<void()>> Jobs;
  };
  std::vector<std::unique_ptr<Lane>> Lanes;

  std::mutex IdleMutex;
  std::condition_variable IdleCV;
  uint64_t Outstanding = 0;

  std::mutex CacheMutex;
  std::unordered_map<TextDigest, CachedKernel, TextDigestHash> Cache;
  static constexpr size_t MaxCachedKernels = 4096;

  std::atomic<uint64_t> Builds{0}, Dropped{0}, Compiles{0}, CacheHits{0}, Proofs_{0};

  bool deferred() const { return Opts.WorkerThreads == 0; }

  /// Runs Fn once on each worker thread (inline when deferred): an
  /// allocator keeps a heap per thread, and the memory of an analysis built
  /// on one worker is given back only from that worker (each worker runs
  /// its own io_context, so a job posted there runs on that thread).
  void onEveryThread(const std::function<void()> &Fn) {
    if (deferred() || Threads.size() < 2) {
      Fn();
      return;
    }
    for (size_t I = 0; I < Ios.size(); ++I) {
      begin();
      asio::post(*Ios[I], [this, Fn] {
        Fn();
        end();
      });
    }
  }

  void begin() {
    std::lock_guard<std::mutex> L(IdleMutex);
    ++Outstanding;
  }
  void end() {
    std::lock_guard<std::mutex> L(IdleMutex);
    if (--Outstanding == 0)
      IdleCV.notify_all();
  }

  static void runGuarded(const std::function<void()> &Fn) {
    try {
      Fn();
    } catch (const std::exception &E) {
      logError(std::string("worker task failed: ") + E.what());
    } catch (...) {
      logError("worker task failed with an unknown exception");
    }
  }

  /// Posts Fn to D's strand, counted for blockUntilIdle.
  void post(const std::shared_ptr<Document> &D, std::function<void()> Fn) {
    begin();
    asio::post(D->Strand, [this, Home = D->Home, Fn = std::move(Fn)] {
      runUrgent(Home);
      runGuarded(Fn);
      end();
    });
  }

  /// Queues Fn on Home's lane and wakes the worker in case it is idle. Each
  /// worker is one thread, so a lane's job, run between two jobs, never
  /// overlaps the work of any document of that worker.
  void postUrgent(size_t Home, std::function<void()> Fn) {
    begin();
    {
      std::lock_guard<std::mutex> L(Lanes[Home]->M);
      Lanes[Home]->Jobs.push_back(std::move(Fn));
    }
    begin();
    asio::post(*Ios[Home], [this, Home] {
      runUrgent(Home);
      end();
    });
  }

  void runUrgent(size_t Home) {
    if (Home >= Lanes.size())
      return;
    while (true) {
      std::function<void()> Fn;
      {
        std::lock_guard<std::mutex> L(Lanes[Home]->M);
        if (Lanes[Home]->Jobs.empty())
          return;
        Fn = std::move(Lanes[Home]->Jobs.front());
        Lanes[Home]->Jobs.pop_front();
      }
      runGuarded(Fn);
      end();
    }
  }

  /// Applies D's queued updates up to sequence number Seq (the version a
  /// request reads), on D's worker; their own jobs then find them gone.
  void applyQueuedThrough(const std::shared_ptr<Document> &D, uint64_t Seq) {
    while (true) {
      std::optional<Document::QueuedUpdate> Next;
      {
        std::lock_guard<std::mutex> L(D->M);
        if (D->Queued.empty() || D->Queued.front().Seq > Seq)
          return;
        Next = std::move(D->Queued.front());
        D->Queued.pop_front();
      }
      applyUpdate(D, std::move(Next->U), Next->Seq);
    }
  }

  std::shared_ptr<Document> find(const std::string &Uri) {
    std::lock_guard<std::mutex> L(DocsMutex);
    auto It = Docs.find(Uri);
    return It == Docs.end() ? nullptr : It->second;
  }

  void publish(Document &D, const AnalyzedFile &F) {
    std::vector<diag::Finding> All = F.Report.Findings;
    All.insert(All.end(), D.Background.begin(), D.Background.end());
    std::lock_guard<std::mutex> L(D.PublishM);
    if (D.Removed)
      return;
    CB.onDiagnostics(F, All);
  }

  void applyUpdate(const std::shared_ptr<Document> &D, DocumentUpdate U, uint64_t Seq) {
    if (U.Reset) {
      D->PendingEdits.clear();
      D->PendingReset = true;
    } else {
      D->PendingEdits.insert(D->PendingEdits.end(), U.Edits.begin(), U.Edits.end());
    }
    {
      std::lock_guard<std::mutex> P(D->PublishM);
      if (D->Removed)
        return;
    }
    {
      std::lock_guard<std::mutex> L(D->M);
      if (Seq < D->LatestSeq.load() && !D->ReadSeqs.count(Seq)) {
        ++Dropped;
        logVerbose("dropped dead update " + D->Uri + " v" + std::to_string(U.Snapshot.Version));
        return;
      }
    }
    CrashContext Context("analysing", D->Uri + " v" + std::to_string(U.Snapshot.Version));
    auto Start = Clock::now();
    auto F = std::make_shared<AnalyzedFile>();
    F->Doc = U.Snapshot;
    bool ParsedWhole = false;
    size_t Size = U.Snapshot.Text->text().size();
    if (Size > Opts.MaxFileBytes) {
      F->Skipped = "tessel does not analyse files over " + std::to_string(Opts.MaxFileBytes >> 20) +
                   " MiB in the editor (this one has " + std::to_string(Size) +
                   " bytes); run `tessel check` on it instead";
      D->LastParsed = nullptr;
      D->PendingEdits.clear();
      D->PendingReset = true;
    } else {
      try {
        ParsedWhole = !D->LastParsed || D->PendingReset;
        F->Parsed = ParsedWhole ? ParsedFile::parse(U.Snapshot.Text)
                                : ParsedFile::reparse(*D->LastParsed, D->PendingEdits, U.Snapshot.Text);
        D->LastParsed = F->Parsed;
        D->PendingEdits.clear();
        D->PendingReset = false;
        // The previous version's analysis answers for every kernel the edits
        // did not touch, and so do its verdicts; the kernels that need a new
        // proof are proved after the diagnostics are out (proof tier).
        diag::CheckOptions CO = Opts.Check;
        CO.DeferProofs = CO.Prove && !deferred();
        if (D->Current && D->Current->Report.Analysis) {
          std::vector<analysis::KernelBounds> Extra;
          {
            std::lock_guard<std::mutex> L(D->ProofM);
            if (D->ProofFor == D->Current->Report.Analysis)
              Extra = std::move(D->ProofExtra);
            D->ProofExtra.clear();
          }
          if (!Extra.empty())
            F->Report = diag::checkFile(F->Parsed, CO, diag::withProofs(D->Current->Report, std::move(Extra)));
          else
            F->Report = diag::checkFile(F->Parsed, CO, D->Current->Report);
        } else {
          F->Report = diag::checkFile(F->Parsed, CO);
        }
      } catch (const std::exception &E) {
        F->InternalError = E.what();
      } catch (...) {
        F->InternalError = "unknown exception";
      }
      if (!F->Parsed) {
        // The tree is unusable; parse the next version from scratch.
        D->LastParsed = nullptr;
        D->PendingReset = true;
      }
    }
    if (!F->InternalError.empty())
      logError("analysis of " + D->Uri + " v" + std::to_string(F->Doc.Version) + " failed: " + F->InternalError);
    F->BuildTime = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - Start);
    ++Builds;
    logVerbose("built " + D->Uri + " v" + std::to_string(F->Doc.Version) + " in " +
               std::to_string(F->BuildTime.count()) + " us");
    {
      std::lock_guard<std::mutex> L(D->M);
      D->ReadSeqs.erase(D->ReadSeqs.begin(), D->ReadSeqs.lower_bound(Seq));
    }
    // Freeing the previous version's tree and AST takes a few percent of a
    // build: do it after the diagnostics are out, not before.
    std::shared_ptr<const AnalyzedFile> Retired = std::move(D->Current);
    bool RetiredParsedWhole = Retired && D->CurrentParsedWhole;
    size_t RetiredBytes = Retired && Retired->Doc.Text ? Retired->Doc.Text->text().size() : 0;
    D->Current = F;
    D->CurrentParsedWhole = ParsedWhole;
    {
      std::lock_guard<std::mutex> L(D->ProofM);
      D->ProofFor = F->Report.Analysis;
      D->ProofExtra.clear();
    }
    // Tier-2 findings of kernels that are unchanged stay valid; rebase them.
    D->Background = cachedFindings(*F);
    publish(*D, *F);
    Retired.reset();
    if (RetiredParsedWhole) {
      if (RetiredBytes >= Opts.ReleaseAfterBytes && Opts.ReleaseMemory)
        Opts.ReleaseMemory();
      else if (Opts.CollectMemory)
        Opts.CollectMemory();
    }
    scheduleProofs(D, F);
    scheduleBackground(D);
  }

  /// The proof tier: after a debounce, F's unproved kernels are proved one at
  /// a time on a pool thread, outside the document's strand, so the next
  /// keystroke's front end never waits for Z3; a newer update stops the run
  /// before its next kernel. A complete run publishes F's version again with
  /// the verdicts' findings and makes that the document's current analysis.
  void scheduleProofs(const std::shared_ptr<Document> &D, const std::shared_ptr<const AnalyzedFile> &F) {
    if (!F->Report.Analysis || F->Report.Unproved.empty())
      return;
    uint64_t Gen = D->ProofGeneration.load();
    D->ProofTimer.expires_after(Opts.ProofDebounce);
    begin();
    // The handler holds the version weakly: a cancelled timer's handler runs
    // after the close, and must not be what keeps the file alive then.
    std::weak_ptr<const AnalyzedFile> Weak = F;
    D->ProofTimer.async_wait(asio::bind_executor(D->Strand, [this, D, Weak, Gen](const boost::system::error_code &Ec) {
      std::shared_ptr<const AnalyzedFile> F = Weak.lock();
      if (!Ec && F && Gen == D->ProofGeneration.load() && D->Current == F) {
        ++D->ProofRuns;
        begin();
        // On the proof thread, so no keystroke's front end waits for a proof.
        asio::post(*Ios.back(), [this, D, F = std::move(F), Gen]() mutable {
          try {
            runProofs(D, std::move(F), Gen);
          } catch (const std::exception &E) {
            logError(std::string("proof tier failed: ") + E.what());
          }
          end();
        });
      }
      end();
    }));
  }

  void runProofs(const std::shared_ptr<Document> &D, std::shared_ptr<const AnalyzedFile> F, uint64_t Gen) {
    std::vector<analysis::KernelBounds> Proved;
    bool Complete = true;
    {
      CrashContext Context("proving", D->Uri + " v" + std::to_string(F->Doc.Version));
      const sema::FileAnalysis &FA = *F->Report.Analysis;
      analysis::ProverOptions PO = Opts.Check.Prover;
      if (!PO.Project)
        PO.Project = Opts.Check.Project;
      analysis::FileProofs Proofs(FA, PO);
      std::unordered_map<std::string_view, const sema::KernelRecord *> Records;
      for (const sema::KernelRecord &R : FA.Records)
        Records.emplace(R.Kernel, &R);
      for (const std::string &Name : F->Report.Unproved) {
        if (Gen != D->ProofGeneration.load()) {
          Complete = false;
          break;
        }
        auto It = Records.find(Name);
        if (It == Records.end())
          continue;
        Proved.push_back(Proofs.prove(*It->second));
        ++Proofs_;
        std::lock_guard<std::mutex> L(D->ProofM);
        if (D->ProofFor == F->Report.Analysis)
          D->ProofExtra.push_back(Proved.back());
      }
    }
    if (!Complete) {
      // Interrupted: the verdicts wait in ProofExtra for the next version.
      F.reset();
      Proved.clear();
      post(D, [this, D] { proofRunEnded(*D); });
      return;
    }
    post(D, [this, D, F = std::move(F), Gen, Proved = std::move(Proved)]() mutable {
      if (Gen == D->ProofGeneration.load() && D->Current == F) {
        auto N = std::make_shared<AnalyzedFile>();
        N->Doc = F->Doc;
        N->Parsed = F->Parsed;
        N->Report = diag::withProofs(F->Report, std::move(Proved));
        N->InternalError = F->InternalError;
        N->BuildTime = F->BuildTime;
        N->ProofsAdded = true;
        D->Current = N;
        {
          std::lock_guard<std::mutex> L(D->ProofM);
          D->ProofFor = N->Report.Analysis;
          D->ProofExtra.clear();
        }
        publish(*D, *N);
      }
      F.reset();
      Proved.clear();
      proofRunEnded(*D);
    });
  }

  /// On D's strand, once a proof run let go of its version: a close that
  /// came meanwhile gives the memory back now.
  void proofRunEnded(Document &D) {
    if (--D.ProofRuns == 0 && D.AfterFree) {
      onEveryThread(D.AfterFree);
      D.AfterFree = nullptr;
    }
  }

  /// The digest of the kernel's `def` text and its specialization (the
  /// texts themselves, kilobytes each in real libraries, made a full cache
  /// tens of megabytes).
  static std::optional<TextDigest> kernelKey(const AnalyzedFile &F, const sema::KernelAnalysis &K, uint32_t &DefBegin) {
    const JitFunction *J = F.Report.Analysis ? F.Report.Analysis->Info.jit(K.Kernel) : nullptr;
    if (!J || !J->Def)
      return std::nullopt;
    DefBegin = J->Def->Range.Begin;
    return textDigest(std::string(F.Parsed->text().slice(J->Def->Range)) + '\0' + K.Specialization);
  }

  std::vector<diag::Finding> cachedFindings(const AnalyzedFile &F) {
    std::vector<diag::Finding> Out;
    if (!Opts.Compile || !F.Report.Analysis)
      return Out;
    std::lock_guard<std::mutex> L(CacheMutex);
    for (const sema::KernelAnalysis &K : F.Report.Analysis->Kernels) {
      uint32_t Base = 0;
      std::optional<TextDigest> Key = kernelKey(F, K, Base);
      auto It = Key ? Cache.find(*Key) : Cache.end();
      if (It == Cache.end())
        continue;
      for (diag::Finding Fd : It->second.Findings)
        Out.push_back(rebase(std::move(Fd), Base, true));
    }
    return Out;
  }

  static diag::Finding rebase(diag::Finding F, uint32_t Base, bool ToAbsolute) {
    auto Move = [&](SourceRange &R) {
      if (ToAbsolute) {
        R.Begin += Base;
        R.End += Base;
      } else {
        R.Begin -= std::min(R.Begin, Base);
        R.End -= std::min(R.End, Base);
      }
    };
    Move(F.Range);
    for (RelatedLocation &R : F.Related)
      Move(R.Range);
    for (Fix &X : F.Fixes)
      for (TextEdit &E : X.Edits)
        Move(E.Range);
    return F;
  }

  void scheduleBackground(const std::shared_ptr<Document> &D) {
    if (!Opts.Compile)
      return;
    uint64_t Gen = ++D->Generation;
    auto Delay = std::chrono::duration_cast<std::chrono::milliseconds>(D->LastCompileTime);
    Delay = std::clamp(Delay, Opts.MinDebounce, Opts.MaxDebounce);
    if (deferred())
      Delay = std::chrono::milliseconds(0);
    D->Debounce.expires_after(Delay);
    begin();
    D->Debounce.async_wait(asio::bind_executor(D->Strand, [this, D, Gen](const boost::system::error_code &Ec) {
      if (!Ec && Gen == D->Generation.load()) {
        try {
          runBackground(*D, Gen);
        } catch (const std::exception &E) {
          logError(std::string("background work failed: ") + E.what());
        }
      }
      end();
    }));
  }

  void runBackground(Document &D, uint64_t Gen) {
    std::shared_ptr<const AnalyzedFile> F = D.Current;
    if (!F || !F->Report.Analysis)
      return;
    auto Start = Clock::now();
    CB.onBackgroundWork(D.Uri, false, "compiling kernels");
    std::vector<diag::Finding> Found;
    std::atomic<bool> Cancelled{false};
    bool Complete = true;
    for (const sema::KernelAnalysis &K : F->Report.Analysis->Kernels) {
      if (Gen != D.Generation.load()) {
        Complete = false;
        break;
      }
      uint32_t Base = 0;
      std::optional<TextDigest> Key = kernelKey(*F, K, Base);
      if (!Key)
        continue;
      {
        std::lock_guard<std::mutex> L(CacheMutex);
        auto It = Cache.find(*Key);
        if (It != Cache.end()) {
          ++CacheHits;
          for (diag::Finding Fd : It->second.Findings)
            Found.push_back(rebase(std::move(Fd), Base, true));
          continue;
        }
      }
      std::vector<diag::Finding> Result = Opts.Compile(*F, K, Cancelled);
      ++Compiles;
      CachedKernel C;
      for (const diag::Finding &Fd : Result)
        C.Findings.push_back(rebase(Fd, Base, false));
      {
        std::lock_guard<std::mutex> L(CacheMutex);
        // Keyed by kernel text: a day of edits makes new keys without end,
        // so the cache starts over past a few thousand kernels.
        if (Cache.size() >= MaxCachedKernels)
          Cache.clear();
        Cache[*Key] = std::move(C);
      }
      Found.insert(Found.end(), Result.begin(), Result.end());
    }
    D.LastCompileTime = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - Start);
    CB.onBackgroundWork(D.Uri, true, Complete ? "done" : "superseded by an edit");
    if (!Complete || D.Current != F)
      return;
    D.Background = std::move(Found);
    publish(D, *F);
  }
};

Scheduler::Scheduler(SchedulerOptions Opts, SchedulerCallbacks &Callbacks)
    : P(std::make_unique<Impl>(std::move(Opts), Callbacks)) {
  P->Ios.push_back(std::make_unique<asio::io_context>(1));
  if (P->deferred())
    return;
  for (unsigned I = 0; I < P->Opts.WorkerThreads; ++I) // the last: the proof tier's
    P->Ios.push_back(std::make_unique<asio::io_context>(1));
  for (unsigned I = 0; I < P->Opts.WorkerThreads; ++I)
    P->Lanes.push_back(std::make_unique<Impl::Lane>());
  for (size_t I = 0; I < P->Ios.size(); ++I) {
    P->Guards.push_back(asio::make_work_guard(*P->Ios[I]));
    P->Threads.emplace_back([this, I] { P->Ios[I]->run(); });
  }
}

Scheduler::~Scheduler() {
  {
    std::lock_guard<std::mutex> L(P->DocsMutex);
    for (auto &[Uri, D] : P->Docs) {
      D->Debounce.cancel();
      D->ProofTimer.cancel();
    }
  }
  P->Guards.clear();
  for (auto &Io : P->Ios)
    Io->stop();
  for (std::thread &T : P->Threads)
    T.join();
}

void Scheduler::update(DocumentUpdate U) {
  std::shared_ptr<Document> D;
  {
    std::lock_guard<std::mutex> L(P->DocsMutex);
    auto &Slot = P->Docs[U.Snapshot.Uri];
    if (!Slot) {
      size_t Home = P->NextHome++ % std::max(1u, P->Opts.WorkerThreads);
      Slot = std::make_shared<Document>(*P->Ios[Home], Home, U.Snapshot.Uri);
    }
    D = Slot;
  }
  uint64_t Seq = ++D->LatestSeq;
  ++D->Generation;      // a tier-2 run in progress is now stale
  ++D->ProofGeneration; // and so is a proof run
  {
    // An update still queued that no request waits for is dead: fold this
    // one into it now rather than when the worker reaches it, so that a burst
    // of keystrokes holds one snapshot of a large file, not one per key
    // (41 fast keys in a 5 MB file held 200 MB of queued text).
    std::lock_guard<std::mutex> L(D->M);
    if (!D->Queued.empty() && D->Queued.back().Seq + 1 == Seq && !D->ReadSeqs.count(D->Queued.back().Seq)) {
      DocumentUpdate &Q = D->Queued.back().U;
      if (U.Reset) {
        Q.Edits.clear();
        Q.Reset = true;
      } else {
        Q.Edits.insert(Q.Edits.end(), U.Edits.begin(), U.Edits.end());
      }
      Q.Snapshot = std::move(U.Snapshot);
      D->Queued.back().Seq = Seq;
      ++P->Dropped;
      return;
    }
    D->Queued.push_back({Seq, Seq, std::move(U)});
  }
  // One job per queued entry, taken in order; a request may have taken it.
  P->post(D, [this, D, Id = Seq] {
    std::optional<Document::QueuedUpdate> Next;
    {
      std::lock_guard<std::mutex> L(D->M);
      if (D->Queued.empty() || D->Queued.front().Id != Id)
        return;
      Next = std::move(D->Queued.front());
      D->Queued.pop_front();
    }
    P->applyUpdate(D, std::move(Next->U), Next->Seq);
  });
}

void Scheduler::collectMemory() {
  if (P->Opts.CollectMemory)
    P->onEveryThread(P->Opts.CollectMemory);
}

void Scheduler::remove(const std::string &Uri, std::function<void()> AfterFree) {
  std::shared_ptr<Document> D;
  {
    std::lock_guard<std::mutex> L(P->DocsMutex);
    auto It = P->Docs.find(Uri);
    if (It == P->Docs.end())
      return;
    D = It->second;
    P->Docs.erase(It);
  }
  {
    std::lock_guard<std::mutex> L(D->PublishM);
    D->Removed = true;
  }
  ++D->Generation;
  ++D->ProofGeneration;
  P->post(D, [this, D, AfterFree = std::move(AfterFree)] {
    D->Debounce.cancel();
    D->ProofTimer.cancel();
    D->Current = nullptr;
    {
      std::lock_guard<std::mutex> L(D->ProofM);
      D->ProofFor = nullptr;
      D->ProofExtra = {};
    }
    D->LastParsed = nullptr;
    D->Background.clear();
    D->Background.shrink_to_fit();
    if (!AfterFree)
      return;
    if (D->ProofRuns > 0)
      D->AfterFree = AfterFree; // the last run to end gives the memory back
    else
      P->onEveryThread(AfterFree);
  });
}

void Scheduler::runWithFile(const std::string &Uri, std::string Name, Staleness S,
                            std::shared_ptr<const std::atomic<bool>> Cancelled, Action A) {
  std::shared_ptr<Document> D = P->find(Uri);
  if (!D) {
    A(LspError{ErrorCode::InvalidParams, "document is not open: " + Uri});
    return;
  }
  uint64_t Seq = D->LatestSeq.load();
  {
    std::lock_guard<std::mutex> L(D->M);
    D->ReadSeqs.insert(Seq);
  }
  auto Run = [D, Seq, S, Name = std::move(Name), Cancelled = std::move(Cancelled), A = std::move(A)] {
    if (Cancelled && Cancelled->load())
      return A(LspError{ErrorCode::RequestCancelled, Name + " was cancelled"});
    if (S == Staleness::InvalidateOnUpdate && D->LatestSeq.load() > Seq)
      return A(LspError{ErrorCode::ContentModified, Name + ": the document changed"});
    if (!D->Current)
      return A(LspError{ErrorCode::ContentModified, Name + ": the document is not analysed yet"});
    A(D->Current);
  };
  if (P->deferred()) {
    P->post(D, std::move(Run));
    return;
  }
  // Ahead of other documents' work: the updates the request reads are
  // applied first, later ones stay queued.
  P->postUrgent(D->Home, [this, D, Seq, Run = std::move(Run)] {
    P->applyQueuedThrough(D, Seq);
    Run();
  });
}

bool Scheduler::blockUntilIdle(std::chrono::milliseconds Timeout) {
  if (P->deferred()) {
    while (true) {
      P->Ios[0]->restart();
      if (P->Ios[0]->poll() == 0) {
        std::lock_guard<std::mutex> L(P->IdleMutex);
        if (P->Outstanding == 0)
          return true;
        // A timer is armed but not yet due; deferred timers are zero-delay,
        // so it is due at the next poll.
        std::this_thread::yield();
      }
    }
  }
  std::unique_lock<std::mutex> L(P->IdleMutex);
  return P->IdleCV.wait_for(L, Timeout, [this] { return P->Outstanding == 0; });
}

Scheduler::Stats Scheduler::stats() const {
  return {P->Builds.load(), P->Dropped.load(), P->Compiles.load(), P->CacheHits.load(), P->Proofs_.load()};
}

} // namespace tessel::lsp
