//===- Segments.cpp - top-level statement boundaries by lexical scan ------===//
/// \file
/// Implements cst::topLevelStarts: one linear pass over the bytes, tracking
/// bracket depth, strings (with their escapes and triple quotes), comments
/// and continuation lines. Wrongly missing a boundary only merges two
/// pieces; a wrong boundary inside a statement would split valid code, so
/// every doubt keeps the line attached to what precedes it.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Segments.h"

#include <algorithm>
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

/// The offset just past the string literal whose opening quote is at I;
/// Closed says whether it ended with its quote (a one-line string left open
/// ends with its line).
size_t skipString(std::string_view S, size_t I, bool &Closed) {
  char Q = S[I];
  bool Triple = I + 2 < S.size() && S[I + 1] == Q && S[I + 2] == Q;
  size_t J = I + (Triple ? 3 : 1);
  Closed = false;
  while (J < S.size()) {
    char C = S[J];
    if (C == '\\') {
      J += 2;
      continue;
    }
    if (C == Q) {
      if (!Triple) {
        Closed = true;
        return J + 1;
      }
      if (J + 2 < S.size() && S[J + 1] == Q && S[J + 2] == Q) {
        Closed = true;
        return J + 3;
      }
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

/// How a line (with the lines a string literal in it spans) ends.
struct LineEnd {
  size_t End;              ///< its '\n' (outside every string), or the text's end
  bool Continued = false;  ///< a backslash before the newline
  bool Comment = false;    ///< it ends in a comment
  bool OpenString = false; ///< a one-line string on it is left open
};

/// Scans from I to the end of the line, tracking bracket Depth.
LineEnd scanLine(std::string_view S, size_t I, int &Depth) {
  LineEnd L;
  while (I < S.size() && S[I] != '\n') {
    char C = S[I];
    if (!Special[static_cast<unsigned char>(C)]) {
      ++I;
      continue;
    }
    if (C == '#') {
      L.Comment = true;
      while (I < S.size() && S[I] != '\n')
        ++I;
      break;
    }
    if (C == '\'' || C == '"') {
      bool Closed;
      I = skipString(S, I, Closed);
      L.OpenString = L.OpenString || !Closed;
      continue;
    }
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if ((C == ')' || C == ']' || C == '}') && Depth > 0)
      --Depth;
    else if (C == '\\' && I + 1 < S.size() && (S[I + 1] == '\n' || S[I + 1] == '\r'))
      L.Continued = true;
    ++I;
  }
  L.End = I;
  return L;
}

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
    LineEnd L = scanLine(S, I, Depth);
    I = L.End;
    Continued = L.Continued;
    if (I < S.size())
      ++I; // the newline
  }
  return false;
}

std::vector<uint32_t> startsAfterEdit(const std::vector<uint32_t> &Old, size_t OldSize, std::string_view S,
                                      size_t Prefix, size_t Suffix) {
  std::vector<uint32_t> Starts;
  if (S.empty())
    return Starts;
  // The start holding the first changed byte may stop being one (a space
  // typed at its column 0, a clause keyword completed after it); the one
  // before it lies wholly in the shared prefix, so the scan resumes there.
  size_t Holding = static_cast<size_t>(std::upper_bound(Old.begin(), Old.end(), Prefix) - Old.begin());
  size_t From = Holding >= 2 ? Holding - 2 : 0;
  Starts.reserve(Old.size() + 1);
  Starts.assign(Old.begin(), Old.begin() + static_cast<std::ptrdiff_t>(From));
  int64_t Delta = static_cast<int64_t>(S.size()) - static_cast<int64_t>(OldSize);
  size_t NewHi = S.size() - Suffix;
  size_t Next = From; // no old start before Old[Next] is past the edit
  size_t Resumed = 0;
  auto Known = [&](uint32_t At) {
    if (At < NewHi)
      return false;
    auto OldAt = static_cast<uint32_t>(int64_t(At) - Delta);
    while (Next < Old.size() && Old[Next] < OldAt)
      ++Next;
    if (Next == Old.size() || Old[Next] != OldAt)
      return false;
    Resumed = Next + 1;
    return true;
  };
  if (appendTopLevelStarts(S, From ? Old[From] : 0, Starts, Known))
    for (size_t I = Resumed; I < Old.size(); ++I)
      Starts.push_back(static_cast<uint32_t>(Old[I] + Delta));
  return Starts;
}

std::optional<uint32_t> lastPaddableLineEnd(std::string_view S, uint32_t Begin, uint32_t End) {
  std::optional<uint32_t> Last;
  int Depth = 0;
  size_t I = Begin;
  End = std::min<uint32_t>(End, static_cast<uint32_t>(S.size()));
  while (I < End) {
    LineEnd L = scanLine(S, I, Depth);
    if (L.End >= End || L.End >= S.size())
      break; // the text's last line has no terminator to pad before
    if (!L.Continued && !L.Comment && !L.OpenString) {
      // Before "\r\n", the terminator starts at the '\r'.
      size_t At = L.End > I && S[L.End - 1] == '\r' ? L.End - 1 : L.End;
      Last = static_cast<uint32_t>(At);
    }
    I = L.End + 1;
  }
  return Last;
}

} // namespace tessel::cst
