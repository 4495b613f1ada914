//===- BoundsProverTest.cpp - the bounds prover against the interpreter ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every counterexample the prover gives for samples/prover/ is run in the
/// CPU interpreter, on the launch it names, and must really go out of
/// bounds there: at the same access, with the same element offset, program
/// and lane. The correct kernels (samples/*.py and the correct idioms) get
/// no refutation, the expected bugs are found, the verdicts of small
/// snippets are checked one by one, and the per-kernel cache reuses
/// verdicts across an edit elsewhere in the file.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/BoundsProver.h"
#include "compiler/analysis/BoundsCache.h"

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/Launch.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const fs::path SourceDir = TESSEL_SOURCE_DIR;

struct Loaded {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
};

Loaded load(const std::string &Source, const std::string &Path = "test.py") {
  Loaded L;
  L.File = ParsedFile::parse(std::make_shared<SourceText>(Source, Path));
  ProblemSink Sink;
  L.Info = discover(L.File->module(), Sink);
  return L;
}

Loaded loadFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return load(SS.str(), P.string());
}

std::vector<fs::path> pyFiles(const fs::path &Dir) {
  std::vector<fs::path> Out;
  for (const fs::directory_entry &E : fs::directory_iterator(Dir))
    if (E.is_regular_file() && E.path().extension() == ".py")
      Out.push_back(E.path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

size_t countVerdicts(const std::vector<analysis::KernelBounds> &Ks, analysis::BoundsVerdict V) {
  size_t N = 0;
  for (const analysis::KernelBounds &K : Ks)
    N += static_cast<size_t>(std::count_if(K.Accesses.begin(), K.Accesses.end(),
                                           [V](const analysis::AccessBounds &A) { return A.Verdict == V; }));
  return N;
}

/// Runs the counterexample's launch in the interpreter and looks for the
/// violation it promises. A negative offset is out of bounds whatever the
/// buffer's size, so buffers are capped (the int32-overflow sample's real
/// tensor has 2^31 elements).
::testing::AssertionResult confirms(const Loaded &L, const std::string &Kernel, const analysis::AccessBounds &A) {
  analysis::Counterexample C = A.Example;
  if (C.Offset < 0)
    for (analysis::Counterexample::Tensor &T : C.Tensors)
      T.Elements = std::min<int64_t>(T.Elements, 1 << 16);
  sema::LaunchPlanOptions PO;
  PO.SpecText = analysis::launchSpecText(C);
  sema::LaunchPlan Plan = sema::planLaunch(*L.File, L.Info, Kernel, PO);
  if (!Plan.Error.empty() || Plan.Launches.size() != 1)
    return ::testing::AssertionFailure() << "cannot plan `" << *PO.SpecText << "`: " << Plan.Error
                                         << (Plan.Problems.empty() ? "" : Plan.Problems.front().Message);
  sema::LoweredKernel LK = sema::lowerKernel(*L.File, L.Info, Plan.Launches[0].Request);
  if (!LK.Function)
    return ::testing::AssertionFailure() << "cannot lower under `" << *PO.SpecText << "`";
  interp::PreparedLaunch P = interp::prepareLaunch(*LK.Function, Plan.Launches[0].Launch);
  if (!P.Errors.empty())
    return ::testing::AssertionFailure() << "cannot prepare `" << *PO.SpecText << "`: " << P.Errors.front();
  P.Opts.MaxViolations = size_t(1) << 22;
  interp::RunResult R = interp::run(*LK.Function, P.Mem, P.Args, P.Opts);
  for (const interp::AccessViolation &V : R.Violations)
    if (V.Kind == interp::ViolationKind::OutOfBounds && V.Range == A.Range && V.ElementOffset == C.Offset &&
        V.ProgramId == C.ProgramId && V.Lane == C.Lane)
      return ::testing::AssertionSuccess();
  std::string Seen;
  for (const interp::ViolationSite &S : R.Sites)
    Seen += "\n  " + interp::describe(S);
  return ::testing::AssertionFailure() << "no violation at " << C.Text << " under `" << *PO.SpecText
                                       << "`; the run found:" << (Seen.empty() ? " none" : Seen) << R.Error;
}

} // namespace

TEST(BoundsProverTest, EveryCounterexampleGoesOutOfBoundsInTheInterpreter) {
  size_t Confirmed = 0;
  for (const fs::path &P : pyFiles(SourceDir / "samples/prover")) {
    SCOPED_TRACE(P.filename().string());
    Loaded L = loadFile(P);
    for (const analysis::KernelBounds &K : analysis::proveFile(*L.File, L.Info))
      for (const analysis::AccessBounds &A : K.Accesses)
        if (A.Verdict == analysis::BoundsVerdict::Refuted) {
          EXPECT_TRUE(confirms(L, K.Kernel, A)) << K.Kernel << ": " << A.Example.Text;
          ++Confirmed;
        }
  }
  EXPECT_GE(Confirmed, 10u);
}

TEST(BoundsProverTest, EachBugSampleIsFoundAndTheCorrectOnesAreNot) {
  // Refutations per sample file: the bugs each file describes, no more.
  const std::map<std::string, size_t> Expected = {
      {"no_mask.py", 1},      {"rows_not_cols.py", 1},     {"le_instead_of_lt.py", 2},   {"wrong_size.py", 2},
      {"where_only.py", 1},   {"multiple_of_block.py", 1}, {"other_without_mask.py", 0}, {"int32_overflow.py", 1},
      {"loop_overrun.py", 1}, {"store_block_mask.py", 1},  {"negative_offset.py", 1},    {"correct_idioms.py", 0},
  };
  for (const fs::path &P : pyFiles(SourceDir / "samples/prover")) {
    SCOPED_TRACE(P.filename().string());
    auto It = Expected.find(P.filename().string());
    ASSERT_NE(It, Expected.end()) << "a new prover sample needs its expected count here";
    Loaded L = loadFile(P);
    std::vector<analysis::KernelBounds> Ks = analysis::proveFile(*L.File, L.Info);
    std::string Found;
    for (const analysis::KernelBounds &K : Ks)
      for (const analysis::AccessBounds &A : K.Accesses)
        if (A.Verdict == analysis::BoundsVerdict::Refuted)
          Found += "\n  " + K.Kernel + ": " + A.Example.Text;
    EXPECT_EQ(countVerdicts(Ks, analysis::BoundsVerdict::Refuted), It->second) << Found;
  }
}

TEST(BoundsProverTest, NoTutorialSampleIsRefuted) {
  for (const fs::path &P : pyFiles(SourceDir / "samples")) {
    SCOPED_TRACE(P.filename().string());
    Loaded L = loadFile(P);
    std::vector<analysis::KernelBounds> Ks = analysis::proveFile(*L.File, L.Info);
    std::string Found;
    for (const analysis::KernelBounds &K : Ks)
      for (const analysis::AccessBounds &A : K.Accesses)
        if (A.Verdict == analysis::BoundsVerdict::Refuted)
          Found += "\n  " + K.Kernel + ": " + A.Example.Text;
    EXPECT_EQ(countVerdicts(Ks, analysis::BoundsVerdict::Refuted), 0u) << Found;
  }
}

static const char *const VectorAdd = R"(import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
)";

