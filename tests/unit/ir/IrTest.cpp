//===- IrTest.cpp - Builder, Printer and Verifier tests -------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Builds kernels the way the lowering will (through the Builder, with a
/// source range per op), checks their printed text in full, and checks that
/// the verifier accepts them and rejects each kind of malformed IR.
//===----------------------------------------------------------------------===//
#include "compiler/ir/Builder.h"
#include "compiler/ir/Printer.h"
#include "compiler/ir/TypeUtils.h"
#include "compiler/ir/Verifier.h"
#include "compiler/support/SourceText.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::ir;

namespace {

TileType ptrTo(ScalarKind K) { return {{K, 1, false}, {}}; }
SourceRange at(uint32_t B, uint32_t E) { return {B, E}; }

std::string messages(const std::vector<VerifierError> &Es) {
  std::string S;
  for (const auto &E : Es)
    S += E.Message + "\n";
  return S;
}

/// The tutorial's vector add, lowered by hand.
void buildVectorAdd(Function &F) {
  Builder B(F);
  Value *X = F.addParam(ptrTo(ScalarKind::FP32), "x");
  Value *Y = F.addParam(ptrTo(ScalarKind::FP32), "y");
  Value *Out = F.addParam(ptrTo(ScalarKind::FP32), "out");
  Value *N = F.addParam(scalarType(ScalarKind::I32), "n");
  Value *Pid = B.programId(at(10, 25), 0);
  Value *Start = B.mul(at(30, 46), Pid, B.constantInt(at(40, 46), 1024, scalarType(ScalarKind::I32)));
  // Operands are built in statements of their own: argument evaluation order is unspecified.
  Value *StartTile = B.splat(at(50, 55), Start, {1024});
  Value *Range = B.arange(at(58, 80), 0, 1024);
  Value *Offs = B.add(at(50, 80), StartTile, Range);
  Value *Mask = B.cmp(at(85, 93), CmpPredicate::LT, Offs, B.splat(at(92, 93), N, {1024}));
  Value *XP = B.addPtr(at(100, 108), B.splat(at(100, 101), X, {1024}), Offs);
  Value *YP = B.addPtr(at(110, 118), B.splat(at(110, 111), Y, {1024}), Offs);
  Value *XV = B.load(at(120, 140), XP, Mask);
  Value *YV = B.load(at(141, 160), YP, Mask);
  Value *Sum = B.add(at(120, 160), XV, YV);
  Value *OP = B.addPtr(at(170, 180), B.splat(at(170, 173), Out, {1024}), Offs);
  B.store(at(165, 200), OP, Sum, Mask);
  B.ret(at(200, 200));
}

TEST(TileIR, VectorAddPrintsAndVerifies) {
  Function F("add_kernel");
  buildVectorAdd(F);
  EXPECT_EQ(messages(verify(F)), "");
  EXPECT_EQ(printFunction(F), R"(func @add_kernel(%x: *fp32, %y: *fp32, %out: *fp32, %n: i32) {
  %0 = program_id 0 : i32  loc(@10..25)
  %1 = constant 1024 : i32  loc(@40..46)
  %2 = mul %0, %1 : i32  loc(@30..46)
  %3 = splat %2 : [1024] i32  loc(@50..55)
  %4 = arange 0, 1024 : [1024] i32  loc(@58..80)
  %5 = add %3, %4 : [1024] i32  loc(@50..80)
  %6 = splat %n : [1024] i32  loc(@92..93)
  %7 = cmp lt %5, %6 : [1024] i1  loc(@85..93)
  %8 = splat %x : [1024] *fp32  loc(@100..101)
  %9 = addptr %8, %5 : [1024] *fp32  loc(@100..108)
  %10 = splat %y : [1024] *fp32  loc(@110..111)
  %11 = addptr %10, %5 : [1024] *fp32  loc(@110..118)
  %12 = load %9, mask=%7 : [1024] fp32  loc(@120..140)
  %13 = load %11, mask=%7 : [1024] fp32  loc(@141..160)
  %14 = add %12, %13 : [1024] fp32  loc(@120..160)
  %15 = splat %out : [1024] *fp32  loc(@170..173)
  %16 = addptr %15, %5 : [1024] *fp32  loc(@170..180)
  store %16, %14, mask=%7  loc(@165..200)
  return
}
)");
}

