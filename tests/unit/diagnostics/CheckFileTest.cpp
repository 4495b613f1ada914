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
