//===- AstDump.h - a compact text form of tessel's AST ----------*- C++ -*-===//
/// \file
/// Renders a module or expression in a compact form modelled on Python's
/// `ast.dump` (`Assign([Name(a), Name(b)], Name(c))`), for tests and for a
/// future `--emit ast`. Tests compare this text with what CPython's own
/// parser gives, which is how the parser's fidelity is checked.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_ASTDUMP_H
#define TESSEL_COMPILER_FRONTEND_ASTDUMP_H

#include "compiler/frontend/Ast.h"

#include <string>

namespace tessel::ast {

std::string dump(const Expr *E);
std::string dump(const Stmt *S);
/// One line per top-level statement.
std::string dump(const Module &M);

} // namespace tessel::ast

#endif // TESSEL_COMPILER_FRONTEND_ASTDUMP_H
