//===- ConversionScratchTest.cpp - a conversion's shared memory is Triton's ===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A layout conversion's buffer against triton 3.6.0's own figures: kernels
/// whose shared memory is their conversion's (a dot stored as fp16 or fp32
/// after a loop of one stage, whose operand buffers are smaller; a tile
/// stored transposed), compiled for sm_90a at Triton's specialization of a
/// real launch (strides multiples of 16, unit strides 1), each figure
/// `metadata.shared` as the H100 printed it (bench/RESULTS.md, issue 29,
/// 2026-12-07). The buffer is the tile over Triton's rounds
/// (layout/ConversionSwizzle.h): 8192 bytes, not 32768, for a 128x128 fp16
/// result over 4 warps.
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include "compiler/codegen/layout/ConversionSwizzle.h"

#include <gtest/gtest.h>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

/// The probe's kernels (bench/hopper/conversion_kernels.py), whose figures
/// Triton printed.
SnippetKernel kernels() { return parseRepoFile("bench/hopper/conversion_kernels.py"); }

struct DotCase {
  int64_t BM, BN, BK;
  unsigned Warps;
  bool OutF32;
  uint64_t TritonShared;
};

TEST(ConversionScratch, DotResultsStoredAfterOneStageHaveTritonsSharedMemory) {
  // num_stages=1: the operands take one buffer each, smaller than most of
  // the result's conversion (64x64 fp16 and 128x64 fp16: Triton's figure
  // is the operands', the conversion's fits in them).
  const DotCase Cases[] = {
      {128, 256, 16, 4, false, 16384}, {128, 256, 16, 8, false, 32768}, {64, 256, 16, 4, false, 16384},
      {128, 128, 16, 4, false, 8192},  {128, 128, 16, 4, true, 32768},  {256, 128, 16, 8, false, 32768},
      {64, 128, 16, 4, true, 32768},   {128, 64, 16, 4, false, 8192},   {64, 64, 16, 4, false, 8192},
      {128, 128, 32, 8, true, 65536},  {64, 256, 32, 4, true, 65536},   {256, 64, 16, 8, false, 16384},
  };
  SnippetKernel S = kernels();
  for (const DotCase &C : Cases) {
    LoweringRequest R;
    R.Kernel = "dot_store";
    R.NumWarps = C.Warps;
    R.NumStages = 1;
    R.Constexprs["BLOCK_M"] = PyValue::integer(C.BM);
    R.Constexprs["BLOCK_N"] = PyValue::integer(C.BN);
    R.Constexprs["BLOCK_K"] = PyValue::integer(C.BK);
    R.Constexprs["OUT_F32"] = PyValue::integer(C.OutF32);
    R.ArgTypes["a_ptr"] = R.ArgTypes["b_ptr"] = ElemType{ScalarKind::FP16, 1};
    R.ArgTypes["c_ptr"] = ElemType{C.OutF32 ? ScalarKind::FP32 : ScalarKind::FP16, 1};
    for (const char *P : {"M", "N", "K", "stride_am", "stride_bk", "stride_cm"})
      R.ArgTypes[P] = ElemType{ScalarKind::I32};
    R.EqualToOne = {"stride_ak", "stride_bn", "stride_cn"};
    Compiled Out = compileRequest(*S.File, S.Info, R, 90, false, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(Out.Error, "");
    EXPECT_EQ(Out.ABI.SharedBytes, C.TritonShared)
        << C.BM << "x" << C.BN << "x" << C.BK << " warps " << C.Warps << (C.OutF32 ? " fp32" : " fp16");
  }
}

struct TransposeCase {
  int64_t BM, BN;
  unsigned Warps;
  ScalarKind Elem;
  uint64_t TritonShared;
};

TEST(ConversionScratch, TransposedStoresHaveTritonsSharedMemory) {
  const TransposeCase Cases[] = {
      {64, 64, 4, ScalarKind::FP32, 16384}, {128, 64, 4, ScalarKind::FP16, 16384},
      {64, 128, 8, ScalarKind::FP16, 16384}, {32, 128, 4, ScalarKind::FP32, 16384},
      {128, 128, 8, ScalarKind::FP32, 65536}, {64, 64, 4, ScalarKind::I8, 4096},
  };
  SnippetKernel S = kernels();
  for (const TransposeCase &C : Cases) {
    LoweringRequest R;
    R.Kernel = "transpose_copy";
    R.NumWarps = C.Warps;
    R.Constexprs["BLOCK_M"] = PyValue::integer(C.BM);
    R.Constexprs["BLOCK_N"] = PyValue::integer(C.BN);
    R.ArgTypes["x_ptr"] = R.ArgTypes["y_ptr"] = ElemType{C.Elem, 1};
    R.ArgTypes["stride_x"] = R.ArgTypes["stride_y"] = ElemType{ScalarKind::I32};
    Compiled Out = compileRequest(*S.File, S.Info, R, 90, false, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(Out.Error, "");
    EXPECT_EQ(Out.ABI.SharedBytes, C.TritonShared) << C.BM << "x" << C.BN << " warps " << C.Warps;
  }
}

TEST(ConversionScratch, RoundsAreRegisterBitsOfBothLayouts) {
  // The wgmma accumulator of a 128x128 tile over 4 warps (registers: column
  // 1, row 8, columns 8..64, row 64) into the store's blocked layout
  // (sizePerThread [1, 8], threadsPerWarp [2, 16]): Triton writes with
  // stmatrix and reads 16-byte rows, and leaves rows 8 and 64, registers of
  // both, to two rounds.
  LinearLayout Acc{{128, 128},
                   {{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}, {64, 0}},
                   {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                   {{16, 0}, {32, 0}}};
  LinearLayout Store{{128, 128},
                     {{0, 1}, {0, 2}, {0, 4}, {8, 0}, {16, 0}, {32, 0}, {64, 0}},
                     {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {1, 0}},
                     {{2, 0}, {4, 0}}};
  ConversionRounds R = conversionRounds(Acc, Store, 16, 90);
  ASSERT_EQ(R.Reps.size(), 2u);
  EXPECT_EQ(R.Reps[0], (TileBit{0, 3}));
  EXPECT_EQ(R.Reps[1], (TileBit{0, 6}));
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{32, 128}));
  EXPECT_EQ(R.numel() * 2, 8192);
  EXPECT_EQ(R.roundOf({72, 5}), 3u);
  EXPECT_EQ(R.squeeze({72, 5}), (Coord{0, 5}));
  EXPECT_EQ(R.squeeze({127, 127}), (Coord{31, 127}));
  // sm_80 has no stmatrix: the same rounds come from st.shared writes and
  // ldmatrix reads (no more bank conflicts than ld.shared's, more rounds).
  ConversionRounds R80 = conversionRounds(Acc, Store, 16, 80);
  EXPECT_EQ(R80.Reps, R.Reps);
  // fp32 from the same accumulator into sizePerThread [1, 4],
  // threadsPerWarp [1, 32]: one round, row 64 (Triton: 32768 bytes).
  LinearLayout Store32{{128, 128},
                       {{0, 1}, {0, 2}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {64, 0}},
                       {{0, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}},
                       {{1, 0}, {2, 0}}};
  ConversionRounds R32 = conversionRounds(Acc, Store32, 32, 90);
  EXPECT_EQ(R32.numel() * 4, 32768);
}

} // namespace
} // namespace tessel::codegen::test
