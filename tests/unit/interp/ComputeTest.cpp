//===- ComputeTest.cpp - matmul, softmax and Philox against references ----===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Whole kernels against references computed here independently: a masked
/// fp16 matmul through tl.dot against a double-precision loop, a row
/// softmax (max-reduce, exp, sum-reduce, divide) against double math, and
/// tl.randint / tl.rand against a literal transcription of Triton's Philox
/// (the multiply_low_high formulation, a different route to the same bits).
//===----------------------------------------------------------------------===//
#include "TestKernels.h"
#include "unit/References.h"

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Verifier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tessel;
using namespace tessel::interp;
using namespace tessel::testkernels;

namespace {

std::string verifyText(const ir::Function &F) {
  std::string S;
  for (const auto &E : ir::verify(F))
    S += E.Message + "\n";
  return S;
}

void runMatmul(int64_t M, int64_t N, int64_t K, ScalarKind In, ir::InputPrecision P, double Tol) {
  ir::Function F("matmul");
  matmul(F, In, 32, 32, 16, P);
  ASSERT_EQ(verifyText(F), "");
  Memory Mem;
  uint32_t A = Mem.addBuffer("a", In, M * K), B = Mem.addBuffer("b", In, K * N),
           C = Mem.addBuffer("c", ScalarKind::FP32, M * N, true);
  std::mt19937 Rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int64_t I = 0; I < M * K; ++I)
    Mem.writeFloat(A, I, U(Rng));
  for (int64_t I = 0; I < K * N; ++I)
    Mem.writeFloat(B, I, U(Rng));
  RunOptions Opts;
  Opts.Grid = {(M + 31) / 32, (N + 31) / 32, 1};
  RunResult R = run(F, Mem,
                    {ArgValue::pointer(A), ArgValue::pointer(B), ArgValue::pointer(C), ArgValue::integer(M),
                     ArgValue::integer(N), ArgValue::integer(K)},
                    Opts);
  ASSERT_TRUE(R.Completed) << R.Error;
  EXPECT_EQ(R.TotalViolations, 0u);
  double MaxErr = 0;
  for (int64_t I = 0; I < M; ++I)
    for (int64_t J = 0; J < N; ++J) {
      double Ref = 0;
      for (int64_t Kk = 0; Kk < K; ++Kk)
        Ref += Mem.readFloat(A, I * K + Kk) * Mem.readFloat(B, Kk * N + J); // stored (rounded) inputs
      MaxErr = std::max(MaxErr, std::fabs(Mem.readFloat(C, I * N + J) - Ref));
    }
  EXPECT_LT(MaxErr, Tol);
}

TEST(InterpCompute, Fp16MatmulMatchesDoubleReference) {
  // Sizes that are not multiples of the tiles exercise every mask.
  runMatmul(70, 45, 100, ScalarKind::FP16, ir::InputPrecision::IEEE, 1e-4);
}

TEST(InterpCompute, Tf32RoundingChangesFp32Products) {
  // fp32 inputs: ieee stays within fp32 accumulation error; tf32 loses
  // about 2^-11 relative per input and must show it.
  runMatmul(32, 32, 64, ScalarKind::FP32, ir::InputPrecision::IEEE, 1e-4);
  ir::Function F("one");
  Builder B(F);
  Value *Out = F.addParam(ptrType(ScalarKind::FP32), "out");
  Value *A = B.constantFloat(at(1, 2), 1.0 + std::ldexp(1.0, -12), tileType(ScalarKind::FP32, {16, 16}));
  Value *Acc = B.constantFloat(at(1, 2), 0.0, tileType(ScalarKind::FP32, {16, 16}));
  Value *Tf = B.dot(at(3, 4), A, A, Acc, ir::InputPrecision::TF32);
  Value *Ie = B.dot(at(5, 6), A, A, Acc, ir::InputPrecision::IEEE);
  Value *Idx = B.arange(at(7, 8), 0, 2);
  Value *Two = B.reduce(at(9, 10), ir::ReduceKind::Max, B.reshape(at(9, 10), Tf, {256}), 0);
  Value *Three = B.reduce(at(9, 10), ir::ReduceKind::Max, B.reshape(at(9, 10), Ie, {256}), 0);
  B.store(at(11, 12), B.addPtr(at(11, 12), B.splat(at(11, 12), Out, {2}), Idx), B.join(at(13, 14), Two, Three));
  B.ret({});
  ASSERT_EQ(verifyText(F), "");
  Memory Mem;
  uint32_t O = Mem.addBuffer("out", ScalarKind::FP32, 2);
  ASSERT_TRUE(run(F, Mem, {ArgValue::pointer(O)}).Completed);
  EXPECT_EQ(Mem.readFloat(O, 0), 16.0) << "1 + 2^-12 rounds to 1 in tf32";
  EXPECT_EQ(Mem.readFloat(O, 1), static_cast<double>(static_cast<float>(16 * std::pow(1.0 + std::ldexp(1.0, -12), 2))));
}

