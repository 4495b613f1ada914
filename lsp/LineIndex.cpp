//===- LineIndex.cpp - byte offsets <-> LSP positions ---------------------===//
/// \file
/// Implements LineIndex: a line table built once per text, plus a strict
/// UTF-8 decoder (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF) so that invalid bytes are counted one by one, the same way an
/// editor replaces each with U+FFFD.
//===----------------------------------------------------------------------===//
#include "lsp/LineIndex.h"

#include <algorithm>
#include <cstring>

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

LineIndex::LineIndex(std::string TheText) : Own(std::move(TheText)) { index(); }

LineIndex::LineIndex(std::shared_ptr<const SourceText> TheText) : Source(std::move(TheText)) { index(); }

void LineIndex::index() {
  const std::string &Text = text();
  uint32_t Size = static_cast<uint32_t>(Text.size());
  // Sized once: growing by doubling left up to 2 MB unused in a 5 MB file's index.
  Lines.reserve(std::count(Text.begin(), Text.end(), '\n') + 1);
  uint32_t Start = 0;
  bool Ascii = true;
  // Every version of a document is indexed (a keystroke in a 5 MB file: 3 % of
  // the server's CPU byte by byte): without a '\r', lines end at each '\n'
  // found by memchr and a line's bytes are or-ed, which vectorizes.
  if (!std::memchr(Text.data(), '\r', Size)) {
    const char *Data = Text.data();
    while (true) {
      const void *Nl = std::memchr(Data + Start, '\n', Size - Start);
      uint32_t End = Nl ? static_cast<uint32_t>(static_cast<const char *>(Nl) - Data) : Size;
      unsigned char Or = 0;
      for (uint32_t I = Start; I < End; ++I)
        Or |= static_cast<unsigned char>(Data[I]);
      Lines.push_back({Start, End, Or < 0x80});
      if (!Nl)
        return;
      Start = End + 1;
    }
  }
  for (uint32_t I = 0; I < Size; ++I) {
    char C = Text[I];
    if (C != '\n' && C != '\r') {
      Ascii &= static_cast<unsigned char>(C) < 0x80;
      continue;
    }
    Lines.push_back({Start, I, Ascii});
    if (C == '\r' && I + 1 < Size && Text[I + 1] == '\n')
      ++I;
    Start = I + 1;
    Ascii = true;
  }
  Lines.push_back({Start, Size, Ascii});
}

uint32_t LineIndex::lineOf(uint32_t Offset) const {
  auto It =
      std::upper_bound(Lines.begin(), Lines.end(), Offset, [](uint32_t O, const LineInfo &L) { return O < L.Start; });
  return static_cast<uint32_t>(It - Lines.begin()) - 1;
}

std::string_view LineIndex::line(uint32_t Line) const {
  if (Line >= Lines.size())
    return {};
  return std::string_view(text()).substr(Lines[Line].Start, Lines[Line].End - Lines[Line].Start);
}

uint32_t LineIndex::lineStart(uint32_t Line) const {
  return Line < Lines.size() ? Lines[Line].Start : static_cast<uint32_t>(text().size());
}

Position LineIndex::position(uint32_t Offset, PositionEncoding Enc) const {
  Offset = std::min(Offset, static_cast<uint32_t>(text().size()));
  uint32_t LineNo = lineOf(Offset);
  const LineInfo &L = Lines[LineNo];
  // An offset inside "\r\n" (between the two bytes) belongs to the line end.
  uint32_t Target = std::min(Offset, L.End);
  if (L.Ascii || Enc == PositionEncoding::UTF8)
    return {LineNo, Target - L.Start};

  std::string_view S = std::string_view(text()).substr(0, L.End);
  uint32_t Column = 0;
  for (uint32_t I = L.Start; I < Target;) {
    DecodedChar C = decodeUtf8(S.substr(I));
    if (I + C.Bytes > Target)
      break; // Offset is inside this character: report its start
    Column += codeUnits(C, Enc);
    I += C.Bytes;
  }
  return {LineNo, Column};
}

uint32_t LineIndex::offset(Position P, PositionEncoding Enc) const {
  if (P.Line >= Lines.size())
    return static_cast<uint32_t>(text().size());
  const LineInfo &L = Lines[P.Line];
  uint32_t Width = L.End - L.Start;
  if (L.Ascii)
    return L.Start + std::min(P.Character, Width);

  std::string_view S = std::string_view(text()).substr(0, L.End);
  uint32_t Column = 0;
  uint32_t I = L.Start;
  while (I < L.End) {
    DecodedChar C = decodeUtf8(S.substr(I));
    uint32_t Units = Enc == PositionEncoding::UTF8 ? C.Bytes : codeUnits(C, Enc);
    if (Column + Units > P.Character)
      break; // the column is at or inside this character: its start
    Column += Units;
    I += C.Bytes;
  }
  return I;
}

} // namespace tessel::lsp
