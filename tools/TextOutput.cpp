//===- TextOutput.cpp - findings as compiler-style text -------------------===//
/// \file
/// Implements the clang-style renderer. Column arithmetic goes through
/// lsp::LineIndex (UTF-32 columns are characters), the same index the JSON
/// output and the server use, so text and JSON always agree on positions.
//===----------------------------------------------------------------------===//
#include "tools/TextOutput.h"

#include "lsp/ToProtocol.h"

#include <algorithm>

namespace tessel::tools {

namespace {
constexpr const char *Reset = "\033[0m";
constexpr const char *Bold = "\033[1m";
constexpr const char *Red = "\033[1;31m";
constexpr const char *Magenta = "\033[1;35m";
constexpr const char *Cyan = "\033[1;36m";
constexpr const char *Green = "\033[1;32m";
constexpr unsigned TabStop = 8;
} // namespace

static const char *severityColor(diag::Severity S) {
  switch (S) {
  case diag::Severity::Error:
    return Red;
  case diag::Severity::Warning:
    return Magenta;
  case diag::Severity::Information:
  case diag::Severity::Hint:
    return Cyan;
  }
  return Red;
}

/// Terminal columns a character takes: 2 for East Asian wide characters and
/// emoji, 0 for combining marks, else 1 (a small wcwidth, enough to keep the
/// caret under the right character in comments and strings).
static unsigned charWidth(char32_t C) {
  if ((C >= 0x0300 && C <= 0x036F) || (C >= 0x200B && C <= 0x200F) || (C >= 0xFE00 && C <= 0xFE0F))
    return 0;
  if ((C >= 0x1100 && C <= 0x115F) || (C >= 0x2E80 && C <= 0xA4CF) || (C >= 0xAC00 && C <= 0xD7A3) ||
      (C >= 0xF900 && C <= 0xFAFF) || (C >= 0xFE30 && C <= 0xFE4F) || (C >= 0xFF00 && C <= 0xFF60) ||
      (C >= 0xFFE0 && C <= 0xFFE6) || (C >= 0x1F300 && C <= 0x1F64F) || (C >= 0x1F900 && C <= 0x1F9FF) ||
      (C >= 0x20000 && C <= 0x3FFFD))
    return 2;
  return 1;
}

/// Display width of Line's prefix [0, Bytes), with tabs expanded.
static unsigned displayWidth(std::string_view Line, size_t Bytes) {
  unsigned Width = 0;
  for (size_t I = 0; I < Bytes && I < Line.size();) {
    if (Line[I] == '\t') {
      Width += TabStop - Width % TabStop;
      ++I;
      continue;
    }
    lsp::DecodedChar C = lsp::decodeUtf8(Line.substr(I));
    I += C.Bytes;
    Width += charWidth(C.CodePoint);
  }
  return Width;
}

static std::string expandTabs(std::string_view Line) {
  std::string Out;
  unsigned Width = 0;
  for (size_t I = 0; I < Line.size();) {
    if (Line[I] == '\t') {
      unsigned N = TabStop - Width % TabStop;
      Out.append(N, ' ');
      Width += N;
      ++I;
      continue;
    }
    lsp::DecodedChar C = lsp::decodeUtf8(Line.substr(I));
    Out.append(Line.substr(I, C.Bytes));
    Width += charWidth(C.CodePoint);
    I += C.Bytes;
  }
  return Out;
}

std::string renderExcerpt(const lsp::LineIndex &Index, SourceRange R, const TextStyle &Style) {
  uint32_t Size = static_cast<uint32_t>(Index.text().size());
  uint32_t Begin = std::min(R.Begin, Size);
  uint32_t End = std::min(std::max(R.End, Begin), Size);
  lsp::Position Start = Index.position(Begin, lsp::PositionEncoding::UTF8);
  std::string_view Line = Index.line(Start.Line);
  // Only the part of the range on its first line is underlined.
  size_t FirstByte = Start.Character;
  size_t LastByte = std::min<size_t>(End - Index.lineStart(Start.Line), Line.size());
  unsigned From = displayWidth(Line, FirstByte);
  unsigned To = std::max(displayWidth(Line, LastByte), From + 1);

  std::string Out = expandTabs(Line);
  Out += '\n';
  Out.append(From, ' ');
  if (Style.Color)
    Out += Green;
  Out += '^';
  Out.append(To - From - 1, '~');
  if (Style.Color)
    Out += Reset;
  Out += '\n';
  return Out;
}

static void renderLocation(std::ostream &OS, const lsp::LineIndex &Index, const std::string &Path, uint32_t Offset,
                           std::string_view Label, const char *LabelColor, const std::string &Message,
                           std::string_view Code, const TextStyle &Style) {
  lsp::Position P = Index.position(Offset, lsp::PositionEncoding::UTF32);
  if (Style.Color)
    OS << Bold;
  OS << Path << ':' << P.Line + 1 << ':' << P.Character + 1 << ": ";
  if (Style.Color)
    OS << LabelColor;
  OS << Label << ": ";
  if (Style.Color)
    OS << Reset << Bold;
  OS << Message;
  if (!Code.empty())
    OS << " [" << Code << ']';
  if (Style.Color)
    OS << Reset;
  OS << '\n';
}

void renderFinding(std::ostream &OS, const diag::Finding &F, const lsp::LineIndex &Index, const std::string &Path,
                   const TextStyle &Style) {
  renderLocation(OS, Index, Path, F.Range.Begin, diag::severityName(F.Sev), severityColor(F.Sev),
                 lsp::displayMessage(F), F.code(), Style);
  OS << renderExcerpt(Index, F.Range, Style);
  for (const RelatedLocation &R : F.Related) {
    if (R.File) { // a place in another file (an imported helper)
      lsp::LineIndex Other(R.File->text());
      renderLocation(OS, Other, lsp::relativePath(R.File->path()), R.Range.Begin, "note", Cyan, R.Message, {}, Style);
      OS << renderExcerpt(Other, R.Range, Style);
      continue;
    }
    renderLocation(OS, Index, Path, R.Range.Begin, "note", Cyan, R.Message, {}, Style);
    OS << renderExcerpt(Index, R.Range, Style);
  }
}

void CheckTotals::count(const diag::Finding &F) {
  switch (F.Sev) {
  case diag::Severity::Error:
    ++Errors;
    return;
  case diag::Severity::Warning:
    ++Warnings;
    return;
  case diag::Severity::Information:
    ++Notes;
    return;
  case diag::Severity::Hint:
    ++Hints;
    return;
  }
}

static std::string plural(size_t N, std::string_view Word) {
  std::string S = std::to_string(N) + " " + std::string(Word);
  if (N != 1)
    S += 's';
  return S;
}

std::string summaryLine(const CheckTotals &T) {
  std::string Counts;
  auto Add = [&](size_t N, std::string_view Word) {
    if (N == 0)
      return;
    if (!Counts.empty())
      Counts += ", ";
    Counts += plural(N, Word);
  };
  Add(T.Errors, "error");
  Add(T.Warnings, "warning");
  Add(T.Notes, "note");
  Add(T.Hints, "hint");
  if (Counts.empty())
    Counts = "no problems";
  return Counts + " in " + plural(T.Files, "file") + " (" + plural(T.Kernels, "kernel") + " checked)";
}

} // namespace tessel::tools
