//===- Finding.cpp - a user-facing diagnostic -----------------------------===//
#include "diagnostics/Finding.h"

namespace tessel::diag {

std::string_view severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Information:
    return "note";
  case Severity::Hint:
    return "hint";
  }
  return "error";
}

const std::vector<CodeInfo> &allCodes() {
  static const std::vector<CodeInfo> Codes = {
#define DIAG(Id, Code, Name, Sev) {DiagId::Id, Code, Name, Severity::Sev},
#include "diagnostics/Codes.def"
  };
  return Codes;
}

const CodeInfo &codeInfo(DiagId Id) { return allCodes()[static_cast<size_t>(Id)]; }

DiagId diagIdFor(ProblemKind K) {
  // Compiler problem kinds and diagnostic ids share their names; a kind
  // without a code fails to compile here.
  switch (K) {
#define PROBLEM(Id, Description)                                                                                       \
  case ProblemKind::Id:                                                                                                \
    return DiagId::Id;
#include "compiler/support/ProblemKinds.def"
  }
  return DiagId::SyntaxError;
}

Finding toFinding(const Problem &P) {
  DiagId Id = diagIdFor(P.Kind);
  return Finding{Id, codeInfo(Id).DefaultSeverity, P.Range, P.Message, P.Related, P.Fixes, P.Specialization};
}

} // namespace tessel::diag
