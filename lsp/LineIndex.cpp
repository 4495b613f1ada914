//===- LineIndex.cpp - byte offsets <-> LSP positions ---------------------===//
/// \file
/// Implements LineIndex over a SourceText's line table, plus a strict
/// UTF-8 decoder (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF) so that invalid bytes are counted one by one, the same way an
/// editor replaces each with U+FFFD.
//===----------------------------------------------------------------------===//
#include "lsp/LineIndex.h"

#include <algorithm>

namespace tessel::lsp {

DecodedChar decodeUtf8(std::string_view S) {
  const DecodedChar Invalid{1, U'\uFFFD', false};
  auto Byte = [&](size_t I) { return static_cast<unsigned char>(S[I]); };
  unsigned char B0 = Byte(0);
  if (B0 < 0x80)
    return {1, static_cast<char32_t>(B0), true};

  uint32_t Len;
  char32_t CP;
  char32_t Min;
  if ((B0 & 0xE0) == 0xC0) {
    Len = 2, CP = B0 & 0x1F, Min = 0x80;
  } else if ((B0 & 0xF0) == 0xE0) {
    Len = 3, CP = B0 & 0x0F, Min = 0x800;
  } else if ((B0 & 0xF8) == 0xF0) {
    Len = 4, CP = B0 & 0x07, Min = 0x10000;
  } else {
    return Invalid; // a continuation byte or 0xF8..0xFF as a lead
  }
  if (S.size() < Len)
    return Invalid;
  for (uint32_t I = 1; I < Len; ++I) {
    unsigned char B = Byte(I);
    if ((B & 0xC0) != 0x80)
      return Invalid;
    CP = (CP << 6) | (B & 0x3F);
  }
  if (CP < Min || CP > 0x10FFFF || (CP >= 0xD800 && CP <= 0xDFFF))
    return Invalid;
  return {Len, CP, true};
}

uint32_t codeUnits(const DecodedChar &C, PositionEncoding Enc) {
  switch (Enc) {
  case PositionEncoding::UTF8:
    return C.Bytes;
  case PositionEncoding::UTF16:
    return C.Valid && C.CodePoint >= 0x10000 ? 2 : 1;
  case PositionEncoding::UTF32:
    return 1;
  }
  return 1;
}

LineIndex::LineIndex(std::string TheText, const std::vector<Slack> &S)
    : LineIndex(std::make_shared<const SourceText>(std::move(TheText)), S) {}

LineIndex::LineIndex(std::shared_ptr<const SourceText> TheText, const std::vector<Slack> &S)
    : Source(std::move(TheText)), Slacks(S) {
  SlackLines.reserve(Slacks.size());
  for (const Slack &K : Slacks)
    if (K.Size)
      SlackLines.emplace_back(Source->lineOf(K.Offset), K.Size);
}

uint32_t LineIndex::slackOn(uint32_t Line) const {
  auto It = std::lower_bound(SlackLines.begin(), SlackLines.end(), std::make_pair(Line, uint32_t{0}));
  return It != SlackLines.end() && It->first == Line ? It->second : 0;
}

std::string_view LineIndex::line(uint32_t Line) const {
  std::string_view L = Source->line(Line);
  if (!SlackLines.empty())
    L.remove_suffix(std::min<size_t>(slackOn(Line), L.size()));
  return L;
}

std::string LineIndex::clientText() const {
  const std::string &T = text();
  std::string Out;
  Out.reserve(T.size());
  size_t At = 0;
  for (const Slack &K : Slacks) {
    Out.append(T, At, K.Offset - At);
    At = K.Offset + K.Size;
  }
  Out.append(T, At, std::string::npos);
  return Out;
}

uint32_t LineIndex::lineStart(uint32_t Line) const { return Source->lineStart(Line); }

static bool isAscii(std::string_view S) {
  unsigned char Or = 0;
  for (char C : S)
    Or |= static_cast<unsigned char>(C);
  return Or < 0x80;
}

Position LineIndex::position(uint32_t Offset, PositionEncoding Enc) const {
  Offset = std::min(Offset, static_cast<uint32_t>(text().size()));
  uint32_t LineNo = Source->lineOf(Offset);
  uint32_t Start = Source->lineStart(LineNo);
  std::string_view L = line(LineNo);
  // An offset inside "\r\n" (between the two bytes), or in the line's
  // slack, is the line's end.
  uint32_t Target = std::min<uint32_t>(Offset - Start, static_cast<uint32_t>(L.size()));
  if (Enc == PositionEncoding::UTF8 || isAscii(L.substr(0, Target)))
    return {LineNo, Target};

  uint32_t Column = 0;
  for (uint32_t I = 0; I < Target;) {
    DecodedChar C = decodeUtf8(L.substr(I));
    if (I + C.Bytes > Target)
      break; // Offset is inside this character: report its start
    Column += codeUnits(C, Enc);
    I += C.Bytes;
  }
  return {LineNo, Column};
}

uint32_t LineIndex::offset(Position P, PositionEncoding Enc) const {
  if (P.Line >= Source->lineCount())
    return static_cast<uint32_t>(text().size());
  uint32_t Start = Source->lineStart(P.Line);
  std::string_view L = line(P.Line);
  uint32_t Width = static_cast<uint32_t>(L.size());
  if (isAscii(L.substr(0, std::min(P.Character, Width))))
    return Start + std::min(P.Character, Width);

  uint32_t Column = 0;
  uint32_t I = 0;
  while (I < Width) {
    DecodedChar C = decodeUtf8(L.substr(I));
    uint32_t Units = Enc == PositionEncoding::UTF8 ? C.Bytes : codeUnits(C, Enc);
    if (Column + Units > P.Character)
      break; // the column is at or inside this character: its start
    Column += Units;
    I += C.Bytes;
  }
  return Start + I;
}

} // namespace tessel::lsp
