//===- CodeActions.h - quick fixes for findings -----------------*- C++ -*-===//
/// \file
/// The quick fixes offered for the findings that touch a range: every Fix a
/// check attached, and, where the check attached none, fixes computed here
/// from the finding and the AST:
///  - TS102 on a kernel parameter: annotate it `: tl.constexpr`;
///  - TS104 and TS105 on an integer literal that is not a power of two:
///    round it up or down to one;
///  - TS120 on a launch keyword that is neither a parameter nor an option
///    (`num_warp=`): the one name one or two edits away;
///  - TS113 on an undefined name: the one name in scope one or two edits
///    away;
///  - TS201 on an unmasked 1-D `tl.load`/`tl.store`, and the prover's TS203
///    and TS204 that replace it there: add `mask=offs < n`, when the kernel
///    has exactly one parameter that looks like the size.
/// A fix that would need a guess (which bound? which alias?) is not offered.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_CODEACTIONS_H
#define TESSEL_LSP_FEATURES_CODEACTIONS_H

#include "compiler/support/Problem.h"
#include "diagnostics/Finding.h"

#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct CodeActionInfo {
  std::string Title;
  std::vector<TextEdit> Edits;
  const diag::Finding *For = nullptr; ///< the finding it fixes (points into F's report)
  bool Preferred = false;
};

std::vector<CodeActionInfo> codeActions(const AnalyzedFile &F, SourceRange Within);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_CODEACTIONS_H