TEST(TileIR, LocationsPrintAsLineAndColumnWithSource) {
  SourceText Src("def k():\n    pid = tl.program_id(0)\n");
  Function F("k");
  Builder B(F);
  B.programId(at(19, 36), 0);
  B.ret(at(36, 36));
  PrintOptions Opts;
  Opts.Source = &Src;
  EXPECT_EQ(printFunction(F, Opts), "func @k() {\n  %0 = program_id 0 : i32  loc(2:11)\n  return\n}\n");
}

TEST(TileIR, LoopsIfsAndRegionsPrint) {
  Function F("loops");
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  TileType Acc = tileType(ScalarKind::FP32, {16});
  Value *Lb = B.constantInt(at(1, 2), 0, I32);
  Value *Ub = F.addParam(I32, "k");
  Value *Step = B.constantInt(at(3, 4), 1, I32);
  Value *Init = B.constantFloat(at(5, 6), 0.5, Acc);
  ForOp *Loop = B.createFor(at(10, 90), Lb, Ub, Step, {Init});
  Loop->inductionVar()->setName("i");
  {
    Builder::InsertionGuard G(B);
    B.setInsertionPointToEnd(Loop->body());
    Value *C = B.cmp(at(20, 25), CmpPredicate::GT, Loop->inductionVar(), Step);
    IfOp *If = B.createIf(at(20, 60), C, {Acc}, true);
    B.setInsertionPointToEnd(If->thenBlock());
    Value *E = B.unary(at(30, 40), OpKind::Exp, Loop->body()->argument(1));
    B.yield(at(30, 40), {E});
    B.setInsertionPointToEnd(If->elseBlock());
    B.yield(at(50, 60), {Loop->body()->argument(1)});
    B.setInsertionPointToEnd(Loop->body());
    B.yield(at(70, 80), {If->result()});
  }
  ReduceOp *R = B.customReduce(at(100, 120), {Loop->result()}, 0);
  {
    Builder::InsertionGuard G(B);
    B.setInsertionPointToEnd(R->combine());
    Value *M = B.maximum(at(105, 110), R->combine()->argument(0), R->combine()->argument(1), PropagateNan::All);
    B.yield(at(105, 110), {M});
  }
  WhileOp *W = B.createWhile(at(130, 170), {Lb});
  {
    Builder::InsertionGuard G(B);
    B.setInsertionPointToEnd(W->before());
    Value *C = B.cmp(at(135, 140), CmpPredicate::LT, W->before()->argument(0), Ub);
    B.condition(at(135, 140), C, {W->before()->argument(0)});
    B.setInsertionPointToEnd(W->after());
    B.yield(at(150, 160), {B.add(at(150, 160), W->after()->argument(0), Step)});
  }
  B.ret({});
  EXPECT_EQ(messages(verify(F)), "");
  PrintOptions NoLoc;
  NoLoc.Locations = false;
  EXPECT_EQ(printFunction(F, NoLoc), R"(func @loops(%k: i32) {
  %0 = constant 0 : i32
  %1 = constant 1 : i32
  %2 = constant 0.5 : [16] fp32
  %3 = for %i = %0 to %k step %1 iter_args(%4 = %2) -> ([16] fp32) : i32 {
    %5 = cmp gt %i, %1 : i1
    %6 = if %5 -> ([16] fp32) {
      %7 = exp %4 : [16] fp32
      yield %7 : [16] fp32
    } else {
      yield %4 : [16] fp32
    }
    yield %6 : [16] fp32
  }
  %8 = reduce custom %3 axis=0 : fp32 combine(%9: fp32, %10: fp32) {
    %11 = maximum %9, %10 propagate_nan=all : fp32
    yield %11 : fp32
  }
  %12 = while (%13 = %0) -> (i32) {
    %14 = cmp lt %13, %k : i1
    condition %14, %13 : i1, i32
  } do(%15: i32) {
    %16 = add %15, %1 : i32
    yield %16 : i32
  }
  return
}
)");
}

