//===- CodeActions.cpp - quick fixes for findings -------------------------===//
/// \file
/// One function per computed fix, each a list of guarded early returns: when
/// any fact the fix needs is missing, it offers nothing.
//===----------------------------------------------------------------------===//
#include "lsp/features/CodeActions.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace tessel::lsp {

using namespace ast;

static bool overlaps(SourceRange A, SourceRange B) { return A.Begin <= B.End && B.Begin <= A.End; }

/// How the file spells `triton.language`: "tl", "triton.language", or "".
static std::string languageAlias(const ModuleInfo &Info) {
  for (const auto &[Local, Path] : Info.Imports)
    if (Path == "triton.language")
      return Local;
  for (const auto &[Local, Path] : Info.Imports)
    if (Path == "triton")
      return Local + ".language";
  return {};
}

static bool isConstexprAnnotation(const ModuleInfo &Info, const Expr *A) {
  if (!A)
    return false;
  std::string Q = Info.qualify(A);
  return Q == "triton.language.constexpr" || Q == "triton.language.core.constexpr";
}

static void fixConstexprParam(const AnalyzedFile &F, const diag::Finding &Fd, std::vector<CodeActionInfo> &Out) {
  const ModuleInfo &Info = F.Report.Analysis->Info;
  const FunctionDefStmt *Fn = functionAt(F.Parsed->module(), Fd.Range.Begin);
  if (!Fn || !Info.jit(Fn->Name))
    return;
  std::string Alias = languageAlias(Info);
  if (Alias.empty())
    return;
  // The parameter is the one named inside the finding's range (or the
  // finding points at the parameter itself).
  const Param *Target = nullptr;
  for (const Param &P : Fn->Params)
    if (overlaps(P.NameRange, Fd.Range))
      Target = &P;
  if (!Target)
    forEachExpr(*Fn, [&](const Expr &E) {
      auto *N = dyn_cast<NameExpr>(&E);
      if (Target || !N || !Fd.Range.contains(N->Range))
        return;
      for (const Param &P : Fn->Params)
        if (P.Name == N->Id)
          Target = &P;
    });
  if (!Target || Target->PKind != Param::ParamKind::Positional || isConstexprAnnotation(Info, Target->Annotation))
    return;
  CodeActionInfo A;
  A.Title = "Annotate `" + Target->Name + "` as " + Alias + ".constexpr";
  if (Target->Annotation)
    A.Edits.push_back({Target->Annotation->Range, Alias + ".constexpr"});
  else
    A.Edits.push_back({{Target->NameRange.End, Target->NameRange.End}, ": " + Alias + ".constexpr"});
  A.For = &Fd;
  A.Preferred = true;
  Out.push_back(std::move(A));
}

static void fixPowerOfTwo(const AnalyzedFile &F, const diag::Finding &Fd, std::vector<CodeActionInfo> &Out) {
  const ConstantExpr *Lit = nullptr;
  const Stmt *S = topLevelStmtAt(F.Parsed->module(), Fd.Range.Begin);
  if (!S)
    return;
  forEachExpr(*S, [&](const Expr &E) {
    auto *C = dyn_cast<ConstantExpr>(&E);
    if (Lit || !C || C->CK != ConstantKind::Int || C->IntOverflow || C->IntIsUnsigned64 || !Fd.Range.contains(C->Range))
      return;
    if (C->IntValue > 0 && (C->IntValue & (C->IntValue - 1)) != 0)
      Lit = C;
  });
  if (!Lit || Lit->IntValue > (int64_t(1) << 40))
    return;
  int64_t Up = 1;
  while (Up < Lit->IntValue)
    Up <<= 1;
  int64_t Down = Up >> 1;
  std::string V = std::to_string(Lit->IntValue);
  Out.push_back({"Round " + V + " up to " + std::to_string(Up), {{Lit->Range, std::to_string(Up)}}, &Fd, true});
  if (Down >= 1)
    Out.push_back(
        {"Round " + V + " down to " + std::to_string(Down), {{Lit->Range, std::to_string(Down)}}, &Fd, false});
}

static bool looksLikeSize(std::string_view Name) {
  if (Name == "N" || Name == "n" || Name == "numel" || Name == "size" || Name == "n_elements" || Name == "num_elements")
    return true;
  return Name.size() > 2 && Name.substr(0, 2) == "n_";
}

