//===- DocumentSymbols.h - the kernels of a file ----------------*- C++ -*-===//
/// \file
/// The outline: every `@jit` function (kernels and helpers, with their
/// parameters as children) and every module-level `tl.constexpr` global.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_DOCUMENTSYMBOLS_H
#define TESSEL_LSP_FEATURES_DOCUMENTSYMBOLS_H

#include "compiler/support/SourceRange.h"

#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

enum class SymbolKind { Function = 12, Variable = 13, Constant = 14 }; ///< LSP's numbering

struct SymbolInfo {
  std::string Name;
  std::string Detail;
  SymbolKind Kind;
  SourceRange Range;     ///< the whole definition
  SourceRange Selection; ///< the name
  std::vector<SymbolInfo> Children;
};

std::vector<SymbolInfo> documentSymbols(const AnalyzedFile &F);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_DOCUMENTSYMBOLS_H
