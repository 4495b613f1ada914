//===- CheckFileTest.cpp - behaviour of diag::checkFile as a whole --------===//
/// \file
/// What checkFile guarantees beyond single checks: a half-typed line gets its
/// syntax error and nothing else, including from the analysis-based checks.
//===----------------------------------------------------------------------===//
#include "diagnostics/Check.h"

#include <gtest/gtest.h>

using namespace tessel;

TEST(CheckFile, BrokenLineGetsOnlyItsSyntaxError) {
  // The load on the broken line would otherwise also be an unmasked-axis
  // warning (TS201); the same load on an intact line still is one.
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def k(x_ptr, BLOCK: tl.constexpr = 128):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs);;\n"
                    "    y = tl.load(x_ptr + offs)\n";
  diag::FileReport R = diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py")));
  std::vector<std::string> Codes;
  for (const diag::Finding &F : R.Findings)
    Codes.push_back(std::string(F.code()) + "@" +
                    std::to_string(R.Analysis->File->text().lineCol(F.Range.Begin).Line + 1));
  EXPECT_EQ(Codes, (std::vector<std::string>{"TS001@7", "TS201@8"}));
}

TEST(CheckFile, WithoutValueFactsTheFindingsAreTheSame) {
  // `tessel check` skips the hover facts; the findings must not depend on it.
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def k(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs)\n"
                    "    tl.store(x_ptr + offs, x * 2, mask=offs < n)\n";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py"));
  diag::FileReport With = diag::checkFile(File);
  diag::FileReport Without = diag::checkFile(File, {.KeepValueFacts = false});
  auto Summary = [](const diag::FileReport &R) {
    std::string S;
    for (const diag::Finding &F : R.Findings)
      S += std::string(F.code()) + " " + std::to_string(F.Range.Begin) + " " + F.Message + "\n";
    return S;
  };
  EXPECT_EQ(Summary(Without), Summary(With));
  EXPECT_NE(Summary(With), "");
  ASSERT_FALSE(With.Analysis->Kernels.empty());
  EXPECT_FALSE(With.Analysis->Kernels[0].Values.empty());
  EXPECT_TRUE(Without.Analysis->Kernels[0].Values.empty());
  // The parameters' facts sit on their names.
  const sema::ValueFact &First = With.Analysis->Kernels[0].Values[0];
  EXPECT_EQ(First.Name, "x_ptr");
  EXPECT_EQ(Src.substr(First.Range.Begin, First.Range.End - First.Range.Begin), "x_ptr");
}
