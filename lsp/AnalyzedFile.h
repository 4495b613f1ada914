//===- AnalyzedFile.h - one analysed version of a document ------*- C++ -*-===//
/// \file
/// What the scheduler produces and every feature reads: a document snapshot,
/// its parse, and the diagnostics report with sema's facts. Immutable once
/// built and shared between threads, so a feature never sees a half-updated
/// file.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_ANALYZEDFILE_H
#define TESSEL_LSP_ANALYZEDFILE_H

#include "diagnostics/Check.h"
#include "lsp/Workspace.h"

#include <chrono>
#include <memory>
#include <string>

namespace tessel::lsp {

/// One analysed version of a document. Immutable; shared by readers.
struct AnalyzedFile {
  DocumentSnapshot Doc;
  std::shared_ptr<const ParsedFile> Parsed;
  diag::FileReport Report;
  /// Set when the analysis threw: the findings are then incomplete.
  std::string InternalError;
  /// Set when the file was not analysed at all (too large for the editor);
  /// Parsed and Report.Analysis are then null.
  std::string Skipped;
  std::chrono::microseconds BuildTime{0};
  /// The proof tier's republish: the same analysis as the version's first
  /// publish, with the verdicts of the kernels it had left unproved.
  bool ProofsAdded = false;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_ANALYZEDFILE_H