TEST(TileIR, VerifierRejectsTypeMismatches) {
  Function F("bad");
  Builder B(F);
  Value *A = B.arange(at(1, 2), 0, 64);
  Value *C = B.cast(at(3, 4), A, {ScalarKind::I64, 0, false});
  B.add(at(5, 6), A, C);
  B.unary(at(7, 8), OpKind::Exp, A);
  B.arange(at(9, 10), 0, 48);
  B.programId(at(11, 12), 3);
  B.reshape(at(13, 14), A, {8, 4});
  B.ret({});
  EXPECT_EQ(messages(verify(F)), "add: operand types differ: [64] i32 and [64] i64\n"
                                 "exp: operand must be a float, got [64] i32\n"
                                 "arange: range size 48 is not a positive power of 2\n"
                                 "program_id: axis must be 0, 1 or 2, got 3\n"
                                 "reshape: cannot change the number of elements: [64] i32 to [8, 4] i32\n");
}

TEST(TileIR, VerifierRejectsUseOutsideDefiningRegion) {
  Function F("scope");
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  Value *Zero = B.constantInt(at(1, 2), 0, I32);
  ForOp *Loop = B.createFor(at(3, 20), Zero, Zero, Zero, {});
  B.setInsertionPointToEnd(Loop->body());
  Value *Inner = B.add(at(5, 6), Loop->inductionVar(), Zero);
  B.yield(at(7, 8), {});
  B.setInsertionPointToEnd(&F.body());
  B.add(at(21, 22), Inner, Zero);
  B.ret({});
  std::vector<VerifierError> Es = verify(F);
  ASSERT_EQ(Es.size(), 1u) << messages(Es);
  EXPECT_EQ(Es[0].Message, "add: operand 0 is used where its definition is not visible");
  EXPECT_EQ(Es[0].Loc, (SourceRange{21, 22}));
}

TEST(TileIR, VerifierChecksTerminatorsAndYields) {
  Function F("yields");
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  Value *Zero = B.constantInt(at(1, 2), 0, I32);
  Value *T = B.cmp(at(2, 3), CmpPredicate::EQ, Zero, Zero);
  IfOp *If = B.createIf(at(3, 10), T, {I32}, true);
  B.setInsertionPointToEnd(If->thenBlock());
  B.yield(at(4, 5), {T});
  B.setInsertionPointToEnd(If->elseBlock());
  B.constantInt(at(6, 7), 1, I32); // no yield
  B.setInsertionPointToEnd(&F.body());
  ForOp *Loop = B.createFor(at(11, 20), Zero, Zero, Zero, {Zero});
  B.setInsertionPointToEnd(Loop->body());
  B.yield(at(12, 13), {});
  B.setInsertionPointToEnd(&F.body()); // no return
  EXPECT_EQ(messages(verify(F)), "if: then yield 0 has type i1, expected i32\n"
                                 "if: block does not end in yield\n"
                                 "for: body yields 0 values, expected 1\n"
                                 "function: block does not end in return\n");
}

