//===- SemanticsTest.cpp - Triton's per-op semantics in the interpreter ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Small kernels, one op family each, checked against values written out by
/// hand from Triton's rules: C-style integer division and remainder,
/// wraparound, shifts, casts with rounding and saturation, NaN handling of
/// minimum/maximum, structured control flow, custom reduce and scan regions,
/// atomics across programs, device_assert and device_print.
//===----------------------------------------------------------------------===//
#include "TestKernels.h"

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Verifier.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessel;
using namespace tessel::interp;
using namespace tessel::testkernels;

namespace {

/// A kernel with one output buffer `out` of Count elements of Elem; Body
/// returns the tile to store at out[0..Count).
template <typename BodyFn>
RunResult runToBuffer(Memory &Mem, uint32_t &Out, ScalarKind Elem, int64_t Count, BodyFn Body) {
  ir::Function F("k");
  Builder B(F);
  Value *P = F.addParam(ptrType(Elem), "out");
  Value *V = Body(B);
  B.store(at(90, 99), B.addPtr(at(90, 99), B.splat(at(90, 99), P, {Count}), B.arange(at(90, 99), 0, Count)), V);
  B.ret({});
  std::string Errors;
  for (const auto &E : ir::verify(F))
    Errors += E.Message + "\n";
  EXPECT_EQ(Errors, "");
  Out = Mem.addBuffer("out", Elem, Count);
  return run(F, Mem, {ArgValue::pointer(Out)});
}

Value *intTile(Builder &B, ScalarKind K, std::vector<int64_t> Vals) {
  // Built as a sum of one-hot constants would be heavy; use arange-based
  // select chains instead: exact and small.
  int64_t N = static_cast<int64_t>(Vals.size());
  Value *Idx = B.arange(at(1, 2), 0, N);
  Value *Acc = B.constantInt(at(1, 2), Vals[0], tileType(K, {N}));
  for (int64_t I = 1; I < N; ++I) {
    Value *Is = B.cmp(at(1, 2), CmpPredicate::EQ, Idx, B.constantInt(at(1, 2), I, tileType(ScalarKind::I32, {N})));
    Acc = B.select(at(1, 2), Is, B.constantInt(at(1, 2), Vals[I], tileType(K, {N})), Acc);
  }
  return Acc;
}

Value *floatTile(Builder &B, ScalarKind K, std::vector<double> Vals) {
  int64_t N = static_cast<int64_t>(Vals.size());
  Value *Idx = B.arange(at(1, 2), 0, N);
  Value *Acc = B.constantFloat(at(1, 2), Vals[0], tileType(K, {N}));
  for (int64_t I = 1; I < N; ++I) {
    Value *Is = B.cmp(at(1, 2), CmpPredicate::EQ, Idx, B.constantInt(at(1, 2), I, tileType(ScalarKind::I32, {N})));
    Acc = B.select(at(1, 2), Is, B.constantFloat(at(1, 2), Vals[I], tileType(K, {N})), Acc);
  }
  return Acc;
}

std::vector<int64_t> readInts(Memory &Mem, uint32_t Id) {
  std::vector<int64_t> V;
  for (int64_t I = 0; I < Mem.buffer(Id).numElements(); ++I)
    V.push_back(Mem.readInt(Id, I));
  return V;
}

std::vector<double> readFloats(Memory &Mem, uint32_t Id) {
  std::vector<double> V;
  for (int64_t I = 0; I < Mem.buffer(Id).numElements(); ++I)
    V.push_back(Mem.readFloat(Id, I));
  return V;
}

TEST(InterpSemantics, IntegerDivisionAndRemainderAreCStyle) {
  Memory Mem;
  uint32_t Div, Mod;
  std::vector<int64_t> A = {7, -7, 7, -7}, D = {2, 2, -2, -2};
  runToBuffer(Mem, Div, ScalarKind::I32, 4, [&](Builder &B) {
    return B.binary(at(1, 2), OpKind::FloorDiv, intTile(B, ScalarKind::I32, A), intTile(B, ScalarKind::I32, D));
  });
  runToBuffer(Mem, Mod, ScalarKind::I32, 4, [&](Builder &B) {
    return B.binary(at(1, 2), OpKind::Mod, intTile(B, ScalarKind::I32, A), intTile(B, ScalarKind::I32, D));
  });
  EXPECT_EQ(readInts(Mem, Div), (std::vector<int64_t>{3, -3, -3, 3}));
  EXPECT_EQ(readInts(Mem, Mod), (std::vector<int64_t>{1, -1, 1, -1}));
}

TEST(InterpSemantics, IntegersWrapAndShiftLikePtx) {
  Memory Mem;
  uint32_t Add, Shr, UShr, Shl;
  runToBuffer(Mem, Add, ScalarKind::I8, 2, [&](Builder &B) {
    return B.add(at(1, 2), intTile(B, ScalarKind::I8, {127, -128}), intTile(B, ScalarKind::I8, {1, -1}));
  });
  runToBuffer(Mem, Shr, ScalarKind::I32, 2, [&](Builder &B) {
    return B.binary(at(1, 2), OpKind::Shr, intTile(B, ScalarKind::I32, {-16, -16}),
                    intTile(B, ScalarKind::I32, {2, 40}));
  });
  runToBuffer(Mem, UShr, ScalarKind::U32, 2, [&](Builder &B) {
    return B.binary(at(1, 2), OpKind::Shr, intTile(B, ScalarKind::U32, {0xFFFFFFF0, 0xFFFFFFF0}),
                    intTile(B, ScalarKind::U32, {2, 32}));
  });
  runToBuffer(Mem, Shl, ScalarKind::U8, 2, [&](Builder &B) {
    return B.binary(at(1, 2), OpKind::Shl, intTile(B, ScalarKind::U8, {0x81, 1}), intTile(B, ScalarKind::U8, {1, 8}));
  });
  EXPECT_EQ(readInts(Mem, Add), (std::vector<int64_t>{-128, 127}));
  EXPECT_EQ(readInts(Mem, Shr), (std::vector<int64_t>{-4, -1}));
  EXPECT_EQ(readInts(Mem, UShr), (std::vector<int64_t>{0x3FFFFFFC, 0}));
  EXPECT_EQ(readInts(Mem, Shl), (std::vector<int64_t>{2, 0}));
}

TEST(InterpSemantics, CastsRoundSaturateAndTruncate) {
  Memory Mem;
  uint32_t H, Z, F8, I, B8, U;
  std::vector<double> In = {1.0 + std::ldexp(1.0, -11), 1.0 + 3 * std::ldexp(1.0, -11), 70000.0, -1e9};
  runToBuffer(Mem, H, ScalarKind::FP16, 4,
              [&](Builder &B) { return B.cast(at(1, 2), floatTile(B, ScalarKind::FP32, In), elem(ScalarKind::FP16)); });
  runToBuffer(Mem, Z, ScalarKind::FP16, 4, [&](Builder &B) {
    return B.cast(at(1, 2), floatTile(B, ScalarKind::FP32, In), elem(ScalarKind::FP16), ir::RoundingMode::RTZ);
  });
  runToBuffer(Mem, F8, ScalarKind::FP8E4NV, 4, [&](Builder &B) {
    return B.cast(at(1, 2), floatTile(B, ScalarKind::FP32, {1.0625, 1000.0, -0.0, 17.0}), elem(ScalarKind::FP8E4NV));
  });
  runToBuffer(Mem, I, ScalarKind::I32, 4, [&](Builder &B) {
    return B.cast(at(1, 2), floatTile(B, ScalarKind::FP32, {-2.7, 2.7, 3e10, NAN}), elem(ScalarKind::I32));
  });
  runToBuffer(Mem, B8, ScalarKind::I8, 4, [&](Builder &B) {
    Value *Bools = B.cast(at(1, 2), intTile(B, ScalarKind::I32, {0, 2, -1, 256}), elem(ScalarKind::I1));
    return B.cast(at(1, 2), Bools, elem(ScalarKind::I8));
  });
  runToBuffer(Mem, U, ScalarKind::U8, 2, [&](Builder &B) {
    return B.cast(at(1, 2), intTile(B, ScalarKind::I32, {300, -1}), elem(ScalarKind::U8));
  });
  EXPECT_EQ(readFloats(Mem, H), (std::vector<double>{1.0, 1.0 + 2 * std::ldexp(1.0, -10), INFINITY, -INFINITY}));
  EXPECT_EQ(readFloats(Mem, Z), (std::vector<double>{1.0, 1.0 + std::ldexp(1.0, -10), 65504.0, -65504.0}));
  EXPECT_EQ(readFloats(Mem, F8), (std::vector<double>{1.0, 448.0, 0.0, 16.0}));
  EXPECT_EQ(readInts(Mem, I), (std::vector<int64_t>{-2, 2, 2147483647, 0}));
  EXPECT_EQ(readInts(Mem, B8), (std::vector<int64_t>{0, 1, 1, 1})) << "casts to bool compare with 0";
  EXPECT_EQ(readInts(Mem, U), (std::vector<int64_t>{44, 255}));
}

TEST(InterpSemantics, BitcastAndFp16Arithmetic) {
  Memory Mem;
  uint32_t Bits, Sum;
  runToBuffer(Mem, Bits, ScalarKind::I32, 2, [&](Builder &B) {
    return B.bitcast(at(1, 2), floatTile(B, ScalarKind::FP32, {1.0, -2.0}), elem(ScalarKind::I32));
  });
  // 2048 + 1 is not an fp16 value: the sum rounds to even (2048).
  runToBuffer(Mem, Sum, ScalarKind::FP16, 2, [&](Builder &B) {
    return B.add(at(1, 2), floatTile(B, ScalarKind::FP16, {2048.0, 2048.0}),
                 floatTile(B, ScalarKind::FP16, {1.0, 3.0}));
  });
  EXPECT_EQ(readInts(Mem, Bits), (std::vector<int64_t>{0x3F800000, static_cast<int32_t>(0xC0000000)}));
  EXPECT_EQ(readFloats(Mem, Sum), (std::vector<double>{2048.0, 2052.0}));
}

TEST(InterpSemantics, MinimumMaximumNanHandling) {
  Memory Mem;
  uint32_t None, All;
  runToBuffer(Mem, None, ScalarKind::FP32, 2, [&](Builder &B) {
    return B.minimum(at(1, 2), floatTile(B, ScalarKind::FP32, {NAN, 1.0}), floatTile(B, ScalarKind::FP32, {2.0, -1.0}));
  });
  runToBuffer(Mem, All, ScalarKind::FP32, 2, [&](Builder &B) {
    return B.maximum(at(1, 2), floatTile(B, ScalarKind::FP32, {NAN, 1.0}), floatTile(B, ScalarKind::FP32, {2.0, -1.0}),
                     ir::PropagateNan::All);
  });
  EXPECT_EQ(readFloats(Mem, None), (std::vector<double>{2.0, -1.0}));
  EXPECT_TRUE(std::isnan(readFloats(Mem, All)[0]));
  EXPECT_EQ(readFloats(Mem, All)[1], 1.0);
}

TEST(InterpSemantics, LoopsWhileAndIf) {
  Memory Mem;
  uint32_t Out;
  // sum = 0; for i in range(10, 0, -3): sum += i  (10 + 7 + 4 + 1 = 22)
  // j = 1; while j < 100: j *= 3  (243)
  // r = sum if j > 200 else -1
  RunResult R = runToBuffer(Mem, Out, ScalarKind::I32, 2, [&](Builder &B) {
    TileType I32 = scalarType(ScalarKind::I32);
    ForOp *L = B.createFor(at(1, 2), B.constantInt(at(1, 2), 10, I32), B.constantInt(at(1, 2), 0, I32),
                           B.constantInt(at(1, 2), -3, I32), {B.constantInt(at(1, 2), 0, I32)});
    {
      Builder::InsertionGuard G(B);
      B.setInsertionPointToEnd(L->body());
      B.yield(at(1, 2), {B.add(at(1, 2), L->body()->argument(1), L->inductionVar())});
    }
    WhileOp *W = B.createWhile(at(3, 4), {B.constantInt(at(3, 4), 1, I32)});
    {
      Builder::InsertionGuard G(B);
      B.setInsertionPointToEnd(W->before());
      Value *J = W->before()->argument(0);
      B.condition(at(3, 4), B.cmp(at(3, 4), CmpPredicate::LT, J, B.constantInt(at(3, 4), 100, I32)), {J});
      B.setInsertionPointToEnd(W->after());
      B.yield(at(3, 4), {B.mul(at(3, 4), W->after()->argument(0), B.constantInt(at(3, 4), 3, I32))});
    }
    IfOp *If = B.createIf(at(5, 6), B.cmp(at(5, 6), CmpPredicate::GT, W->result(), B.constantInt(at(5, 6), 200, I32)),
                          {I32}, true);
    {
      Builder::InsertionGuard G(B);
      B.setInsertionPointToEnd(If->thenBlock());
      B.yield(at(5, 6), {L->result()});
      B.setInsertionPointToEnd(If->elseBlock());
      B.yield(at(5, 6), {B.constantInt(at(5, 6), -1, I32)});
    }
    return B.join(at(7, 8), If->result(), W->result());
  });
  ASSERT_TRUE(R.Completed) << R.Error;
  EXPECT_EQ(readInts(Mem, Out), (std::vector<int64_t>{22, 243}));
}

/// x = [[3, 9, 9, 1], [5, 2, 8, 8]] as i32.
Value *reduceInput(Builder &B) {
  return B.reshape(at(1, 2), intTile(B, ScalarKind::I32, {3, 9, 9, 1, 5, 2, 8, 8}), {2, 4});
}

TEST(InterpSemantics, BuiltinReductions) {
  Memory Mem;
  uint32_t ArgL, ArgR, ColSum, Xor;
  runToBuffer(Mem, ArgL, ScalarKind::I32, 2,
              [&](Builder &B) { return B.reduce(at(1, 2), ir::ReduceKind::ArgMax, reduceInput(B), 1); });
  runToBuffer(Mem, ArgR, ScalarKind::I32, 2,
              [&](Builder &B) { return B.reduce(at(1, 2), ir::ReduceKind::ArgMax, reduceInput(B), 1, false); });
  runToBuffer(Mem, ColSum, ScalarKind::I32, 4,
              [&](Builder &B) { return B.reduce(at(1, 2), ir::ReduceKind::Sum, reduceInput(B), 0); });
  runToBuffer(Mem, Xor, ScalarKind::I32, 2,
              [&](Builder &B) { return B.reduce(at(1, 2), ir::ReduceKind::XorSum, reduceInput(B), 1); });
  EXPECT_EQ(readInts(Mem, ArgL), (std::vector<int64_t>{1, 2})) << "ties go to the lowest index";
  EXPECT_EQ(readInts(Mem, ArgR), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(readInts(Mem, ColSum), (std::vector<int64_t>{8, 11, 17, 9}));
  EXPECT_EQ(readInts(Mem, Xor), (std::vector<int64_t>{3 ^ 9 ^ 9 ^ 1, 5 ^ 2 ^ 8 ^ 8}));
}

TEST(InterpSemantics, CustomReduceAndScans) {
  Memory Mem;
  uint32_t Prod, Cum, RunMax;
  runToBuffer(Mem, Prod, ScalarKind::I32, 2, [&](Builder &B) {
    ReduceOp *R = B.customReduce(at(3, 4), {reduceInput(B)}, 1);
    Builder::InsertionGuard G(B);
    B.setInsertionPointToEnd(R->combine());
    B.yield(at(3, 4), {B.mul(at(3, 4), R->combine()->argument(0), R->combine()->argument(1))});
    return R->result();
  });
  runToBuffer(Mem, Cum, ScalarKind::I32, 8, [&](Builder &B) {
    return B.reshape(at(1, 2), B.scan(at(5, 6), ir::ScanKind::CumSum, reduceInput(B), 1, /*Reverse=*/true), {8});
  });
  runToBuffer(Mem, RunMax, ScalarKind::I32, 8, [&](Builder &B) {
    ScanOp *S = B.customScan(at(7, 8), {reduceInput(B)}, 1);
    {
      Builder::InsertionGuard G(B);
      B.setInsertionPointToEnd(S->combine());
      B.yield(at(7, 8), {B.maximum(at(7, 8), S->combine()->argument(0), S->combine()->argument(1))});
    }
    return B.reshape(at(1, 2), S->result(), {8});
  });
  EXPECT_EQ(readInts(Mem, Prod), (std::vector<int64_t>{243, 640}));
  EXPECT_EQ(readInts(Mem, Cum), (std::vector<int64_t>{22, 19, 10, 1, 23, 18, 16, 8}));
  EXPECT_EQ(readInts(Mem, RunMax), (std::vector<int64_t>{3, 9, 9, 9, 5, 5, 8, 8}));
}

TEST(InterpSemantics, PermuteJoinSplit) {
  Memory Mem;
  uint32_t T, J;
  runToBuffer(Mem, T, ScalarKind::I32, 8,
              [&](Builder &B) { return B.reshape(at(1, 2), B.trans(at(1, 2), reduceInput(B)), {8}); });
  runToBuffer(Mem, J, ScalarKind::I32, 8, [&](Builder &B) {
    auto [Lo, Hi] = B.split(at(1, 2), B.reshape(at(1, 2), reduceInput(B), {4, 2}));
    return B.reshape(at(1, 2), B.join(at(1, 2), Hi, Lo), {8});
  });
  EXPECT_EQ(readInts(Mem, T), (std::vector<int64_t>{3, 5, 9, 2, 9, 8, 1, 8}));
  EXPECT_EQ(readInts(Mem, J), (std::vector<int64_t>{9, 3, 1, 9, 2, 5, 8, 8}));
}

// tl.gather along each axis of [[3, 9, 9, 1], [5, 2, 8, 8]] (numpy's
// take_along_axis, which Triton's interpreter calls), and an index past the
// axis stops the run with the op's range, as Triton's IndexError does.
TEST(InterpSemantics, GatherAlongEachAxis) {
  Memory Mem;
  uint32_t Cols, Rows, Bad;
  runToBuffer(Mem, Cols, ScalarKind::I32, 8, [&](Builder &B) {
    Value *Idx = B.reshape(at(1, 2), intTile(B, ScalarKind::I64, {3, 0, 0, 1, 1, 2, 3, 3}), {2, 4});
    return B.reshape(at(1, 2), B.gather(at(1, 2), reduceInput(B), Idx, 1), {8});
  });
  EXPECT_EQ(readInts(Mem, Cols), (std::vector<int64_t>{1, 3, 3, 9, 2, 8, 8, 8}));
  runToBuffer(Mem, Rows, ScalarKind::I32, 8, [&](Builder &B) {
    Value *Idx = B.reshape(at(1, 2), intTile(B, ScalarKind::I32, {1, 0, 1, 0, 0, 0, 0, 1}), {2, 4});
    return B.reshape(at(1, 2), B.gather(at(1, 2), reduceInput(B), Idx, 0), {8});
  });
  EXPECT_EQ(readInts(Mem, Rows), (std::vector<int64_t>{5, 9, 8, 1, 3, 9, 9, 8}));
  RunResult R = runToBuffer(Mem, Bad, ScalarKind::I32, 8, [&](Builder &B) {
    Value *Idx = B.reshape(at(1, 2), intTile(B, ScalarKind::I32, {0, 0, 0, 4, 0, 0, 0, 0}), {2, 4});
    return B.reshape(at(3, 4), B.gather(at(5, 6), reduceInput(B), Idx, 1), {8});
  });
  EXPECT_EQ(R.Error, "tl.gather index 4 is out of range for axis 1 of size 4 (program 0, 0, 0)");
  EXPECT_EQ(R.ErrorRange.Begin, 5u);
}

// tl.histogram as Triton 3.6 counts on an H200: each unmasked value in the
// bin its low log2(max(bins, 32)) bits name (-1 in the last of 32, 33 in bin
// 1), only bins below `bins` read back (4 of 4 bins drops 4 and 9).
TEST(InterpSemantics, HistogramBinsValuesByTheirLowBits) {
  Memory Mem;
  uint32_t Wrapped, Plain, Masked;
  runToBuffer(Mem, Wrapped, ScalarKind::I32, 32, [&](Builder &B) {
    return B.histogram(at(1, 2), intTile(B, ScalarKind::I32, {3, 0, 3, -1, 33, 1, 3, 40}), 32, nullptr);
  });
  std::vector<int64_t> Want(32, 0);
  Want[0] = 1, Want[1] = 2, Want[3] = 3, Want[8] = 1, Want[31] = 1;
  EXPECT_EQ(readInts(Mem, Wrapped), Want);
  runToBuffer(Mem, Plain, ScalarKind::I32, 4, [&](Builder &B) {
    return B.histogram(at(1, 2), intTile(B, ScalarKind::I32, {3, 0, 3, -1, 4, 1, 3, 9}), 4, nullptr);
  });
  EXPECT_EQ(readInts(Mem, Plain), (std::vector<int64_t>{1, 1, 0, 3}));
  runToBuffer(Mem, Masked, ScalarKind::I32, 4, [&](Builder &B) {
    Value *X = intTile(B, ScalarKind::I8, {3, 0, 3, -1, 4, 1, 3, 9});
    Value *Mask = B.cmp(at(1, 2), CmpPredicate::LT, B.arange(at(1, 2), 0, 8),
                        B.constantInt(at(1, 2), 4, tileType(ScalarKind::I32, {8})));
    return B.histogram(at(1, 2), X, 4, Mask);
  });
  EXPECT_EQ(readInts(Mem, Masked), (std::vector<int64_t>{1, 0, 0, 2}));
}

TEST(InterpSemantics, TwoOperandCustomReduceIsArgmax) {
  // Triton's argmax: reduce (value, index) pairs with a combine that keeps
  // the larger value, the lower index on ties.
  Memory Mem;
  uint32_t Out;
  RunResult R = runToBuffer(Mem, Out, ScalarKind::I32, 2, [&](Builder &B) {
    Value *X = B.reshape(at(1, 2), floatTile(B, ScalarKind::FP32, {3, 9, 9, 1, 5, 2, 8, 8}), {2, 4});
    Value *Idx = B.broadcast(at(1, 2), B.expandDims(at(1, 2), B.arange(at(1, 2), 0, 4), 0), {2, 4});
    ReduceOp *Red = B.customReduce(at(3, 4), {X, Idx}, 1);
    Builder::InsertionGuard G(B);
    B.setInsertionPointToEnd(Red->combine());
    Block *C = Red->combine();
    Value *V1 = C->argument(0), *I1 = C->argument(1), *V2 = C->argument(2), *I2 = C->argument(3);
    Value *Gt = B.cmp(at(5, 6), CmpPredicate::GT, V1, V2);
    Value *Eq = B.cmp(at(5, 6), CmpPredicate::EQ, V1, V2);
    Value *Lt = B.cmp(at(5, 6), CmpPredicate::LT, I1, I2);
    Value *Take1 = B.binary(at(5, 6), OpKind::Or, Gt, B.binary(at(5, 6), OpKind::And, Eq, Lt));
    B.yield(at(5, 6), {B.select(at(5, 6), Take1, V1, V2), B.select(at(5, 6), Take1, I1, I2)});
    B.setInsertionPointToEnd(&B.function().body());
    return Red->result(1);
  });
  ASSERT_TRUE(R.Completed) << R.Error;
  EXPECT_EQ(readInts(Mem, Out), (std::vector<int64_t>{1, 2}));
}

TEST(InterpSemantics, NarrowFloatsRoundTripThroughMemory) {
  // fp8e5 and bf16 buffers: load, widen, scale, narrow with rtz, store.
  ir::Function F("narrow");
  Builder B(F);
  Value *In = F.addParam(ptrType(ScalarKind::FP8E5), "in");
  Value *Out = F.addParam(ptrType(ScalarKind::BF16), "out");
  Value *Idx = B.arange(at(1, 2), 0, 4);
  Value *X = B.load(at(3, 4), B.addPtr(at(3, 4), B.splat(at(3, 4), In, {4}), Idx));
  Value *Wide = B.cast(at(5, 6), X, elem(ScalarKind::FP32));
  Value *Scaled =
      B.mul(at(7, 8), Wide, B.constantFloat(at(7, 8), 1.0 + std::ldexp(1.0, -9), tileType(ScalarKind::FP32, {4})));
  B.store(at(9, 10), B.addPtr(at(9, 10), B.splat(at(9, 10), Out, {4}), Idx),
          B.cast(at(11, 12), Scaled, elem(ScalarKind::BF16), ir::RoundingMode::RTZ));
  B.ret({});
  Memory Mem;
  uint32_t I = Mem.addBuffer("in", ScalarKind::FP8E5, 4), O = Mem.addBuffer("out", ScalarKind::BF16, 4);
  for (int K = 0; K < 4; ++K)
    Mem.writeFloat(I, K, std::vector<double>{1.0, -3.0, 57344.0, 1e9}[K]);
  EXPECT_EQ(Mem.buffer(I).Bytes[3], 0x7B) << "writing 1e9 to fp8e5 saturates to the max";
  ASSERT_TRUE(run(F, Mem, {ArgValue::pointer(I), ArgValue::pointer(O)}).Completed);
  // x * (1 + 2^-9) toward zero in bf16 (8 significant bits): the 2^-9 is dropped.
  EXPECT_EQ(readFloats(Mem, O), (std::vector<double>{1.0, -3.0, 57344.0, 57344.0}));
}

TEST(InterpSemantics, Int8DotAccumulatesExactlyInInt32) {
  Memory Mem;
  uint32_t Out;
  runToBuffer(Mem, Out, ScalarKind::I32, 16, [&](Builder &B) {
    Value *A = B.constantInt(at(1, 2), 127, tileType(ScalarKind::I8, {4, 32}));
    Value *Bm = B.constantInt(at(1, 2), -128, tileType(ScalarKind::I8, {32, 4}));
    Value *Acc = B.constantInt(at(1, 2), 5, tileType(ScalarKind::I32, {4, 4}));
    return B.reshape(at(3, 4), B.dot(at(3, 4), A, Bm, Acc), {16});
  });
  EXPECT_EQ(readInts(Mem, Out), std::vector<int64_t>(16, 5 + 32 * 127 * -128));
}

TEST(InterpSemantics, Int8DotIntoAFloatAccumulatorAddsTheExactSum) {
  // lmdeploy's w8a8 GEMM under an assumed float32 accumulator: no crash,
  // the integer sum added to the float one.
  Memory Mem;
  uint32_t Out;
  runToBuffer(Mem, Out, ScalarKind::FP32, 16, [&](Builder &B) {
    Value *A = B.constantInt(at(1, 2), 3, tileType(ScalarKind::I8, {4, 32}));
    Value *Bm = B.constantInt(at(1, 2), -2, tileType(ScalarKind::I8, {32, 4}));
    Value *Acc = B.constantFloat(at(1, 2), 0.5, tileType(ScalarKind::FP32, {4, 4}));
    return B.reshape(at(3, 4), B.dot(at(3, 4), A, Bm, Acc), {16});
  });
  EXPECT_EQ(readFloats(Mem, Out), std::vector<double>(16, 0.5 + 32 * 3 * -2));
}

TEST(InterpSemantics, FloatScansMathAndGridQueries) {
  Memory Mem;
  uint32_t Sum, Prod, Math, Hi, Grid, Half;
  runToBuffer(Mem, Sum, ScalarKind::FP32, 4, [&](Builder &B) {
    return B.scan(at(1, 2), ir::ScanKind::CumSum, floatTile(B, ScalarKind::FP32, {1.0, 1e8, -1e8, 0.5}), 0);
  });
  runToBuffer(Mem, Prod, ScalarKind::FP64, 4, [&](Builder &B) {
    return B.scan(at(1, 2), ir::ScanKind::CumProd, floatTile(B, ScalarKind::FP64, {3.0, 0.1, 10.0, -1.0}), 0,
                  /*Reverse=*/true);
  });
  runToBuffer(Mem, Math, ScalarKind::FP32, 4, [&](Builder &B) {
    Value *X = floatTile(B, ScalarKind::FP32, {4.0, 0.25, 2.0, -2.5});
    Value *R = B.unary(at(1, 2), OpKind::Rsqrt, X);
    Value *L = B.unary(at(1, 2), OpKind::Log2, X);
    Value *F = B.unary(at(1, 2), OpKind::Floor, X);
    Value *Idx = B.arange(at(1, 2), 0, 4);
    Value *Is0 = B.cmp(at(1, 2), CmpPredicate::EQ, Idx, B.constantInt(at(1, 2), 0, tileType(ScalarKind::I32, {4})));
    Value *Is1 = B.cmp(at(1, 2), CmpPredicate::EQ, Idx, B.constantInt(at(1, 2), 1, tileType(ScalarKind::I32, {4})));
    return B.select(at(1, 2), Is0, R, B.select(at(1, 2), Is1, L, F));
  });
  runToBuffer(Mem, Hi, ScalarKind::U32, 2, [&](Builder &B) {
    return B.binary(at(1, 2), OpKind::UMulHi, intTile(B, ScalarKind::U32, {0xFFFFFFFF, 0x10000}),
                    intTile(B, ScalarKind::U32, {0xFFFFFFFF, 0x10000}));
  });
  runToBuffer(Mem, Grid, ScalarKind::I32, 2,
              [&](Builder &B) { return B.join(at(1, 2), B.numPrograms(at(1, 2), 0), B.numPrograms(at(1, 2), 2)); });
  runToBuffer(Mem, Half, ScalarKind::I16, 2, [&](Builder &B) {
    return B.bitcast(at(1, 2), floatTile(B, ScalarKind::FP16, {1.0, -0.0}), elem(ScalarKind::I16));
  });
  // fp32 sums round at each step: 1 + 1e8 loses the 1.
  EXPECT_EQ(readFloats(Mem, Sum), (std::vector<double>{1.0, 1e8, 0.0, 0.5}));
  EXPECT_EQ(readFloats(Mem, Prod), (std::vector<double>{((-1.0 * 10.0) * 0.1) * 3.0, (-1.0 * 10.0) * 0.1, -10.0, -1.0}))
      << "a reverse scan combines (accumulated right part, current)";
  EXPECT_EQ(readFloats(Mem, Math), (std::vector<double>{0.5, -2.0, 2.0, -3.0}));
  EXPECT_EQ(readInts(Mem, Hi), (std::vector<int64_t>{0xFFFFFFFE, 1}));
  EXPECT_EQ(readInts(Mem, Grid), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(readInts(Mem, Half), (std::vector<int64_t>{0x3C00, static_cast<int16_t>(0x8000)}));
}

TEST(InterpSemantics, AtomicsSeeEveryProgram) {
  ir::Function F("count");
  Builder B(F);
  Value *Ctr = F.addParam(ptrType(ScalarKind::I32), "ctr");
  Value *Slots = F.addParam(ptrType(ScalarKind::I32), "slots");
  Value *One = B.constantInt(at(1, 2), 1, scalarType(ScalarKind::I32));
  Value *Old = B.atomicRMW(at(3, 4), ir::AtomicKind::Add, Ctr, One);
  // slots[old] = pid: each program claims the next slot.
  B.store(at(5, 6), B.addPtr(at(5, 6), Slots, Old), B.programId(at(7, 8), 0));
  Value *Zero = B.constantInt(at(1, 2), 0, scalarType(ScalarKind::I32));
  B.atomicCas(at(9, 10), B.addPtr(at(9, 10), Ctr, One), Zero, B.programId(at(7, 8), 0));
  B.ret({});
  Memory Mem;
  uint32_t C = Mem.addBuffer("ctr", ScalarKind::I32, 2), S = Mem.addBuffer("slots", ScalarKind::I32, 4);
  RunOptions Opts;
  Opts.Grid = {5, 1, 1};
  RunResult R = run(F, Mem, {ArgValue::pointer(C), ArgValue::pointer(S)}, Opts);
  ASSERT_TRUE(R.Completed);
  EXPECT_EQ(Mem.readInt(C, 0), 5);
  EXPECT_EQ(Mem.readInt(C, 1), 1) << "pid 0 swaps 0 for 0, pid 1 then swaps 0 for 1, later pids fail";
  EXPECT_EQ(readInts(Mem, S), (std::vector<int64_t>{0, 1, 2, 3}));
  ASSERT_EQ(R.TotalViolations, 1u) << "the fifth program's slot is out of bounds";
  EXPECT_EQ(R.Violations[0].ProgramId[0], 4);
  EXPECT_EQ(R.Violations[0].ElementOffset, 4);
}

TEST(InterpSemantics, AssertAndPrint) {
  ir::Function F("dbg");
  Builder B(F);
  Value *X = B.arange(at(1, 2), 0, 4);
  B.deviceAssert(at(3, 9),
                 B.cmp(at(3, 6), CmpPredicate::LT, X, B.constantInt(at(5, 6), 2, tileType(ScalarKind::I32, {4}))),
                 "x too big");
  B.devicePrint(at(10, 20), "x:", {B.programId(at(11, 12), 0)});
  B.ret({});
  Memory Mem;
  RunOptions Opts;
  Opts.Grid = {2, 1, 1};
  RunResult R = run(F, Mem, {}, Opts);
  ASSERT_TRUE(R.Completed);
  ASSERT_EQ(R.Asserts.size(), 4u);
  EXPECT_EQ(R.Asserts[0].Message, "x too big");
  EXPECT_EQ(R.Asserts[0].Lane, 2);
  EXPECT_EQ(R.Asserts[3].ProgramId[0], 1);
  EXPECT_EQ(R.PrintLog, "pid (0, 0, 0) x:: 0\npid (1, 0, 0) x:: 1\n");
}

TEST(InterpSemantics, StepLimitStopsRunawayLoops) {
  ir::Function F("spin");
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  WhileOp *W = B.createWhile(at(1, 20), {B.constantInt(at(1, 2), 0, I32)});
  B.setInsertionPointToEnd(W->before());
  Value *T = B.cmp(at(3, 4), CmpPredicate::EQ, W->before()->argument(0), W->before()->argument(0));
  B.condition(at(3, 4), T, {W->before()->argument(0)});
  B.setInsertionPointToEnd(W->after());
  B.yield(at(5, 6), {W->after()->argument(0)});
  B.setInsertionPointToEnd(&F.body());
  B.ret({});
  Memory Mem;
  RunOptions Opts;
  Opts.MaxSteps = 1000;
  RunResult R = run(F, Mem, {}, Opts);
  EXPECT_FALSE(R.Completed);
  EXPECT_EQ(R.Error, "step limit of 1000 ops exceeded");
}

} // namespace
