//===- AstWalk.h - visiting every node under a statement --------*- C++ -*-===//
/// \file
/// Pre-order walks over statements and expressions, for passes that look
/// for a pattern anywhere (launch sites, calls between @jit functions, names
/// a function binds). A statement callback returns whether to descend into
/// the statement (so a pass can skip nested function bodies); expressions
/// are always walked completely. Depth is bounded by the parser's nesting
/// limit, so recursion here is safe.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_ASTWALK_H
#define TESSEL_COMPILER_FRONTEND_ASTWALK_H

#include "compiler/frontend/Ast.h"

#include <functional>
#include <set>
#include <string>

namespace tessel::ast {

struct Walker {
  /// Called before a statement's children; return false to skip them.
  std::function<bool(const Stmt *)> OnStmt;
  /// Called on every expression, parents before children.
  std::function<void(const Expr *)> OnExpr;

  void walk(const Block &B) const;
  void walk(const Stmt *S) const;
  void walk(const Expr *E) const;
};

/// Adds to Out the names S binds, nested blocks included: assignment and
/// loop targets, `with ... as` names, imports, nested def/class names (whose
/// bodies are not entered), and receivers of `append`/`extend`/`insert` and
/// of subscript assignments.
void boundNames(const Stmt *S, std::set<std::string> &Out);

} // namespace tessel::ast

#endif // TESSEL_COMPILER_FRONTEND_ASTWALK_H
