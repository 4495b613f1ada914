//===- ConfigListEdit.cpp - rewriting an autotune configs=[...] list ------===//
#include "diagnostics/ConfigListEdit.h"

#include <set>

namespace tessel::diag {

/// Whether Between (the text from one config's end to the next one's start)
/// is a comma with blanks and comments around it: nothing of the user's
/// code that a rewrite would lose.
static bool onlySeparator(std::string_view Between) {
  size_t Commas = 0;
  for (size_t I = 0; I < Between.size(); ++I) {
    char C = Between[I];
    if (C == '#') {
      while (I < Between.size() && Between[I] != '\n')
        ++I;
      continue;
    }
    if (C == ',')
      ++Commas;
    else if (C != ' ' && C != '\t' && C != '\n' && C != '\r' && C != '\\')
      return false;
  }
  return Commas == 1;
}

std::optional<TextEdit> configListEdit(const SourceText &Text, const JitFunction &Fn, const std::vector<size_t> &Keep,
                                       std::string &Why) {
  const std::vector<AutotuneConfig> &Cs = Fn.Configs;
  if (Keep.empty()) {
    Why = "no config to keep";
    return std::nullopt;
  }
  std::set<size_t> Seen;
  for (size_t K : Keep)
    if (K >= Cs.size() || !Seen.insert(K).second) {
      Why = "config " + std::to_string(K) + " is not one of the list's, or is named twice";
      return std::nullopt;
    }
  for (size_t I = 0; I < Cs.size(); ++I) {
    std::string_view Call = Text.slice(Cs[I].Range);
    bool Literal = Call.find('(') != std::string_view::npos && Call.back() == ')';
    bool Ordered = I == 0 || Cs[I - 1].Range.End <= Cs[I].Range.Begin;
    if (!Literal || !Ordered ||
        (I > 0 && !onlySeparator(Text.slice(SourceRange{Cs[I - 1].Range.End, Cs[I].Range.Begin})))) {
      Why = "the configs are not written as a list of Config(...) calls (a comprehension or a helper builds "
            "them): edit that code to keep configs " +
            [&] {
              std::string L;
              for (size_t K : Keep)
                L += (L.empty() ? "" : ", ") + std::to_string(K);
              return L;
            }();
      return std::nullopt;
    }
  }
  std::string Joiner = ", ";
  if (Cs.size() > 1) {
    std::string_view Between = Text.slice(SourceRange{Cs[0].Range.End, Cs[1].Range.Begin});
    if (Between.find('#') == std::string_view::npos)
      Joiner = std::string(Between);
  }
  TextEdit E;
  E.Range = SourceRange{Cs.front().Range.Begin, Cs.back().Range.End};
  for (size_t K : Keep)
    E.NewText += (E.NewText.empty() ? "" : Joiner) + std::string(Text.slice(Cs[K].Range));
  return E;
}

} // namespace tessel::diag
