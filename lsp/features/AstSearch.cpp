//===- AstSearch.cpp - finding AST nodes by position ----------------------===//
/// \file
/// Position queries over the AST (the innermost expression, the function at
/// an offset), built on the front end's ast::Walker.
//===----------------------------------------------------------------------===//
#include "lsp/features/AstSearch.h"

#include "compiler/frontend/AstWalk.h"

namespace tessel::lsp {

using namespace ast;
using ExprFn = std::function<void(const Expr &)>;

static Walker exprWalker(const ExprFn &Fn) {
  Walker W;
  W.OnExpr = [&Fn](const Expr *E) { Fn(*E); };
  return W;
}

void forEachExpr(const Module &M, const ExprFn &Fn) { exprWalker(Fn).walk(M.Body); }
void forEachExpr(const Stmt &S, const ExprFn &Fn) { exprWalker(Fn).walk(&S); }

const Expr *innermostExprAt(const Module &M, uint32_t Offset) {
  const Expr *Best = nullptr;
  forEachExpr(M, [&](const Expr &E) {
    if (!touches(E.Range, Offset))
      return;
    uint32_t Size = E.Range.End - E.Range.Begin;
    // Prefer the smaller node; on a tie the later (inner) one, since the walk
    // visits parents first.
    if (!Best || Size <= Best->Range.End - Best->Range.Begin)
      Best = &E;
  });
  return Best;
}

const FunctionDefStmt *functionAt(const Module &M, uint32_t Offset) {
  for (const Stmt *S : M.Body)
    if (auto *F = dyn_cast<FunctionDefStmt>(S); F && touches(F->Range, Offset))
      return F;
  return nullptr;
}

} // namespace tessel::lsp
