//===- SourceText.cpp - a file's text with its line table -----------------===//
#include "compiler/support/SourceText.h"

#include <algorithm>
#include <cstring>

namespace tessel {

SourceText::SourceText(std::string TheText, std::string ThePath) : Text(std::move(TheText)), Path(std::move(ThePath)) {
  // Sized from a typical line length rather than counted: counting was a
  // second pass over the text, as long as the scan itself.
  LineStarts.reserve(Text.size() / 32 + 1);
  LineStarts.push_back(0);
  scanLineStarts(1, static_cast<uint32_t>(Text.size()) + 1);
}

SourceText::SourceText(std::string TheText, std::string ThePath, const SourceText &Before, uint32_t Prefix,
                       uint32_t Suffix)
    : Text(std::move(TheText)), Path(std::move(ThePath)) {
  uint32_t OldSize = static_cast<uint32_t>(Before.Text.size()), NewSize = static_cast<uint32_t>(Text.size());
  Prefix = std::min({Prefix, OldSize, NewSize});
  Suffix = std::min({Suffix, OldSize - Prefix, NewSize - Prefix});
  // Whether offset S starts a line depends on the bytes at S - 1 and S (a
  // '\r' ends a line unless a '\n' follows): starts below Prefix read only
  // bytes of the prefix, and starts past the edit's last byte only bytes of
  // the suffix, so those are Before's; the ones between are scanned.
  uint32_t OldEnd = OldSize - Suffix, NewEnd = NewSize - Suffix;
  auto Low = std::lower_bound(Before.LineStarts.begin(), Before.LineStarts.end(), std::max<uint32_t>(Prefix, 1));
  auto High = std::upper_bound(Low, Before.LineStarts.end(), OldEnd);
  LineStarts.reserve(Before.LineStarts.size() + (NewEnd - Prefix) / 16 + 1);
  LineStarts.assign(Before.LineStarts.begin(), Low);
  scanLineStarts(std::max<uint32_t>(Prefix, 1), NewEnd + 1);
  for (auto It = High; It != Before.LineStarts.end(); ++It)
    LineStarts.push_back(*It - OldEnd + NewEnd);
}

void SourceText::scanLineStarts(uint32_t From, uint32_t To) {
  const char *Data = Text.data();
  uint32_t Size = static_cast<uint32_t>(Text.size());
  To = std::min(To, Size + 1);
  if (From >= To)
    return;
  // Line S starts where byte S - 1 is '\n', or a '\r' without a '\n' after
  // it (a lone CR ends a line, as in Python). Without a '\r' the '\n's are
  // found by memchr, not byte by byte (a keystroke in a 5 MB file spent
  // 3 ms here).
  const char *Begin = Data + From - 1, *End = Data + To - 1;
  if (!std::memchr(Begin, '\r', static_cast<size_t>(End - Begin))) {
    for (const char *P = Begin; (P = static_cast<const char *>(std::memchr(P, '\n', static_cast<size_t>(End - P))));
         ++P)
      LineStarts.push_back(static_cast<uint32_t>(P - Data) + 1);
    return;
  }
  for (uint32_t I = From - 1; I + 1 < To; ++I) {
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
    else if (Text[I] == '\r' && (I + 1 == Size || Text[I + 1] != '\n'))
      LineStarts.push_back(I + 1);
  }
}

uint32_t SourceText::lineStart(uint32_t Line) const {
  return Line < LineStarts.size() ? LineStarts[Line] : static_cast<uint32_t>(Text.size());
}

uint32_t SourceText::lineOf(uint32_t Offset) const {
  auto It =
      std::upper_bound(LineStarts.begin(), LineStarts.end(), std::min(Offset, static_cast<uint32_t>(Text.size())));
  return static_cast<uint32_t>(It - LineStarts.begin()) - 1;
}

std::string_view SourceText::slice(SourceRange R) const {
  uint32_t Size = static_cast<uint32_t>(Text.size());
  uint32_t B = std::min(R.Begin, Size), E = std::min(std::max(R.End, B), Size);
  return std::string_view(Text).substr(B, E - B);
}

LineCol SourceText::lineCol(uint32_t Offset) const {
  Offset = std::min(Offset, static_cast<uint32_t>(Text.size()));
  uint32_t Line = lineOf(Offset);
  return {Line, Offset - LineStarts[Line]};
}

uint32_t SourceText::offset(LineCol LC) const {
  if (LC.Line >= LineStarts.size())
    return static_cast<uint32_t>(Text.size());
  std::string_view L = line(LC.Line);
  return LineStarts[LC.Line] + std::min<uint32_t>(LC.Column, static_cast<uint32_t>(L.size()));
}

std::string_view SourceText::line(uint32_t Line) const {
  if (Line >= LineStarts.size())
    return {};
  uint32_t B = LineStarts[Line];
  uint32_t E = Line + 1 < LineStarts.size() ? LineStarts[Line + 1] : static_cast<uint32_t>(Text.size());
  std::string_view S = std::string_view(Text).substr(B, E - B);
  while (!S.empty() && (S.back() == '\n' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

} // namespace tessel
