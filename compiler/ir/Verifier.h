//===- Verifier.h - structural and type checks of tile IR -------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Checks the invariants Ops.h promises: operand counts and types per op,
/// shapes that agree, values used only where their definition is visible
/// (lexical dominance over structured regions), and terminators whose values
/// match their region's signature. It runs after lowering and after every
/// pass; an error here is a bug in tessel, never in the user's kernel, so
/// messages name ops and types rather than Python constructs.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_IR_VERIFIER_H
#define TESSEL_COMPILER_IR_VERIFIER_H

#include "compiler/ir/Ops.h"

#include <string>
#include <vector>

namespace tessel::ir {

struct VerifierError {
  const Op *At = nullptr; ///< null for function-level errors
  SourceRange Loc;
  std::string Message; ///< "add: operand types differ: [64] i32 and [64] i64"
};

/// Every violation found, in op order; empty when F is well formed.
std::vector<VerifierError> verify(const Function &F);

} // namespace tessel::ir

#endif // TESSEL_COMPILER_IR_VERIFIER_H