TEST(InterpCompute, Tf32OperandsAreTruncatedWhereTheTargetsInstructionDropsTheLowBits) {
  // 1 + 3 * 2^-12 is 1 + 2^-10 rounded to tf32 (mma.sync's cvt.rna) and 1
  // truncated (wgmma reading fp32 from shared memory): a [16, 16] dot of
  // ones-like rows sums 16 products of the two.
  ir::Function F("tf32_truncated");
  Builder B(F);
  Value *Out = F.addParam(ptrType(ScalarKind::FP32), "out");
  Value *A = B.constantFloat(at(1, 2), 1.0 + 3 * std::ldexp(1.0, -12), tileType(ScalarKind::FP32, {16, 16}));
  Value *Acc = B.constantFloat(at(1, 2), 0.0, tileType(ScalarKind::FP32, {16, 16}));
  Value *Tf = B.dot(at(3, 4), A, A, Acc, ir::InputPrecision::TF32);
  Value *Idx = B.arange(at(7, 8), 0, 1);
  Value *Max = B.reduce(at(9, 10), ir::ReduceKind::Max, B.reshape(at(9, 10), Tf, {256}), 0);
  B.store(at(11, 12), B.addPtr(at(11, 12), B.splat(at(11, 12), Out, {1}), Idx), B.splat(at(11, 12), Max, {1}));
  B.ret({});
  ASSERT_EQ(verifyText(F), "");
  Memory Mem;
  uint32_t O = Mem.addBuffer("out", ScalarKind::FP32, 1);
  ASSERT_TRUE(run(F, Mem, {ArgValue::pointer(O)}).Completed);
  const double Rounded = 1.0 + std::ldexp(1.0, -10);
  EXPECT_EQ(Mem.readFloat(O, 0), static_cast<double>(static_cast<float>(16 * Rounded * Rounded)));
  RunOptions Opts;
  Opts.Tf32Truncates = [](const ir::DotOp &) { return true; };
  ASSERT_TRUE(run(F, Mem, {ArgValue::pointer(O)}, Opts).Completed);
  EXPECT_EQ(Mem.readFloat(O, 0), 16.0);
}