TEST(BoundsProverTest, MaskedVectorAddIsProvenForEverySize) {
  Loaded L = load(VectorAdd);
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "add_kernel");
  ASSERT_TRUE(K.Analysed) << K.Reason;
  EXPECT_FALSE(K.FromSpec);
  ASSERT_EQ(K.Accesses.size(), 3u);
  for (const analysis::AccessBounds &A : K.Accesses)
    EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Proven) << A.Op << ": " << A.Reason;
  // The grid assumption names the comparison it came from.
  EXPECT_TRUE(std::any_of(K.Assumptions.begin(), K.Assumptions.end(), [](const std::string &S) {
    return S.find("cdiv(size, 1024)") != std::string::npos && S.find("`offs < n`") != std::string::npos;
  }));
}

TEST(BoundsProverTest, NoMaskGivesTheCounterexampleInWords) {
  Loaded L = load(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs), mask=offs < n)
)");
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "k");
  ASSERT_EQ(K.Accesses.size(), 2u);
  const analysis::AccessBounds &Load = K.Accesses[1].Op == "load" ? K.Accesses[1] : K.Accesses[0];
  ASSERT_EQ(Load.Verdict, analysis::BoundsVerdict::Refuted);
  EXPECT_FALSE(Load.Certain);
  const analysis::Counterexample &C = Load.Example;
  EXPECT_EQ(C.Pointer, "x_ptr");
  int64_t N = 0;
  for (const auto &[Name, V] : C.Scalars)
    if (Name == "n")
      N = V;
  EXPECT_GE(C.Offset, N);
  EXPECT_EQ(C.Extent, N);
  EXPECT_EQ(C.Text.rfind("x_ptr[" + std::to_string(C.Offset) + "] read by program ", 0), 0u) << C.Text;
  EXPECT_NE(C.Text.find("with n = " + std::to_string(N) + " (x_ptr has " + std::to_string(N) + " elements)"),
            std::string::npos)
      << C.Text;
}

TEST(BoundsProverTest, LoadedIndicesLeaveTheAccessUndecided) {
  Loaded L = load(R"(import triton
import triton.language as tl

@triton.jit
def gather(idx_ptr, x_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0).to(tl.int32)
    tl.store(out_ptr + offs, tl.load(x_ptr + idx, mask=mask), mask=mask)
)");
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "gather");
  ASSERT_TRUE(K.Analysed) << K.Reason;
  for (const analysis::AccessBounds &A : K.Accesses) {
    // The gathered load's offsets are data: it is neither proven nor reported.
    if (A.Op == "load" && A.Range.Begin > L.File->text().text().find("tl.load(x_ptr + idx")) {
      EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Undecided);
      EXPECT_FALSE(A.Reason.empty());
    }
    EXPECT_NE(A.Verdict, analysis::BoundsVerdict::Refuted) << A.Example.Text;
  }
}

