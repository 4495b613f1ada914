//===- CodeActions.cpp - quick fixes for findings -------------------------===//
/// \file
/// One function per computed fix, each a list of guarded early returns: when
/// any fact the fix needs is missing, it offers nothing.
//===----------------------------------------------------------------------===//
#include "lsp/features/CodeActions.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"

#include <algorithm>
#include <cctype>

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
  forEachExpr(F.Parsed->module(), [&](const Expr &E) {
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
      fixPowerOfTwo(F, Fd, Out);
      break;
    case diag::DiagId::UnmaskedAxis:
      fixMissingMask(F, Fd, Out);
      break;
    default:
      break;
    }
  }
  return Out;
}

} // namespace tessel::lsp