TEST(InterpCompute, RowSoftmaxMatchesDoubleReference) {
  const int64_t Rows = 5, Cols = 100, BlockCols = 128;
  ir::Function F("softmax");
  Builder B(F);
  Value *In = F.addParam(ptrType(ScalarKind::FP16), "x");
  Value *Out = F.addParam(ptrType(ScalarKind::FP16), "y");
  Value *NCols = F.addParam(scalarType(ScalarKind::I32), "n_cols");
  Value *Row = B.programId(at(1, 2), 0);
  Value *Base = B.mul(at(1, 2), Row, NCols);
  Value *Cols_ = B.arange(at(1, 2), 0, BlockCols);
  Value *Offs = B.add(at(1, 2), B.splat(at(1, 2), Base, {BlockCols}), Cols_);
  Value *Mask = B.cmp(at(1, 2), CmpPredicate::LT, Cols_, B.splat(at(1, 2), NCols, {BlockCols}));
  Value *NegInf = B.constantFloat(at(1, 2), -INFINITY, tileType(ScalarKind::FP16, {BlockCols}));
  Value *X = B.load(at(1, 2), B.addPtr(at(1, 2), B.splat(at(1, 2), In, {BlockCols}), Offs), Mask, NegInf);
  Value *X32 = B.cast(at(1, 2), X, elem(ScalarKind::FP32));
  Value *Max = B.reduce(at(1, 2), ir::ReduceKind::Max, X32, 0);
  Value *Num = B.unary(at(1, 2), OpKind::Exp, B.sub(at(1, 2), X32, B.splat(at(1, 2), Max, {BlockCols})));
  Value *Den = B.reduce(at(1, 2), ir::ReduceKind::Sum, Num, 0);
  Value *Y = B.binary(at(1, 2), OpKind::Div, Num, B.splat(at(1, 2), Den, {BlockCols}));
  B.store(at(1, 2), B.addPtr(at(1, 2), B.splat(at(1, 2), Out, {BlockCols}), Offs),
          B.cast(at(1, 2), Y, elem(ScalarKind::FP16)), Mask);
  B.ret({});
  ASSERT_EQ(verifyText(F), "");
  Memory Mem;
  uint32_t XI = Mem.addBuffer("x", ScalarKind::FP16, Rows * Cols),
           YI = Mem.addBuffer("y", ScalarKind::FP16, Rows * Cols, true);
  for (int64_t I = 0; I < Rows * Cols; ++I)
    Mem.writeFloat(XI, I, std::sin(0.37 * I) * 4);
  RunOptions Opts;
  Opts.Grid = {Rows, 1, 1};
  RunResult R = run(F, Mem, {ArgValue::pointer(XI), ArgValue::pointer(YI), ArgValue::integer(Cols)}, Opts);
  ASSERT_TRUE(R.Completed) << R.Error;
  EXPECT_EQ(R.TotalViolations, 0u);
  std::vector<double> Xs(static_cast<size_t>(Rows * Cols));
  for (int64_t I = 0; I < Rows * Cols; ++I)
    Xs[static_cast<size_t>(I)] = Mem.readFloat(XI, I);
  std::vector<double> Want = testref::softmaxRows(Xs, Rows, Cols);
  for (int64_t Rw = 0; Rw < Rows; ++Rw)
    for (int64_t C = 0; C < Cols; ++C) {
      double Ref = Want[static_cast<size_t>(Rw * Cols + C)];
      ASSERT_NEAR(Mem.readFloat(YI, Rw * Cols + C), Ref, Ref * 1e-3 + 1e-7) << Rw << "," << C;
    }
}

// Triton's Philox as random.py first wrote it: single_round with
// multiply_low_high on 64-bit products, keys raised between rounds.
struct PhiloxRef {
  static void round(uint32_t &C0, uint32_t &C1, uint32_t &C2, uint32_t &C3, uint32_t K0, uint32_t K1) {
    uint64_t P0 = static_cast<uint64_t>(0xD2511F53u) * C0;
    uint64_t P1 = static_cast<uint64_t>(0xCD9E8D57u) * C2;
    uint32_t Lo0 = static_cast<uint32_t>(P0), Hi0 = static_cast<uint32_t>(P0 >> 32);
    uint32_t Lo1 = static_cast<uint32_t>(P1), Hi1 = static_cast<uint32_t>(P1 >> 32);
    uint32_t N0 = Hi1 ^ C1 ^ K0, N2 = Hi0 ^ C3 ^ K1;
    C0 = N0;
    C1 = Lo1;
    C2 = N2;
    C3 = Lo0;
  }
  static uint32_t randint(uint64_t Seed, uint32_t Offset, int Rounds) {
    uint32_t C0 = Offset, C1 = 0, C2 = 0, C3 = 0;
    uint32_t K0 = static_cast<uint32_t>(Seed & 0xffffffffu), K1 = static_cast<uint32_t>(Seed >> 32);
    for (int R = 0; R < Rounds; ++R) {
      round(C0, C1, C2, C3, K0, K1);
      K0 += 0x9E3779B9u;
      K1 += 0xBB67AE85u;
    }
    return C0;
  }
};

TEST(InterpCompute, PhiloxReferenceMatchesRandom123KnownAnswer) {
  // Random123's kat_vectors: philox4x32_10, counter 0 and key 0 -> word 0.
  EXPECT_EQ(PhiloxRef::randint(0, 0, 10), 0x6627e8d5u);
}

