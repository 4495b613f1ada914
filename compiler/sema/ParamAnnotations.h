//===- ParamAnnotations.h - what a kernel parameter's annotation says -*- C++ -*-===//
/// \file
/// Reading a @jit parameter's annotation: `tl.constexpr` (also spelled as a
/// string), or a type that fixes the argument (`tl.int32`, "i32", "*fp16").
/// Shared by the checker (parameter values) and the launch planner (which
/// parameters a launch must give constexpr values and which dtypes it may
/// assume).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_PARAMANNOTATIONS_H
#define TESSEL_COMPILER_SEMA_PARAMANNOTATIONS_H

#include "compiler/frontend/Discovery.h"
#include "compiler/types/Types.h"

#include <optional>

namespace tessel::sema {

bool isConstexprAnnotation(const ModuleInfo &Info, const ast::Expr *A);

/// The type a parameter annotation such as `tl.int32`, "i32" or "*fp16" fixes.
std::optional<ElemType> annotationType(const ModuleInfo &Info, const ast::Expr *A);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_PARAMANNOTATIONS_H
