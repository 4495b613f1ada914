//===- MemoryBench.cpp - what the server's heap holds, phase by phase -----===//
/// \file
/// Issue 9: where the language server's memory goes on a large file. Runs
/// the server's scheduler in process (two workers, the proof tier on, as
/// `tessel lsp`) on one document: open, keystrokes typed into a kernel in
/// the middle of the file (bench_lsp_replay's edit), close; and reports the
/// live heap (bytes the program asked for and has not freed, counted by
/// replacing operator new and delete over glibc's malloc, so no allocator
/// caching blurs it) after each phase and its peak between phases. Then the
/// deep size of each part of one analysed version, measured as the heap a
/// copy of that part takes.
///
///   bench_lsp_memory [FILE] [--keys=41]
//===----------------------------------------------------------------------===//
#include "diagnostics/Check.h"
#include "lsp/Scheduler.h"
#include "lsp/Workspace.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <malloc.h>
#include <mutex>
#include <new>
#include <sstream>
#include <string>

namespace {
std::atomic<int64_t> Live{0}, Peak{0};

void *allocate(size_t N) {
  void *P = std::malloc(N ? N : 1);
  if (!P)
    throw std::bad_alloc();
  int64_t Now =
      Live.fetch_add(static_cast<int64_t>(malloc_usable_size(P))) + static_cast<int64_t>(malloc_usable_size(P));
  int64_t Old = Peak.load();
  while (Now > Old && !Peak.compare_exchange_weak(Old, Now)) {
  }
  return P;
}

void release(void *P) {
  if (!P)
    return;
  Live.fetch_sub(static_cast<int64_t>(malloc_usable_size(P)));
  std::free(P);
}

void *allocateAligned(size_t N, std::align_val_t A) {
  void *P = nullptr;
  if (posix_memalign(&P, std::max(sizeof(void *), static_cast<size_t>(A)), N ? N : 1) != 0)
    throw std::bad_alloc();
  Live.fetch_add(static_cast<int64_t>(malloc_usable_size(P)));
  return P;
}
} // namespace

void *operator new(size_t N) { return allocate(N); }
void *operator new[](size_t N) { return allocate(N); }
void *operator new(size_t N, const std::nothrow_t &) noexcept { return std::malloc(N); }
void *operator new(size_t N, std::align_val_t A) { return allocateAligned(N, A); }
void *operator new[](size_t N, std::align_val_t A) { return allocateAligned(N, A); }
void operator delete(void *P) noexcept { release(P); }
void operator delete[](void *P) noexcept { release(P); }
void operator delete(void *P, size_t) noexcept { release(P); }
void operator delete[](void *P, size_t) noexcept { release(P); }
void operator delete(void *P, std::align_val_t) noexcept { release(P); }
void operator delete[](void *P, std::align_val_t) noexcept { release(P); }
void operator delete(void *P, size_t, std::align_val_t) noexcept { release(P); }
void operator delete[](void *P, size_t, std::align_val_t) noexcept { release(P); }

using namespace tessel;

namespace {

double mib(int64_t Bytes) { return Bytes / 1048576.0; }

/// Resets the peak to the live heap and returns the live heap.
int64_t mark() {
  int64_t Now = Live.load();
  Peak.store(Now);
  return Now;
}

struct Callbacks : lsp::SchedulerCallbacks {
  std::mutex M;
  std::condition_variable CV;
  int64_t Version = 0;
  void onDiagnostics(const lsp::AnalyzedFile &F, const std::vector<diag::Finding> &) override {
    std::lock_guard<std::mutex> L(M);
    Version = std::max(Version, F.Doc.Version);
    CV.notify_all();
  }
  void wait(int64_t V) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Version >= V; });
  }
};

