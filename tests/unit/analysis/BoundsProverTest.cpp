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
#include "compiler/project/Project.h"
#include "compiler/sema/Analysis.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

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
      {"no_mask.py", 1},        {"rows_not_cols.py", 1},        {"le_instead_of_lt.py", 2},   {"wrong_size.py", 2},
      {"where_only.py", 1},     {"multiple_of_block.py", 1},    {"other_without_mask.py", 0}, {"int32_overflow.py", 1},
      {"loop_overrun.py", 1},   {"store_block_mask.py", 1},     {"negative_offset.py", 1},    {"correct_idioms.py", 0},
      {"wrapper_padded.py", 0}, {"wrapper_grid_overrun.py", 2},
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

TEST(BoundsProverTest, AnUncalledHostWrapperGivesTheSizes) {
  // The padded output is in bounds only because of the wrapper's
  // allocation: proven, with the wrapper's sizes among the assumptions.
  Loaded L = loadFile(SourceDir / "samples/prover/wrapper_padded.py");
  std::vector<analysis::KernelBounds> Ks = analysis::proveFile(*L.File, L.Info);
  ASSERT_EQ(Ks.size(), 1u);
  EXPECT_TRUE(Ks[0].FromWrapper);
  EXPECT_EQ(countVerdicts(Ks, analysis::BoundsVerdict::Proven), 2u);
  std::string All;
  for (const std::string &A : Ks[0].Assumptions)
    All += A + "\n";
  EXPECT_NE(All.find("sizes from the host wrapper `pad_to_blocks`"), std::string::npos) << All;
  EXPECT_NE(All.find("n = x.numel()\n"), std::string::npos) << All;
  EXPECT_NE(All.find("out_ptr has 1024 * cdiv(x.numel(), 1024) elements\n"), std::string::npos) << All;
  EXPECT_NE(All.find("grid = (cdiv(x.numel(), 1024),)\n"), std::string::npos) << All;
}

// Layer norm launched by a wrapper that nothing calls (bench/gen_kernels.py's
// pattern): the scalar stores of Mean and Rstd have no mask, so only the
// wrapper's sizes (`mean` has M = x.shape[0] elements, grid (M,)) bound them;
// the row loads compare against `x.stride(0)` times a row, a product of two
// sizes that the wrapper's reading leaves open and the conventional reading
// proves. Every access is decided: the wrapper's verdicts where it has one,
// the conventional reading's for the rest, both readings' assumptions listed.
static const char *const WrappedLayerNorm = R"(import torch
import triton
import triton.language as tl

@triton.jit
def layer_norm_fwd(X, Y, Mean, Rstd, stride, N, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        _mean += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(_mean, axis=0) / N
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, 1 / (mean + 1.0))
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.)
        tl.store(Y + cols, x - mean, mask=cols < N)


def layer_norm(x):
    y = torch.empty_like(x)
    M, N = x.shape
    mean = torch.empty((M,), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
    layer_norm_fwd[(M,)](x, y, mean, rstd, x.stride(0), N, BLOCK_SIZE=1024)
    return y
)";

TEST(BoundsProverTest, WhatAWrapperLeavesOpenTheConventionalReadingDecides) {
  Loaded L = load(WrappedLayerNorm);
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "layer_norm_fwd");
  ASSERT_TRUE(K.Analysed) << K.Reason;
  EXPECT_TRUE(K.FromWrapper);
  ASSERT_EQ(K.Accesses.size(), 5u);
  for (const analysis::AccessBounds &A : K.Accesses)
    EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Proven) << A.Op << ": " << A.Reason;
  auto Has = [&](const std::string &Text) {
    return std::any_of(K.Assumptions.begin(), K.Assumptions.end(),
                       [&](const std::string &A) { return A.find(Text) != std::string::npos; });
  };
  EXPECT_TRUE(Has("sizes from the host wrapper `layer_norm`"));
  EXPECT_TRUE(Has("Mean has x.shape[0] elements"));
  EXPECT_TRUE(Has("covers the offsets its most tightly masked access reaches"));
  // The same through proveFile and the cache, which share the file's wrappers.
  std::vector<analysis::KernelBounds> Ks = analysis::proveFile(*L.File, L.Info);
  ASSERT_EQ(Ks.size(), 1u);
  EXPECT_EQ(countVerdicts(Ks, analysis::BoundsVerdict::Proven), 5u);
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

