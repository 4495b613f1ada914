//===- IntTermsTest.cpp - bit-vector terms read over the integers ---------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// IntTerms keeps each operation's bit-vector meaning wherever nothing
/// wraps: on ground operands (a negative dividend, a negative divisor, zero,
/// values with the sign bit set) the rewritten term simplifies to the signed
/// value the bit-vector term simplifies to. And the query it is for, a row-
/// major offset against a wrapper's product of sizes, is unsat over the
/// integers once the row is fixed by the launch, as it is over the bit-vectors.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/IntTerms.h"

#include <gtest/gtest.h>

#include <functional>

using namespace tessel::analysis;

namespace {

int64_t signedValue(const z3::expr &E) {
  int64_t V = 0;
  if (E.is_bv()) {
    uint64_t U = 0;
    EXPECT_TRUE(Z3_get_numeral_uint64(E.ctx(), E, &U)) << E.to_string();
    return static_cast<int64_t>(U);
  }
  EXPECT_TRUE(E.is_numeral_i64(V)) << E.to_string();
  return V;
}

} // namespace

TEST(IntTermsTest, GroundTermsKeepTheirBitVectorValue) {
  z3::context C;
  IntTerms T(C);
  const int64_t Values[] = {0, 1, 7, -7, 2, -2, 1000, -1000, INT64_MIN + 1, INT64_MAX};
  using Op = std::function<z3::expr(const z3::expr &, const z3::expr &)>;
  const std::pair<const char *, Op> Ops[] = {
      {"sdiv", [](const z3::expr &A, const z3::expr &B) { return A / B; }},
      {"srem", [](const z3::expr &A, const z3::expr &B) { return z3::srem(A, B); }},
      {"smod", [](const z3::expr &A, const z3::expr &B) { return z3::smod(A, B); }},
      {"udiv", [](const z3::expr &A, const z3::expr &B) { return z3::udiv(A, B); }},
      {"urem", [](const z3::expr &A, const z3::expr &B) { return z3::urem(A, B); }},
      {"ult", [](const z3::expr &A, const z3::expr &B) { return z3::ite(z3::ult(A, B), A, B); }},
      {"uge", [](const z3::expr &A, const z3::expr &B) { return z3::ite(z3::uge(A, B), A, B); }},
      {"slt", [](const z3::expr &A, const z3::expr &B) { return z3::ite(A < B, A, B); }},
      {"not", [](const z3::expr &A, const z3::expr &) { return ~A; }},
      {"zext", [](const z3::expr &A, const z3::expr &) { return z3::zext(A.extract(31, 0), 32); }},
      {"shl", [](const z3::expr &A, const z3::expr &) { return z3::shl(A, 3); }},
      {"ashr", [](const z3::expr &A, const z3::expr &) { return z3::ashr(A, 3); }},
      {"lshr", [](const z3::expr &A, const z3::expr &) { return z3::lshr(A, 3); }},
      {"mask", [](const z3::expr &A, const z3::expr &) { return A & A.ctx().bv_val(1023, 64); }},
  };
  for (const auto &[Name, F] : Ops)
    for (int64_t A : Values)
      for (int64_t B : Values) {
        // Operands are variables fixed by equalities, so that the rewrite sees
        // the operation itself rather than a folded numeral.
        z3::expr X = C.bv_const("x", 64), Y = C.bv_const("y", 64);
        z3::expr Term = F(X, Y);
        z3::expr_vector From(C), To(C);
        From.push_back(X);
        From.push_back(Y);
        To.push_back(C.bv_val(A, 64));
        To.push_back(C.bv_val(B, 64));
        z3::expr Bv = Term.substitute(From, To).simplify();
        std::optional<z3::expr> I = T.rewrite(Term);
        if (std::string(Name) == "zext") {
          EXPECT_FALSE(I.has_value()) << "an extract is not modelled";
          continue;
        }
        if (std::string(Name) == "shl" && (A > (INT64_MAX >> 3) || A < (INT64_MIN >> 3)))
          continue; // wraps: the integers keep the product
        ASSERT_TRUE(I.has_value()) << Name;
        z3::expr_vector IFrom(C), ITo(C);
        IFrom.push_back(T.integerOf(X));
        IFrom.push_back(T.integerOf(Y));
        ITo.push_back(C.int_val(A));
        ITo.push_back(C.int_val(B));
        z3::expr Int = I->substitute(IFrom, ITo).simplify();
        EXPECT_EQ(signedValue(Int), signedValue(Bv)) << Name << " " << A << " " << B;
      }
}

TEST(IntTermsTest, ARowMajorOffsetStaysBelowTheProductOfSizes) {
  // row * cols + col >= rows * cols with row < rows, col < cols: no lane
  // leaves the wrapper's x.shape[0] * x.shape[1] elements.
  z3::context C;
  IntTerms T(C);
  z3::expr Row = C.bv_const("row", 64), Col = C.bv_const("col", 64);
  z3::expr Rows = C.bv_const("rows", 64), Cols = C.bv_const("cols", 64);
  z3::expr Zero = C.bv_val(0, 64), Limit = C.bv_val(int64_t(1) << 31, 64);
  z3::expr Query = z3::sge(Row, Zero) && z3::slt(Row, Rows) && z3::sge(Col, Zero) && z3::slt(Col, Cols) &&
                   z3::slt(Rows, Limit) && z3::slt(Cols, Limit) && Rows == C.bv_val(3, 64) &&
                   z3::sge(Row * Cols + Col, Rows * Cols);
  std::optional<z3::expr> I = T.rewrite(Query);
  ASSERT_TRUE(I.has_value());
  z3::solver S(C);
  S.add(*I);
  EXPECT_EQ(S.check(), z3::unsat);
  // Without `col < cols` a lane does leave them.
  z3::expr Open = z3::sge(Row, Zero) && z3::slt(Row, Rows) && z3::sge(Col, Zero) && Rows == C.bv_val(3, 64) &&
                  z3::sge(Cols, C.bv_val(1, 64)) && z3::sge(Row * Cols + Col, Rows * Cols);
  z3::solver S2(C);
  S2.add(*T.rewrite(Open));
  EXPECT_EQ(S2.check(), z3::sat);
}
