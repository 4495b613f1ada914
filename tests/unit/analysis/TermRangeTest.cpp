//===- TermRangeTest.cpp - intervals of bit-vector terms ------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The interval rules the bounds prover's cheap tier relies on: Triton's
/// truncating `//` and `%` (the grouped-ordering arithmetic), min and max
/// as the encoder writes them, and "unknown" wherever a 32-bit result may
/// wrap, unless the exact model's saturation applies.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/TermRange.h"

#include <gtest/gtest.h>

using namespace tessel::analysis;

namespace {

struct Vars {
  z3::context C;
  TermRange R;
  explicit Vars(bool Saturate = false) : R(Saturate) {}
  z3::expr var(const char *Name, int64_t Lo, int64_t Hi, unsigned W = 64) {
    z3::expr V = C.bv_const(Name, W);
    R.setVar(V, Lo, Hi);
    return V;
  }
};

void expectRange(TermRange &R, const z3::expr &E, int64_t Lo, int64_t Hi) {
  std::optional<Interval> I = R.range(E);
  ASSERT_TRUE(I.has_value()) << E.to_string();
  EXPECT_EQ(I->Lo, Lo) << E.to_string();
  EXPECT_EQ(I->Hi, Hi) << E.to_string();
}

} // namespace

TEST(TermRangeTest, RemainderIsBelowItsDivisorWithTheSignOfTheDividend) {
  Vars V;
  z3::expr A = V.var("a", 0, 1000), B = V.var("b", 1, 8), N = V.var("n", -50, 10);
  expectRange(V.R, z3::srem(A, B), 0, 7);
  expectRange(V.R, z3::srem(N, B), -7, 7);
  expectRange(V.R, z3::srem(A, V.C.bv_val(2000, 64)), 0, 1000); // never more than the dividend
  // A divisor that may be 0 says nothing (bvsrem by 0 is the dividend).
  EXPECT_FALSE(V.R.range(z3::srem(A, N)).has_value());
}

TEST(TermRangeTest, GroupedOrderingArithmetic) {
  // pid in [0, 99], group of 8 * num_pid_n (num_pid_n in [1, 4]).
  Vars V;
  z3::expr Pid = V.var("pid", 0, 99), Npn = V.var("npn", 1, 4), Npm = V.var("npm", 13, 13);
  z3::expr InGroup = V.C.bv_val(8, 64) * Npn;
  expectRange(V.R, InGroup, 8, 32);
  z3::expr First = (Pid / InGroup) * V.C.bv_val(8, 64);
  expectRange(V.R, First, 0, 96);
  // min(num_pid_m - first_pid_m, GROUP_M) as ite(x < y, x, y).
  z3::expr Diff = Npm - First, Eight = V.C.bv_val(8, 64);
  z3::expr Size = z3::ite(z3::slt(Diff, Eight), Diff, Eight);
  expectRange(V.R, Size, -83, 8);
}

TEST(TermRangeTest, MayWrapIsUnknownUnlessTheModelIsExact) {
  {
    Vars V;
    z3::expr X = V.var("x", 0, 1 << 20, 32), Y = V.var("y", 0, 1 << 20, 32);
    EXPECT_FALSE(V.R.range(X * Y).has_value()); // 2^40 does not fit 32 bits
    expectRange(V.R, X + Y, 0, 1 << 21);
  }
  {
    Vars V(/*Saturate=*/true);
    z3::expr X = V.var("x", 0, int64_t(1) << 40), Y = V.var("y", 1, int64_t(1) << 31);
    // Non-negative, whatever the largest value: the exact model assumes no wrap.
    std::optional<Interval> I = V.R.range(X * Y + X);
    ASSERT_TRUE(I.has_value());
    EXPECT_EQ(I->Lo, 0);
  }
}

TEST(TermRangeTest, ExtensionsAndConstants) {
  Vars V;
  z3::expr L = V.var("lane", 0, 255, 32);
  expectRange(V.R, z3::sext(L, 32), 0, 255);
  expectRange(V.R, z3::zext(L - V.C.bv_val(1, 32), 32), 0, (int64_t(1) << 32) - 1); // -1 zero-extended
  expectRange(V.R, V.C.bv_val(-5, 64), -5, -5);
}
