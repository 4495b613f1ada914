//===- DotMmaTest.cpp - the mma.sync each tl.dot operand type gets --------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// One 32x32 dot per operand type and input_precision, compiled for sm_80
/// and sm_90 and assembled by ptxas (when the toolkit has one, which checks
/// that the arch takes the instruction): the PTX must hold exactly the
/// mma.sync shape MmaInstr.h's table names, as many as the warps' tiles and
/// k steps need (4 warps as 2 x 2 over 32x32: two 16x8 tiles a warp), and
/// the fragment loads that shape reads with; ieee fp32 stays on FMA units.
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

ElemType ptrTo(ScalarKind K) { return ElemType{K, 1}; }

/// c = tl.dot(a, b{Extra}) on [32, K] x [K, 32] tiles loaded from a_ptr and b_ptr.
Compiled compileDot(ScalarKind A, ScalarKind B, ScalarKind Out, unsigned Arch, const std::string &Extra = "",
                    int64_t K = 32) {
  std::string Src = R"(
@triton.jit
def k(a_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b)" +
                    Extra + R"()
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], c)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["M"] = PyValue::integer(32);
  R.Constexprs["N"] = PyValue::integer(32);
  R.Constexprs["K"] = PyValue::integer(K);
  R.ArgTypes = {{"a_ptr", ptrTo(A)}, {"b_ptr", ptrTo(B)}, {"out_ptr", ptrTo(Out)}};
  SnippetKernel S = parseSnippet(Src);
  return compileRequest(*S.File, S.Info, R, Arch, /*Assemble=*/true);
}

int mmas(const Compiled &C) { return countMatches(C.Ptx, R"(mma\.sync\.aligned)"); }

TEST(DotMma, Fp32DefaultsToTf32OnBothArchs) {
  for (unsigned Arch : {80u, 90u}) {
    Compiled C = compileDot(ScalarKind::FP32, ScalarKind::FP32, ScalarKind::FP32, Arch);
    ASSERT_EQ(C.Error, "") << Arch;
    // Two 16x8 tiles a warp, K / 8 = 4 steps.
    EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32)"), 8) << C.Ptx;
    EXPECT_EQ(mmas(C), 8) << C.Ptx;
    // Every fragment element rounded once: a 4 a step, b 2 a tile.
    EXPECT_EQ(countMatches(C.Ptx, R"(cvt\.rna\.tf32\.f32)"), 4 * (4 + 2 * 2)) << C.Ptx;
    EXPECT_EQ(countMatches(C.Ptx, R"(ldmatrix)"), 0) << C.Ptx;
  }
}

TEST(DotMma, Tf32x3IsThreePassesAndIeeeStaysOnFma) {
  Compiled X3 = compileDot(ScalarKind::FP32, ScalarKind::FP32, ScalarKind::FP32, 90, ", input_precision=\"tf32x3\"");
  ASSERT_EQ(X3.Error, "");
  EXPECT_EQ(countMatches(X3.Ptx, R"(mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32)"), 24) << X3.Ptx;
  EXPECT_GE(countMatches(X3.Ptx, R"(sub\.f32)"), 1) << X3.Ptx; // x - big
  Compiled Ieee = compileDot(ScalarKind::FP32, ScalarKind::FP32, ScalarKind::FP32, 90, ", input_precision=\"ieee\"");
  ASSERT_EQ(Ieee.Error, "");
  EXPECT_EQ(mmas(Ieee), 0) << Ieee.Ptx;
  EXPECT_GE(countMatches(Ieee.Ptx, R"(fma\.rn\.f32)"), 1) << Ieee.Ptx;
  // allow_tf32=False is ieee too.
  Compiled NoTf32 = compileDot(ScalarKind::FP32, ScalarKind::FP32, ScalarKind::FP32, 80, ", allow_tf32=False");
  ASSERT_EQ(NoTf32.Error, "");
  EXPECT_EQ(mmas(NoTf32), 0) << NoTf32.Ptx;
}

