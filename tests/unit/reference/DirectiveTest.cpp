//===- DirectiveTest.cpp - `# tessel: reference` parsing and association ---===//
#include "compiler/reference/ReferenceDirective.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::reference;

namespace {

TEST(ReferenceDirective, ParsesTargetTemplateArgsDimsRenamesAndTorch) {
  std::string Src = "# tessel: reference ref/softmax_ref.cu::softmax_rows<__half, 256, 4> block=(256,) \\\n"
                    "#   grid=(cdiv(n, 2), 3) x=in_ptr kernel=softmax torch=torch.softmax(x, -1)\n"
                    "@triton.jit\ndef softmax(): pass\n";
  std::vector<ReferenceDirective> Ds = findReferenceDirectives(Src);
  ASSERT_EQ(Ds.size(), 1u);
  const ReferenceDirective &D = Ds[0];
  EXPECT_TRUE(D.Errors.empty()) << D.Errors[0].Message;
  EXPECT_EQ(D.File, "ref/softmax_ref.cu");
  EXPECT_EQ(D.Function, "softmax_rows");
  EXPECT_EQ(D.TemplateArgs, "__half, 256, 4");
  EXPECT_EQ(D.Kernel, "softmax");
  ASSERT_EQ(D.Block.size(), 1u);
  ASSERT_EQ(D.Grid.size(), 2u);
  EXPECT_EQ(Src.substr(D.Grid[0].Range.Begin, D.Grid[0].Range.End - D.Grid[0].Range.Begin), "cdiv(n, 2)");
  EXPECT_EQ(D.launchNameOf("x"), "in_ptr");
  EXPECT_EQ(D.launchNameOf("n_cols"), "n_cols");
  EXPECT_EQ(D.Torch, "torch.softmax(x, -1)");
  EXPECT_EQ(D.Range.Begin, 0u);
  EXPECT_EQ(Src[D.Range.End], '\n');
}

TEST(ReferenceDirective, ErrorsCarryTheOffendingRange) {
  std::string Src = "x = 1\n# tessel: reference softmax.cu block=(256,) grid=(n,\n";
  std::vector<ReferenceDirective> Ds = findReferenceDirectives(Src);
  ASSERT_EQ(Ds.size(), 1u);
  ASSERT_GE(Ds[0].Errors.size(), 2u);
  const DirectiveError &E = Ds[0].Errors[0];
  EXPECT_EQ(Src.substr(E.Range.Begin, E.Range.End - E.Range.Begin), "softmax.cu");
  EXPECT_NE(E.Message.find("expected FILE.cu::KERNEL"), std::string::npos);
  EXPECT_GE(Ds[0].Errors[1].Range.Begin, Src.find("(n,"));
}

TEST(ReferenceDirective, MissingBlockAndGridAreSaid) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::k x=y");
  ASSERT_EQ(D.Errors.size(), 2u);
  EXPECT_NE(D.Errors[0].Message.find("grid"), std::string::npos);
  EXPECT_NE(D.Errors[1].Message.find("block"), std::string::npos);
}

TEST(ReferenceDirective, LaunchDirectivesAreNotReferences) {
  EXPECT_TRUE(findReferenceDirectives("# tessel: launch n=4 grid=(1,)\n# tessel: referenced\n").empty());
}

TEST(ReferenceDirective, AppliesToTheNextKernelOrTheNamedOne) {
  std::string Src = "# tessel: reference a.cu::first block=(32,) grid=(1,)\n"
                    "def k1(): pass\n"
                    "def k2(): pass\n"
                    "# tessel: reference b.cu::named kernel=k1 block=(32,) grid=(1,)\n";
  std::vector<std::pair<uint32_t, std::string>> Starts = {{static_cast<uint32_t>(Src.find("def k1")), "k1"},
                                                          {static_cast<uint32_t>(Src.find("def k2")), "k2"}};
  std::optional<ReferenceDirective> K1 = referenceFor(Src, "k1", Starts);
  ASSERT_TRUE(K1);
  EXPECT_EQ(K1->Function, "first");
  EXPECT_FALSE(referenceFor(Src, "k2", Starts));
  Src = "def k1(): pass\n# tessel: reference b.cu::named kernel=k1 block=(32,) grid=(1,)\n";
  Starts = {{0, "k1"}};
  K1 = referenceFor(Src, "k1", Starts);
  ASSERT_TRUE(K1);
  EXPECT_EQ(K1->Function, "named");
}

TEST(ReferenceDirective, DimsEvaluateOverTheLaunchValues) {
  ReferenceDirective D = parseReferenceDirective(" a.cu::k block=(256,) grid=(cdiv(n, 1024), rows)");
  ASSERT_TRUE(D.Errors.empty());
  launch::ConcreteLaunch L;
  L.Values.push_back({"n", false, false, 98432, 0, false, ""});
  L.Values.push_back({"rows", false, false, 3, 0, false, ""});
  Dims3 G = evaluateDims(D.Grid, L, "grid");
  EXPECT_EQ(G.Error, "");
  EXPECT_EQ(G.D, (std::array<int64_t, 3>{97, 3, 1}));
  EXPECT_EQ(evaluateDims(D.Block, L, "block").D[0], 256);
  ReferenceDirective Bad = parseReferenceDirective(" a.cu::k block=(256,) grid=(m,)");
  Dims3 E = evaluateDims(Bad.Grid, L, "grid");
  EXPECT_NE(E.Error.find("'m'"), std::string::npos) << E.Error;
}

} // namespace
