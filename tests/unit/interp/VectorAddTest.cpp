//===- VectorAddTest.cpp - masked accesses and bounds reports -------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tutorial vector add, masked and unmasked: results against a plain
/// loop, and every out-of-bounds lane reported with its exact buffer,
/// element offset, program id, lane and source range. Also reads of output
/// bytes nothing wrote.
//===----------------------------------------------------------------------===//
#include "TestKernels.h"

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::interp;
using namespace tessel::testkernels;

namespace {

struct VecAddRun {
  Memory Mem;
  uint32_t X, Y, Out;
  RunResult Result;
};

VecAddRun runVectorAdd(int64_t N, int64_t Block, bool Masked) {
  ir::Function F("add_kernel");
  vectorAdd(F, Block, Masked);
  EXPECT_TRUE(ir::verify(F).empty());
  VecAddRun R;
  R.X = R.Mem.addBuffer("x", ScalarKind::FP32, N);
  R.Y = R.Mem.addBuffer("y", ScalarKind::FP32, N);
  R.Out = R.Mem.addBuffer("out", ScalarKind::FP32, N, /*IsOutput=*/true);
  for (int64_t I = 0; I < N; ++I) {
    R.Mem.writeFloat(R.X, I, 0.5 * I);
    R.Mem.writeFloat(R.Y, I, 1000.0 - I);
  }
  RunOptions Opts;
  Opts.Grid = {(N + Block - 1) / Block, 1, 1};
  R.Result = run(
      F, R.Mem, {ArgValue::pointer(R.X), ArgValue::pointer(R.Y), ArgValue::pointer(R.Out), ArgValue::integer(N)}, Opts);
  return R;
}

TEST(InterpVectorAdd, MaskedAddIsExactAndClean) {
  VecAddRun R = runVectorAdd(1000, 256, true);
  ASSERT_TRUE(R.Result.Completed) << R.Result.Error;
  EXPECT_EQ(R.Result.TotalViolations, 0u);
  for (int64_t I = 0; I < 1000; ++I)
    ASSERT_EQ(R.Mem.readFloat(R.Out, I), static_cast<double>(static_cast<float>(0.5 * I + 1000.0 - I))) << I;
}

TEST(InterpVectorAdd, UnmaskedAddReportsEveryOutOfBoundsLane) {
  VecAddRun R = runVectorAdd(1000, 256, false);
  ASSERT_TRUE(R.Result.Completed) << R.Result.Error;
  // The last program (pid 3) covers 768..1023: lanes 232..255 run past 1000,
  // once in each of the two loads and the store.
  ASSERT_EQ(R.Result.TotalViolations, 3u * 24u);
  ASSERT_EQ(R.Result.Violations.size(), 72u);
  const AccessViolation &First = R.Result.Violations[0];
  EXPECT_EQ(First.Kind, ViolationKind::OutOfBounds);
  EXPECT_EQ(First.Buffer, "x");
  EXPECT_EQ(First.ElementOffset, 1000);
  EXPECT_EQ(First.BufferElements, 1000);
  EXPECT_EQ(First.ProgramId, (std::array<int64_t, 3>{3, 0, 0}));
  EXPECT_EQ(First.Lane, 232);
  EXPECT_EQ(First.Range, VecAddLoadX);
  EXPECT_EQ(First.Op, ir::OpKind::Load);
  const AccessViolation &LastX = R.Result.Violations[23];
  EXPECT_EQ(LastX.ElementOffset, 1023);
  EXPECT_EQ(LastX.Lane, 255);
  EXPECT_EQ(R.Result.Violations[24].Buffer, "y");
  EXPECT_EQ(R.Result.Violations[24].Range, VecAddLoadY);
  const AccessViolation &Store = R.Result.Violations[48];
  EXPECT_EQ(Store.Buffer, "out");
  EXPECT_EQ(Store.Op, ir::OpKind::Store);
  EXPECT_EQ(Store.Range, VecAddStore);
  EXPECT_EQ(Store.ElementOffset, 1000);
  // One site per access, counted in full.
  ASSERT_EQ(R.Result.Sites.size(), 3u);
  const ViolationSite &S = R.Result.Sites[2];
  EXPECT_EQ(S.Buffer, "out");
  EXPECT_EQ(S.Range, VecAddStore);
  EXPECT_EQ(S.Count, 24u);
  EXPECT_EQ(S.MinElementOffset, 1000);
  EXPECT_EQ(S.MaxElementOffset, 1023);
  EXPECT_EQ(S.FirstLane, 232);
  EXPECT_EQ(S.FirstProgramId[0], 3);
  EXPECT_EQ(describe(First), "out-of-bounds load of x[1000] (x has 1000 elements) in program (3, 0, 0), lane 232");
  EXPECT_EQ(describe(S), "24 out-of-bounds stores to out[1000..1023] (out has 1000 elements), first in program (3, "
                         "0, 0), lane 232");
  // In-bounds lanes still computed.
  EXPECT_EQ(R.Mem.readFloat(R.Out, 999), static_cast<double>(static_cast<float>(0.5 * 999 + 1.0)));
}

TEST(InterpVectorAdd, NegativeOffsetsAndViolationCapAreReported) {
  // out[i - 4] = x[i - 4]: the first program reads before the start of x.
  ir::Function F("shifted");
  ir::Builder B(F);
  Value *X = F.addParam(ptrType(ScalarKind::I16), "x");
  Value *Offs = B.sub(at(5, 9), B.arange(at(1, 4), 0, 16), B.constantInt(at(5, 6), 4, tileType(ScalarKind::I32, {16})));
  B.load(at(10, 20), B.addPtr(at(10, 14), B.splat(at(10, 11), X, {16}), Offs));
  B.ret({});
  Memory Mem;
  uint32_t XId = Mem.addBuffer("x", ScalarKind::I16, 16);
  RunOptions Opts;
  Opts.MaxViolations = 2;
  RunResult R = run(F, Mem, {ArgValue::pointer(XId)}, Opts);
  ASSERT_TRUE(R.Completed);
  EXPECT_EQ(R.TotalViolations, 4u);
  ASSERT_EQ(R.Violations.size(), 2u);
  EXPECT_EQ(R.Violations[0].ElementOffset, -4);
  EXPECT_EQ(R.Violations[0].Lane, 0);
  EXPECT_EQ(R.Violations[1].ElementOffset, -3);
  ASSERT_EQ(R.Sites.size(), 1u) << "sites are counted past the record cap";
  EXPECT_EQ(R.Sites[0].Count, 4u);
  EXPECT_EQ(R.Sites[0].MinElementOffset, -4);
  EXPECT_EQ(R.Sites[0].MaxElementOffset, -1);
}

TEST(InterpVectorAdd, ReadingUnwrittenOutputIsFlagged) {
  // out[i] += 1 on a fresh output: every lane reads memory nothing wrote.
  ir::Function F("accumulate");
  ir::Builder B(F);
  Value *Out = F.addParam(ptrType(ScalarKind::FP32), "out");
  Value *P = B.addPtr(at(1, 5), B.splat(at(1, 2), Out, {8}), B.arange(at(3, 5), 0, 8));
  Value *V = B.load(at(10, 20), P);
  B.store(at(30, 40), P, B.add(at(21, 29), V, B.constantFloat(at(25, 26), 1.0, tileType(ScalarKind::FP32, {8}))));
  B.load(at(50, 60), P); // written now: no report
  B.ret({});
  Memory Mem;
  uint32_t O = Mem.addBuffer("out", ScalarKind::FP32, 8, /*IsOutput=*/true);
  RunResult R = run(F, Mem, {ArgValue::pointer(O)});
  ASSERT_TRUE(R.Completed);
  ASSERT_EQ(R.TotalViolations, 8u);
  EXPECT_EQ(R.Violations[0].Kind, ViolationKind::UninitializedRead);
  EXPECT_EQ(R.Violations[0].Range, (SourceRange{10, 20}));
  EXPECT_EQ(R.Violations[7].Lane, 7);
  EXPECT_EQ(Mem.readFloat(O, 3), 1.0);
}

TEST(InterpVectorAdd, NullPointerIsReportedNotDereferenced) {
  ir::Function F("null");
  ir::Builder B(F);
  Value *P = F.addParam(ptrType(ScalarKind::FP32), "p");
  B.store(at(1, 9), P, B.constantFloat(at(5, 6), 2.0, scalarType(ScalarKind::FP32)));
  B.ret({});
  Memory Mem;
  RunResult R = run(F, Mem, {ArgValue::pointer(0)});
  ASSERT_EQ(R.Violations.size(), 1u);
  EXPECT_EQ(R.Violations[0].Kind, ViolationKind::InvalidPointer);
  EXPECT_EQ(describe(R.Violations[0]), "invalid-pointer store to a pointer that names no buffer in program (0, 0, 0), "
                                       "lane 0");
}

TEST(InterpVectorAdd, BadArgumentsStopWithAnError) {
  ir::Function F("add_kernel");
  vectorAdd(F, 64);
  Memory Mem;
  RunResult R = run(F, Mem, {ArgValue::integer(1)});
  EXPECT_FALSE(R.Completed);
  EXPECT_EQ(R.Error, "kernel takes 4 arguments, got 1");
}

TEST(InterpVectorAdd, MalformedFunctionIsRefusedNotRun) {
  ir::Function F("bad");
  ir::Builder B(F);
  Value *A = B.arange(at(1, 2), 0, 8);
  B.unary(at(3, 4), OpKind::Exp, A); // exp of integers
  B.ret({});
  Memory Mem;
  RunResult R = run(F, Mem, {});
  EXPECT_FALSE(R.Completed);
  EXPECT_EQ(R.Error, "the function does not verify: exp: operand must be a float, got [8] i32");
  EXPECT_EQ(R.ErrorRange, (SourceRange{3, 4}));
}

} // namespace
