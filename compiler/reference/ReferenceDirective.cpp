//===- ReferenceDirective.cpp - `# tessel: reference` in a kernel's file ---===//
/// \file
/// Finds and parses reference directives. Entries are split at blanks outside
/// brackets; `torch=` takes the rest of the text, since a PyTorch call has
/// blanks and commas of its own. Block and grid expressions are handed to the
/// launch-spec parser as a `grid=` entry placed so that its ranges are the
/// file's, and evaluated by the launch spec's own evaluator.
//===----------------------------------------------------------------------===//

#include "compiler/reference/ReferenceDirective.h"

#include <cctype>
#include <limits>

namespace tessel::reference {

std::string ReferenceDirective::launchNameOf(std::string_view Param) const {
  for (const ParamRename &R : Renames)
    if (R.Param == Param)
      return R.Name;
  return std::string(Param);
}

static bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; }

static bool isIdent(std::string_view S) {
  if (S.empty() || !(std::isalpha(static_cast<unsigned char>(S[0])) || S[0] == '_'))
    return false;
  for (char C : S)
    if (!(std::isalnum(static_cast<unsigned char>(C)) || C == '_'))
      return false;
  return true;
}

/// The end of the entry starting at P: the next blank outside brackets, where
/// a continuation (`\`, newline, `#`) counts as a blank.
static size_t entryEnd(std::string_view T, size_t P) {
  int Depth = 0;
  for (; P < T.size(); ++P) {
    char C = T[P];
    if (C == '(' || C == '[' || C == '<')
      ++Depth;
    else if ((C == ')' || C == ']' || C == '>') && Depth > 0)
      --Depth;
    else if (Depth == 0 && (isBlank(C) || C == '\\'))
      break;
  }
  return P;
}

/// Skips blanks and continuation marks (`\`, then `#` at the next line's start).
static size_t skipBlanks(std::string_view T, size_t P) {
  while (P < T.size()) {
    if (isBlank(T[P]) || T[P] == '\\') {
      ++P;
      continue;
    }
    if (T[P] == '#' && P > 0) {
      size_t Q = P;
      while (Q > 0 && (T[Q - 1] == ' ' || T[Q - 1] == '\t'))
        --Q;
      if (Q == 0 || T[Q - 1] == '\n') {
        ++P;
        continue;
      }
    }
    break;
  }
  return P;
}

static SourceRange rangeOf(uint32_t Base, size_t B, size_t E) {
  return {Base + static_cast<uint32_t>(B), Base + static_cast<uint32_t>(E)};
}

/// `block=`/`grid=`'s expressions through the launch-spec parser: the text
/// `grid=` + expression, based so that the expression keeps its file offsets.
static void parseDims(std::string_view Expr, uint32_t ExprBase, std::vector<launch::SpecExpr> &Out,
                      std::vector<DirectiveError> &Errors) {
  std::string Text = "grid=" + std::string(Expr);
  launch::ParsedLaunchSpec P = launch::parseLaunchSpec(Text, ExprBase - 5);
  for (const Problem &Pr : P.Problems)
    Errors.push_back({Pr.Range, Pr.Message});
  if (P.Problems.empty())
    Out = std::move(P.Spec.Grid);
}

ReferenceDirective parseReferenceDirective(std::string_view T, uint32_t Base) {
  ReferenceDirective D;
  D.Range = rangeOf(Base, 0, T.size());
  size_t P = skipBlanks(T, 0);
  if (P >= T.size()) {
    D.Errors.push_back({D.Range, "expected FILE.cu::KERNEL after `reference`"});
    return D;
  }
  size_t E = entryEnd(T, P);
  std::string_view Target = T.substr(P, E - P);
  D.TargetRange = rangeOf(Base, P, E);
  size_t Sep = Target.find("::");
  if (Sep == std::string_view::npos || Sep == 0) {
    D.Errors.push_back({D.TargetRange, "expected FILE.cu::KERNEL, got '" + std::string(Target) + "'"});
  } else {
    D.File = std::string(Target.substr(0, Sep));
    std::string_view Fn = Target.substr(Sep + 2);
    if (size_t Lt = Fn.find('<'); Lt != std::string_view::npos) {
      if (Fn.back() != '>')
        D.Errors.push_back({D.TargetRange, "unterminated template arguments in '" + std::string(Fn) + "'"});
      else
        D.TemplateArgs = std::string(Fn.substr(Lt + 1, Fn.size() - Lt - 2));
      Fn = Fn.substr(0, Lt);
    }
    if (!isIdent(Fn))
      D.Errors.push_back({D.TargetRange, "'" + std::string(Fn) + "' is not a CUDA function name"});
    D.Function = std::string(Fn);
  }
  for (P = skipBlanks(T, E); P < T.size(); P = skipBlanks(T, E)) {
    size_t Eq = T.find('=', P);
    E = entryEnd(T, P);
    if (Eq == std::string_view::npos || Eq >= E) {
      D.Errors.push_back({rangeOf(Base, P, E), "expected `name=value`, got '" + std::string(T.substr(P, E - P)) + "'"});
      continue;
    }
    std::string Key(T.substr(P, Eq - P));
    if (Key == "torch") {
      size_t End = T.size();
      while (End > Eq + 1 && (isBlank(T[End - 1]) || T[End - 1] == '\\'))
        --End;
      D.Torch = std::string(T.substr(Eq + 1, End - Eq - 1));
      D.TorchRange = rangeOf(Base, Eq + 1, End);
      if (D.Torch.empty())
        D.Errors.push_back({rangeOf(Base, P, End), "`torch=` names no PyTorch expression"});
      E = T.size();
      break;
    }
    std::string_view Value = T.substr(Eq + 1, E - Eq - 1);
    SourceRange ValueRange = rangeOf(Base, Eq + 1, E);
    if (!isIdent(Key)) {
      D.Errors.push_back({rangeOf(Base, P, Eq), "'" + Key + "' is not a parameter name"});
      continue;
    }
    if (Key == "block" || Key == "grid") {
      parseDims(Value, ValueRange.Begin, Key == "block" ? D.Block : D.Grid, D.Errors);
      continue;
    }
    if (!isIdent(Value)) {
      D.Errors.push_back(
          {ValueRange, "expected a name of the launch after '" + Key + "=', got '" + std::string(Value) + "'"});
      continue;
    }
    if (Key == "kernel")
      D.Kernel = std::string(Value);
    else
      D.Renames.push_back({Key, std::string(Value), rangeOf(Base, P, E)});
  }
  if (!D.File.empty() && D.Grid.empty())
    D.Errors.push_back({D.Range, "the reference needs its grid: add grid=(...) over the launch's sizes"});
  if (!D.File.empty() && D.Block.empty())
    D.Errors.push_back({D.Range, "the reference needs its block: add block=(...) (threads per block)"});
  return D;
}

