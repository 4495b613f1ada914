//===- SourceTextTest.cpp - line tables, whole and after an edit ----------===//
/// \file
/// A text's lines end at "\n", "\r\n" and a lone "\r"; the table derived
/// from the previous version after an edit equals the one scanned afresh,
/// for edits that split or join a "\r\n", at either end and across lines.
//===----------------------------------------------------------------------===//
#include "compiler/support/SourceText.h"

#include <gtest/gtest.h>

#include <random>

using namespace tessel;

static std::vector<uint32_t> starts(const SourceText &T) {
  std::vector<uint32_t> S;
  for (uint32_t L = 0; L < T.lineCount(); ++L)
    S.push_back(T.lineStart(L));
  return S;
}

TEST(SourceText, LinesEndAtEveryTerminatorPythonKnows) {
  SourceText T("a\nbb\r\nc\rd\n");
  EXPECT_EQ(starts(T), (std::vector<uint32_t>{0, 2, 6, 8, 10}));
  EXPECT_EQ(T.line(1), "bb");
  EXPECT_EQ(T.line(2), "c");
  EXPECT_EQ(T.line(4), "");
  EXPECT_EQ(T.lineOf(7), 2u);
}

TEST(SourceText, EditKeepsTheLinesItLeftAlone) {
  SourceText Before("def f():\n    x = 1\n    y = 2\n");
  std::string After = "def f():\n    x = 10\n\n    y = 2\n";
  // "1" -> "10\n": the first 16 bytes and the last 11 unchanged.
  SourceText T(After, "", Before, 16, 11);
  EXPECT_EQ(starts(T), starts(SourceText(After)));
}

TEST(SourceText, EditedTableEqualsAFreshScan) {
  std::mt19937 Rng(14);
  const char Alphabet[] = {'a', 'b', ' ', '\n', '\n', '\r'};
  auto RandomText = [&](size_t N) {
    std::string S;
    for (size_t I = 0; I < N; ++I)
      S += Alphabet[Rng() % sizeof(Alphabet)];
    return S;
  };
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Old = RandomText(Rng() % 40);
    uint32_t Begin = static_cast<uint32_t>(Rng() % (Old.size() + 1));
    uint32_t End = Begin + static_cast<uint32_t>(Rng() % (Old.size() - Begin + 1));
    std::string New = Old;
    New.replace(Begin, End - Begin, RandomText(Rng() % 6));
    SourceText Before(Old);
    uint32_t Suffix = static_cast<uint32_t>(Old.size() - End);
    SourceText T(New, "p.py", Before, Begin, Suffix);
    ASSERT_EQ(starts(T), starts(SourceText(New)))
        << "round " << Round << ": " << testing::PrintToString(Old) << " -> " << testing::PrintToString(New);
    EXPECT_EQ(T.path(), "p.py");
  }
}
