//===- FoldingRanges.cpp - the regions an editor can fold ----------------===//
/// \file
/// One walk over the statements; nested bodies are folded too. A statement
/// ending in a blank line would fold it away, so each range ends on the last
/// line holding its own text.
//===----------------------------------------------------------------------===//
#include "lsp/features/FoldingRanges.h"
#include "lsp/AnalyzedFile.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>

namespace tessel::lsp {

using namespace ast;

std::vector<FoldingRangeInfo> foldingRanges(const AnalyzedFile &F) {
  std::vector<FoldingRangeInfo> Out;
  if (!F.Parsed)
    return Out;
  const SourceText &Text = F.Parsed->text();
  const std::string &S = Text.text();
  auto lastLine = [&](uint32_t End) {
    while (End > 0 && (S[End - 1] == '\n' || S[End - 1] == ' ' || S[End - 1] == '\r'))
      --End;
    return Text.lineCol(End > 0 ? End - 1 : 0).Line;
  };
  auto Fold = [&](uint32_t Begin, uint32_t End, const char *Kind) {
    uint32_t A = Text.lineCol(Begin).Line, B = lastLine(End);
    if (B > A)
      Out.push_back({A, B, Kind});
  };
  Walker W;
  W.OnStmt = [&](const Stmt *St) {
    uint32_t Begin = St->Range.Begin;
    if (auto *Fn = dyn_cast<FunctionDefStmt>(St)) {
      Begin = Fn->DefKeywordRange.Begin;
      if (const ConstantExpr *Doc = Fn->docstring())
        Fold(Doc->Range.Begin, Doc->Range.End, "comment");
    }
    if (!isa<ImportStmt>(St) && !isa<ImportFromStmt>(St))
      Fold(Begin, St->Range.End, "");
    return true;
  };
  W.walk(F.Parsed->module().Body);
  // Runs of top-level imports.
  const Block &Body = F.Parsed->module().Body;
  for (size_t I = 0; I < Body.size();) {
    if (!isa<ImportStmt>(Body[I]) && !isa<ImportFromStmt>(Body[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J + 1 < Body.size() && (isa<ImportStmt>(Body[J + 1]) || isa<ImportFromStmt>(Body[J + 1])))
      ++J;
    Fold(Body[I]->Range.Begin, Body[J]->Range.End, "imports");
    I = J + 1;
  }
  std::sort(Out.begin(), Out.end(), [](const FoldingRangeInfo &A, const FoldingRangeInfo &B) {
    return A.StartLine != B.StartLine ? A.StartLine < B.StartLine : A.EndLine > B.EndLine;
  });
  return Out;
}

} // namespace tessel::lsp
