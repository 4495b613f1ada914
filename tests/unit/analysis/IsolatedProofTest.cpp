//===- IsolatedProofTest.cpp - proofs in a child process, and their bytes -===//
/// \file
/// A kernel proved in a child process gets the verdicts it gets in process,
/// counterexamples and assumptions included (every kernel of
/// samples/prover/); the verdicts survive their encoding, and no truncation
/// or corruption of it is read as verdicts. A child out of memory costs that
/// kernel's verdicts only: they say so, are not reused, and the next proof
/// with room gives the real verdicts.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/IsolatedProof.h"
#include "compiler/analysis/BoundsProver.h"
#include "compiler/analysis/ProofWire.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

struct Loaded {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
};

Loaded loadFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  Loaded L;
  L.File = ParsedFile::parse(std::make_shared<SourceText>(SS.str(), P.string()));
  ProblemSink Sink;
  L.Info = discover(L.File->module(), Sink);
  return L;
}

std::vector<fs::path> proverSamples() {
  std::vector<fs::path> Out;
  for (const fs::directory_entry &E : fs::directory_iterator(fs::path(TESSEL_SOURCE_DIR) / "samples/prover"))
    if (E.path().extension() == ".py")
      Out.push_back(E.path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// The encoding, with the time (which differs run to run) left out.
std::string comparable(analysis::KernelBounds K) {
  K.Milliseconds = 0;
  return analysis::encodeKernelBounds(K);
}

} // namespace

TEST(IsolatedProof, SameVerdictsAsInProcess) {
  size_t Kernels = 0, Refuted = 0;
  for (const fs::path &P : proverSamples()) {
    Loaded L = loadFile(P);
    for (const JitFunction *Fn : L.Info.inOrder()) {
      analysis::ProverOptions Opts;
      analysis::KernelBounds In = analysis::proveKernel(*L.File, L.Info, Fn->Name, Opts);
      analysis::KernelBounds Out = analysis::proveKernelIsolated(*L.File, L.Info, Fn->Name, Opts, {});
      EXPECT_EQ(Out.Failure, "") << P << " " << Fn->Name;
      EXPECT_EQ(comparable(In), comparable(Out)) << P << " " << Fn->Name;
      ++Kernels;
      Refuted += static_cast<size_t>(std::count_if(In.Accesses.begin(), In.Accesses.end(), [](const auto &A) {
        return A.Verdict == analysis::BoundsVerdict::Refuted;
      }));
    }
  }
  // The samples hold bugs: counterexamples crossed the process boundary too.
  EXPECT_GT(Kernels, 10u);
  EXPECT_GT(Refuted, 5u);
}

TEST(IsolatedProof, EncodingRoundTripsAndRejectsDamage) {
  Loaded L = loadFile(fs::path(TESSEL_SOURCE_DIR) / "samples/prover/no_mask.py");
  ASSERT_FALSE(L.Info.inOrder().empty());
  analysis::KernelBounds K = analysis::proveKernel(*L.File, L.Info, L.Info.inOrder().front()->Name);
  K.Failure = "";
  std::string Bytes = analysis::encodeKernelBounds(K);
  std::optional<analysis::KernelBounds> Back = analysis::decodeKernelBounds(Bytes);
  ASSERT_TRUE(Back);
  EXPECT_EQ(analysis::encodeKernelBounds(*Back), Bytes);
  for (size_t N = 0; N < Bytes.size(); ++N)
    EXPECT_FALSE(analysis::decodeKernelBounds(std::string_view(Bytes).substr(0, N))) << N;
  EXPECT_FALSE(analysis::decodeKernelBounds(Bytes + "x"));
  // Flipped bytes: either rejected or read as some verdicts, never a crash.
  std::mt19937 Rng(3);
  for (int I = 0; I < 2000; ++I) {
    std::string Damaged = Bytes;
    Damaged[Rng() % Damaged.size()] ^= static_cast<char>(1 + Rng() % 255);
    (void)analysis::decodeKernelBounds(Damaged);
  }
}

TEST(IsolatedProof, OutOfMemoryCostsThatKernelAndTheNextProofRecovers) {
  Loaded L = loadFile(fs::path(TESSEL_SOURCE_DIR) / "samples/prover/no_mask.py");
  ASSERT_FALSE(L.Info.inOrder().empty());
  std::string Kernel = L.Info.inOrder().front()->Name;
  analysis::ProverOptions Starved;
  // Z3 cannot even set up its context in 1 MiB more than the child inherits.
  // (The budget counts address space beyond the caller's; heap the caller
  // freed is reused free of it, so this holds in a process where no proof ran
  // in process before, as under ctest, which runs each test in its own: so
  // does the language server, which never proves in its own process.)
  Starved.IsolatedMemoryBytes = 1 << 20;
  analysis::KernelBounds Failed = analysis::proveKernelIsolated(*L.File, L.Info, Kernel, Starved, {});
  EXPECT_FALSE(Failed.Analysed);
  EXPECT_TRUE(Failed.Accesses.empty());
  EXPECT_EQ(Failed.Kernel, Kernel);
  EXPECT_NE(Failed.NameRange.End, 0u);
  EXPECT_EQ(Failed.Failure, "ran out of memory (its limit: 1 MiB)");

  analysis::ProverOptions Roomy;
  analysis::KernelBounds Again = analysis::proveKernelIsolated(*L.File, L.Info, Kernel, Roomy, {});
  EXPECT_EQ(Again.Failure, "");
  EXPECT_EQ(comparable(Again), comparable(analysis::proveKernel(*L.File, L.Info, Kernel, Roomy)));
}
