//===- FoldingRanges.h - the regions an editor can fold ---------*- C++ -*-===//
/// \file
/// textDocument/foldingRange: every statement that spans lines (a `def`
/// from its `def` line, not its decorators; `if`/`for`/`while`/`with`
/// bodies; a multi-line config list or call), runs of import lines, and
/// multi-line docstrings. Lines are 0-based.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_FOLDINGRANGES_H
#define TESSEL_LSP_FEATURES_FOLDINGRANGES_H

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct FoldingRangeInfo {
  uint32_t StartLine, EndLine;
  std::string Kind; ///< "", "imports" or "comment"
};

std::vector<FoldingRangeInfo> foldingRanges(const AnalyzedFile &F);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_FOLDINGRANGES_H