TEST(BoundsProverTest, TheCacheReusesVerdictsAcrossAnEditElsewhere) {
  analysis::clearBoundsCache();
  std::string Source = VectorAdd;
  Loaded A = load(Source);
  std::shared_ptr<const sema::FileAnalysis> FA = sema::analyzeFile(A.File);
  std::vector<analysis::KernelBounds> First = analysis::proveFileCached(*FA);
  ASSERT_EQ(analysis::boundsCacheStats().Misses, 1u);
  // A comment above the kernel moves it but changes none of its inputs.
  Loaded B = load("# a comment\n" + Source);
  std::shared_ptr<const sema::FileAnalysis> FB = sema::analyzeFile(B.File);
  std::vector<analysis::KernelBounds> Second = analysis::proveFileCached(*FB);
  EXPECT_EQ(analysis::boundsCacheStats().Hits, 1u);
  ASSERT_EQ(First.size(), 1u);
  ASSERT_EQ(Second.size(), 1u);
  ASSERT_EQ(First[0].Accesses.size(), Second[0].Accesses.size());
  for (size_t I = 0; I < First[0].Accesses.size(); ++I) {
    EXPECT_EQ(Second[0].Accesses[I].Range.Begin, First[0].Accesses[I].Range.Begin + 12);
    EXPECT_EQ(Second[0].Accesses[I].Verdict, First[0].Accesses[I].Verdict);
  }
}

/// Kernels add_kernel_0 .. add_kernel_{N-1}, each the masked vector add.
static std::string manyKernels(size_t N) {
  std::string Body = VectorAdd;
  std::string Kernel = Body.substr(Body.find("@triton.jit"));
  std::string Out = Body.substr(0, Body.find("@triton.jit"));
  for (size_t I = 0; I < N; ++I) {
    std::string K = Kernel;
    K.replace(K.find("add_kernel"), 10, "add_kernel_" + std::to_string(I));
    Out += "\n" + K;
  }
  return Out;
}

TEST(BoundsProverTest, AnEditReprovesOnlyItsKernelAndTheCacheKeepsNoFile) {
  analysis::clearBoundsCache();
  std::string Source = manyKernels(3);
  Loaded A = load(Source);
  std::shared_ptr<const sema::FileAnalysis> FA = sema::analyzeFile(A.File);
  std::vector<analysis::KernelBounds> First = analysis::proveFileCached(*FA);
  ASSERT_EQ(First.size(), 3u);
  ASSERT_EQ(analysis::boundsCacheStats().Misses, 3u);
  // A statement typed into the middle kernel: the other two take the
  // previous version's verdicts, the one below moved by the edit's length.
  std::string Edited = Source;
  std::string Typed = "    tmp = offs * 2\n";
  size_t At = Edited.find("    mask", Edited.find("add_kernel_1"));
  Edited.insert(At, Typed);
  Loaded B = load(Edited);
  std::shared_ptr<const sema::FileAnalysis> FB = sema::analyzeFile(B.File, {}, FA.get());
  std::vector<analysis::KernelBounds> Second = analysis::proveFileCached(*FB, {}, FA.get(), &First);
  analysis::BoundsCacheStats Stats = analysis::boundsCacheStats();
  EXPECT_EQ(Stats.PreviousHits, 2u);
  EXPECT_EQ(Stats.Misses, 4u);
  // Exactly what proving the edited file afresh gives.
  analysis::clearBoundsCache();
  std::vector<analysis::KernelBounds> Fresh = analysis::proveFileCached(*sema::analyzeFile(B.File));
  ASSERT_EQ(Second.size(), Fresh.size());
  for (size_t K = 0; K < Fresh.size(); ++K) {
    EXPECT_EQ(Second[K].Kernel, Fresh[K].Kernel);
    EXPECT_EQ(Second[K].NameRange, Fresh[K].NameRange);
    ASSERT_EQ(Second[K].Accesses.size(), Fresh[K].Accesses.size());
    for (size_t I = 0; I < Fresh[K].Accesses.size(); ++I) {
      EXPECT_EQ(Second[K].Accesses[I].Range, Fresh[K].Accesses[I].Range);
      EXPECT_EQ(Second[K].Accesses[I].Verdict, Fresh[K].Accesses[I].Verdict);
    }
  }
  // Nothing the cache holds keeps a version of the file alive.
  std::weak_ptr<const ParsedFile> Old = A.File;
  FA.reset();
  A.File.reset();
  EXPECT_TRUE(Old.expired());
}
