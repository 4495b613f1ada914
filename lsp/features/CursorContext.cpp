//===- CursorContext.cpp - what the text around the cursor is ------------===//
/// \file
/// One forward pass with a bracket stack. Each open bracket remembers where
/// its current item (argument, list element, dict entry) began; an item is
/// classified when it ends (a comma) and, for the cursor's item, at the
/// cursor. The scan is bounded: it starts at the top-level statement, never
/// more than 64 KiB before the cursor.
//===----------------------------------------------------------------------===//
#include "lsp/features/CursorContext.h"

#include <algorithm>
#include <cctype>

namespace tessel::lsp {

static bool isIdent(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }
static bool isIdentStart(char C) { return std::isalpha(static_cast<unsigned char>(C)) || C == '_'; }

uint32_t statementStart(std::string_view Text, uint32_t Offset) {
  Offset = std::min<uint32_t>(Offset, static_cast<uint32_t>(Text.size()));
  uint32_t Limit = Offset > (64u << 10) ? Offset - (64u << 10) : 0;
  uint32_t Line = Offset;
  while (Line > Limit) {
    // Start of the line holding Line - 1.
    uint32_t B = Line;
    while (B > 0 && Text[B - 1] != '\n')
      --B;
    if (B < Offset && B < Text.size()) {
      char C = Text[B];
      if (C != ' ' && C != '\t' && C != '\n' && C != '\r' && C != '#')
        return B;
    }
    if (B == 0)
      return 0;
    Line = B - 1;
  }
  return Limit;
}

namespace {
struct Frame {
  OpenBracket B;
  uint32_t ItemStart;
  unsigned Commas = 0, Positional = 0;
  std::vector<std::string> Keywords;
  std::string Callee; ///< set when this `(` is a call
  bool IsLaunch = false;
};
} // namespace

/// `name=` at the start of Item (not `==`): the name, else "".
static std::string keywordOf(std::string_view Item) {
  size_t I = 0;
  while (I < Item.size() && std::isspace(static_cast<unsigned char>(Item[I])))
    ++I;
  if (I == Item.size() || !isIdentStart(Item[I]))
    return {};
  size_t B = I;
  while (I < Item.size() && isIdent(Item[I]))
    ++I;
  std::string Name(Item.substr(B, I - B));
  while (I < Item.size() && (Item[I] == ' ' || Item[I] == '\t'))
    ++I;
  if (I < Item.size() && Item[I] == '=' && (I + 1 == Item.size() || Item[I + 1] != '='))
    return Name;
  return {};
}

/// Item so far is blank or a single identifier.
static bool isBareWord(std::string_view Item) {
  size_t I = 0;
  while (I < Item.size() && std::isspace(static_cast<unsigned char>(Item[I])))
    ++I;
  while (I < Item.size() && isIdent(Item[I]))
    ++I;
  return I == Item.size();
}

/// The dotted name that ends at End ("triton.Config"), or "".
static std::string nameBefore(std::string_view Text, uint32_t End) {
  uint32_t I = End;
  while (I > 0 && (isIdent(Text[I - 1]) || Text[I - 1] == '.'))
    --I;
  return std::string(Text.substr(I, End - I));
}

CursorContext cursorContext(std::string_view Text, uint32_t Offset) {
  CursorContext Ctx;
  Offset = std::min<uint32_t>(Offset, static_cast<uint32_t>(Text.size()));
  std::vector<Frame> Stack;
  std::optional<Frame> LastClosed; ///< the bracket that closed just before I
  uint32_t I = statementStart(Text, Offset);
  while (I < Offset) {
    char C = Text[I];
    if (C == '#') {
      while (I < Offset && Text[I] != '\n')
        ++I;
      if (I == Offset)
        Ctx.InComment = true;
      continue;
    }
    if (C == '"' || C == '\'') {
      bool Triple = I + 2 < Text.size() && Text[I + 1] == C && Text[I + 2] == C;
      uint32_t Q = Triple ? 3 : 1;
      uint32_t Start = I + Q;
      uint32_t J = Start;
      bool Closed = false;
      while (J < Offset) {
        if (Text[J] == '\\') {
          J += 2;
          continue;
        }
        if (!Triple && Text[J] == '\n')
          break; // an unterminated one-line string ends at the line
        if (Text[J] == C && (!Triple || (J + 2 < Text.size() && Text[J + 1] == C && Text[J + 2] == C))) {
          Closed = true;
          break;
        }
        ++J;
      }
      if (!Closed && J >= Offset) {
        Ctx.String = std::string(Text.substr(Start, Offset - Start));
        Ctx.StringStart = Start;
        I = Offset;
        break;
      }
      I = Closed ? J + Q : J;
      LastClosed.reset();
      continue;
    }
    if (C == '(' || C == '[' || C == '{') {
      Frame F;
      F.B = {C, I, nameBefore(Text, I), {}};
      F.ItemStart = I + 1;
      if (C == '(') {
        if (!F.B.Before.empty() && F.B.Before.back() != '.' && !std::isdigit(static_cast<unsigned char>(F.B.Before[0])))
          F.Callee = F.B.Before;
        else if (I > 0 && Text[I - 1] == ']' && LastClosed && !LastClosed->B.Before.empty()) {
          F.Callee = LastClosed->B.Before;
          F.IsLaunch = true;
        }
      }
      if (!Stack.empty()) {
        const Frame &Up = Stack.back();
        F.B.KeywordBefore = keywordOf(Text.substr(Up.ItemStart, I - Up.ItemStart));
      }
      Stack.push_back(std::move(F));
      LastClosed.reset();
      ++I;
      continue;
    }
    if (C == ')' || C == ']' || C == '}') {
      if (!Stack.empty()) {
        LastClosed = std::move(Stack.back());
        Stack.pop_back();
      }
      ++I;
      continue;
    }
    if (C == ',' && !Stack.empty()) {
      Frame &F = Stack.back();
      std::string K = keywordOf(Text.substr(F.ItemStart, I - F.ItemStart));
      if (K.empty())
        ++F.Positional;
      else
        F.Keywords.push_back(K);
      ++F.Commas;
      F.ItemStart = I + 1;
    }
    if (!std::isspace(static_cast<unsigned char>(C)))
      LastClosed.reset();
    ++I;
  }
  for (const Frame &F : Stack)
    Ctx.Brackets.push_back(F.B);
  if (!Stack.empty()) {
    const Frame &Top = Stack.back();
    std::string_view Item = Text.substr(Top.ItemStart, Offset - Top.ItemStart);
    if (Ctx.String) // the item ends where the string began
      Item = Text.substr(Top.ItemStart, std::max(Ctx.StringStart - 1, Top.ItemStart) - Top.ItemStart);
    Ctx.AtItemStart = !Ctx.String && isBareWord(Item);
    for (auto It = Stack.rbegin(); It != Stack.rend(); ++It) {
      if (It->B.Kind != '(' || It->Callee.empty())
        continue;
      OpenCall Call;
      Call.Paren = It->B.Offset;
      Call.Callee = It->Callee;
      Call.IsLaunch = It->IsLaunch;
      Call.ArgIndex = It->Commas;
      Call.Positional = It->Positional;
      Call.UsedKeywords = It->Keywords;
      Call.Keyword = keywordOf(Text.substr(It->ItemStart, Offset - It->ItemStart));
      Call.AtArgStart = It == Stack.rbegin() && Ctx.AtItemStart;
      Ctx.Call = std::move(Call);
      break;
    }
  }
  if (!Ctx.String && !Ctx.InComment)
    Ctx.Word = nameBefore(Text, Offset);
  return Ctx;
}

} // namespace tessel::lsp