TEST(InterpCompute, PhiloxMatchesIndependentReference) {
  ir::Function F("rng");
  Builder B(F);
  Value *Out = F.addParam(ptrType(ScalarKind::U32), "out");
  Value *OutF = F.addParam(ptrType(ScalarKind::FP32), "outf");
  Value *Seed = F.addParam(scalarType(ScalarKind::I64), "seed");
  Value *Offs =
      B.add(at(1, 2), B.arange(at(1, 2), 0, 256), B.constantInt(at(1, 2), 1 << 30, tileType(ScalarKind::I32, {256})));
  Value *RI = B.random(at(3, 4), OpKind::Randint, Seed, Offs);
  Value *RF = B.random(at(5, 6), OpKind::Rand, Seed, Offs);
  Value *R7 = B.random(at(5, 6), OpKind::Randint, Seed, Offs, 7);
  Value *Idx = B.arange(at(1, 2), 0, 256);
  B.store(at(7, 8), B.addPtr(at(7, 8), B.splat(at(7, 8), Out, {256}), Idx), RI);
  B.store(at(9, 10), B.addPtr(at(9, 10), B.splat(at(9, 10), OutF, {256}), Idx), RF);
  Value *Idx2 = B.add(at(1, 2), Idx, B.constantInt(at(1, 2), 256, tileType(ScalarKind::I32, {256})));
  B.store(at(7, 8), B.addPtr(at(7, 8), B.splat(at(7, 8), Out, {256}), Idx2), R7);
  B.ret({});
  ASSERT_EQ(verifyText(F), "");
  Memory Mem;
  uint32_t O = Mem.addBuffer("out", ScalarKind::U32, 512), OF = Mem.addBuffer("outf", ScalarKind::FP32, 256);
  const uint64_t SeedV = 0x123456789ull;
  ASSERT_TRUE(run(F, Mem, {ArgValue::pointer(O), ArgValue::pointer(OF), ArgValue::integer(static_cast<int64_t>(SeedV))})
                  .Completed);
  for (uint32_t I = 0; I < 256; ++I) {
    uint32_t Ref = PhiloxRef::randint(SeedV, (1u << 30) + I, 10);
    ASSERT_EQ(static_cast<uint32_t>(Mem.readInt(O, I)), Ref) << I;
    ASSERT_EQ(static_cast<uint32_t>(Mem.readInt(O, 256 + I)), PhiloxRef::randint(SeedV, (1u << 30) + I, 7)) << I;
    // uint_to_uniform_float: as int32, negatives folded, times the scale, in fp32.
    int32_t S = static_cast<int32_t>(Ref);
    float Expected = static_cast<float>(S < 0 ? -S - 1 : S) * 4.6566127342e-10f;
    ASSERT_EQ(Mem.readFloat(OF, I), static_cast<double>(Expected)) << I;
    ASSERT_GE(Expected, 0.0f);
    ASSERT_LT(Expected, 1.0f);
  }
}

TEST(InterpCompute, RandnIsStandardNormal) {
  ir::Function F("randn");
  Builder B(F);
  Value *Out = F.addParam(ptrType(ScalarKind::FP32), "out");
  Value *Idx = B.arange(at(1, 2), 0, 4096);
  Value *Seed = B.constantInt(at(1, 2), 42, scalarType(ScalarKind::I32));
  B.store(at(3, 4), B.addPtr(at(3, 4), B.splat(at(3, 4), Out, {4096}), Idx),
          B.random(at(5, 6), OpKind::Randn, Seed, Idx));
  B.ret({});
  Memory Mem;
  uint32_t O = Mem.addBuffer("out", ScalarKind::FP32, 4096);
  ASSERT_TRUE(run(F, Mem, {ArgValue::pointer(O)}).Completed);
  double Sum = 0, Sq = 0;
  for (int I = 0; I < 4096; ++I) {
    double V = Mem.readFloat(O, I);
    Sum += V;
    Sq += V * V;
  }
  EXPECT_NEAR(Sum / 4096, 0.0, 0.06);
  EXPECT_NEAR(Sq / 4096, 1.0, 0.08);
}

} // namespace
