//===- JsonOutputTest.cpp - the JSON report's layout ----------------------===//
/// \file
/// Tests that the one-diagnostic-per-line report is valid JSON with the
/// documented shape, escapes paths, and looks as the goldens expect.
//===----------------------------------------------------------------------===//
#include "tools/JsonOutput.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace tessel::tools;
using nlohmann::json;

namespace {

std::string report(const std::vector<FileDiagnostics> &Files) {
  std::ostringstream OS;
  writeJsonReport(OS, Files);
  return OS.str();
}

TEST(JsonOutput, EmptyRun) { EXPECT_EQ(report({}), "[]\n"); }

TEST(JsonOutput, OneDiagnosticPerLine) {
  json D1 = {{"code", "TS104"}, {"severity", 1}};
  json D2 = {{"code", "TS201"}, {"severity", 2}};
  std::string Out = report({{"a.py", {D1, D2}}, {"b \"q\".py", {}}});
  EXPECT_EQ(Out, "[\n"
                 "  {\"file\": \"a.py\", \"diagnostics\": [\n"
                 "    {\"code\":\"TS104\",\"severity\":1},\n"
                 "    {\"code\":\"TS201\",\"severity\":2}\n"
                 "  ]},\n"
                 "  {\"file\": \"b \\\"q\\\".py\", \"diagnostics\": []}\n"
                 "]\n");
  json Parsed = json::parse(Out);
  ASSERT_EQ(Parsed.size(), 2u);
  EXPECT_EQ(Parsed[0]["diagnostics"][1]["code"], "TS201");
  EXPECT_EQ(Parsed[1]["file"], "b \"q\".py");
}

} // namespace