/// The heap a copy of X takes: its deep size.
template <typename T> int64_t deepSize(const T &X) {
  int64_t Before = Live.load();
  auto *Copy = new T(X);
  int64_t Size = Live.load() - Before - static_cast<int64_t>(sizeof(T));
  delete Copy;
  return Size;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Path = TESSEL_BENCH_FILE;
  int Keys = 41;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--keys=", 0) == 0)
      Keys = std::stoi(A.substr(7));
    else
      Path = A;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "bench_lsp_memory: cannot read %s\n", Path.c_str());
    return 2;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  std::string Text = SS.str();
  size_t At = Text.find("tl.arange(0, BLOCK)", Text.size() / 2);
  if (At == std::string::npos) {
    std::fprintf(stderr, "bench_lsp_memory: no `tl.arange(0, BLOCK)` in the second half of %s\n", Path.c_str());
    return 2;
  }
  uint32_t Line = static_cast<uint32_t>(std::count(Text.begin(), Text.begin() + At, '\n')) + 1;

  int64_t Base = mark();
  {
    // One keystroke by hand, as the scheduler does it, part by part.
    lsp::Workspace W;
    lsp::DocumentUpdate Open = W.open("file:///bench/f0.py", 1, Text);
    int64_t Snapshot = mark();
    std::shared_ptr<const ParsedFile> P0 = ParsedFile::parse(Open.Snapshot.Text);
    int64_t Parsed = Live.load();
    diag::CheckOptions CO;
    CO.Prove = true;
    CO.DeferProofs = true;
    diag::FileReport R0 = diag::checkFile(P0, CO);
    int64_t Checked = Live.load();
    std::printf("by hand: snapshot %.1f MiB, parse %.1f MiB, check %.1f MiB (peak %.1f MiB)\n", mib(Snapshot - Base),
                mib(Parsed - Snapshot), mib(Checked - Parsed), mib(Peak.load() - Parsed));
    std::string Error;
    std::optional<lsp::DocumentUpdate> U =
        W.change("file:///bench/f0.py", 2,
                 {lsp::DocumentEdit{lsp::DocumentEdit::PositionRange{{Line, 4}, {Line, 4}}, "t"}}, Error);
    int64_t Changed = mark();
    std::shared_ptr<const ParsedFile> P1 = ParsedFile::reparse(*P0, U->Edits, U->Snapshot.Text);
    int64_t Reparsed = mark();
    diag::FileReport R1 = diag::checkFile(P1, CO, R0);
    int64_t Rechecked = Live.load();
    std::printf("  keystroke: snapshot %.1f MiB, reparse %.1f MiB, check %.1f MiB (peak %.1f MiB)\n",
                mib(Changed - Checked), mib(Reparsed - Changed), mib(Rechecked - Reparsed),
                mib(Peak.load() - Reparsed));
    R0 = {};
    int64_t Freed = Live.load();
    P0.reset();
    std::printf("  previous analysis freed %.1f MiB, its tree %.1f MiB\n", mib(Rechecked - Freed),
                mib(Freed - Live.load()));
  }
  mark();
  {
    lsp::Workspace W;
    Callbacks CB;
    lsp::SchedulerOptions SO;
    SO.WorkerThreads = 2;
    SO.Check.Prove = true;
    auto S = std::make_unique<lsp::Scheduler>(SO, CB);
    const std::string Uri = "file:///bench/f0.py";
    S->update(W.open(Uri, 1, Text));
    CB.wait(1);
    int64_t Open = Live.load(), OpenPeak = Peak.load();
    std::printf("open: live %.1f MiB (peak %.1f MiB)\n", mib(Open - Base), mib(OpenPeak - Base));
    mark();
    // As bench_lsp_replay: a new line with the indentation, then a statement a key at a time.
    const std::string Typed = "tmp = tl.where(mask, x * 2.0 + 1.0, 0.0)";
    int64_t Version = 1;
    int64_t KeysPeak = 0;
    for (int K = 0; K < Keys; ++K) {
      uint32_t L = Line + uint32_t(K / (Typed.size() + 1)), Key = uint32_t(K % (Typed.size() + 1));
      lsp::DocumentEdit E = Key == 0 ? lsp::DocumentEdit{lsp::DocumentEdit::PositionRange{{L, 0}, {L, 0}}, "    \n"}
                                     : lsp::DocumentEdit{lsp::DocumentEdit::PositionRange{{L, 3 + Key}, {L, 3 + Key}},
                                                         std::string(1, Typed[Key - 1])};
      std::string Error;
      std::optional<lsp::DocumentUpdate> U = W.change(Uri, ++Version, {E}, Error);
      if (!U) {
        std::fprintf(stderr, "bench_lsp_memory: %s\n", Error.c_str());
        return 2;
      }
      S->update(std::move(*U));
      CB.wait(Version);
      KeysPeak = std::max(KeysPeak, Peak.load());
    }
    S->blockUntilIdle();
    int64_t AfterKeys = Live.load();
    KeysPeak = std::max(KeysPeak, Peak.load());
    std::printf("after %d keys: live %.1f MiB (peak while typing %.1f MiB)\n", Keys, mib(AfterKeys - Base),
                mib(KeysPeak - Base));
    // The parts of the current version, each measured as the heap a copy takes.
    std::shared_ptr<const lsp::AnalyzedFile> F;
    S->runWithFile(Uri, "probe", lsp::Staleness::Allowed, nullptr,
                   [&](lsp::Expected<std::shared_ptr<const lsp::AnalyzedFile>> R) {
                     if (R)
                       F = *R;
                   });
    S->blockUntilIdle();
    if (F && F->Report.Analysis) {
      const sema::FileAnalysis &FA = *F->Report.Analysis;
      int64_t Analyses = 0;
      for (const sema::KernelAnalysis &K : FA.Kernels)
        Analyses += deepSize(K) + static_cast<int64_t>(sizeof(sema::KernelAnalysis) + 16);
      std::printf("  text %.1f MiB, line index %.1f MiB\n", mib(deepSize(F->Doc.Text->text())),
                  mib(deepSize(*F->Doc.Index)));
      std::printf("  ModuleInfo %.1f MiB\n", mib(deepSize(FA.Info)));
      std::printf("  KernelAnalysis x %zu: %.1f MiB\n", FA.Kernels.size(), mib(Analyses));
      std::printf("  KernelRecord x %zu: %.1f MiB\n", FA.Records.size(), mib(deepSize(FA.Records)));
      std::printf("  problems %.1f MiB, findings %.1f + %.1f + %.1f MiB\n", mib(deepSize(FA.Problems)),
                  mib(deepSize(F->Report.Findings)), mib(deepSize(F->Report.SemaFindings)),
                  mib(deepSize(F->Report.StructuralFindings)));
      std::printf("  verdicts x %zu: %.1f MiB; unproved x %zu: %.1f MiB\n", F->Report.Bounds.size(),
                  mib(deepSize(F->Report.Bounds)), F->Report.Unproved.size(), mib(deepSize(F->Report.Unproved)));
    }
    F.reset();
    mark();
    S->remove(Uri);
    S->blockUntilIdle();
    std::printf("after close: live %.1f MiB\n", mib(Live.load() - Base));
  }
  std::printf("after the scheduler: live %.1f MiB\n", mib(Live.load() - Base));
  return 0;
}
