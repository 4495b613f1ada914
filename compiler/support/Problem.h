//===- Problem.h - a problem found in the user's code -----------*- C++ -*-===//
/// \file
/// What the compiler reports about the user's kernels. Problems in user code
/// are data, never errors or exceptions: every stage returns its result
/// together with the problems it found. diagnostics/ turns them into
/// user-facing Findings (code, severity); nothing here knows about either.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_PROBLEM_H
#define TESSEL_COMPILER_SUPPORT_PROBLEM_H

#include "compiler/support/SourceRange.h"
#include "compiler/support/SourceText.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

enum class ProblemKind {
#define PROBLEM(Id, Description) Id,
#include "compiler/support/ProblemKinds.def"
};

std::string_view problemKindName(ProblemKind K);

/// A second place that explains a problem (the call site of an inlined
/// helper, the autotune config that fixed a constexpr...).
struct RelatedLocation {
  SourceRange Range;
  std::string Message;
  /// The other file Range is in (an imported helper's module); null: the
  /// problem's own file.
  std::shared_ptr<const SourceText> File;
};

/// A replacement of source text that fixes a problem.
struct TextEdit {
  SourceRange Range;
  std::string NewText;
};

struct Fix {
  std::string Title;
  std::vector<TextEdit> Edits;
};

struct Problem {
  ProblemKind Kind;
  SourceRange Range;
  /// Triton's own sentence where Triton reports this problem, optionally
  /// followed by tessel's explanation.
  std::string Message;
  std::vector<RelatedLocation> Related;
  std::vector<Fix> Fixes;
  /// The specialization under which the problem shows ("BLOCK=1024,
  /// num_warps=8"), empty when it holds for every specialization.
  std::string Specialization;
};

/// Applies Move (bool(SourceRange &)) to every range of P that lies in P's
/// own file: its range, its related locations without a File, its fixes'
/// edits; false at the first range Move cannot move. P is a Problem, or
/// anything with the same fields (diag::Finding).
template <typename WithRanges, typename MoveFn> bool moveOwnRanges(WithRanges &P, MoveFn &&Move) {
  if (!Move(P.Range))
    return false;
  for (RelatedLocation &L : P.Related)
    if (!L.File && !Move(L.Range)) // a range in another file does not move
      return false;
  for (Fix &F : P.Fixes)
    for (TextEdit &E : F.Edits)
      if (!Move(E.Range))
        return false;
  return true;
}

/// Collects problems, dropping exact duplicates (same kind, range and
/// message), which arise when a kernel is checked under several
/// specializations that agree.
class ProblemSink {
public:
  void report(Problem P);
  void report(ProblemKind K, SourceRange R, std::string Message) {
    report(Problem{K, R, std::move(Message), {}, {}, {}});
  }
  const std::vector<Problem> &problems() const { return Problems; }
  std::vector<Problem> take() { return std::move(Problems); }
  size_t size() const { return Problems.size(); }

private:
  std::vector<Problem> Problems;
};

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_PROBLEM_H
