//===- Definition.cpp - go to definition ----------------------------------===//
/// \file
/// Functions first (the common case: jumping to a helper), then globals,
/// then sema's facts for locals.
//===----------------------------------------------------------------------===//
#include "lsp/features/Definition.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"
#include "lsp/features/Facts.h"

namespace tessel::lsp {

std::optional<SourceRange> definition(const AnalyzedFile &F, uint32_t Offset) {
  if (!F.Parsed || !F.Report.Analysis)
    return std::nullopt;
  const sema::FileAnalysis &A = *F.Report.Analysis;
  auto *N = ast::dyn_cast<ast::NameExpr>(innermostExprAt(F.Parsed->module(), Offset));
  if (!N)
    return std::nullopt;
  if (auto It = A.Info.Functions.find(N->Id); It != A.Info.Functions.end() && It->second)
    return It->second->NameRange;
  const ast::FunctionDefStmt *Fn = functionAt(F.Parsed->module(), Offset);
  if (Fn) {
    for (const ast::Param &P : Fn->Params)
      if (P.Name == N->Id)
        return P.NameRange;
    std::vector<FactUnderSpec> Facts = factsAt(A, Offset, N->Id, N->Range.Begin);
    if (!Facts.empty() && !(Facts.front().Fact->Range == N->Range))
      return Facts.front().Fact->Range;
  }
  if (auto G = A.Info.Globals.find(N->Id); G != A.Info.Globals.end())
    return G->second.Range;
  return std::nullopt;
}

} // namespace tessel::lsp