TEST(TileIR, VerifierChecksMemoryAndDot) {
  Function F("mem");
  Builder B(F);
  Value *P = F.addParam(ptrTo(ScalarKind::FP16), "p");
  Value *Ps = B.addPtr(at(1, 2), B.splat(at(1, 2), P, {16, 16}),
                       B.constantInt(at(1, 2), 0, tileType(ScalarKind::I32, {16, 16})));
  Value *Mask = B.constantInt(at(3, 4), 1, tileType(ScalarKind::I32, {16, 16}));
  Value *A = B.load(at(5, 6), Ps, Mask);
  B.store(at(7, 8), Ps, B.cast(at(7, 8), A, {ScalarKind::FP32, 0, false}));
  Value *Acc = B.constantFloat(at(9, 10), 0, tileType(ScalarKind::FP32, {16, 8}));
  B.dot(at(11, 12), A, A, Acc);
  B.load(at(13, 14), Mask);
  B.ret({});
  EXPECT_EQ(messages(verify(F)), "load: mask must be i1, got [16, 16] i32\n"
                                 "store: stored value has type [16, 16] fp32, expected [16, 16] fp16\n"
                                 "dot: accumulator shape [16, 8] fp32 does not match the product\n"
                                 "load: pointer operand has type [16, 16] i32\n");
}

TEST(TileIR, MemoryComputeAndDebugOpsPrint) {
  Function F("ops");
  Builder B(F);
  Value *P = F.addParam(ptrTo(ScalarKind::FP16), "p");
  Value *Seed = F.addParam(scalarType(ScalarKind::I64), "seed");
  Value *Idx = B.arange(at(1, 2), 0, 16);
  Value *Hinted = B.hint(at(1, 2), HintKind::MultipleOf, Idx, {16});
  Value *Ps = B.splat(at(1, 2), P, {16});
  Value *Ptrs = B.addPtr(at(1, 2), Ps, Hinted);
  Value *True = B.constantInt(at(1, 2), 1, tileType(ScalarKind::I1, {16}));
  Value *Zero = B.constantFloat(at(1, 2), 0.0, tileType(ScalarKind::FP16, {16}));
  Value *X = B.load(at(1, 2), Ptrs, True, Zero, CacheModifier::CG, EvictionPolicy::EvictLast);
  Value *X32 = B.cast(at(1, 2), X, {ScalarKind::FP32, 0, false});
  Value *Back = B.cast(at(1, 2), X32, {ScalarKind::FP16, 0, false}, RoundingMode::RTZ);
  Value *Old = B.atomicRMW(at(1, 2), AtomicKind::Add, Ptrs, Back, True, MemSemantic::Relaxed, MemScope::Cta);
  Value *R = B.random(at(1, 2), OpKind::Rand, Seed, Idx, 7);
  Value *Sum = B.reduce(at(1, 2), ReduceKind::Sum, R, 0);
  Value *Cum = B.scan(at(1, 2), ScanKind::CumSum, Idx, 0, true);
  Value *M = B.reshape(at(1, 2), X32, {4, 4});
  Value *D = B.dot(at(1, 2), M, B.trans(at(1, 2), M), nullptr, InputPrecision::IEEE);
  B.devicePrint(at(1, 2), "sum", {Sum, Old}, true);
  B.deviceAssert(at(1, 2), B.cmp(at(1, 2), CmpPredicate::GE, Cum, Idx), "monotone");
  B.store(at(1, 2), Ptrs, Back, nullptr, CacheModifier::WT);
  (void)D;
  B.ret({});
  EXPECT_EQ(messages(verify(F)), "");
  PrintOptions NoLoc;
  NoLoc.Locations = false;
  EXPECT_EQ(printFunction(F, NoLoc), R"(func @ops(%p: *fp16, %seed: i64) {
  %0 = arange 0, 16 : [16] i32
  %1 = hint multiple_of %0 [16] : [16] i32
  %2 = splat %p : [16] *fp16
  %3 = addptr %2, %1 : [16] *fp16
  %4 = constant true : [16] i1
  %5 = constant 0.0 : [16] fp16
  %6 = load %3, mask=%4, other=%5 cache=.cg evict=evict_last : [16] fp16
  %7 = cast %6 : [16] fp16 to [16] fp32
  %8 = cast rtz %7 : [16] fp32 to [16] fp16
  %9 = atomic_rmw add %3, %8, mask=%4 sem=relaxed scope=cta : [16] fp16
  %10 = rand %seed, %0 n_rounds=7 : [16] fp32
  %11 = reduce sum %10 axis=0 : fp32
  %12 = scan cumsum %0 axis=0 reverse : [16] i32
  %13 = reshape %7 : [4, 4] fp32
  %14 = permute %13 order=[1, 0] : [4, 4] fp32
  %15 = constant 0.0 : [4, 4] fp32
  %16 = dot %13, %14, %15 precision=ieee : [4, 4] fp32
  device_print "sum" %11, %9 hex
  %17 = cmp ge %12, %0 : [16] i1
  device_assert %17 "monotone"
  store %3, %8 cache=.wt
  return
}
)");
}

