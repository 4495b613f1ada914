//===- Finding.h - a user-facing diagnostic ---------------------*- C++ -*-===//
/// \file
/// What users see: a stable code, a severity, a byte range and a message,
/// with related locations and fixes. Plain data in compiler terms (byte
/// ranges); lsp/ converts to LSP Diagnostics (UTF-16) and tools/ renders text.
/// No JSON here.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_FINDING_H
#define TESSEL_DIAGNOSTICS_FINDING_H

#include "compiler/support/Problem.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessel::diag {

/// Numeric values are LSP's DiagnosticSeverity.
enum class Severity { Error = 1, Warning = 2, Information = 3, Hint = 4 };
std::string_view severityName(Severity S); ///< "error", "warning", "note", "hint"

enum class DiagId {
#define DIAG(Id, Code, Name, Sev) Id,
#include "diagnostics/Codes.def"
};

struct CodeInfo {
  DiagId Id;
  std::string_view Code; ///< "TS104"
  std::string_view Name; ///< "invalid-block-shape"
  Severity DefaultSeverity;
};
const CodeInfo &codeInfo(DiagId Id);
const std::vector<CodeInfo> &allCodes();
/// The code that reports a compiler problem kind.
DiagId diagIdFor(ProblemKind K);

struct Finding {
  DiagId Id;
  Severity Sev;
  SourceRange Range;
  std::string Message;
  std::vector<RelatedLocation> Related;
  std::vector<Fix> Fixes;
  std::string Specialization; ///< see Problem::Specialization

  std::string_view code() const { return codeInfo(Id).Code; }
};

Finding toFinding(const Problem &P);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_FINDING_H
