//===- Segments.cpp - top-level statement boundaries by lexical scan ------===//
/// \file
/// Implements cst::topLevelStarts: one linear pass over the bytes, tracking
/// bracket depth, strings (with their escapes and triple quotes), comments
/// and continuation lines. Wrongly missing a boundary only merges two
/// pieces; a wrong boundary inside a statement would split valid code, so
/// every doubt keeps the line attached to what precedes it.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Segments.h"

#include <array>
#include <cctype>

namespace tessel::cst {

bool startsDefinition(std::string_view Line) {
  for (std::string_view K : {"def ", "class ", "@", "async def "})
    if (Line.substr(0, K.size()) == K)
      return true;
  return false;
}

namespace {

/// A clause that continues the compound statement above it.
bool startsClause(std::string_view Line) {
  for (std::string_view K : {"else", "elif", "except", "finally"}) {
    if (Line.substr(0, K.size()) != K)
      continue;
    if (Line.size() == K.size())
      return true;
    unsigned char Next = static_cast<unsigned char>(Line[K.size()]);
    if (!std::isalnum(Next) && Next != '_' && Next < 0x80)
      return true;
  }
  return false;
}

/// The offset just past the string literal whose opening quote is at I.
size_t skipString(std::string_view S, size_t I) {
  char Q = S[I];
  bool Triple = I + 2 < S.size() && S[I + 1] == Q && S[I + 2] == Q;
  size_t J = I + (Triple ? 3 : 1);
  while (J < S.size()) {
    char C = S[J];
    if (C == '\\') {
      J += 2;
      continue;
    }
    if (C == Q) {
      if (!Triple)
        return J + 1;
      if (J + 2 < S.size() && S[J + 1] == Q && S[J + 2] == Q)
        return J + 3;
    } else if (!Triple && C == '\n') {
      return J; // an unterminated one-line string ends with its line
    }
    ++J;
  }
  return S.size();
}

/// The bytes the scan of a line must look at; the rest are skipped at once.
constexpr std::array<bool, 256> Special = [] {
  std::array<bool, 256> T{};
  for (unsigned char C : std::string_view("#'\"()[]{}\\\n"))
    T[C] = true;
  return T;
}();

} // namespace

std::vector<uint32_t> topLevelStarts(std::string_view S) {
  std::vector<uint32_t> Starts;
  appendTopLevelStarts(S, 0, Starts, nullptr);
  return Starts;
}

bool appendTopLevelStarts(std::string_view S, uint32_t From, std::vector<uint32_t> &Starts,
                          const std::function<bool(uint32_t)> &Known) {
  if (From >= S.size())
    return false;
  // From is a start (or 0): the scan's state there is the initial one.
  auto Found = [&](size_t At) {
    Starts.push_back(static_cast<uint32_t>(At));
    return Known && Known(static_cast<uint32_t>(At));
  };
  if (From == 0 && Found(0))
    return true;
  int Depth = 0;
  bool AfterDecorator = false, Continued = false;
  size_t I = From;
  while (I < S.size()) {
    char First = S[I];
    bool Code =
        !Continued && First != ' ' && First != '\t' && First != '\f' && First != '\n' && First != '\r' && First != '#';
    if (Code) {
      std::string_view Line = S.substr(I);
      if (startsDefinition(Line))
        Depth = 0;
      if (Depth == 0) {
        if (!AfterDecorator && !startsClause(Line) && I != 0 && Found(I))
          return true;
        AfterDecorator = First == '@';
      }
    }
    Continued = false;
    while (I < S.size() && S[I] != '\n') {
      char C = S[I];
      if (!Special[static_cast<unsigned char>(C)]) {
        ++I;
        continue;
      }
      if (C == '#') {
        while (I < S.size() && S[I] != '\n')
          ++I;
        break;
      }
      if (C == '\'' || C == '"') {
        I = skipString(S, I);
        continue;
      }
      if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if ((C == ')' || C == ']' || C == '}') && Depth > 0)
        --Depth;
      else if (C == '\\' && I + 1 < S.size() && (S[I + 1] == '\n' || S[I + 1] == '\r'))
        Continued = true;
      ++I;
    }
    if (I < S.size())
      ++I; // the newline
  }
  return false;
}

} // namespace tessel::cst
