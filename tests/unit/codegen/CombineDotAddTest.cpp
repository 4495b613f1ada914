//===- CombineDotAddTest.cpp - acc += tl.dot(a, b) accumulates in place ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// compiler/codegen/CombineDotAdd.h in the PTX: tutorial 03's
/// `accumulator += tl.dot(a, b)` runs the dot on the carried accumulator
/// (Triton's CombineDotAdd patterns), on wgmma (sm_90a), mma.sync (sm_80)
/// and FMA units alike, so no `add.f32` is left; a dot whose result has
/// another use, or whose accumulator is not zero, keeps its add. At
/// tutorial 03's 128x128x64 config on 4 warps the wgmma kernel no longer
/// spills (it took 255 registers and spilled with both accumulators live).
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include "compiler/codegen/CombineDotAdd.h"

#include <gtest/gtest.h>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

/// Tutorial 03's loop without masks, its epilogue stored as fp16; Update is
/// the loop body's accumulation.
std::string kernel(const std::string &Update) {
  return R"(
@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, stride_cm,
       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    other = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
)" + Update +
         R"(
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c = (accumulator + other).to(tl.float16)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], c)
)";
}

LoweringRequest request(int64_t BM, int64_t BN, int64_t BK, unsigned Warps, unsigned Stages) {
  LoweringRequest R;
  R.Kernel = "mm";
  R.NumWarps = Warps;
  R.NumStages = Stages;
  R.Constexprs["BLOCK_M"] = PyValue::integer(BM);
  R.Constexprs["BLOCK_N"] = PyValue::integer(BN);
  R.Constexprs["BLOCK_K"] = PyValue::integer(BK);
  R.ArgTypes = {{"a_ptr", ElemType{ScalarKind::FP16, 1}}, {"b_ptr", ElemType{ScalarKind::FP16, 1}},
                {"c_ptr", ElemType{ScalarKind::FP16, 1}}, {"K", ElemType{ScalarKind::I32}},
                {"stride_am", ElemType{ScalarKind::I32}}, {"stride_bk", ElemType{ScalarKind::I32}},
                {"stride_cm", ElemType{ScalarKind::I32}}};
  return R;
}

Compiled compile(const std::string &Update, unsigned Arch, bool Wgmma, int64_t BM = 64, int64_t BN = 64,
                 int64_t BK = 32, unsigned Stages = 3) {
  SnippetKernel S = parseSnippet(kernel(Update));
  return compileRequest(*S.File, S.Info, request(BM, BN, BK, 4, Stages), Arch, /*Assemble=*/true, {}, true, Wgmma);
}

/// The add.f32 of the loop (the epilogue's `accumulator + other` is one per
/// accumulator register: Regs of them).
int adds(const Compiled &C) { return countMatches(C.Ptx, R"(add\.f32)"); }

TEST(CombineDotAdd, TutorialAccumulationRunsOnTheCarriedAccumulator) {
  // 64x64 fp32 on 4 warps: 32 accumulator registers a thread, whose
  // epilogue adds `other` (32 add.f32); the loop adds nothing more.
  for (auto [Arch, Wgmma] : {std::pair{90u, true}, std::pair{80u, false}}) {
    Compiled C = compile("        accumulator += tl.dot(a, b)", Arch, Wgmma);
    ASSERT_EQ(C.Error, "") << Arch;
    EXPECT_EQ(adds(C), 32) << Arch << "\n" << C.Ptx;
    // The reversed operands are the same pattern.
    Compiled Rev = compile("        accumulator = tl.dot(a, b) + accumulator", Arch, Wgmma);
    ASSERT_EQ(Rev.Error, "") << Arch;
    EXPECT_EQ(adds(Rev), 32) << Arch;
  }
}

TEST(CombineDotAdd, OtherUsesAndNonzeroAccumulatorsKeepTheAdd) {
  // The dot's result read twice: its add stays (one per register in the
  // loop, on top of the epilogue's), as in Triton (hasOneUse).
  Compiled Twice = compile("        d = tl.dot(a, b)\n        accumulator += d\n        other += d", 90, true);
  ASSERT_EQ(Twice.Error, "");
  EXPECT_EQ(adds(Twice), 32 * 3) << Twice.Ptx;
  // An accumulator that is not zero: dot(a, b, ones) + accumulator adds.
  Compiled Acc = compile("        accumulator += tl.dot(a, b, tl.full((BLOCK_M, BLOCK_N), 1.0, tl.float32))", 90, true);
  ASSERT_EQ(Acc.Error, "");
  EXPECT_EQ(adds(Acc), 32 * 2) << Acc.Ptx;
}

TEST(CombineDotAdd, Tutorial03ConfigDoesNotSpill) {
  // Tutorial 03's Hopper config: 128x128x64, 4 warps, 3 stages (128
  // accumulator registers a thread).
  Compiled C = compile("        accumulator += tl.dot(a, b)", 90, true, 128, 128, 64, 3);
  ASSERT_EQ(C.Error, "");
  ASSERT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(C.Kernel.Resources.SpillStores, 0u) << C.Kernel.Resources.Registers;
  EXPECT_LE(C.Kernel.Resources.Registers, 232u);
}

TEST(CombineDotAdd, PlanNamesTheAddAndTheAddend) {
  SnippetKernel S = parseSnippet(kernel("        accumulator += tl.dot(a, b)"));
  sema::LoweredKernel L = sema::lowerKernel(*S.File, S.Info, request(64, 64, 32, 4, 3));
  ASSERT_TRUE(L.Function);
  DotAddCombine Plan = combineDotAdds(*L.Function);
  ASSERT_EQ(Plan.Addend.size(), 1u);
  ASSERT_EQ(Plan.Folded.size(), 1u);
  const ir::Op *Add = Plan.Folded.begin()->first;
  const auto *Dot = ir::cast<ir::DotOp>(Plan.Folded.begin()->second);
  EXPECT_EQ(Plan.foldedDot(*Add), Dot);
  // The addend is the loop's carried accumulator, the add's other operand.
  EXPECT_EQ(Plan.accumulator(*Dot), Add->operand(0));
  EXPECT_NE(Plan.accumulator(*Dot), Dot->acc());
}

} // namespace
} // namespace tessel::codegen::test
