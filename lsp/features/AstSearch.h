//===- AstSearch.h - finding AST nodes by position --------------*- C++ -*-===//
/// \file
/// The features ask "what is under the cursor": the innermost expression at
/// a byte offset, the function around it, every expression of a module.
/// These walks live here once so each feature stays a short function over
/// their answers.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_ASTSEARCH_H
#define TESSEL_LSP_FEATURES_ASTSEARCH_H

#include "compiler/frontend/Ast.h"

#include <functional>

namespace tessel::lsp {

/// Calls Fn on every expression of M (decorators, defaults and annotations
/// included), parents before children.
void forEachExpr(const ast::Module &M, const std::function<void(const ast::Expr &)> &Fn);
/// Calls Fn on every expression under S, parents before children.
void forEachExpr(const ast::Stmt &S, const std::function<void(const ast::Expr &)> &Fn);
/// Calls Fn on E and every expression under it, parents before children.
void forEachExpr(const ast::Expr &E, const std::function<void(const ast::Expr &)> &Fn);

/// The top-level statement whose range contains Offset (a binary search:
/// top-level statements are in source order), or null.
const ast::Stmt *topLevelStmtAt(const ast::Module &M, uint32_t Offset);

/// The smallest expression whose range contains Offset (a cursor just after
/// an identifier counts as on it); null when none does.
const ast::Expr *innermostExprAt(const ast::Module &M, uint32_t Offset);

/// The top-level `def` whose range contains Offset, or null.
const ast::FunctionDefStmt *functionAt(const ast::Module &M, uint32_t Offset);

/// True when R contains Offset, its end included.
inline bool touches(SourceRange R, uint32_t Offset) { return R.Begin <= Offset && Offset <= R.End; }

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_ASTSEARCH_H
