//===- TextOutputTest.cpp - compiler-style text rendering -----------------===//
/// \file
/// Tests the text `tessel check` prints, on hand-made findings: location in
/// 1-based lines and character columns, excerpt and caret under non-ASCII
/// text and tabs, multi-line ranges, related notes, colours, and the summary.
//===----------------------------------------------------------------------===//
#include "tools/TextOutput.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace tessel;
using namespace tessel::tools;

namespace {

diag::Finding finding(diag::DiagId Id, SourceRange R, std::string Message) {
  return diag::Finding{Id, diag::codeInfo(Id).DefaultSeverity, R, std::move(Message), {}, {}, {}};
}

std::string render(const std::string &Text, const diag::Finding &F, bool Color = false) {
  lsp::LineIndex Index(Text);
  std::ostringstream OS;
  renderFinding(OS, F, Index, "k.py", TextStyle{Color});
  return OS.str();
}

TEST(TextOutput, ErrorWithCaret) {
  std::string Text = "def k():\n    offs = tl.arange(0, 1000)\n";
  uint32_t B = static_cast<uint32_t>(Text.find("tl.arange"));
  auto F = finding(diag::DiagId::ArangeRange, {B, B + 18}, "arange's range must be a power of 2");
  EXPECT_EQ(render(Text, F), "k.py:2:12: error: arange's range must be a power of 2 [TS105]\n"
                             "    offs = tl.arange(0, 1000)\n"
                             "           ^~~~~~~~~~~~~~~~~~\n");
}

TEST(TextOutput, ColumnsCountCharactersNotBytes) {
  std::string Text = "s = '\xC3\xA9\xF0\x9F\x98\x80' + x\n";
  uint32_t B = static_cast<uint32_t>(Text.find('x'));
  auto F = finding(diag::DiagId::UndefinedName, {B, B + 1}, "name 'x' is not defined");
  EXPECT_EQ(render(Text, F), "k.py:1:12: error: name 'x' is not defined [TS113]\n"
                             "s = '\xC3\xA9\xF0\x9F\x98\x80' + x\n"
                             "            ^\n");
}

TEST(TextOutput, CaretSkipsWideCharactersByTheirWidth) {
  // The emoji and the CJK character take two terminal columns each; the
  // column in the location still counts characters.
  std::string Text = "s = '\xF0\x9F\x98\x80\xE6\xBC\xA2' + x\n";
  uint32_t B = static_cast<uint32_t>(Text.find('x'));
  auto F = finding(diag::DiagId::UndefinedName, {B, B + 1}, "name 'x' is not defined");
  EXPECT_EQ(render(Text, F), "k.py:1:12: error: name 'x' is not defined [TS113]\n"
                             "s = '\xF0\x9F\x98\x80\xE6\xBC\xA2' + x\n"
                             "             ^\n");
}

TEST(TextOutput, TabsAreExpandedInExcerptAndCaret) {
  std::string Text = "\tx = y\n";
  auto F = finding(diag::DiagId::UndefinedName, {5, 6}, "name 'y' is not defined");
  EXPECT_EQ(render(Text, F), "k.py:1:6: error: name 'y' is not defined [TS113]\n"
                             "        x = y\n"
                             "            ^\n");
}

TEST(TextOutput, MultiLineRangeUnderlinesFirstLineAndCrLf) {
  std::string Text = "a = f(1,\r\n      2)\r\n";
  auto F = finding(diag::DiagId::BadCall, {4, 18}, "bad call");
  EXPECT_EQ(render(Text, F), "k.py:1:5: error: bad call [TS117]\n"
                             "a = f(1,\n"
                             "    ^~~~\n");
}

TEST(TextOutput, EmptyRangeAtEndOfFileStillGetsACaret) {
  std::string Text = "def k(:\n";
  auto F = finding(diag::DiagId::SyntaxError, {8, 8}, "invalid syntax");
  EXPECT_EQ(render(Text, F), "k.py:2:1: error: invalid syntax [TS001]\n"
                             "\n"
                             "^\n");
}

TEST(TextOutput, WarningWithSpecializationAndRelatedNote) {
  std::string Text = "BLOCK=64\nx = tl.load(p)\n";
  auto F = finding(diag::DiagId::UnmaskedAxis, {13, 23}, "load is not masked");
  F.Specialization = "BLOCK=64";
  F.Related.push_back({{0, 5}, "BLOCK set here"});
  EXPECT_EQ(render(Text, F), "k.py:2:5: warning: load is not masked [under BLOCK=64] [TS201]\n"
                             "x = tl.load(p)\n"
                             "    ^~~~~~~~~~\n"
                             "k.py:1:1: note: BLOCK set here\n"
                             "BLOCK=64\n"
                             "^~~~~\n");
}

TEST(TextOutput, ColorsOnlyWhenAsked) {
  std::string Text = "x\n";
  auto F = finding(diag::DiagId::UndefinedName, {0, 1}, "name 'x' is not defined");
  EXPECT_EQ(render(Text, F).find('\033'), std::string::npos);
  std::string Colored = render(Text, F, true);
  EXPECT_NE(Colored.find("\033[1;31merror: "), std::string::npos) << Colored;
  EXPECT_NE(Colored.find("\033[1;32m^"), std::string::npos) << Colored;
}

TEST(Summary, Wording) {
  CheckTotals T;
  T.Files = 1;
  T.Kernels = 6;
  EXPECT_EQ(summaryLine(T), "no problems in 1 file (6 kernels checked)");
  T.Errors = 2;
  T.Warnings = 1;
  T.Files = 3;
  T.Kernels = 12;
  EXPECT_EQ(summaryLine(T), "2 errors, 1 warning in 3 files (12 kernels checked)");
  CheckTotals One;
  One.Errors = 1;
  One.Files = 1;
  One.Kernels = 1;
  EXPECT_EQ(summaryLine(One), "1 error in 1 file (1 kernel checked)");
  CheckTotals None;
  EXPECT_EQ(summaryLine(None), "no problems in 0 files (0 kernels checked)");
}

TEST(Summary, CountsBySeverity) {
  CheckTotals T;
  T.count(finding(diag::DiagId::BlockShape, {0, 1}, "e"));
  T.count(finding(diag::DiagId::UnmaskedAxis, {0, 1}, "w"));
  auto Note = finding(diag::DiagId::UnmaskedAxis, {0, 1}, "n");
  Note.Sev = diag::Severity::Information;
  T.count(Note);
  EXPECT_EQ(T.Errors, 1u);
  EXPECT_EQ(T.Warnings, 1u);
  EXPECT_EQ(T.Notes, 1u);
}

} // namespace