std::vector<ReferenceDirective> findReferenceDirectives(std::string_view S) {
  std::vector<ReferenceDirective> Out;
  auto lineEnd = [&](size_t From) {
    size_t E = S.find('\n', From);
    return E == std::string_view::npos ? S.size() : E;
  };
  auto skip = [&](size_t P, size_t End) {
    while (P < End && (S[P] == ' ' || S[P] == '\t'))
      ++P;
    return P;
  };
  for (size_t Pos = 0; Pos < S.size();) {
    size_t End = lineEnd(Pos);
    size_t P = skip(Pos, End), Hash = P;
    bool Match = P < End && S[P] == '#';
    if (Match) {
      P = skip(P + 1, End);
      Match = S.substr(P, 7) == "tessel:";
    }
    if (Match) {
      P = skip(P + 7, End);
      Match = S.substr(P, 9) == "reference" && (P + 9 == End || S[P + 9] == ' ' || S[P + 9] == '\t');
    }
    if (!Match) {
      Pos = End + 1;
      continue;
    }
    size_t Body = P + 9, BodyEnd = End;
    // A trailing backslash continues the directive on the next comment line.
    while (BodyEnd < S.size()) {
      size_t Last = BodyEnd;
      while (Last > Body && isBlank(S[Last - 1]))
        --Last;
      if (Last == Body || S[Last - 1] != '\\')
        break;
      size_t NextEnd = lineEnd(BodyEnd + 1);
      size_t Q = skip(BodyEnd + 1, NextEnd);
      if (Q >= NextEnd || S[Q] != '#')
        break;
      BodyEnd = NextEnd;
    }
    ReferenceDirective D = parseReferenceDirective(S.substr(Body, BodyEnd - Body), static_cast<uint32_t>(Body));
    D.Range = {static_cast<uint32_t>(Hash), static_cast<uint32_t>(BodyEnd)};
    Out.push_back(std::move(D));
    Pos = BodyEnd + 1;
  }
  return Out;
}

std::optional<ReferenceDirective> referenceFor(std::string_view Source, std::string_view Kernel,
                                               const std::vector<std::pair<uint32_t, std::string>> &KernelStarts) {
  for (ReferenceDirective &D : findReferenceDirectives(Source)) {
    if (!D.Kernel.empty()) {
      if (D.Kernel == Kernel)
        return std::move(D);
      continue;
    }
    uint32_t Best = std::numeric_limits<uint32_t>::max();
    std::string Next;
    for (const auto &[Start, Name] : KernelStarts)
      if (Start >= D.Range.End && Start < Best) {
        Best = Start;
        Next = Name;
      }
    if (Next == Kernel)
      return std::move(D);
  }
  return std::nullopt;
}

Dims3 evaluateDims(const std::vector<launch::SpecExpr> &Exprs, const launch::ConcreteLaunch &L, std::string_view What) {
  Dims3 Out;
  if (Exprs.empty() || Exprs.size() > 3) {
    Out.Error = std::string(What) + " must have 1, 2 or 3 dimensions";
    return Out;
  }
  launch::LaunchSpec Spec;
  for (const launch::ConcreteValue &V : L.Values) {
    launch::SpecExpr E;
    E.K = V.IsFloat  ? launch::SpecExpr::Kind::Float
          : V.IsBool ? launch::SpecExpr::Kind::Bool
          : V.IsStr  ? launch::SpecExpr::Kind::Str
                     : launch::SpecExpr::Kind::Int;
    E.Int = V.Int;
    E.Float = V.Float;
    E.Name = V.Str;
    Spec.Values.push_back({V.Name, {}, {E}, false});
  }
  Spec.Grid = Exprs;
  ProblemSink Sink;
  std::vector<launch::ConcreteLaunch> Got = launch::instantiate(Spec, Sink, 1);
  if (Got.empty()) {
    Out.Error = std::string(What) + ": " + (Sink.problems().empty() ? "does not evaluate" : Sink.problems()[0].Message);
    return Out;
  }
  Out.D = Got[0].Grid;
  return Out;
}

} // namespace tessel::reference
