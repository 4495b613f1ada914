//===- AstFingerprint.h - a module's dump with every range -----*- C++ -*-===//
/// \file
/// The text two parses of the same file must agree on: the AST dump, every
/// node's class and byte ranges in pre-order, and the syntax errors. Shared
/// by the reparse unit tests (tests/unit/frontend/IncrementalTest.cpp) and
/// the incremental-edit fuzzer (tests/fuzz/EditsFuzzer.cpp), which both
/// compare ParsedFile::reparse with a fresh parse.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_SUPPORT_ASTFINGERPRINT_H
#define TESSEL_TESTS_SUPPORT_ASTFINGERPRINT_H

#include "compiler/frontend/AstDump.h"
#include "compiler/frontend/AstWalk.h"

#include <string>

namespace tessel::ast {

inline std::string rangeText(SourceRange R) { return std::to_string(R.Begin) + "-" + std::to_string(R.End); }

/// The module's dump, then every node's class and byte ranges in pre-order,
/// then the syntax errors: two modules print alike only if they agree on
/// every range a consumer reads.
inline std::string fingerprint(const Module &M) {
  std::string Out = dump(M);
  Walker W;
  auto Params = [&](const std::vector<Param> &Ps) {
    for (const Param &P : Ps)
      Out += " param " + P.Name + " " + rangeText(P.NameRange) + " " + rangeText(P.Range);
  };
  W.OnStmt = [&](const Stmt *S) {
    Out += "\n" + std::string(S->pyName()) + " " + rangeText(S->Range);
    if (const auto *F = dyn_cast<FunctionDefStmt>(S)) {
      Out += " " + rangeText(F->NameRange) + " " + rangeText(F->DefKeywordRange);
      Params(F->Params);
    } else if (const auto *A = dyn_cast<AugAssignStmt>(S)) {
      Out += " " + rangeText(A->OpRange);
    } else if (const auto *U = dyn_cast<UnsupportedStmt>(S)) {
      Out += " " + rangeText(U->KeywordRange);
    }
    return true;
  };
  W.OnExpr = [&](const Expr *E) {
    Out += " " + std::string(E->pyName()) + " " + rangeText(E->Range);
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      Out += " args " + rangeText(C->ArgsRange);
      for (const Keyword &K : C->Keywords)
        Out += " kw " + rangeText(K.NameRange) + " " + rangeText(K.Range);
    } else if (const auto *A = dyn_cast<AttributeExpr>(E)) {
      Out += " attr " + rangeText(A->AttrRange);
    } else if (const auto *B = dyn_cast<BinOpExpr>(E)) {
      Out += " op " + rangeText(B->OpRange);
    } else if (const auto *L = dyn_cast<LambdaExpr>(E)) {
      Params(L->Params);
    }
  };
  W.walk(M.Body);
  for (const SyntaxError &E : M.SyntaxErrors)
    Out += "\nerror " + rangeText(E.Range) + " " + E.Message;
  return Out;
}

} // namespace tessel::ast

#endif // TESSEL_TESTS_SUPPORT_ASTFINGERPRINT_H
