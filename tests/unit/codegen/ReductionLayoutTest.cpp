//===- ReductionLayoutTest.cpp - reductions in the layout of their loads --===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Layer norm and softmax at the sizes their tutorials launch (strides and
/// sizes divisible by 16, so the loads are 16 bytes wide): the loaded layout
/// flows through the loop-carried sums into the reductions (LayoutAssignment's
/// forward seeding, Triton's LayoutPropagation), so the only shared memory is
/// Triton's: one fp32 slot per warp for each reduction (16 bytes with 4 warps,
/// 32 with 8; the two reductions of layer norm share them), plus softmax's
/// cp.async row ring. Before, the reductions wanted the default layout, and
/// every iteration converted the loaded tile through shared memory (4-32 KB).
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

SnippetKernel sample(const char *Name) { return parseRepoFile(std::string("samples/") + Name); }

/// Tutorial 05's launch of samples/layer_norm.py's kernel: x, y, weight and
/// bias in Elem, mean and rstd fp32; BLOCK_SIZE and num_warps as its host
/// code picks them (min(max(BLOCK // 256, 1), 8) warps).
LoweringRequest layerNormRequest(ScalarKind Elem, int64_t Block) {
  LoweringRequest R;
  R.Kernel = "layer_norm_fwd_kernel";
  R.NumWarps = static_cast<unsigned>(std::min<int64_t>(std::max<int64_t>(Block / 256, 1), 8));
  R.Constexprs["BLOCK_SIZE"] = PyValue::integer(Block);
  for (const char *P : {"x_ptr", "y_ptr", "weight_ptr", "bias_ptr"})
    R.ArgTypes[P] = ElemType{Elem, 1};
  R.ArgTypes["mean_ptr"] = R.ArgTypes["rstd_ptr"] = ElemType{ScalarKind::FP32, 1};
  R.ArgTypes["row_stride"] = R.ArgTypes["n_cols"] = ElemType{ScalarKind::I32};
  R.ArgTypes["eps"] = ElemType{ScalarKind::FP32};
  return R;
}

TEST(ReductionLayout, LayerNormKeepsOnlyTheWarpPartials) {
  SnippetKernel K = sample("layer_norm.py");
  for (ScalarKind Elem : {ScalarKind::FP16, ScalarKind::FP32})
    for (int64_t Block : {1024, 4096, 16384}) {
      LoweringRequest R = layerNormRequest(Elem, Block);
      Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true);
      ASSERT_EQ(C.Error, "");
      std::string Where = std::string(shortName(Elem)) + " BLOCK_SIZE=" + std::to_string(Block);
      // Triton 3.6 on the H200: 16 bytes with 4 warps, 32 with 8.
      EXPECT_EQ(C.ABI.SharedBytes, 4u * R.NumWarps) << Where;
      for (const SharedBuffer &B : C.ABI.SharedBuffers)
        EXPECT_EQ(B.Kind, SharedBufferKind::ReduceScratch) << Where << ": " << B.What;
      // One partial per thread per reduction into shared memory, nothing else.
      EXPECT_EQ(countMatches(C.Ptx, R"(st\.shared)"), 2) << Where;
      // The loads stay 16 bytes wide.
      EXPECT_GE(countMatches(C.Ptx, R"(ld\.global(\.[a-z_:0-9]+)*\.v4\.b32)"), 3) << Where;
      // Triton's figures are 32-58 registers up to 16 elements per thread;
      // before, tessel took 48-128 (the tile went through shared memory in
      // every iteration). At 16384 the 64 fp32 partial sums per thread alone
      // take 64 registers, for Triton too.
      if (Block <= 4096)
        EXPECT_LE(C.Kernel.Resources.Registers, 64u) << Where;
      // Triton: 128 at 16384 in fp16, two blocks per SM. The masks of the
      // loop's `where(cols < n, ...)` are one compare per vector (merged by
      // their constancy, as Triton's maybeDeduplicate); one per element kept
      // every column index live: 144 registers, one block per SM.
      if (Block == 16384 && Elem == ScalarKind::FP16)
        EXPECT_LE(C.Kernel.Resources.Registers, 128u) << Where;
      EXPECT_EQ(C.Kernel.Resources.spillBytes(), 0u) << Where;
    }
}

TEST(ReductionLayout, SoftmaxRingAndOneSlotPerWarp) {
  SnippetKernel K = sample("fused_softmax.py");
  struct Case {
    int64_t Block;
    unsigned Warps, Stages;
  };
  for (Case Cs : {Case{1024, 4, 3}, Case{4096, 8, 2}}) {
    LoweringRequest R;
    R.Kernel = "fused_softmax_kernel";
    R.NumWarps = Cs.Warps;
    R.Constexprs["BLOCK_SIZE"] = PyValue::integer(Cs.Block);
    R.Constexprs["NUM_STAGES"] = PyValue::integer(Cs.Stages);
    R.ArgTypes["out_ptr"] = R.ArgTypes["in_ptr"] = ElemType{ScalarKind::FP32, 1};
    for (const char *P : {"in_row_stride", "out_row_stride", "n_rows", "n_cols"})
      R.ArgTypes[P] = ElemType{ScalarKind::I32};
    Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true);
    ASSERT_EQ(C.Error, "");
    // Triton: (NUM_STAGES - 1) row buffers of the tl.range loop, and the
    // max and the sum share one slot per warp.
    EXPECT_EQ(C.ABI.SharedBytes, (Cs.Stages - 1) * Cs.Block * 4 + 4 * Cs.Warps) << "BLOCK_SIZE=" << Cs.Block;
    for (const SharedBuffer &B : C.ABI.SharedBuffers)
      EXPECT_NE(B.Kind, SharedBufferKind::LayoutConversion) << B.What;
    // The row read back from the ring selects `other` with one predicate
    // per 16-byte vector (Triton: 31 and 38 registers on the H200; with a
    // compare per element kept live across the loop, 4096 took 58).
    EXPECT_LE(C.Kernel.Resources.Registers, Cs.Block == 1024 ? 36u : 48u) << "BLOCK_SIZE=" << Cs.Block;
  }
}

/// A reduction of a computed tile whose producer is no load keeps Triton's
/// default layout, and a load smaller than the CTA (Triton's cheap loads)
/// anchors nothing: its consumers still choose.
TEST(ReductionLayout, SmallLoadsAnchorNothing) {
  SnippetKernel K = parseSnippet(R"(
@triton.jit
def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.sum(x * x, axis=0))
)");
  for (int64_t Block : {64, 1024}) {
    LoweringRequest R;
    R.Kernel = "k";
    R.NumWarps = 4;
    R.Constexprs["BLOCK"] = PyValue::integer(Block);
    R.ArgTypes["x_ptr"] = R.ArgTypes["out_ptr"] = ElemType{ScalarKind::FP32, 1};
    Compiled C = compileRequest(*K.File, K.Info, R, 90);
    ASSERT_EQ(C.Error, "");
    // 64 elements on 128 threads: the default layout spreads them over two
    // warps (8 bytes of partials); 1024: the load's layout, all four warps.
    EXPECT_EQ(C.ABI.SharedBytes, Block == 64 ? 8u : 16u) << "BLOCK=" << Block;
    for (const SharedBuffer &B : C.ABI.SharedBuffers)
      EXPECT_EQ(B.Kind, SharedBufferKind::ReduceScratch) << B.What;
  }
}

} // namespace
} // namespace tessel::codegen::test