static void fixMissingMask(const AnalyzedFile &F, const diag::Finding &Fd, std::vector<CodeActionInfo> &Out) {
  const sema::FileAnalysis &A = *F.Report.Analysis;
  const sema::MemoryAccess *Access = nullptr;
  for (const sema::KernelAnalysis &K : A.Kernels)
    for (const sema::MemoryAccess &M : K.Accesses)
      if (!Access && overlaps(M.CallRange, Fd.Range))
        Access = &M;
  if (!Access || Access->HasMask || Access->IsBlockPointer || Access->PointerAxes.size() != 1)
    return;
  const FunctionDefStmt *Fn = functionAt(F.Parsed->module(), Access->CallRange.Begin);
  if (!Fn)
    return;
  // The analysis records where the call is, not the node (it may come from a
  // reused analysis of an earlier tree).
  const CallExpr *Call = nullptr;
  forEachExpr(*Fn, [&](const Expr &E) {
    if (!Call && E.Range == Access->CallRange)
      Call = dyn_cast<CallExpr>(&E);
  });
  if (!Call || Call->Args.empty() || Call->keyword("mask"))
    return;
  // `ptr + offs` or `offs + ptr`: the side that is not a parameter name is the offsets.
  auto *Add = dyn_cast<BinOpExpr>(Call->Args[0]);
  if (!Add || Add->Op != BinOpKind::Add)
    return;
  auto IsParam = [&](const Expr *E) {
    auto *N = dyn_cast<NameExpr>(E);
    return N && std::any_of(Fn->Params.begin(), Fn->Params.end(), [&](const Param &P) { return P.Name == N->Id; });
  };
  const Expr *Offsets = IsParam(Add->Lhs) ? Add->Rhs : IsParam(Add->Rhs) ? Add->Lhs : nullptr;
  if (!Offsets)
    return;
  const Param *Bound = nullptr;
  for (const Param &P : Fn->Params) {
    if (!looksLikeSize(P.Name) || isConstexprAnnotation(A.Info, P.Annotation))
      continue;
    if (Bound)
      return; // two candidates: do not guess
    Bound = &P;
  }
  if (!Bound)
    return;
  std::string OffsetsText(F.Parsed->text().slice(Offsets->Range));
  if (!isa<NameExpr>(Offsets))
    OffsetsText = "(" + OffsetsText + ")";
  std::string Mask = "mask=" + OffsetsText + " < " + Bound->Name;
  // Insert after the last positional argument, before any keyword.
  const Expr *Last = Call->Args.back();
  uint32_t At = Last->Range.End;
  std::string Text = ", " + Mask;
  if (Access->Op == "tl.store" && Call->Args.size() < 2)
    return;
  if (Access->Op == "tl.load" && Call->Args.size() > 1)
    return; // a positional mask slot is taken: leave it to the user
  if (Access->Op == "tl.store" && Call->Args.size() > 2)
    return;
  Out.push_back({"Add `" + Mask + "`", {{{At, At}, Text}}, &Fd, true});
}

/// Levenshtein distance, capped: names this far apart are not typos.
static size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<size_t> Row(B.size() + 1);
  for (size_t J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (size_t I = 1; I <= A.size(); ++I) {
    size_t Diag = Row[0];
    Row[0] = I;
    for (size_t J = 1; J <= B.size(); ++J) {
      size_t Up = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1, Diag + (A[I - 1] == B[J - 1] ? 0 : 1)});
      Diag = Up;
    }
  }
  return Row[B.size()];
}

/// The one candidate nearest to Name (at most 2 edits, 1 for names of up to
/// four characters); none when two are equally near: a guess is not a fix.
static std::optional<std::string> nearestName(const std::string &Name, const std::vector<std::string> &Candidates) {
  size_t Limit = Name.size() <= 4 ? 1 : 2, Best = Limit + 1;
  std::optional<std::string> Out;
  bool Tie = false;
  for (const std::string &C : Candidates) {
    if (C == Name)
      continue;
    size_t D = editDistance(Name, C);
    if (D < Best) {
      Best = D;
      Out = C;
      Tie = false;
    } else if (D == Best && Out && *Out != C) {
      Tie = true;
    }
  }
  if (Tie)
    return std::nullopt;
  return Out;
}