TEST(DotMma, Int8AccumulatesInInt32) {
  for (unsigned Arch : {80u, 90u}) {
    Compiled C = compileDot(ScalarKind::I8, ScalarKind::I8, ScalarKind::I32, Arch, "", 64);
    ASSERT_EQ(C.Error, "") << Arch;
    // Two tiles a warp, K / 32 = 2 steps.
    EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k32\.row\.col\.s32\.s8\.s8\.s32)"), 4) << C.Ptx;
    EXPECT_EQ(mmas(C), 4) << C.Ptx;
    // a 4 words a step, b 2 a tile, from shared memory.
    EXPECT_GE(countMatches(C.Ptx, R"(ld\.shared\.(u|b)32)"), 2 * (4 + 2 * 2)) << C.Ptx;
  }
}

TEST(DotMma, Fp8IsWidenedInRegistersOnSm90AndBeforeStagingOnSm80) {
  // Triton's mma.sync multiplies fp8 only on sm_89 and sm_120
  // (mmav2SupportsFp8Operands). On sm_90 its PTX (tutorial 03's 2-warp fp8
  // run on the H100) reads the bytes and widens them in registers
  // (cvt.rn.f16x2.e5m2x2), two m16n8k16 f16 per 32 of k.
  Compiled H = compileDot(ScalarKind::FP8E4NV, ScalarKind::FP8E4NV, ScalarKind::FP32, 90);
  ASSERT_EQ(H.Error, "");
  EXPECT_EQ(countMatches(H.Ptx, R"(mma\.sync\.aligned\.m16n8k32)"), 0) << H.Ptx;
  EXPECT_EQ(countMatches(H.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 4) << H.Ptx;
  EXPECT_GT(countMatches(H.Ptx, R"(cvt\.rn\.f16x2\.e4m3x2)"), 0) << H.Ptx;
  EXPECT_GE(countMatches(H.Ptx, R"(ld\.shared\.(u|b)32)"), 4 + 2) << H.Ptx;
  Compiled Mixed = compileDot(ScalarKind::FP8E5, ScalarKind::FP8E4NV, ScalarKind::FP32, 90);
  ASSERT_EQ(Mixed.Error, "");
  EXPECT_EQ(countMatches(Mixed.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 4)
      << Mixed.Ptx;
  EXPECT_GT(countMatches(Mixed.Ptx, R"(cvt\.rn\.f16x2\.e5m2x2)"), 0) << Mixed.Ptx;
  EXPECT_GT(countMatches(Mixed.Ptx, R"(cvt\.rn\.f16x2\.e4m3x2)"), 0) << Mixed.Ptx;
  // sm_80 has no fp8 mma: the operands are widened to fp16 (exact) as Triton
  // does, and so are the formats mma.sync never takes (fp8e4b15).
  for (ScalarKind K : {ScalarKind::FP8E4NV, ScalarKind::FP8E5}) {
    Compiled A = compileDot(K, K, ScalarKind::FP32, 80);
    ASSERT_EQ(A.Error, "");
    EXPECT_EQ(countMatches(A.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 4) << A.Ptx;
    EXPECT_EQ(mmas(A), 4) << A.Ptx;
  }
  Compiled B15 = compileDot(ScalarKind::FP8E4B15, ScalarKind::FP8E4B15, ScalarKind::FP32, 90);
  ASSERT_EQ(B15.Error, "");
  EXPECT_EQ(countMatches(B15.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 4) << B15.Ptx;
}

TEST(DotMma, Fp16OutDtypeRoundsTheFp32Accumulator) {
  Compiled C = compileDot(ScalarKind::FP16, ScalarKind::FP16, ScalarKind::FP16, 90, ", out_dtype=tl.float16");
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 4) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(cvt\.rn\.f16\.f32|cvt\.rn\.f16x2\.f32)"), 1) << C.Ptx;
}

} // namespace
} // namespace tessel::codegen::test
