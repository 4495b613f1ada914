//===- AstSearch.cpp - finding AST nodes by position ----------------------===//
/// \file
/// Position queries over the AST (the innermost expression, the function at
/// an offset), built on the front end's ast::Walker.
//===----------------------------------------------------------------------===//
#include "lsp/features/AstSearch.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <iterator>

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
void forEachExpr(const Expr &E, const ExprFn &Fn) { exprWalker(Fn).walk(&E); }

const Stmt *topLevelStmtAt(const Module &M, uint32_t Offset) {
  auto It = std::upper_bound(M.Body.begin(), M.Body.end(), Offset,
                             [](uint32_t O, const Stmt *S) { return O < S->Range.Begin; });
  if (It == M.Body.begin())
    return nullptr;
  const Stmt *S = *std::prev(It);
  return touches(S->Range, Offset) ? S : nullptr;
}

const Expr *innermostExprAt(const Module &M, uint32_t Offset) {
  const Expr *Best = nullptr;
  const Stmt *S = topLevelStmtAt(M, Offset);
  // A cursor just after a statement's last token may touch the next one too.
  if (!S)
    return nullptr;
  forEachExpr(*S, [&](const Expr &E) {
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
  return dyn_cast<FunctionDefStmt>(topLevelStmtAt(M, Offset));
}

} // namespace tessel::lsp
