//===- LineIndexTest.cpp - byte offsets <-> LSP positions -----------------===//
/// \file
/// Tests LineIndex on the texts that break naive converters: CRLF and lone
/// CR, characters of every UTF-8 length, surrogate pairs, invalid bytes,
/// clamping past line and text ends, and a round trip over every offset.
//===----------------------------------------------------------------------===//
#include "lsp/LineIndex.h"

#include <gtest/gtest.h>

using namespace tessel::lsp;

namespace {

constexpr PositionEncoding U8 = PositionEncoding::UTF8;
constexpr PositionEncoding U16 = PositionEncoding::UTF16;
constexpr PositionEncoding U32 = PositionEncoding::UTF32;

TEST(LineIndex, AsciiLines) {
  LineIndex Idx("ab\ncd\n");
  EXPECT_EQ(Idx.lineCount(), 3u);
  EXPECT_EQ(Idx.position(0), (Position{0, 0}));
  EXPECT_EQ(Idx.position(2), (Position{0, 2}));
  EXPECT_EQ(Idx.position(3), (Position{1, 0}));
  EXPECT_EQ(Idx.position(5), (Position{1, 2}));
  EXPECT_EQ(Idx.position(6), (Position{2, 0}));
  EXPECT_EQ(Idx.offset({1, 1}), 4u);
  EXPECT_EQ(Idx.line(1), "cd");
}

TEST(LineIndex, CrLfAndLoneCr) {
  LineIndex Idx("a\r\nb\rc\n");
  ASSERT_EQ(Idx.lineCount(), 4u);
  EXPECT_EQ(Idx.line(0), "a");
  EXPECT_EQ(Idx.line(1), "b");
  EXPECT_EQ(Idx.line(2), "c");
  EXPECT_EQ(Idx.position(3), (Position{1, 0}));
  EXPECT_EQ(Idx.position(5), (Position{2, 0}));
  // Between '\r' and '\n' is still the end of line 0.
  EXPECT_EQ(Idx.position(2), (Position{0, 1}));
  // A column past the end never lands inside the terminator.
  EXPECT_EQ(Idx.offset({0, 99}), 1u);
  EXPECT_EQ(Idx.offset({1, 99}), 4u);
}

TEST(LineIndex, MultiByteCharacters) {
  // "é" is 2 bytes / 1 UTF-16 unit, "€" 3 / 1, "😀" (U+1F600) 4 / 2.
  std::string Line = "x=\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"+y";
  LineIndex Idx(Line);
  uint32_t AfterSmiley = 3 + 2 + 3 + 4; // offset of the closing quote
  EXPECT_EQ(Idx.position(AfterSmiley, U16), (Position{0, 3 + 1 + 1 + 2}));
  EXPECT_EQ(Idx.position(AfterSmiley, U32), (Position{0, 3 + 1 + 1 + 1}));
  EXPECT_EQ(Idx.position(AfterSmiley, U8), (Position{0, AfterSmiley}));
  EXPECT_EQ(Idx.offset({0, 7}, U16), AfterSmiley);
  EXPECT_EQ(Idx.offset({0, 6}, U32), AfterSmiley);
  EXPECT_EQ(Idx.offset({0, AfterSmiley}, U8), AfterSmiley);
  // The 'y' at the end.
  EXPECT_EQ(Idx.position(static_cast<uint32_t>(Line.size()) - 1, U16), (Position{0, 9}));
}

TEST(LineIndex, InsideSurrogatePairRoundsDown) {
  LineIndex Idx("\xF0\x9F\x98\x80z");
  // UTF-16 column 1 is between the two surrogates: the character's start.
  EXPECT_EQ(Idx.offset({0, 1}, U16), 0u);
  EXPECT_EQ(Idx.offset({0, 2}, U16), 4u);
  // A byte offset inside the 4-byte sequence maps to its start too.
  EXPECT_EQ(Idx.position(2, U16), (Position{0, 0}));
  EXPECT_EQ(Idx.offset({0, 2}, U8), 0u);
}

TEST(LineIndex, InvalidUtf8CountsPerByte) {
  // A stray continuation byte, a truncated 3-byte lead, an overlong '/',
  // an encoded surrogate: every byte is one unit.
  std::string Bad = "\x80"
                    "\xE2\x82"
                    "\xC0\xAF"
                    "\xED\xA0\x80"
                    "z";
  LineIndex Idx(Bad);
  uint32_t Z = static_cast<uint32_t>(Bad.size()) - 1;
  EXPECT_EQ(Idx.position(Z, U16), (Position{0, Z}));
  EXPECT_EQ(Idx.position(Z, U32), (Position{0, Z}));
  EXPECT_EQ(Idx.offset({0, Z}, U16), Z);
  // A lead byte cut by the end of the line is invalid, not swallowing '\n'.
  LineIndex Cut("\xE2\x82\nq");
  EXPECT_EQ(Cut.lineCount(), 2u);
  EXPECT_EQ(Cut.position(2, U16), (Position{0, 2}));
  EXPECT_EQ(Cut.position(3, U16), (Position{1, 0}));
}

TEST(LineIndex, ClampsPastTheEnd) {
  LineIndex Idx("ab\ncd");
  EXPECT_EQ(Idx.position(1000), (Position{1, 2}));
  EXPECT_EQ(Idx.offset({7, 0}), 5u);
  EXPECT_EQ(Idx.offset({0, 50}), 2u);
  LineIndex Empty("");
  EXPECT_EQ(Empty.lineCount(), 1u);
  EXPECT_EQ(Empty.position(3), (Position{0, 0}));
  EXPECT_EQ(Empty.offset({2, 2}), 0u);
}

TEST(LineIndex, RoundTripsEveryCharacterBoundary) {
  std::string Text = "def k(\xC3\xA9):\r\n  s = '\xF0\x9F\x98\x80\xE2\x82\xAC'\r  t\xFF = 1\n\n# end";
  LineIndex Idx(Text);
  for (PositionEncoding Enc : {U8, U16, U32}) {
    Position Prev{0, 0};
    for (uint32_t Off = 0; Off <= Text.size(); ++Off) {
      Position P = Idx.position(Off, Enc);
      // Positions never go backwards as the offset grows.
      EXPECT_TRUE(P.Line > Prev.Line || (P.Line == Prev.Line && P.Character >= Prev.Character)) << Off;
      Prev = P;
      uint32_t Back = Idx.offset(P, Enc);
      EXPECT_LE(Back, Off);
      // Only a character's interior or a line terminator may round down.
      if (Back != Off) {
        unsigned char C = static_cast<unsigned char>(Text[Off]);
        bool Continuation = (C & 0xC0) == 0x80;
        bool Terminator = Text[Off] == '\n' || Text[Off - 1] == '\r' || Text[Off] == '\r';
        EXPECT_TRUE(Continuation || Terminator) << "offset " << Off;
      }
    }
  }
}

TEST(Utf8, DecodesEveryLength) {
  EXPECT_EQ(decodeUtf8("A").CodePoint, U'A');
  EXPECT_EQ(decodeUtf8("\xC3\xA9").CodePoint, U'\u00E9');
  EXPECT_EQ(decodeUtf8("\xE2\x82\xAC").CodePoint, U'\u20AC');
  DecodedChar Smiley = decodeUtf8("\xF0\x9F\x98\x80");
  EXPECT_TRUE(Smiley.Valid);
  EXPECT_EQ(Smiley.Bytes, 4u);
  EXPECT_EQ(codeUnits(Smiley, U16), 2u);
  EXPECT_FALSE(decodeUtf8("\xF4\x90\x80\x80").Valid); // above U+10FFFF
  EXPECT_FALSE(decodeUtf8("\xFF").Valid);
}

} // namespace