TEST(TileIR, VerifierChecksRegionSignatures) {
  Function F("regions");
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  Value *Zero = B.constantInt(at(1, 2), 0, I32);
  Value *Tile = B.arange(at(1, 2), 0, 8);
  // A while whose condition forwards the wrong type.
  WhileOp *W = B.createWhile(at(3, 4), {Zero});
  B.setInsertionPointToEnd(W->before());
  Value *C = B.cmp(at(3, 4), CmpPredicate::EQ, Zero, Zero);
  B.condition(at(3, 4), C, {C});
  B.setInsertionPointToEnd(W->after());
  B.yield(at(3, 4), {W->after()->argument(0)});
  B.setInsertionPointToEnd(&F.body());
  // An if with results and no else.
  B.createIf(at(5, 6), B.cmp(at(5, 6), CmpPredicate::EQ, Zero, Zero), {I32}, false);
  // A combine region that loads.
  Value *P = F.addParam({{ScalarKind::I32, 1, false}, {}}, "p");
  ReduceOp *R = B.customReduce(at(7, 8), {Tile}, 0);
  B.setInsertionPointToEnd(R->combine());
  B.load(at(9, 10), P);
  B.add(at(9, 10), R->combine()->argument(0), Tile);
  B.yield(at(7, 8), {R->combine()->argument(0)});
  B.setInsertionPointToEnd(&F.body());
  // A loop over a tile.
  B.createFor(at(11, 12), Tile, Tile, Tile, {});
  B.ret({});
  EXPECT_EQ(messages(verify(F)), "while: condition must forward values matching the carried types\n"
                                 "if: an if with results needs an else region\n"
                                 "if: block does not end in yield\n"
                                 "add: operand types differ: i32 and [8] i32\n"
                                 "load: only scalar elementwise ops may appear in a combine region\n"
                                 "add: a combine region may use only scalars from outside it, got [8] i32\n"
                                 "for: bounds and step must be scalar integers, got [8] i32\n"
                                 "for: bounds and step must be scalar integers, got [8] i32\n"
                                 "for: bounds and step must be scalar integers, got [8] i32\n"
                                 "for: block does not end in yield\n");
}

} // namespace

TEST(TileIR, ResultsAddedAfterTheRegionsAreFilled) {
  // The lowering learns an `if`'s results only after walking both branches.
  Function F("k");
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  Value *N = F.addParam(I32, "n");
  Value *Zero = B.constantInt(at(1, 2), 0, I32);
  IfOp *If = B.createIf(at(3, 20), B.cmp(at(3, 8), CmpPredicate::GT, N, Zero), {}, true);
  B.setInsertionPointToEnd(If->thenBlock());
  Value *Doubled = B.add(at(10, 15), N, N);
  B.yield(at(10, 15), {Doubled});
  B.setInsertionPointToEnd(If->elseBlock());
  B.yield(at(16, 20), {Zero});
  Value *R = B.addResult(If, I32);
  B.setInsertionPointToEnd(&F.body());
  B.add(at(21, 25), R, N);
  B.ret(at(26, 26));
  EXPECT_EQ(If->numResults(), 1u);
  EXPECT_EQ(R->definingOp(), If);
  EXPECT_EQ(R->index(), 0u);
  EXPECT_EQ(messages(verify(F)), "");
  EXPECT_NE(printFunction(F, {nullptr, false}).find("%2 = if %1 -> (i32) {"), std::string::npos)
      << printFunction(F, {nullptr, false});
}
