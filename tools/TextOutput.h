//===- TextOutput.h - findings as compiler-style text -----------*- C++ -*-===//
/// \file
/// Renders findings the way clang and gcc do, so editors' and CI systems'
/// problem matchers pick them up:
///
///   k.py:12:18: error: arange's range must be a power of 2 [TS105]
///       offs = tl.arange(0, 1000)
///              ^~~~~~~~~~~~~~~~~~
///   k.py:3:5: note: kernel launched here
///
/// Lines and columns are 1-based; columns count characters (code points), not
/// bytes. Tabs are expanded to 8 columns and wide characters count two in the
/// caret line, so the caret lines up in a terminal.
/// Colours follow clang's (bold location, red error, magenta warning, green
/// caret) and are emitted only when the caller asks.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TEXTOUTPUT_H
#define TESSEL_TOOLS_TEXTOUTPUT_H

#include "diagnostics/Finding.h"
#include "lsp/LineIndex.h"

#include <ostream>
#include <string>
#include <vector>

namespace tessel::tools {

struct TextStyle {
  bool Color = false;
};

/// Writes one finding with its excerpt and its related notes.
void renderFinding(std::ostream &OS, const diag::Finding &F, const lsp::LineIndex &Index, const std::string &Path,
                   const TextStyle &Style);

/// The excerpt for a byte range: the source line of its start and a caret
/// line under the part of the range on that line (both newline-terminated).
std::string renderExcerpt(const lsp::LineIndex &Index, SourceRange R, const TextStyle &Style);

/// Totals over a whole `tessel check` run.
struct CheckTotals {
  size_t Errors = 0, Warnings = 0, Notes = 0, Hints = 0;
  size_t Files = 0;   ///< files that were read and checked
  size_t Kernels = 0; ///< kernels checked in them

  void count(const diag::Finding &F);
};

/// "2 errors, 1 warning in 3 files (12 kernels checked)" or
/// "no problems in 1 file (6 kernels checked)".
std::string summaryLine(const CheckTotals &T);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_TEXTOUTPUT_H
