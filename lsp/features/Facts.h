//===- Facts.h - sema's value facts, looked up by position ------*- C++ -*-===//
/// \file
/// Hover, inlay hints and go-to-definition all ask sema's ValueFacts the same
/// questions: which facts describe the name at this offset, under each
/// specialization of its kernel, and where a name used here was defined.
/// Sema records facts at definitions (assignment targets, parameters, loop
/// variables); a use resolves to the nearest definition of the same name
/// before it in the same function, which is what Triton's straight-line
/// kernels mean in practice.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_FACTS_H
#define TESSEL_LSP_FEATURES_FACTS_H

#include "compiler/sema/Analysis.h"

#include <string>
#include <vector>

namespace tessel::lsp {

/// One fact under one specialization.
struct FactUnderSpec {
  const sema::ValueFact *Fact;
  const sema::KernelAnalysis *Kernel;
};

/// The facts of the name whose definition token touches Offset, one per
/// specialization of the enclosing kernel; when Offset is on a use, the facts
/// of the definition it resolves to (UseName is the name used).
std::vector<FactUnderSpec> factsAt(const sema::FileAnalysis &A, uint32_t Offset, const std::string &UseName = {},
                                   uint32_t UseBegin = 0);

/// A fact's type for display: "[1024] i32", plus " = 1024" when constexpr.
std::string describeFact(const sema::ValueFact &F);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_FACTS_H
