//===- TermRange.h - signed intervals of Z3 bit-vector terms ----*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Interval arithmetic over the bit-vector terms SymbolicTir builds: the
/// signed range [Lo, Hi] a term can take, given ranges of its variables
/// (program ids in [0, grid), lanes in [0, dim), iteration counts, integer
/// arguments in [1, max]). The bounds prover asks it first, because most
/// questions "can this offset be negative?" or "can it reach the extent?"
/// are answered by the ranges alone, without the solver; and it gives the
/// ranges that abstract a program-id computation (`pid // (GROUP_M *
/// cdiv(N, BLOCK_N))`, `% group_size_m`) into a bounded variable.
///
/// Sound for the bit-vector semantics: every operation is computed on 128
/// bits and a result that may leave its width's signed range (that may
/// wrap) is "unknown", as is anything it does not model. Division and
/// remainder are Z3's (truncating, like Triton's `//` and `%` on integers);
/// a divisor whose range holds 0 gives "unknown".
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_TERMRANGE_H
#define TESSEL_COMPILER_ANALYSIS_TERMRANGE_H

#include <z3++.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tessel::analysis {

struct Interval {
  int64_t Lo = 0, Hi = 0;
};

class TermRange {
public:
  /// The exact model (SymbolicTir.h: no offset wraps): a 64-bit result
  /// beyond the signed range is clamped to it instead of unknown, so that
  /// `row * stride + col` with every operand non-negative is non-negative
  /// as the model reads it, whatever its largest value.
  explicit TermRange(bool Saturate = false) : Saturate(Saturate) {}

  /// Variable V (or a term: a loop's induction variable, which the loop's
  /// condition bounds) takes values in [Lo, Hi] (signed, at its width).
  void setVar(const z3::expr &V, int64_t Lo, int64_t Hi);
  /// The range of E, or nullopt when it is not known (or E may wrap).
  std::optional<Interval> range(const z3::expr &E);

private:
  bool Saturate;
  std::unordered_map<unsigned, Interval> Vars;
  std::unordered_map<unsigned, std::optional<Interval>> Memo;
  std::vector<z3::expr> Pinned; ///< keeps memoised terms alive, so their ids stay theirs
};

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_TERMRANGE_H
