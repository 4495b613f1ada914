//===- Annotations.h - expected findings written as caret comments -*- C++ -*-===//
/// \file
/// Reads the expectations that samples/ and samples/bugs/ carry as comments
/// right below the offending line (rust-analyzer's `//^^^ error: ...` style):
///
///       offs = tl.arange(0, 100)
///       #      ^^^^^^^^^^^^^^^^^ error[TS105]: arange's range must be a power of 2
///
/// Format: optional blanks, `#`, blanks, one run of `^`, one space, a
/// severity (`error|warning|note|hint`), `[CODE]`, `: `, the message. The
/// carets mark byte columns of the nearest line above that is not itself an
/// annotation (so several annotations may stack under one line). The message
/// is a prefix of the finding's message. A comment that starts like an
/// annotation (`# ^`) but does not follow the format is reported as a
/// malformed annotation, so a typo in a fixture cannot silently expect nothing.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_DIAGNOSTICS_ANNOTATIONS_H
#define TESSEL_TESTS_UNIT_DIAGNOSTICS_ANNOTATIONS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::test {

struct ExpectedFinding {
  uint32_t Line = 0;           ///< 0-based line of the offending code
  uint32_t StartColumn = 0;    ///< 0-based byte column of the first caret
  uint32_t EndColumn = 0;      ///< byte column just past the last caret
  std::string Severity;        ///< "error", "warning", "note", "hint"
  std::string Code;            ///< "TS105"
  std::string Message;         ///< a prefix of the finding's message
  uint32_t AnnotationLine = 0; ///< 0-based line of the comment itself
};

struct AnnotationProblem {
  uint32_t Line = 0; ///< 0-based line of the malformed comment
  std::string Message;
};

struct Annotations {
  std::vector<ExpectedFinding> Expected;
  std::vector<AnnotationProblem> Problems;
};

/// Splits Text into lines (LF or CRLF) and collects every annotation.
Annotations readAnnotations(std::string_view Text);

/// "12:5-17: error[TS105]: message" with 1-based line and column, the form
/// the test prints in its expected-versus-got listing.
std::string describe(const ExpectedFinding &E);

} // namespace tessel::test

#endif // TESSEL_TESTS_UNIT_DIAGNOSTICS_ANNOTATIONS_H
