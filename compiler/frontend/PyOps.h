//===- PyOps.h - Python operator semantics on PyValues ----------*- C++ -*-===//
/// \file
/// The one implementation of Python's operators on compile-time values, used
/// by ConstEval (module-level code) and by sema (constexpr arithmetic inside
/// kernels, which Triton performs in Python). Floor division and modulo
/// follow Python (rounding toward negative infinity), integer results that
/// leave 64 bits become Unknown, and anything undecidable is Unknown.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_PYOPS_H
#define TESSEL_COMPILER_FRONTEND_PYOPS_H

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/PyValue.h"

#include <string>

namespace tessel {

/// The value of a literal; Unknown for bytes, `...` and ints beyond 64 bits.
PyValue literalValue(const ast::ConstantExpr &C);

PyValue pyBinaryOp(ast::BinOpKind Op, const PyValue &L, const PyValue &R);
/// The TypeError Python raises for `L op R` on numbers, strings and None
/// ("unsupported operand type(s) for <<: 'float' and 'int'"), or "" when the
/// operation is defined, or raises another message tessel does not spell.
std::string pyBinaryOpTypeError(ast::BinOpKind Op, const PyValue &L, const PyValue &R);
PyValue pyUnaryOp(ast::UnaryOpKind Op, const PyValue &V);
/// One comparison (chains are evaluated by the caller, pairwise).
PyValue pyCompare(ast::CmpOpKind Op, const PyValue &L, const PyValue &R);

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_PYOPS_H
