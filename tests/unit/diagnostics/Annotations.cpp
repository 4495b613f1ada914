//===- Annotations.cpp - expected findings written as caret comments ------===//
/// \file
/// Implements readAnnotations with a hand-written scanner rather than a
/// regex, so that each way a comment can be malformed gets its own message.
//===----------------------------------------------------------------------===//
#include "Annotations.h"

#include <array>

namespace tessel::test {

static std::vector<std::string_view> splitLines(std::string_view Text) {
  std::vector<std::string_view> Lines;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Line = Text.substr(Start, End - Start);
    if (!Line.empty() && Line.back() == '\r')
      Line.remove_suffix(1);
    Lines.push_back(Line);
    if (End == Text.size())
      break;
    Start = End + 1;
  }
  return Lines;
}

static size_t skipBlanks(std::string_view S, size_t I) {
  while (I < S.size() && (S[I] == ' ' || S[I] == '\t'))
    ++I;
  return I;
}

/// True when the line is a comment whose first non-blank character after the
/// `#` is a caret: it means to be an annotation, well formed or not.
static bool looksLikeAnnotation(std::string_view Line, size_t &CaretAt) {
  size_t I = skipBlanks(Line, 0);
  if (I >= Line.size() || Line[I] != '#')
    return false;
  size_t J = skipBlanks(Line, I + 1);
  if (J >= Line.size() || Line[J] != '^')
    return false;
  CaretAt = J;
  return true;
}

/// Parses what follows the carets: " severity[CODE]: message".
static bool parseTail(std::string_view Tail, ExpectedFinding &E, std::string &Why) {
  static const std::array<std::string_view, 4> Severities = {"error", "warning", "note", "hint"};
  if (Tail.empty() || Tail.front() != ' ') {
    Why = "expected one space after the carets";
    return false;
  }
  Tail.remove_prefix(1);
  size_t Bracket = Tail.find('[');
  if (Bracket == std::string_view::npos) {
    Why = "expected `severity[CODE]: message` after the carets";
    return false;
  }
  std::string_view Sev = Tail.substr(0, Bracket);
  bool Known = false;
  for (std::string_view S : Severities)
    Known |= S == Sev;
  if (!Known) {
    Why = "unknown severity `" + std::string(Sev) + "` (error, warning, note or hint)";
    return false;
  }
  size_t Close = Tail.find("]: ", Bracket);
  if (Close == std::string_view::npos || Close == Bracket + 1) {
    Why = "expected `[CODE]: ` after the severity";
    return false;
  }
  E.Severity = std::string(Sev);
  E.Code = std::string(Tail.substr(Bracket + 1, Close - Bracket - 1));
  E.Message = std::string(Tail.substr(Close + 3));
  while (!E.Message.empty() && (E.Message.back() == ' ' || E.Message.back() == '\t'))
    E.Message.pop_back();
  if (E.Message.empty()) {
    Why = "the message is empty";
    return false;
  }
  return true;
}

Annotations readAnnotations(std::string_view Text) {
  Annotations Result;
  std::vector<std::string_view> Lines = splitLines(Text);
  bool HaveTarget = false;
  uint32_t Target = 0;
  for (uint32_t L = 0; L < Lines.size(); ++L) {
    std::string_view Line = Lines[L];
    size_t CaretAt = 0;
    if (!looksLikeAnnotation(Line, CaretAt)) {
      HaveTarget = true;
      Target = L;
      continue;
    }
    size_t CaretEnd = CaretAt;
    while (CaretEnd < Line.size() && Line[CaretEnd] == '^')
      ++CaretEnd;
    ExpectedFinding E;
    std::string Why;
    if (!parseTail(Line.substr(CaretEnd), E, Why)) {
      Result.Problems.push_back({L, Why});
      continue;
    }
    if (!HaveTarget) {
      Result.Problems.push_back({L, "annotation with no source line above it"});
      continue;
    }
    if (CaretAt >= Lines[Target].size()) {
      Result.Problems.push_back({L, "the carets start past the end of line " + std::to_string(Target + 1)});
      continue;
    }
    E.Line = Target;
    E.StartColumn = static_cast<uint32_t>(CaretAt);
    E.EndColumn = static_cast<uint32_t>(CaretEnd);
    E.AnnotationLine = L;
    Result.Expected.push_back(std::move(E));
  }
  return Result;
}

std::string describe(const ExpectedFinding &E) {
  return std::to_string(E.Line + 1) + ":" + std::to_string(E.StartColumn + 1) + "-" + std::to_string(E.EndColumn + 1) +
         ": " + E.Severity + "[" + E.Code + "]: " + E.Message;
}

} // namespace tessel::test