/// Grouped ordering (Triton's matmul tutorial): program ids map to tiles
/// through `//` and `%` by sizes known only at run time.
static std::string groupedMatmul(const std::string &Spec, const std::string &CMask) {
  return R"(import triton
import triton.language as tl

)" + Spec +
         R"(
@triton.jit
def grouped_matmul_kernel(a_ptr, b_ptr, r_ptr, c_ptr, M, N, K,
                          stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr = 16, BLOCK_N: tl.constexpr = 16, BLOCK_K: tl.constexpr = 16,
                          GROUP_M: tl.constexpr = 2):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_c = stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    r = tl.load(r_ptr + offs_c, mask=)" +
         CMask + R"(, other=0.0)
    tl.store(c_ptr + offs_c, acc + r, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))
)";
}

static const char *const FullMask = "(offs_cm[:, None] < M) & (offs_cn[None, :] < N)";

TEST(BoundsProverTest, GroupedOrderingIsProvenWithoutASpecWithinItsLimits) {
  // pid_m and pid_n are bounded by their ranges (the cheap tier) under the
  // block-index assumption their masks give; before, every query of this
  // kernel was nonlinear and the kernel ran out of its limits.
  Loaded L = load(groupedMatmul("", FullMask));
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "grouped_matmul_kernel");
  ASSERT_TRUE(K.Analysed) << K.Reason;
  EXPECT_FALSE(K.TimedOut);
  ASSERT_EQ(K.Accesses.size(), 4u);
  for (const analysis::AccessBounds &A : K.Accesses)
    EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Proven) << A.Op << ": " << A.Reason;
  std::string All;
  for (const std::string &S : K.Assumptions)
    All += S + "\n";
  EXPECT_NE(All.find("no program gets `pid_m` past cdiv(size, 16), the size `offs_cm[:, None] < M` compares against"),
            std::string::npos)
      << All;
  EXPECT_NE(All.find("no program gets `pid_n` past cdiv(size, 16)"), std::string::npos) << All;
}

TEST(BoundsProverTest, GroupedOrderingUnderASpecIsDecidedAndItsBugConfirmed) {
  const std::string Spec = "# tessel: launch M=40 N=24 K=20 a=fp32[M*K] b=fp32[K*N] r=fp32[M*N] c=fp32[M*N]:out "
                           "stride_am=K stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 "
                           "grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)";
  {
    Loaded L = load(groupedMatmul(Spec, FullMask));
    analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "grouped_matmul_kernel");
    ASSERT_TRUE(K.Analysed) << K.Reason;
    EXPECT_TRUE(K.FromSpec);
    for (const analysis::AccessBounds &A : K.Accesses)
      EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Proven) << A.Op << ": " << A.Reason;
  }
  // The residual masked on its rows only: N = 24 is not a multiple of
  // BLOCK_N, so the last column block reads past the end of r.
  Loaded L = load(groupedMatmul(Spec, "offs_cm[:, None] < M"));
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, "grouped_matmul_kernel");
  ASSERT_TRUE(K.Analysed) << K.Reason;
  size_t Refuted = 0;
  for (const analysis::AccessBounds &A : K.Accesses)
    if (A.Verdict == analysis::BoundsVerdict::Refuted) {
      ++Refuted;
      EXPECT_TRUE(A.Certain);
      EXPECT_EQ(A.Example.Pointer, "r_ptr");
      EXPECT_TRUE(confirms(L, K.Kernel, A)) << A.Example.Text;
    }
  EXPECT_EQ(Refuted, 1u);
}

