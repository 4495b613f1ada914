//===- ToProtocolTest.cpp - Finding -> LSP Diagnostic JSON ----------------===//
/// \file
/// Tests the exact JSON a Finding becomes, since the server publishes it and
/// `tessel check --format=json` prints it: UTF-16 ranges, numeric severity,
/// string code, the specialization suffix and related information.
//===----------------------------------------------------------------------===//
#include "lsp/ToProtocol.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::lsp;
using nlohmann::json;

namespace {

diag::Finding makeFinding(diag::DiagId Id, SourceRange R, std::string Message) {
  return diag::Finding{Id, diag::codeInfo(Id).DefaultSeverity, R, std::move(Message), {}, {}, {}};
}

TEST(ToProtocol, DiagnosticFields) {
  // "é" before the range makes the UTF-16 column differ from the byte column.
  LineIndex Idx("x = 1\ny = '\xC3\xA9' + tl.arange(0, 3)\n");
  uint32_t Begin = 6 + 11, End = Begin + 15; // "tl.arange(0, 3)", 11 bytes into line 1
  diag::Finding F = makeFinding(diag::DiagId::ArangeRange, {Begin, End}, "arange's range must be a power of 2");
  json D = toProtocol(F, Idx, "file:///k.py");
  json Expected = json::parse(R"({
    "range": {"start": {"line": 1, "character": 10}, "end": {"line": 1, "character": 25}},
    "severity": 1, "code": "TS105", "source": "tessel",
    "message": "arange's range must be a power of 2"})");
  EXPECT_EQ(D, Expected) << D.dump();
}

TEST(ToProtocol, SeverityIsNumericAndSpecializationIsAppended) {
  LineIndex Idx("tl.load(p + offs)\n");
  diag::Finding F = makeFinding(diag::DiagId::UnmaskedAxis, {0, 17}, "load is not masked along axis 0");
  F.Specialization = "BLOCK=1024, num_warps=8";
  json D = toProtocol(F, Idx, "file:///k.py");
  EXPECT_EQ(D["severity"], 2);
  EXPECT_EQ(D["code"], "TS201");
  EXPECT_EQ(D["message"], "load is not masked along axis 0 [under BLOCK=1024, num_warps=8]");
  EXPECT_FALSE(D.contains("relatedInformation"));
}

TEST(ToProtocol, RelatedInformationCarriesTheUri) {
  LineIndex Idx("a\nbb\nccc\n");
  diag::Finding F = makeFinding(diag::DiagId::BlockShape, {5, 8}, "bad");
  F.Related.push_back({{2, 4}, "config defined here"});
  json D = toProtocol(F, Idx, "file:///w/k.py");
  ASSERT_TRUE(D.contains("relatedInformation"));
  json Expected = json::parse(R"([{"location": {"uri": "file:///w/k.py",
    "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 2}}},
    "message": "config defined here"}])");
  EXPECT_EQ(D["relatedInformation"], Expected) << D.dump();
}

TEST(ToProtocol, ReversedAndOutOfRangeRangesAreClamped) {
  LineIndex Idx("ab\n");
  json R = toProtocol(SourceRange{2, 1}, Idx);
  EXPECT_EQ(R["start"], R["end"]);
  json Far = toProtocol(SourceRange{1, 1000}, Idx);
  EXPECT_EQ(Far["end"], json::parse(R"({"line": 1, "character": 0})"));
}

TEST(ToProtocol, OtherEncodings) {
  LineIndex Idx("\xF0\x9F\x98\x80x");
  json R16 = toProtocol(SourceRange{4, 5}, Idx, PositionEncoding::UTF16);
  json R32 = toProtocol(SourceRange{4, 5}, Idx, PositionEncoding::UTF32);
  json R8 = toProtocol(SourceRange{4, 5}, Idx, PositionEncoding::UTF8);
  EXPECT_EQ(R16["start"]["character"], 2);
  EXPECT_EQ(R32["start"]["character"], 1);
  EXPECT_EQ(R8["start"]["character"], 4);
}

} // namespace
