//===- LoweringRobustnessTest.cpp - damaged kernels never crash the lowering ===//
/// \file
/// The lowering walks code the checker has only typed, so anything the
/// checker tolerates must reach lowerKernel safely: every sample and bug
/// sample, with each line deleted in turn and with seeded byte mutations, is
/// lowered under its planned launch (sema::planLaunch). The outcome is a
/// verified Function or Problems; an unverifiable Function is never handed
/// out, and a crash fails the binary.
//===----------------------------------------------------------------------===//
#include "LoweringTestSupport.h"

#include "compiler/ir/Verifier.h"
#include "compiler/sema/LaunchPlan.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace tessel::sema::test {
namespace {

std::vector<std::string> variantsOf(const std::string &Text, unsigned Seed) {
  std::vector<std::string> Out;
  std::vector<size_t> LineStarts = {0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
  for (size_t L = 0; L + 1 < LineStarts.size(); ++L)
    Out.push_back(Text.substr(0, LineStarts[L]) + Text.substr(LineStarts[L + 1]));
  std::mt19937 Rng(Seed);
  const std::string Interesting = "()[]{}:,.=+-*/%<>0123456789 _\nabxyz";
  for (int I = 0; I < 40 && !Text.empty(); ++I) {
    std::string M = Text;
    for (int K = 0; K < 3; ++K)
      M[Rng() % M.size()] = Interesting[Rng() % Interesting.size()];
    Out.push_back(std::move(M));
  }
  return Out;
}

size_t lowerEveryKernel(const std::string &Text) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text, "variant.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  size_t Lowered = 0;
  for (const std::string &Name : Info.Order) {
    const JitFunction &Fn = Info.Jit.at(Name);
    if (!Fn.Def)
      continue;
    LaunchPlan Plan = planLaunch(*File, Info, Name);
    if (Plan.Launches.empty())
      continue;
    LoweredKernel L = lowerKernel(*File, Info, Plan.Launches.front().Request);
    if (L.Function) {
      EXPECT_TRUE(L.Problems.empty());
      EXPECT_TRUE(ir::verify(*L.Function).empty());
      ++Lowered;
    } else {
      EXPECT_FALSE(L.Problems.empty()) << Name << " lowered to nothing without a problem:\n" << Text;
    }
    // Damaged code is the user's problem; IR that does not verify is tessel's.
    for (const Problem &P : L.Problems)
      EXPECT_EQ(P.Message.find("internal error"), std::string::npos) << P.Message << "\n" << Text;
  }
  return Lowered;
}

TEST(LoweringRobustness, OddKernelsLowerOrReport) {
  // Constructs the checker tolerates (or reports) that a lowering could trip on.
  const char *Bodies[] = {
      "    for i in range():\n        pass\n",
      "    for i in range(1, 2, 3, 4):\n        pass\n",
      "    for a, b in range(4):\n        pass\n",
      "    for i in range(n):\n        return\n",
      "    k(x_ptr, n)\n",
      "    x = tl.load(x_ptr) if n > 0 else None\n",
      "    while n:\n        n = n - 1\n    tl.store(x_ptr, n)\n",
      "    t = (n, n)\n    for i in range(3):\n        t = (t[1], t[0])\n",
      "    if n > 0:\n        y = 1\n    tl.store(x_ptr, y)\n",
      "    for i in range(3):\n        z = i\n    tl.store(x_ptr, z)\n",
      "    tl.store(x_ptr, tl.sum(n))\n",
      "    tl.store(x_ptr + tl.arange(0, 4)[:, None], tl.reshape(tl.arange(0, 4), (2, 2)))\n",
      "    a, b = tl.split(tl.join(tl.arange(0, 4), tl.arange(0, 4)))\n    tl.store(x_ptr + a, b)\n",
      "    tl.device_print(\"n\", n)\n    tl.device_assert(n > 0, \"positive\")\n    assert n > 1\n",
      "    tl.store(x_ptr, tl.cdiv(n, 4) + tl.umulhi(n, n) + tl.clamp(n.to(tl.float32), 0.0, 1.0).to(tl.int32))\n",
      "    x = tl.load(x_ptr + tl.arange(0, 16))\n    tl.store(x_ptr + tl.arange(0, 16), "
      "tl.softmax(x.to(tl.float32)))\n",
  };
  for (const char *Body : Bodies) {
    std::string Src =
        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, n):\n" + std::string(Body);
    auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "odd.py"));
    ProblemSink Sink;
    ModuleInfo Info = discover(File->module(), Sink);
    LoweringRequest R;
    R.Kernel = "k";
    R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::I32)}, {"n", scalar(ScalarKind::I32)}};
    LoweredKernel L = lowerKernel(*File, Info, R);
    EXPECT_TRUE(L.Function || !L.Problems.empty()) << Body;
    for (const Problem &P : L.Problems)
      EXPECT_EQ(P.Message.find("internal error"), std::string::npos) << P.Message << "\n" << Body;
  }
}

TEST(LoweringRobustness, DamagedSamplesLowerOrReport) {
  size_t Variants = 0, Lowered = 0;
  for (const char *Dir : {"/samples", "/samples/bugs"}) {
    for (const auto &Entry : std::filesystem::directory_iterator(std::string(TESSEL_SOURCE_DIR) + Dir)) {
      if (Entry.path().extension() != ".py")
        continue;
      std::ifstream In(Entry.path());
      std::stringstream SS;
      SS << In.rdbuf();
      Lowered += lowerEveryKernel(SS.str());
      for (const std::string &V : variantsOf(SS.str(), static_cast<unsigned>(Variants))) {
        ++Variants;
        Lowered += lowerEveryKernel(V);
      }
    }
  }
  EXPECT_GT(Variants, 500u);
  EXPECT_GT(Lowered, 100u);
}

} // namespace
} // namespace tessel::sema::test
