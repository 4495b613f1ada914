//===- DiagnosticsDocTest.cpp - docs/diagnostics.md documents every code --===//
/// \file
/// Every code in diag::allCodes() must have a `## TSNNN name` section in
/// docs/diagnostics.md with a **Bad** and a **Fixed** Python example, and
/// every such heading must name a code that exists with the same name: a new
/// code cannot ship undocumented, and a renamed one cannot leave a stale page.
//===----------------------------------------------------------------------===//
#include "diagnostics/Finding.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

using namespace tessel;

namespace {

std::string readDoc() {
  std::ifstream In(std::string(TESSEL_SOURCE_DIR) + "/docs/diagnostics.md", std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// Sections keyed by their `## ` heading text, each holding its body.
std::map<std::string, std::string> sections(const std::string &Doc) {
  std::map<std::string, std::string> Out;
  std::istringstream In(Doc);
  std::string Line, Heading;
  bool InFence = false;
  while (std::getline(In, Line)) {
    if (Line.rfind("```", 0) == 0)
      InFence = !InFence;
    if (!InFence && Line.rfind("## ", 0) == 0) {
      Heading = Line.substr(3);
      Out[Heading];
      continue;
    }
    if (!Heading.empty())
      Out[Heading] += Line + "\n";
  }
  return Out;
}

/// True when Marker (e.g. "**Bad**") is followed, after blank lines only, by
/// a non-empty ```python block.
bool hasExample(const std::string &Body, const std::string &Marker) {
  size_t At = Body.find(Marker + "\n");
  if (At == std::string::npos)
    return false;
  size_t I = At + Marker.size() + 1;
  while (I < Body.size() && Body[I] == '\n')
    ++I;
  if (Body.compare(I, 10, "```python\n") != 0)
    return false;
  size_t Close = Body.find("\n```", I + 10);
  return Close != std::string::npos && Close > I + 10;
}

TEST(DiagnosticsDoc, EveryCodeHasASectionWithBadAndFixed) {
  std::string Doc = readDoc();
  ASSERT_FALSE(Doc.empty()) << "cannot read docs/diagnostics.md";
  std::map<std::string, std::string> Sections = sections(Doc);
  for (const diag::CodeInfo &Info : diag::allCodes()) {
    std::string Heading = std::string(Info.Code) + " " + std::string(Info.Name);
    auto It = Sections.find(Heading);
    if (It == Sections.end()) {
      ADD_FAILURE() << "docs/diagnostics.md has no section `## " << Heading << "`";
      continue;
    }
    EXPECT_TRUE(hasExample(It->second, "**Bad**")) << Heading << ": no **Bad** ```python block";
    EXPECT_TRUE(hasExample(It->second, "**Fixed**")) << Heading << ": no **Fixed** ```python block";
    EXPECT_NE(It->second.find("essage"), std::string::npos) << Heading << ": the message is not given";
  }
}

TEST(DiagnosticsDoc, EveryCodeSectionNamesAnExistingCode) {
  std::map<std::string, std::string> Sections = sections(readDoc());
  for (const auto &[Heading, Body] : Sections) {
    if (Heading.rfind("TS", 0) != 0)
      continue;
    bool Known = false;
    for (const diag::CodeInfo &Info : diag::allCodes())
      Known |= Heading == std::string(Info.Code) + " " + std::string(Info.Name);
    EXPECT_TRUE(Known) << "`## " << Heading << "` names no code in diagnostics/Codes.def";
  }
}

TEST(DiagnosticsDoc, ExampleDetectorRejectsAMissingBlock) {
  EXPECT_TRUE(hasExample("**Bad**\n\n```python\nx = 1\n```\n", "**Bad**"));
  EXPECT_FALSE(hasExample("**Bad**\n\nsome prose\n```python\nx = 1\n```\n", "**Bad**"));
  EXPECT_FALSE(hasExample("**Bad**\n```python\n```\n", "**Bad**"));
  EXPECT_FALSE(hasExample("**Fixed**\n```python\nx = 1\n```\n", "**Bad**"));
}

} // namespace
