//===- TermRange.cpp - signed intervals of Z3 bit-vector terms ------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The interval rules (see the header): each operation's result range from
/// its operands' ranges on 128 bits, then checked against the term's width.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/TermRange.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

namespace tessel::analysis {

namespace {

using I128 = __int128;

struct Wide {
  I128 Lo, Hi;
};

I128 minOf(std::initializer_list<I128> L) { return *std::min_element(L.begin(), L.end()); }
I128 maxOf(std::initializer_list<I128> L) { return *std::max_element(L.begin(), L.end()); }

/// Does [Lo, Hi] fit the signed range of Width bits?
bool fits(const Wide &W, unsigned Width) {
  if (Width == 0 || Width > 64)
    return false;
  I128 Min = -(I128(1) << (Width - 1)), Max = (I128(1) << (Width - 1)) - 1;
  return W.Lo >= Min && W.Hi <= Max && W.Lo <= W.Hi;
}

/// Truncating division, as bvsdiv.
I128 tdiv(I128 A, I128 B) { return A / B; }

} // namespace

void TermRange::setVar(const z3::expr &V, int64_t Lo, int64_t Hi) {
  Vars[V.id()] = Interval{Lo, Hi};
  Pinned.push_back(V);
}

std::optional<Interval> TermRange::range(const z3::expr &E) {
  if (!E.is_bv())
    return std::nullopt;
  if (auto It = Memo.find(E.id()); It != Memo.end())
    return It->second;
  unsigned Width = E.get_sort().bv_size();
  auto Done = [&](std::optional<Wide> R) -> std::optional<Interval> {
    std::optional<Interval> Out;
    if (R && Saturate && Width == 64 && R->Lo <= R->Hi)
      R = Wide{std::clamp<I128>(R->Lo, INT64_MIN, INT64_MAX), std::clamp<I128>(R->Hi, INT64_MIN, INT64_MAX)};
    if (R && fits(*R, Width))
      Out = Interval{static_cast<int64_t>(R->Lo), static_cast<int64_t>(R->Hi)};
    Memo.emplace(E.id(), Out);
    Pinned.push_back(E);
    return Out;
  };
  auto Arg = [&](unsigned I) -> std::optional<Wide> {
    std::optional<Interval> R = range(E.arg(I));
    if (!R)
      return std::nullopt;
    return Wide{R->Lo, R->Hi};
  };
  if (E.is_numeral()) {
    uint64_t U = 0;
    if (Width > 64 || !Z3_get_numeral_uint64(E.ctx(), E, &U))
      return Done(std::nullopt);
    I128 V = U;
    if (Width < 64 && (U >> (Width - 1)) & 1)
      V -= I128(1) << Width;
    else if (Width == 64 && (U >> 63) & 1)
      V -= I128(1) << 64;
    return Done(Wide{V, V});
  }
  if (auto It = Vars.find(E.id()); It != Vars.end())
    return Done(Wide{It->second.Lo, It->second.Hi});
  if (!E.is_app())
    return Done(std::nullopt);
  if (E.num_args() == 0) {
    // Anything else (a value loaded from memory): its width's whole range.
    if (Width > 64)
      return Done(std::nullopt);
    return Done(Wide{-(I128(1) << (Width - 1)), (I128(1) << (Width - 1)) - 1});
  }
  switch (E.decl().decl_kind()) {
  case Z3_OP_BADD: {
    Wide S{0, 0};
    for (unsigned I = 0; I < E.num_args(); ++I) {
      std::optional<Wide> A = Arg(I);
      if (!A)
        return Done(std::nullopt);
      S = Wide{S.Lo + A->Lo, S.Hi + A->Hi};
      if (!fits(S, 64) && !Saturate)
        return Done(std::nullopt);
    }
    return Done(S);
  }
  case Z3_OP_BSUB: {
    std::optional<Wide> A = Arg(0), B = Arg(1);
    if (!A || !B)
      return Done(std::nullopt);
    return Done(Wide{A->Lo - B->Hi, A->Hi - B->Lo});
  }
  case Z3_OP_BNEG: {
    std::optional<Wide> A = Arg(0);
    if (!A)
      return Done(std::nullopt);
    return Done(Wide{-A->Hi, -A->Lo});
  }
  case Z3_OP_BMUL: {
    Wide P{1, 1};
    for (unsigned I = 0; I < E.num_args(); ++I) {
      std::optional<Wide> A = Arg(I);
      if (!A)
        return Done(std::nullopt);
      P = Wide{minOf({P.Lo * A->Lo, P.Lo * A->Hi, P.Hi * A->Lo, P.Hi * A->Hi}),
               maxOf({P.Lo * A->Lo, P.Lo * A->Hi, P.Hi * A->Lo, P.Hi * A->Hi})};
      if (!fits(P, 64)) {
        if (!Saturate)
          return Done(std::nullopt);
        P = Wide{std::clamp<I128>(P.Lo, INT64_MIN, INT64_MAX), std::clamp<I128>(P.Hi, INT64_MIN, INT64_MAX)};
      }
    }
    return Done(P);
  }
  case Z3_OP_BSDIV:
  case Z3_OP_BSDIV_I:
  case Z3_OP_BUDIV:
  case Z3_OP_BUDIV_I: {
    std::optional<Wide> A = Arg(0), B = Arg(1);
    bool Unsigned = E.decl().decl_kind() == Z3_OP_BUDIV || E.decl().decl_kind() == Z3_OP_BUDIV_I;
    if (!A || !B || (B->Lo <= 0 && B->Hi >= 0) || (Unsigned && (A->Lo < 0 || B->Lo < 0)))
      return Done(std::nullopt);
    // With the divisor's sign fixed, the quotient is monotone in each operand.
    return Done(Wide{minOf({tdiv(A->Lo, B->Lo), tdiv(A->Lo, B->Hi), tdiv(A->Hi, B->Lo), tdiv(A->Hi, B->Hi)}),
                     maxOf({tdiv(A->Lo, B->Lo), tdiv(A->Lo, B->Hi), tdiv(A->Hi, B->Lo), tdiv(A->Hi, B->Hi)})});
  }
  case Z3_OP_BSREM:
  case Z3_OP_BSREM_I:
  case Z3_OP_BUREM:
  case Z3_OP_BUREM_I: {
    std::optional<Wide> A = Arg(0), B = Arg(1);
    bool Unsigned = E.decl().decl_kind() == Z3_OP_BUREM || E.decl().decl_kind() == Z3_OP_BUREM_I;
    if (!A || !B || (B->Lo <= 0 && B->Hi >= 0) || (Unsigned && (A->Lo < 0 || B->Lo < 0)))
      return Done(std::nullopt);
    // |a % b| < |b| and |a % b| <= |a|, with the sign of a.
    I128 M = std::max(B->Hi < 0 ? -B->Lo : B->Hi, B->Lo < 0 ? -B->Lo : B->Lo) - 1;
    if (A->Lo >= 0)
      return Done(Wide{0, std::min(A->Hi, M)});
    if (A->Hi <= 0)
      return Done(Wide{std::max(A->Lo, -M), 0});
    return Done(Wide{std::max(A->Lo, -M), std::min(A->Hi, M)});
  }
  case Z3_OP_SIGN_EXT: {
    std::optional<Wide> A = Arg(0);
    return Done(A);
  }
  case Z3_OP_ZERO_EXT: {
    std::optional<Wide> A = Arg(0);
    if (A && A->Lo >= 0)
      return Done(A);
    unsigned W = E.arg(0).get_sort().bv_size();
    if (W >= 64)
      return Done(std::nullopt);
    return Done(Wide{0, (I128(1) << W) - 1});
  }
  case Z3_OP_EXTRACT: {
    // The low bits keep the value when it fits the narrower width.
    if (Z3_get_decl_int_parameter(E.ctx(), E.decl(), 1) != 0)
      return Done(std::nullopt);
    return Done(Arg(0));
  }
  case Z3_OP_BSHL: {
    std::optional<Wide> A = Arg(0), B = Arg(1);
    if (!A || !B || B->Lo != B->Hi || B->Lo < 0 || B->Lo > 62)
      return Done(std::nullopt);
    I128 F = I128(1) << B->Lo;
    return Done(Wide{A->Lo * F, A->Hi * F});
  }
  case Z3_OP_BASHR:
  case Z3_OP_BLSHR: {
    std::optional<Wide> A = Arg(0), B = Arg(1);
    if (!A || !B || B->Lo != B->Hi || B->Lo < 0 || B->Lo > 62 || A->Lo < 0)
      return Done(std::nullopt);
    return Done(Wide{A->Lo >> B->Lo, A->Hi >> B->Lo});
  }
  case Z3_OP_BAND: {
    // x & m with one operand non-negative stays in [0, that operand's max].
    std::optional<Wide> A = Arg(0), B = Arg(1);
    if (E.num_args() != 2 || !A || !B)
      return Done(std::nullopt);
    if (A->Lo >= 0 && B->Lo >= 0)
      return Done(Wide{0, std::min(A->Hi, B->Hi)});
    if (A->Lo >= 0)
      return Done(Wide{0, A->Hi});
    if (B->Lo >= 0)
      return Done(Wide{0, B->Hi});
    return Done(std::nullopt);
  }
  case Z3_OP_ITE: {
    std::optional<Wide> A = Arg(1), B = Arg(2);
    if (!A || !B)
      return Done(std::nullopt);
    // min(x, y) and max(x, y) as the encoder writes them: ite(x < y, x, y).
    z3::expr C = E.arg(0);
    if (C.is_app() && C.num_args() == 2) {
      Z3_decl_kind K = C.decl().decl_kind();
      bool Less = K == Z3_OP_SLT || K == Z3_OP_SLEQ, Greater = K == Z3_OP_SGT || K == Z3_OP_SGEQ;
      bool Same = z3::eq(C.arg(0), E.arg(1)) && z3::eq(C.arg(1), E.arg(2));
      if ((Less && Same) || (Greater && z3::eq(C.arg(0), E.arg(2)) && z3::eq(C.arg(1), E.arg(1))))
        return Done(Wide{std::min(A->Lo, B->Lo), std::min(A->Hi, B->Hi)});
      if ((Greater && Same) || (Less && z3::eq(C.arg(0), E.arg(2)) && z3::eq(C.arg(1), E.arg(1))))
        return Done(Wide{std::max(A->Lo, B->Lo), std::max(A->Hi, B->Hi)});
    }
    return Done(Wide{std::min(A->Lo, B->Lo), std::max(A->Hi, B->Hi)});
  }
  default:
    return Done(std::nullopt);
  }
}

} // namespace tessel::analysis
