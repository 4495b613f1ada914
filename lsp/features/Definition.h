//===- Definition.h - go to definition --------------------------*- C++ -*-===//
/// \file
/// From a name to where it is defined in the same file: a `@jit` helper or
/// kernel (from a call or a launch), a module-level global, or a local
/// variable of a kernel (its nearest assignment before the use).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_DEFINITION_H
#define TESSEL_LSP_FEATURES_DEFINITION_H

#include "compiler/support/SourceRange.h"

#include <optional>

namespace tessel::lsp {

struct AnalyzedFile;

std::optional<SourceRange> definition(const AnalyzedFile &F, uint32_t Offset);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_DEFINITION_H