/// TS120 "Keyword argument num_warp was specified but unrecognised": the
/// kernel parameter or launch option it was meant to be.
static void fixLaunchKeyword(const AnalyzedFile &F, const diag::Finding &Fd, std::vector<CodeActionInfo> &Out) {
  const ModuleInfo &Info = F.Report.Analysis->Info;
  for (const auto &[Name, J] : Info.Jit)
    for (const LaunchSite &L : J.Launches) {
      if (!L.Call || !L.Range.contains(Fd.Range))
        continue;
      for (const Keyword &K : L.Call->Keywords) {
        if (!overlaps(K.Range, Fd.Range) || K.Name.empty())
          continue;
        std::vector<std::string> Candidates = {"num_warps", "num_stages", "num_ctas", "maxnreg"};
        for (const Param &P : J.Def->Params)
          Candidates.push_back(P.Name);
        if (auto Near = nearestName(K.Name, Candidates))
          Out.push_back({"Change `" + K.Name + "` to `" + *Near + "`", {{K.NameRange, *Near}}, &Fd, true});
        return;
      }
    }
}

/// TS113 "x is not defined": a name in scope one or two edits away.
static void fixUndefinedName(const AnalyzedFile &F, const diag::Finding &Fd, std::vector<CodeActionInfo> &Out) {
  const ModuleInfo &Info = F.Report.Analysis->Info;
  std::string Name(F.Parsed->text().slice(Fd.Range));
  if (Name.empty() || Name.find_first_of(" .(") != std::string::npos)
    return;
  std::vector<std::string> Candidates;
  if (const FunctionDefStmt *Fn = functionAt(F.Parsed->module(), Fd.Range.Begin)) {
    std::set<std::string> Bound;
    for (const Param &P : Fn->Params)
      Bound.insert(P.Name);
    for (const Stmt *S : Fn->Body)
      boundNames(S, Bound);
    Candidates.insert(Candidates.end(), Bound.begin(), Bound.end());
  }
  for (const auto &[G, Sym] : Info.Globals)
    if (Sym.IsConstexpr)
      Candidates.push_back(G);
  for (const auto &[Fn, Def] : Info.Functions)
    Candidates.push_back(Fn);
  for (const auto &[Local, Path] : Info.Imports)
    Candidates.push_back(Local);
  for (const char *B : {"range", "len", "min", "max", "int", "float", "print", "isinstance", "getattr"})
    Candidates.push_back(B);
  if (auto Near = nearestName(Name, Candidates))
    Out.push_back({"Change `" + Name + "` to `" + *Near + "`", {{Fd.Range, *Near}}, &Fd, true});
}

std::vector<CodeActionInfo> codeActions(const AnalyzedFile &F, SourceRange Within) {
  std::vector<CodeActionInfo> Out;
  if (!F.Parsed || !F.Report.Analysis)
    return Out;
  for (const diag::Finding &Fd : F.Report.Findings) {
    if (!overlaps(Fd.Range, Within))
      continue;
    if (!Fd.Fixes.empty()) {
      for (const Fix &X : Fd.Fixes)
        Out.push_back({X.Title, X.Edits, &Fd, Fd.Fixes.size() == 1});
      continue;
    }
    switch (Fd.Id) {
    case diag::DiagId::ConstexprRequired:
      fixConstexprParam(F, Fd, Out);
      break;
    case diag::DiagId::BlockShape:
    case diag::DiagId::ArangeRange:
      fixPowerOfTwo(F, Fd, Out);
      break;
    case diag::DiagId::LaunchOption:
      fixLaunchKeyword(F, Fd, Out);
      break;
    case diag::DiagId::UndefinedName:
      fixUndefinedName(F, Fd, Out);
      break;
    // The structural check's TS201 and the prover's TS203/TS204 that
    // replace it at an access it decides: the same unmasked access, so the
    // same fix, whichever tier reported it last.
    case diag::DiagId::UnmaskedAxis:
    case diag::DiagId::BoundsViolation:
    case diag::DiagId::BoundsUndecided:
      fixMissingMask(F, Fd, Out);
      break;
    default:
      break;
    }
  }
  return Out;
}

} // namespace tessel::lsp