TEST(BoundsProverTest, HelpersImportedFromAnotherModuleAreInlinedThroughTheProject) {
  fs::path Dir = fs::temp_directory_path() / ("tessel-prover-project-" + std::to_string(::getpid()));
  fs::create_directories(Dir);
  auto Write = [&](const std::string &Name, const std::string &Text) { std::ofstream(Dir / Name) << Text; };
  Write("tessel.toml", "");
  Write("helpers.py", R"(import triton
import triton.language as tl


@triton.jit
def block_offsets(pid, BLOCK: tl.constexpr):
    return pid * BLOCK + tl.arange(0, BLOCK)


@triton.jit
def masked_load(ptr, offs, n):
    return tl.load(ptr + offs, mask=offs < n)
)");
  const std::string Kernel = R"(import triton
import triton.language as tl

from helpers import block_offsets, masked_load


@triton.jit
def copy_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 256):
    offs = block_offsets(tl.program_id(0), BLOCK)
    x = masked_load(x_ptr, offs, n)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x + y, mask=offs < n)
)";
  Write("kern.py", Kernel);
  project::Project P;
  Loaded L = load(Kernel, (Dir / "kern.py").string());
  // Alone, the file cannot lower its kernel: the helpers are another module's.
  EXPECT_FALSE(analysis::proveKernel(*L.File, L.Info, "copy_kernel").Analysed);
  sema::AnalyzeOptions AO;
  AO.Project = &P;
  std::shared_ptr<const sema::FileAnalysis> FA = sema::analyzeFile(L.File, AO);
  analysis::ProverOptions Opts;
  Opts.Project = &P;
  analysis::KernelBounds K = analysis::proveKernel(*FA->File, FA->Info, "copy_kernel", Opts);
  fs::remove_all(Dir);
  ASSERT_TRUE(K.Analysed) << K.Reason;
  // The helper's load sits in helpers.py: it gets no verdict here (its range
  // is not this file's), but its mask still sizes x_ptr. The kernel's own
  // unmasked load of y_ptr is refuted, the masked store proven.
  ASSERT_EQ(K.Accesses.size(), 2u);
  size_t YLoad = Kernel.find("tl.load(y_ptr"), Store = Kernel.find("tl.store(");
  for (const analysis::AccessBounds &A : K.Accesses) {
    if (A.Range.Begin == YLoad) {
      EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Refuted) << A.Reason;
      EXPECT_EQ(A.Example.Pointer, "y_ptr");
    } else {
      EXPECT_EQ(A.Range.Begin, Store);
      EXPECT_EQ(A.Verdict, analysis::BoundsVerdict::Proven) << A.Reason;
    }
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
  // The kernels the edit left alone keep their inputs, moved (so their texts
  // are not compared again, here or by the prover); the edited one does not.
  ASSERT_EQ(FB->Records.size(), 3u);
  EXPECT_TRUE(FB->Records[0].MovedFromPrevious && FB->Records[0].Covered);
  EXPECT_FALSE(FB->Records[1].MovedFromPrevious || FB->Records[1].Covered);
  EXPECT_TRUE(FB->Records[2].MovedFromPrevious && FB->Records[2].Covered);
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

// Deferred proofs while the user types: kernels the previous version left
// unproved and the edit did not touch stay unproved without a cache lookup,
// while the edited one is looked up again (and found, when its new text was
// proved elsewhere); no verdict is ever invented.
TEST(BoundsProverTest, KernelsLeftUnprovedStayUnprovedUntilTheirTextChanges) {
  analysis::clearBoundsCache();
  std::string Source = manyKernels(3);
  Loaded A = load(Source);
  std::shared_ptr<const sema::FileAnalysis> FA = sema::analyzeFile(A.File);
  std::vector<std::string> FirstUnproved;
  std::vector<analysis::KernelBounds> First = analysis::proveFileCached(*FA, {}, nullptr, nullptr, &FirstUnproved);
  EXPECT_TRUE(First.empty());
  EXPECT_EQ(FirstUnproved, (std::vector<std::string>{"add_kernel_0", "add_kernel_1", "add_kernel_2"}));

  std::string Edited = Source;
  size_t At = Edited.find("    mask", Edited.find("add_kernel_1"));
  Edited.insert(At, "    tmp = offs * 2\n");
  Loaded B = load(Edited);
  // The edited kernel's new text is proved by someone else (another document).
  std::shared_ptr<const sema::FileAnalysis> Fresh = sema::analyzeFile(B.File);
  std::vector<analysis::KernelBounds> FreshBounds = analysis::proveFileCached(*Fresh);
  ASSERT_EQ(FreshBounds.size(), 3u);
  analysis::BoundsCacheStats Before = analysis::boundsCacheStats();

  std::shared_ptr<const sema::FileAnalysis> FB = sema::analyzeFile(B.File, {}, FA.get());
  std::vector<std::string> SecondUnproved;
  std::vector<analysis::KernelBounds> Second =
      analysis::proveFileCached(*FB, {}, FA.get(), &First, &SecondUnproved, &FirstUnproved);
  EXPECT_EQ(SecondUnproved, (std::vector<std::string>{"add_kernel_0", "add_kernel_2"}));
  ASSERT_EQ(Second.size(), 1u);
  EXPECT_EQ(Second[0].Kernel, "add_kernel_1");
  EXPECT_EQ(Second[0].NameRange, FreshBounds[1].NameRange);
  analysis::BoundsCacheStats After = analysis::boundsCacheStats();
  EXPECT_EQ(After.Hits, Before.Hits + 1); // only the edited kernel was looked up
  EXPECT_EQ(After.Misses, Before.Misses);
}
