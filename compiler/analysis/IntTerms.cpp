//===- IntTerms.cpp - bit-vector queries read over the integers -----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The rewrite of IntTerms.h, operation by operation. Each rule keeps the
/// bit-vector meaning exactly wherever no addition, subtraction, negation,
/// multiplication or left shift leaves its width: so every bit-vector model
/// without such a wrap is a model of the rewritten query, and an unsat
/// rewrite means that no model without a wrap exists. Division and
/// remainder by zero keep their bit-vector results, so that they are no
/// free choice of the integer solver's.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/IntTerms.h"

#include <cstdint>

namespace tessel::analysis {

namespace {

/// A bit-vector numeral's signed value, when it fits 64 bits.
std::optional<int64_t> signedNumeral(const z3::expr &E) {
  if (!E.is_numeral() || !E.is_bv() || E.get_sort().bv_size() > 64)
    return std::nullopt;
  uint64_t U = 0;
  if (!Z3_get_numeral_uint64(E.ctx(), E, &U))
    return std::nullopt;
  unsigned W = E.get_sort().bv_size();
  if (W < 64 && (U >> (W - 1)) & 1)
    U |= ~uint64_t(0) << W;
  return static_cast<int64_t>(U);
}

/// Triton's and the bit-vectors' truncating division of integers A and B
/// (B nonzero); SMT-LIB's `div` rounds towards minus infinity for B > 0.
z3::expr truncDiv(const z3::expr &A, const z3::expr &B) {
  z3::expr Zero = A.ctx().int_val(0);
  return z3::ite(A >= Zero, A / B, -((-A) / B));
}

} // namespace

z3::expr IntTerms::pow2(unsigned K) {
  if (K < 63)
    return C.int_val(int64_t(1) << K);
  // 2^63 and 2^64 do not fit an int64_t.
  return C.int_val(K == 63 ? "9223372036854775808" : "18446744073709551616");
}

z3::expr IntTerms::unsignedOf(const z3::expr &V, unsigned Width) {
  if (V.is_numeral()) {
    int64_t N = 0;
    if (V.is_numeral_i64(N) && N >= 0)
      return V;
  }
  return z3::ite(V >= C.int_val(0), V, V + pow2(Width));
}

std::optional<z3::expr> IntTerms::rewrite(const z3::expr &E) {
  // Post-order over the DAG (queries share their subterms).
  std::vector<std::pair<z3::expr, bool>> Work{{E, false}};
  while (!Work.empty()) {
    auto [X, Expanded] = Work.back();
    Work.pop_back();
    if (Memo.count(X.id()))
      continue;
    if (!X.is_app()) { // a quantifier or a bound variable
      Pinned.push_back(X);
      Memo.emplace(X.id(), std::nullopt);
      continue;
    }
    if (!Expanded) {
      Work.push_back({X, true});
      for (unsigned I = 0; I < X.num_args(); ++I)
        if (!Memo.count(X.arg(I).id()))
          Work.push_back({X.arg(I), false});
      continue;
    }
    std::vector<z3::expr> Args;
    bool Ok = true;
    for (unsigned I = 0; I < X.num_args() && Ok; ++I) {
      const std::optional<z3::expr> &A = Memo.at(X.arg(I).id());
      Ok = A.has_value();
      if (Ok)
        Args.push_back(*A);
    }
    Pinned.push_back(X);
    Memo.emplace(X.id(), Ok ? rewriteApp(X, Args) : std::nullopt);
  }
  return Memo.at(E.id());
}

std::optional<z3::expr> IntTerms::rewriteApp(const z3::expr &X, const std::vector<z3::expr> &Args) {
  z3::expr Zero = C.int_val(0);
  auto Width = [&](unsigned I) { return X.arg(I).get_sort().bv_size(); };
  auto Numeral = [&](unsigned I) { return signedNumeral(X.arg(I)); };
  // The signed value of a result computed as an unsigned number below 2^W.
  auto SignedOf = [&](const z3::expr &U, unsigned W) { return z3::ite(U < pow2(W - 1), U, U - pow2(W)); };
  switch (X.decl().decl_kind()) {
  case Z3_OP_TRUE:
  case Z3_OP_FALSE:
    return X;
  case Z3_OP_UNINTERPRETED:
    if (X.num_args() != 0)
      return std::nullopt;
    if (X.is_bool())
      return X;
    if (!X.is_bv())
      return std::nullopt;
    return integerOf(X);
  case Z3_OP_BNUM:
    if (std::optional<int64_t> V = signedNumeral(X))
      return C.int_val(*V);
    return std::nullopt;
  case Z3_OP_AND:
  case Z3_OP_OR: {
    z3::expr_vector V(C);
    for (const z3::expr &A : Args)
      V.push_back(A);
    return X.decl().decl_kind() == Z3_OP_AND ? z3::mk_and(V) : z3::mk_or(V);
  }
  case Z3_OP_NOT:
    return !Args[0];
  case Z3_OP_IMPLIES:
    return z3::implies(Args[0], Args[1]);
  case Z3_OP_XOR:
    return Args[0] != Args[1];
  case Z3_OP_IFF:
  case Z3_OP_EQ:
    if (Args.size() != 2)
      return std::nullopt;
    return Args[0] == Args[1];
  case Z3_OP_DISTINCT: {
    z3::expr_vector V(C);
    for (const z3::expr &A : Args)
      V.push_back(A);
    return z3::distinct(V);
  }
  case Z3_OP_ITE:
    return z3::ite(Args[0], Args[1], Args[2]);
  case Z3_OP_SLEQ:
    return Args[0] <= Args[1];
  case Z3_OP_SGEQ:
    return Args[0] >= Args[1];
  case Z3_OP_SLT:
    return Args[0] < Args[1];
  case Z3_OP_SGT:
    return Args[0] > Args[1];
  case Z3_OP_ULEQ:
    return unsignedOf(Args[0], Width(0)) <= unsignedOf(Args[1], Width(1));
  case Z3_OP_UGEQ:
    return unsignedOf(Args[0], Width(0)) >= unsignedOf(Args[1], Width(1));
  case Z3_OP_ULT:
    return unsignedOf(Args[0], Width(0)) < unsignedOf(Args[1], Width(1));
  case Z3_OP_UGT:
    return unsignedOf(Args[0], Width(0)) > unsignedOf(Args[1], Width(1));
  case Z3_OP_BADD: {
    z3::expr S = Args[0];
    for (size_t I = 1; I < Args.size(); ++I)
      S = S + Args[I];
    return S;
  }
  case Z3_OP_BMUL: {
    z3::expr P = Args[0];
    for (size_t I = 1; I < Args.size(); ++I)
      P = P * Args[I];
    return P;
  }
  case Z3_OP_BSUB:
    return Args[0] - Args[1];
  case Z3_OP_BNEG:
    return -Args[0];
  case Z3_OP_BNOT: // two's complement: ~a = -a - 1
    return -Args[0] - C.int_val(1);
  case Z3_OP_SIGN_EXT:
    return Args[0];
  case Z3_OP_ZERO_EXT:
    return unsignedOf(Args[0], Width(0));
  case Z3_OP_BSDIV:
  case Z3_OP_BSDIV_I: {
    z3::expr Q = truncDiv(Args[0], Args[1]);
    if (std::optional<int64_t> D = Numeral(1); D && *D != 0)
      return Q;
    // By zero: -1 for a non-negative dividend, else 1.
    return z3::ite(Args[1] == Zero, z3::ite(Args[0] >= Zero, C.int_val(-1), C.int_val(1)), Q);
  }
  case Z3_OP_BSREM:
  case Z3_OP_BSREM_I: {
    // The sign of the dividend; by zero, the dividend.
    z3::expr R = Args[0] - Args[1] * truncDiv(Args[0], Args[1]);
    if (std::optional<int64_t> D = Numeral(1); D && *D != 0)
      return R;
    return z3::ite(Args[1] == Zero, Args[0], R);
  }
  case Z3_OP_BSMOD:
  case Z3_OP_BSMOD_I: {
    // The sign of the divisor; by zero, the dividend.
    z3::expr R = Args[0] - Args[1] * truncDiv(Args[0], Args[1]);
    z3::expr M = z3::ite(R == Zero || ((R > Zero) == (Args[1] > Zero)), R, R + Args[1]);
    return z3::ite(Args[1] == Zero, Args[0], M);
  }
  case Z3_OP_BUDIV:
  case Z3_OP_BUDIV_I: {
    unsigned W = Width(0);
    z3::expr UA = unsignedOf(Args[0], W), UB = unsignedOf(Args[1], W);
    if (std::optional<int64_t> D = Numeral(1); D && *D > 1)
      return UA / UB; // below 2^(W-1): its own signed value
    // By zero: every bit set, -1.
    return z3::ite(Args[1] == Zero, C.int_val(-1), SignedOf(UA / UB, W));
  }
  case Z3_OP_BUREM:
  case Z3_OP_BUREM_I: {
    unsigned W = Width(0);
    z3::expr UA = unsignedOf(Args[0], W), UB = unsignedOf(Args[1], W);
    if (std::optional<int64_t> D = Numeral(1); D && *D > 0)
      return z3::mod(UA, UB);
    return z3::ite(Args[1] == Zero, Args[0], SignedOf(z3::mod(UA, UB), W));
  }
  case Z3_OP_BSHL: {
    std::optional<int64_t> K = Numeral(1);
    if (!K || *K < 0 || *K >= static_cast<int64_t>(Width(0)))
      return std::nullopt;
    return Args[0] * pow2(static_cast<unsigned>(*K));
  }
  case Z3_OP_BASHR: {
    std::optional<int64_t> K = Numeral(1);
    if (!K || *K < 0 || *K >= static_cast<int64_t>(Width(0)))
      return std::nullopt;
    return Args[0] / pow2(static_cast<unsigned>(*K)); // rounds down, as the shift does
  }
  case Z3_OP_BLSHR: {
    std::optional<int64_t> K = Numeral(1);
    if (!K || *K < 0 || *K >= static_cast<int64_t>(Width(0)))
      return std::nullopt;
    return *K == 0 ? Args[0] : unsignedOf(Args[0], Width(0)) / pow2(static_cast<unsigned>(*K));
  }
  case Z3_OP_BAND: {
    // A mask of the K low bits: the unsigned value modulo 2^K.
    if (Args.size() != 2)
      return std::nullopt;
    for (unsigned M = 0; M < 2; ++M) {
      std::optional<int64_t> V = Numeral(M);
      if (!V || *V < 0)
        continue;
      uint64_t U = static_cast<uint64_t>(*V);
      if ((U & (U + 1)) != 0)
        continue;
      unsigned K = 0;
      while (K < 64 && (U >> K) & 1)
        ++K;
      return z3::mod(Args[1 - M], pow2(K));
    }
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

} // namespace tessel::analysis
