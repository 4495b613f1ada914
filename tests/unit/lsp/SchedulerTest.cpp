//===- SchedulerTest.cpp - per-document workers, tiers and staleness ------===//
/// \file
/// Tests the scheduler's contract with the real front end: dead updates are
/// dropped but never one a request waits for; requests see the version that
/// preceded them; ContentModified and RequestCancelled; incremental reparses
/// agree with a parse from scratch and reuse the analysis of untouched
/// kernels; the background tier compiles only the kernels an edit touched and
/// moves cached findings with their kernel; threaded mode publishes
/// versions in order and answers a request ahead of other documents' work.
//===----------------------------------------------------------------------===//
#include "lsp/Scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

using namespace tessel;
using namespace tessel::lsp;

namespace {

struct Published {
  int64_t Version;
  std::vector<diag::Finding> Findings;
  size_t ReusedKernels; ///< kernels the front-end tier took from the previous version
};

struct Recorder : SchedulerCallbacks {
  std::mutex M;
  std::vector<Published> All;
  void onDiagnostics(const AnalyzedFile &F, const std::vector<diag::Finding> &Findings) override {
    std::lock_guard<std::mutex> L(M);
    All.push_back({F.Doc.Version, Findings, F.Report.Analysis ? F.Report.Analysis->ReusedKernels : 0});
  }
};

const char *Kernels = "import triton\n"
                      "import triton.language as tl\n"
                      "\n"
                      "@triton.jit\n"
                      "def a(x_ptr):\n"
                      "    offs = tl.arange(0, 64)\n"
                      "\n"
                      "@triton.jit\n"
                      "def b(x_ptr):\n"
                      "    offs = tl.arange(0, 32)\n";

DocumentEdit insertAt(uint32_t Line, uint32_t Col, std::string Text) {
  return {DocumentEdit::PositionRange{{Line, Col}, {Line, Col}}, std::move(Text)};
}

std::vector<std::string> codes(const std::vector<diag::Finding> &Fs) {
  std::vector<std::string> Out;
  for (const diag::Finding &F : Fs)
    Out.push_back(std::string(F.code()) + "@" + std::to_string(F.Range.Begin));
  return Out;
}

TEST(Scheduler, DeadUpdatesAreDroppedAndTheLastIsPublished) {
  Recorder R;
  Scheduler S({0}, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  S.update(*W.change("test:///a.py", 2, {insertAt(0, 0, "# x\n")}, Error));
  S.update(*W.change("test:///a.py", 3, {insertAt(0, 0, "# y\n")}, Error));
  ASSERT_TRUE(S.blockUntilIdle());
  ASSERT_EQ(R.All.size(), 1u);
  EXPECT_EQ(R.All[0].Version, 3);
  EXPECT_EQ(S.stats().DroppedUpdates, 2u);
  EXPECT_EQ(S.stats().Builds, 1u);
}

TEST(Scheduler, ARequestSeesTheVersionBeforeItAndKeepsItBuilt) {
  Recorder R;
  Scheduler S({0}, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  int64_t Seen = 0;
  S.runWithFile("test:///a.py", "read", Staleness::Allowed, nullptr,
                [&](Expected<std::shared_ptr<const AnalyzedFile>> F) {
                  ASSERT_TRUE(F);
                  Seen = (*F)->Doc.Version;
                });
  S.update(*W.change("test:///a.py", 2, {insertAt(0, 0, "# x\n")}, Error));
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Seen, 1);
  ASSERT_EQ(R.All.size(), 2u);
  EXPECT_EQ(R.All[0].Version, 1);
  EXPECT_EQ(R.All[1].Version, 2);
  EXPECT_EQ(S.stats().DroppedUpdates, 0u);
}

TEST(Scheduler, StaleAndCancelledRequestsFailWithTheirCodes) {
  Recorder R;
  Scheduler S({0}, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  std::optional<ErrorCode> Stale, Cancelled, Unknown;
  S.runWithFile("test:///a.py", "hints", Staleness::InvalidateOnUpdate, nullptr,
                [&](Expected<std::shared_ptr<const AnalyzedFile>> F) { Stale = F ? ErrorCode{} : F.error().Code; });
  auto Flag = std::make_shared<std::atomic<bool>>(false);
  S.runWithFile("test:///a.py", "hover", Staleness::Allowed, Flag,
                [&](Expected<std::shared_ptr<const AnalyzedFile>> F) { Cancelled = F ? ErrorCode{} : F.error().Code; });
  Flag->store(true);
  S.update(*W.change("test:///a.py", 2, {insertAt(0, 0, "# x\n")}, Error));
  S.runWithFile("test:///b.py", "hover", Staleness::Allowed, nullptr,
                [&](Expected<std::shared_ptr<const AnalyzedFile>> F) { Unknown = F ? ErrorCode{} : F.error().Code; });
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Stale, ErrorCode::ContentModified);
  EXPECT_EQ(Cancelled, ErrorCode::RequestCancelled);
  EXPECT_EQ(Unknown, ErrorCode::InvalidParams);
}

TEST(Scheduler, IncrementalReparseAgreesWithAFreshParse) {
  Recorder R;
  Scheduler S({0}, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  ASSERT_TRUE(S.blockUntilIdle());
  // Break b's arange (32 -> 33), fix it, break a's (64 -> 6), with a read
  // after each so every version is built incrementally.
  const std::vector<std::vector<DocumentEdit>> Steps = {
      {{DocumentEdit::PositionRange{{9, 25}, {9, 26}}, "3"}},
      {{DocumentEdit::PositionRange{{9, 25}, {9, 26}}, "2"}, insertAt(3, 0, "\n")},
      {{DocumentEdit::PositionRange{{6, 25}, {6, 27}}, "6"}},
  };
  int64_t Version = 1;
  for (const auto &Step : Steps) {
    auto U = W.change("test:///a.py", ++Version, Step, Error);
    ASSERT_TRUE(U) << Error;
    S.update(*U);
    S.runWithFile("test:///a.py", "read", Staleness::Allowed, nullptr, [](auto) {});
    ASSERT_TRUE(S.blockUntilIdle());
    auto Fresh = diag::checkFile(ParsedFile::parse(U->Snapshot.Text));
    EXPECT_EQ(codes(R.All.back().Findings), codes(Fresh.Findings)) << "after version " << Version;
  }
  EXPECT_EQ(codes(R.All[1].Findings).size(), 1u); // the broken b
  EXPECT_EQ(codes(R.All[2].Findings).size(), 0u);
  EXPECT_EQ(codes(R.All[3].Findings).size(), 1u); // the broken a
  // Each step touched one kernel: the other one's analysis was reused (moved
  // down a line in the second step), and the findings above still match a
  // fresh check.
  EXPECT_EQ(R.All[0].ReusedKernels, 0u);
  for (size_t I = 1; I < R.All.size(); ++I)
    EXPECT_EQ(R.All[I].ReusedKernels, 1u) << "version " << R.All[I].Version;
}

// The version parsed whole (on the pool's threads) is the one whose memory
// other threads' heaps keep: the worker releases memory once that version is
// retired, and not for the versions reparsed after it (which it allocated).
TEST(Scheduler, MemoryIsReleasedWhenTheWholeParsedVersionIsRetired) {
  Recorder R;
  SchedulerOptions O;
  O.WorkerThreads = 0;
  O.ReleaseAfterBytes = 0; // every document counts as large here
  int Releases = 0, Collects = 0;
  O.ReleaseMemory = [&] { ++Releases; };
  O.CollectMemory = [&] { ++Collects; };
  Scheduler S(O, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Releases, 0);
  for (int64_t Version = 2; Version <= 4; ++Version) {
    auto U = W.change("test:///a.py", Version, {insertAt(0, 0, "#\n")}, Error);
    ASSERT_TRUE(U) << Error;
    S.update(*U);
    ASSERT_TRUE(S.blockUntilIdle());
    EXPECT_EQ(Releases, 1) << "after version " << Version;
  }
  EXPECT_EQ(Collects, 0);
  EXPECT_EQ(R.All.size(), 4u);
}

// Ending the heaps (ReleaseMemory) hands their partly used pages to other
// threads and starts fresh ones, so over an hour of typing the same live
// blocks spread over ever more pages (issue 34). A small document's whole
// parse, retired, and the periodic clean-up only collect (CollectMemory);
// the heaps are ended only after a document of ReleaseAfterBytes or more.
TEST(Scheduler, ASmallDocumentsMemoryIsCollectedWithoutEndingHeaps) {
  Recorder R;
  SchedulerOptions O;
  O.WorkerThreads = 0;
  ASSERT_GT(O.ReleaseAfterBytes, std::string(Kernels).size());
  int Releases = 0, Collects = 0;
  O.ReleaseMemory = [&] { ++Releases; };
  O.CollectMemory = [&] { ++Collects; };
  Scheduler S(O, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  ASSERT_TRUE(S.blockUntilIdle());
  for (int64_t Version = 2; Version <= 4; ++Version) {
    auto U = W.change("test:///a.py", Version, {insertAt(0, 0, "#\n")}, Error);
    ASSERT_TRUE(U) << Error;
    S.update(*U);
    ASSERT_TRUE(S.blockUntilIdle());
  }
  EXPECT_EQ(Collects, 1);
  S.collectMemory();
  EXPECT_EQ(Collects, 2);
  EXPECT_EQ(Releases, 0);

  // A large document's retired whole parse ends them.
  std::string Large = Kernels;
  while (Large.size() < O.ReleaseAfterBytes)
    Large += "\n# " + std::string(1000, 'x');
  S.update(W.open("test:///large.py", 1, Large));
  ASSERT_TRUE(S.blockUntilIdle());
  auto U = W.change("test:///large.py", 2, {insertAt(0, 0, "#\n")}, Error);
  ASSERT_TRUE(U) << Error;
  S.update(*U);
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Releases, 1);
  EXPECT_EQ(Collects, 2);
}

TEST(Scheduler, BackgroundTierRecompilesOnlyTouchedKernelsAndMovesCachedFindings) {
  Recorder R;
  SchedulerOptions Opts;
  Opts.WorkerThreads = 0;
  std::map<std::string, int> Compiled;
  Opts.Compile = [&](const AnalyzedFile &F, const sema::KernelAnalysis &K, const std::atomic<bool> &) {
    ++Compiled[K.Kernel];
    const JitFunction *J = F.Report.Analysis->Info.jit(K.Kernel);
    diag::Finding Fd{
        diag::DiagId::LaunchOption, diag::Severity::Information, J->Def->NameRange, "compiled " + K.Kernel, {}, {}, {}};
    return std::vector<diag::Finding>{Fd};
  };
  Scheduler S(Opts, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Compiled["a"], 1);
  EXPECT_EQ(Compiled["b"], 1);
  ASSERT_EQ(R.All.back().Findings.size(), 2u);
  uint32_t OldB = R.All.back().Findings[1].Range.Begin;

  // Edit inside b only: a comes from the cache, b is compiled again.
  S.update(*W.change("test:///a.py", 2, {insertAt(9, 4, "pass\n    ")}, Error));
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Compiled["a"], 1);
  EXPECT_EQ(Compiled["b"], 2);
  EXPECT_EQ(S.stats().CacheHits, 1u);

  // A line above both kernels: nothing recompiles, findings move with them.
  S.update(*W.change("test:///a.py", 3, {insertAt(2, 0, "# moved\n")}, Error));
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_EQ(Compiled["a"], 1);
  EXPECT_EQ(Compiled["b"], 2);
  const std::vector<diag::Finding> &Last = R.All.back().Findings;
  ASSERT_EQ(Last.size(), 2u);
  // Offsets are in the server's text, whose slack may move b by more than the
  // 8 bytes typed: the finding must sit on b's name wherever that now is.
  std::string_view Text = W.snapshot("test:///a.py")->Text->text();
  EXPECT_GT(Last[1].Range.Begin, OldB);
  EXPECT_EQ(Text.substr(Last[1].Range.Begin, 1), "b");
  EXPECT_EQ(Text.substr(Last[1].Range.Begin - 4, 5), "def b");
  EXPECT_EQ(R.All.back().Version, 3);
}

TEST(Scheduler, OversizedDocumentsAreSkippedWithAReason) {
  Recorder R;
  SchedulerOptions Opts;
  Opts.WorkerThreads = 0;
  Opts.MaxFileBytes = 100;
  Scheduler S(Opts, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels)); // 180 bytes
  std::string Skipped;
  S.runWithFile("test:///a.py", "read", Staleness::Allowed, nullptr,
                [&](Expected<std::shared_ptr<const AnalyzedFile>> F) {
                  ASSERT_TRUE(F);
                  Skipped = (*F)->Skipped;
                  EXPECT_FALSE((*F)->Parsed);
                  EXPECT_FALSE((*F)->Report.Analysis);
                });
  // Shrinking it below the limit analyses it again, from scratch.
  S.update(*W.change("test:///a.py", 2, {{std::nullopt, "import triton\n"}}, Error));
  ASSERT_TRUE(S.blockUntilIdle());
  EXPECT_NE(Skipped.find("does not analyse files over"), std::string::npos) << Skipped;
  ASSERT_EQ(R.All.size(), 2u);
  EXPECT_TRUE(R.All[0].Findings.empty());
  EXPECT_EQ(R.All[1].Version, 2);
  EXPECT_EQ(S.stats().Builds, 2u);
}

TEST(Scheduler, ThreadedWorkersPublishVersionsInOrder) {
  Recorder R;
  Scheduler S({2}, R);
  Workspace W;
  std::string Error;
  S.update(W.open("test:///a.py", 1, Kernels));
  S.update(W.open("test:///b.py", 1, Kernels));
  for (int V = 2; V <= 60; ++V) {
    S.update(*W.change("test:///a.py", V, {insertAt(0, 0, "#\n")}, Error));
    S.update(*W.change("test:///b.py", V, {insertAt(0, 0, "#\n")}, Error));
  }
  ASSERT_TRUE(S.blockUntilIdle(std::chrono::seconds(30)));
  std::lock_guard<std::mutex> L(R.M);
  ASSERT_FALSE(R.All.empty());
  int64_t LastSeen = 0;
  for (const Published &P : R.All)
    LastSeen = std::max(LastSeen, P.Version);
  EXPECT_EQ(LastSeen, 60);
  EXPECT_EQ(S.stats().Builds + S.stats().DroppedUpdates, 120u);
}

TEST(Scheduler, ARequestIsAnsweredBeforeOtherDocumentsQueuedWork) {
  // One worker, thirty documents opened at once: a request for the last one
  // is answered once its own document is analysed, not after the 29 queued
  // ahead of it (FIFO order answers it after all 30 builds). The edit that
  // follows the request stays queued: the request sees version 1.
  Recorder R;
  Scheduler S({1}, R);
  Workspace W;
  std::string Text = "import triton\nimport triton.language as tl\n";
  for (int K = 0; K < 80; ++K)
    Text +=
        "\n@triton.jit\ndef k" + std::to_string(K) +
        "(x_ptr, n):\n    offs = tl.arange(0, 64)\n    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), "
        "mask=offs < n)\n";
  constexpr int Docs = 30;
  for (int D = 0; D < Docs; ++D)
    S.update(W.open("test:///f" + std::to_string(D) + ".py", 1, Text));
  std::string Last = "test:///f" + std::to_string(Docs - 1) + ".py";
  std::atomic<uint64_t> BuildsBefore{0};
  std::atomic<int64_t> Seen{0};
  S.runWithFile(Last, "hover", Staleness::Allowed, nullptr, [&](Expected<std::shared_ptr<const AnalyzedFile>> F) {
    BuildsBefore = S.stats().Builds;
    Seen = F ? (*F)->Doc.Version : -1;
  });
  std::string Error;
  S.update(*W.change(Last, 2, {insertAt(0, 0, "#\n")}, Error));
  ASSERT_TRUE(S.blockUntilIdle(std::chrono::seconds(60)));
  EXPECT_EQ(Seen, 1);
  EXPECT_GE(BuildsBefore, 1u);
  EXPECT_LT(BuildsBefore, uint64_t{Docs} / 2) << "the request waited for the other documents' analyses";
  std::lock_guard<std::mutex> L(R.M);
  EXPECT_EQ(S.stats().Builds, uint64_t{Docs} + 1);
  EXPECT_EQ(R.All.size(), size_t{Docs} + 1);
}

TEST(Scheduler, ProofTierPublishesTheVersionAgainWithItsVerdicts) {
  // Threaded: the front end publishes without proving; the proof tier then
  // publishes the same version with the prover's findings, which equal a
  // proving check's. An edit inside one kernel leaves the others' verdicts
  // in the front end's publish and proves only that kernel.
  const std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                          "def ok(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                          "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                          "    tl.store(x_ptr + offs, 1.0, mask=offs < n)\n"
                          "\n@triton.jit\n"
                          "def le(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                          "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                          "    x = tl.load(x_ptr + offs, mask=offs <= n)\n"
                          "    tl.store(x_ptr + offs, x, mask=offs <= n)\n";
  Recorder R;
  SchedulerOptions Opts;
  Opts.WorkerThreads = 2;
  Opts.Check.Prove = true;
  Opts.ProofDebounce = std::chrono::milliseconds(0);
  Scheduler S(Opts, R);
  Workspace W;
  auto Expected = [&](const std::string &Text) {
    return codes(diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Text, "a.py")), Opts.Check).Findings);
  };
  S.update(W.open("test:///a.py", 1, Src));
  ASSERT_TRUE(S.blockUntilIdle(std::chrono::seconds(60)));
  {
    std::lock_guard<std::mutex> L(R.M);
    ASSERT_EQ(R.All.size(), 2u);
    EXPECT_EQ(R.All[0].Version, 1);
    EXPECT_EQ(R.All[1].Version, 1);
    EXPECT_EQ(codes(R.All[0].Findings),
              codes(diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "a.py"))).Findings));
    EXPECT_EQ(codes(R.All[1].Findings), Expected(Src));
  }
  EXPECT_EQ(S.stats().Proofs, 2u);
  std::string Error;
  // A new line inside `le`.
  S.update(*W.change("test:///a.py", 2, {insertAt(11, 0, "    y = 1\n")}, Error));
  ASSERT_TRUE(S.blockUntilIdle(std::chrono::seconds(60)));
  std::string Edited = Src;
  Edited.insert(Edited.find("    x = tl.load"), "    y = 1\n");
  std::lock_guard<std::mutex> L(R.M);
  ASSERT_EQ(R.All.size(), 4u);
  EXPECT_EQ(R.All[2].Version, 2);
  EXPECT_EQ(codes(R.All[3].Findings), Expected(Edited));
  EXPECT_EQ(S.stats().Proofs, 3u);
  bool Found = false;
  for (const std::string &C : codes(R.All[3].Findings))
    Found |= C.rfind("TS203", 0) == 0;
  EXPECT_TRUE(Found);
}

} // namespace
