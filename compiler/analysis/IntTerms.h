//===- IntTerms.h - bit-vector queries read over the integers ---*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The exact model (SymbolicTir.h) writes integers as 64-bit bit-vectors but
/// means mathematical integers: no offset wraps. Its queries with a product
/// of two sizes (a host wrapper's `row * x.shape[1] + col` against
/// `x.shape[0] * x.shape[1]` elements) make the bit-vector solver bit-blast
/// 64-bit multipliers, where monotonicity (`row <= M - 1` gives
/// `row * N <= M * N - N`) is out of its reach within any small budget; Z3's
/// arithmetic solver derives such facts at once. IntTerms rewrites a
/// bit-vector term into the integer term of its signed value under that
/// model (each operation as on integers; an unsigned comparison or a zero
/// extension reads a negative value as its width's unsigned one).
///
/// What it is for: an integer query that is unsat shows that no lane leaves
/// its buffer without some 64-bit value wrapping, which the exact model
/// assumes away. A sat integer query is no counterexample (the bit-vector
/// query still gives that, with its model). Terms it does not model
/// (extracts, concatenations, bitwise operations other than shifts and
/// low-bit masks by constants, quantifiers) make the whole rewrite fail.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_INTTERMS_H
#define TESSEL_COMPILER_ANALYSIS_INTTERMS_H

#include <z3++.h>

#include <optional>
#include <unordered_map>
#include <vector>

namespace tessel::analysis {

class IntTerms {
public:
  explicit IntTerms(z3::context &C) : C(C) {}

  /// E (a Bool or a bit-vector term) over the integers, or nullopt when E
  /// holds something not modelled. A bit-vector constant `x` becomes the
  /// integer constant `x'int`, the same one each time.
  std::optional<z3::expr> rewrite(const z3::expr &E);
  /// The integer constant a bit-vector constant V becomes.
  z3::expr integerOf(const z3::expr &V) { return C.int_const((V.decl().name().str() + "'int").c_str()); }

private:
  std::optional<z3::expr> rewriteApp(const z3::expr &E, const std::vector<z3::expr> &Args);
  /// The unsigned value of an integer V that was a Width-bit vector.
  z3::expr unsignedOf(const z3::expr &V, unsigned Width);
  z3::expr pow2(unsigned K);

  z3::context &C;
  std::unordered_map<unsigned, std::optional<z3::expr>> Memo;
  std::vector<z3::expr> Pinned; ///< keeps memoised terms alive, so their ids stay theirs
};

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_INTTERMS_H
