//===- SourceText.cpp - a file's text with its line table -----------------===//
#include "compiler/support/SourceText.h"

#include <algorithm>

namespace tessel {

SourceText::SourceText(std::string TheText, std::string ThePath) : Text(std::move(TheText)), Path(std::move(ThePath)) {
  LineStarts.push_back(0);
  for (uint32_t I = 0, E = static_cast<uint32_t>(Text.size()); I < E; ++I) {
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
    else if (Text[I] == '\r' && (I + 1 == E || Text[I + 1] != '\n'))
      LineStarts.push_back(I + 1); // a lone CR ends a line, as in Python
  }
}

std::string_view SourceText::slice(SourceRange R) const {
  uint32_t Size = static_cast<uint32_t>(Text.size());
  uint32_t B = std::min(R.Begin, Size), E = std::min(std::max(R.End, B), Size);
  return std::string_view(Text).substr(B, E - B);
}

LineCol SourceText::lineCol(uint32_t Offset) const {
  Offset = std::min(Offset, static_cast<uint32_t>(Text.size()));
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  uint32_t Line = static_cast<uint32_t>(It - LineStarts.begin()) - 1;
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
