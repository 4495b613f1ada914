//===- LayoutTest.cpp - linear layouts and their conversions ---------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tables of layout/LinearLayout.h's tutorial, computed: which element
/// each register of each thread holds for blocked layouts (exact fit,
/// replication, repetition), slices, restrictions, and Coalesce's choice.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/LayoutAssignment.h"
#include "compiler/codegen/layout/LinearLayout.h"
#include "compiler/codegen/layout/MmaLayout.h"
#include "compiler/codegen/layout/WgmmaLayout.h"

#include <algorithm>
#include <set>
#include <utility>

#include <gtest/gtest.h>

namespace tessel::codegen {
namespace {

TEST(LinearLayout, TutorialTableReplicatesSmallTiles) {
  BlockedLayout B{{2}, {32}, {1}, {0}};
  LinearLayout L = toLinear(B, {8});
  EXPECT_EQ(L.str(), "reg=[[1]] lane=[[2],[4],[0],[0],[0]] warp=[]");
  EXPECT_EQ(L.coord(0, 3, 0), Coord{6});
  EXPECT_EQ(L.coord(1, 3, 0), Coord{7});
  EXPECT_EQ(L.coord(0, 4, 0), Coord{0}); // lane 4 holds lane 0's copy
  EXPECT_TRUE(L.owns(3, 0));
  EXPECT_FALSE(L.owns(4, 0));
}

TEST(LinearLayout, VectorAddLayoutCoversEveryElementOnce) {
  // 1024 fp32, 4 per thread, 4 warps: Coalesce's layout of vector add.
  LinearLayout L = toLinear(defaultBlocked({1024}, 4, {4}), {1024});
  EXPECT_EQ(L.numRegs(), 8u); // 4 contiguous, then one repetition of 512
  EXPECT_EQ(L.contiguousRegs(0), 4u);
  std::vector<int> Seen(1024);
  for (unsigned W = 0; W < 4; ++W)
    for (unsigned Ln = 0; Ln < 32; ++Ln)
      for (unsigned R = 0; R < L.numRegs(); ++R)
        ++Seen[static_cast<size_t>(L.coord(R, Ln, W)[0])];
  for (int N : Seen)
    EXPECT_EQ(N, 1);
  EXPECT_EQ(L.coord(4, 0, 0), Coord{512});
}

TEST(LinearLayout, RegisterOffsetIsTheSameForEveryThreadOfABlockedLayout) {
  // 2-D: 4 rows per thread, 8 lanes x 4 contiguous along the columns.
  LinearLayout L = toLinear(BlockedLayout{{1, 4}, {4, 8}, {2, 1}, {1, 0}}, {32, 32});
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    std::optional<int64_t> Off = L.regOffset(R);
    ASSERT_TRUE(Off) << R;
    for (unsigned W = 0; W < 2; ++W)
      for (unsigned Ln = 0; Ln < 32; ++Ln) {
        Coord A = L.coord(R, Ln, W), Z = L.coord(0, Ln, W);
        EXPECT_EQ(A[0] * 32 + A[1], Z[0] * 32 + Z[1] + *Off) << R << " " << Ln << " " << W;
      }
  }
  EXPECT_EQ(L.regOffset(4), 8 * 32); // the second repetition: 8 rows (4 lanes x 2 warps) down
  // Where a register bit is also a thread's (an XOR swizzle), no such offset.
  LinearLayout S = L;
  S.Reg[0] = Coord{0, 4};
  EXPECT_FALSE(S.regOffset(1));
}

TEST(LinearLayout, RegisterOffsetUnderAnNvmmaSwizzle) {
  // 64x64 fp16 in the 128-byte swizzle, copied 16 bytes per thread: a
  // register 16 rows down keeps the row's swizzle phase, so it lies 16 rows
  // of 64 further in every thread; one 32 columns over flips a chunk bit
  // that the phase XORs differently per row.
  NvmmaLayout N = NvmmaLayout::forTile(64, 64, 2);
  auto Off = [&](const Coord &X) { return N.offset(X[0], X[1]); };
  LinearLayout Rows = toLinear(BlockedLayout{{1, 8}, {4, 8}, {4, 1}, {1, 0}}, {64, 64});
  EXPECT_EQ(Rows.regOffset(8, Off), 16 * 64);
  EXPECT_EQ(Rows.regOffset(16, Off), 32 * 64);
  LinearLayout Cols = toLinear(BlockedLayout{{1, 8}, {8, 4}, {4, 1}, {1, 0}}, {64, 64});
  EXPECT_EQ(Cols.regOffset(8), 32); // row-major: 32 columns over
  EXPECT_FALSE(Cols.regOffset(8, Off));
}

TEST(LinearLayout, DefaultBlockedFillsLanesAlongTheFastestDimension) {
  BlockedLayout B = defaultBlocked({64, 32}, 4);
  EXPECT_EQ(B.str(), "#blocked<sizePerThread=[1, 1], threadsPerWarp=[1, 32], warpsPerCTA=[4, 1], order=[1, 0]>");
  BlockedLayout Small = defaultBlocked({4, 8}, 4);
  EXPECT_EQ(Small.str(), "#blocked<sizePerThread=[1, 1], threadsPerWarp=[4, 8], warpsPerCTA=[4, 1], order=[1, 0]>");
}

TEST(LinearLayout, SliceDropsTheReducedDimension) {
  LinearLayout P = toLinear(defaultBlocked({4, 64}, 4, {1, 2}), {4, 64});
  LinearLayout S = sliceLayout(P, 1);
  EXPECT_EQ(S.Shape, std::vector<int64_t>{4});
  // Registers along dim 1 vanish; lanes along dim 1 become replicas.
  EXPECT_EQ(S.numRegs(), 1u);
  EXPECT_EQ(S.Lane.size(), 5u);
  for (const Coord &C : S.Lane)
    EXPECT_EQ(C, Coord{0});
  EXPECT_EQ(S.Warp[0], Coord{1});
  EXPECT_EQ(S.Warp[1], Coord{2});
}

TEST(LinearLayout, RestrictMapsBroadcastRegisters) {
  LinearLayout P = toLinear(defaultBlocked({8, 8}, 1, {2, 2}), {8, 8});
  std::vector<unsigned> Map;
  LinearLayout R = restrictLayout(P, 1, &Map);
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{8, 1}));
  ASSERT_EQ(Map.size(), P.numRegs());
  for (unsigned Reg = 0; Reg < P.numRegs(); ++Reg) {
    Coord Want = P.regCoord(Reg);
    Want[1] = 0;
    EXPECT_EQ(R.regCoord(Map[Reg]), Want);
  }
  // Broadcasting a slice back: expand_dims of the slice is the restriction.
  EXPECT_EQ(insertDim(sliceLayout(P, 1), 1), R);
}

TEST(LinearLayout, ScalarIsHeldByEveryThread) {
  LinearLayout S = scalarLayout(8);
  EXPECT_EQ(S.numRegs(), 1u);
  EXPECT_EQ(S.Warp.size(), 3u);
  EXPECT_TRUE(S.owns(0, 0));
  EXPECT_FALSE(S.owns(1, 0));
  EXPECT_EQ(sliceLayout(toLinear(defaultBlocked({128}, 8), {128}), 0), S);
}

TEST(SharedLayout, RowMajorOffsets) {
  SharedLayout S{{4, 8}};
  EXPECT_EQ(S.offset({2, 3}), 19);
  EXPECT_EQ(S.numel(), 32);
}

// The MMA layouts against PTX's fragment tables for mma.m16n8k16 (thread
// g = lane / 4, t = lane % 4), for a warp's first 16x8 / 16x16 tile.
TEST(MmaLayout, FragmentsAreThoseOfPtx) {
  LinearLayout C = mmaAccumulatorLayout(128, 64, 4);
  auto [WM, WN] = mmaWarps(128, 64, 4);
  EXPECT_EQ(WM, 4u);
  EXPECT_EQ(WN, 1u);
  LinearLayout A = mmaOperandLayout(0, 128, 64, 32, 4), B = mmaOperandLayout(1, 128, 64, 32, 4);
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    int64_t G = Lane / 4, T = Lane % 4;
    // c0 c1: (g, 2t), (g, 2t+1); c2 c3: (g+8, ..).
    EXPECT_EQ(C.coord(0, Lane, 0), (Coord{G, 2 * T}));
    EXPECT_EQ(C.coord(1, Lane, 0), (Coord{G, 2 * T + 1}));
    EXPECT_EQ(C.coord(2, Lane, 0), (Coord{G + 8, 2 * T}));
    EXPECT_EQ(C.coord(3, Lane, 0), (Coord{G + 8, 2 * T + 1}));
    // a0..a3 (two halves each): (g, 2t), (g+8, 2t), (g, 2t+8), (g+8, 2t+8).
    EXPECT_EQ(A.coord(0, Lane, 0), (Coord{G, 2 * T}));
    EXPECT_EQ(A.coord(1, Lane, 0), (Coord{G, 2 * T + 1}));
    EXPECT_EQ(A.coord(2, Lane, 0), (Coord{G + 8, 2 * T}));
    EXPECT_EQ(A.coord(4, Lane, 0), (Coord{G, 2 * T + 8}));
    EXPECT_EQ(A.coord(6, Lane, 0), (Coord{G + 8, 2 * T + 8}));
    // b0 b1: (2t, g) (2t+1, g); (2t+8, g) (2t+9, g).
    EXPECT_EQ(B.coord(0, Lane, 0), (Coord{2 * T, G}));
    EXPECT_EQ(B.coord(1, Lane, 0), (Coord{2 * T + 1, G}));
    EXPECT_EQ(B.coord(2, Lane, 0), (Coord{2 * T + 8, G}));
  }
  // Warp 1 starts 16 rows down (4 warps x 16 rows, repeated twice over the
  // 128 rows); every element of the accumulator is held exactly once.
  EXPECT_EQ(C.coord(0, 0, 1), (Coord{16, 0}));
  std::set<Coord> Seen;
  for (unsigned W = 0; W < 4; ++W)
    for (unsigned Lane = 0; Lane < 32; ++Lane)
      for (unsigned R = 0; R < C.numRegs(); ++R)
        Seen.insert(C.coord(R, Lane, W));
  EXPECT_EQ(Seen.size(), 128u * 64u);
  EXPECT_EQ(C.numRegs(), 64u);
}

TEST(MmaLayout, SwizzleKeepsChunksAndSpreadsRows) {
  // 64 fp16 columns (128-byte rows): the 8 rows an ldmatrix reads at one
  // logical chunk land in 8 different physical chunks.
  std::set<int64_t> Chunks;
  for (int64_t Row = 0; Row < 8; ++Row) {
    int64_t Off = swizzledOffset(Row, 16, 64);
    EXPECT_EQ(Off / 64, Row);
    EXPECT_EQ(Off % 8, 0);
    Chunks.insert((Off % 64) / 8);
  }
  EXPECT_EQ(Chunks.size(), 8u);
  // 32 columns (64-byte rows, two rows per 128 bytes): rows 0, 2, 4, 6 share
  // banks 0-15 and must use different chunks.
  std::set<int64_t> Low;
  for (int64_t Row = 0; Row < 8; Row += 2)
    Low.insert((swizzledOffset(Row, 0, 32) % 32) / 8);
  EXPECT_EQ(Low.size(), 4u);
  // A bijection on a 16x16 tile.
  std::set<int64_t> All;
  for (int64_t Row = 0; Row < 16; ++Row)
    for (int64_t Col = 0; Col < 16; ++Col)
      All.insert(swizzledOffset(Row, Col, 16));
  EXPECT_EQ(All.size(), 256u);
  EXPECT_EQ(*All.rbegin(), 255);
}

TEST(WgmmaLayout, WarpgroupsAndInstructionAsTriton) {
  // Tutorial 03's Hopper configs: warpgroups along M while M has rows for
  // them, the widest N that fits.
  WgmmaShape A = wgmmaShape(128, 256, 8);
  EXPECT_EQ(A.WarpgroupsM, 2u);
  EXPECT_EQ(A.WarpgroupsN, 1u);
  EXPECT_EQ(A.InstrN, 256);
  EXPECT_EQ(A.RepM, 1);
  WgmmaShape B = wgmmaShape(128, 128, 4);
  EXPECT_EQ(B.WarpgroupsM, 1u);
  EXPECT_EQ(B.InstrN, 128);
  EXPECT_EQ(B.RepM, 2);
  EXPECT_EQ(B.RepN, 1);
  WgmmaShape C = wgmmaShape(64, 64, 8); // M holds one warpgroup: the other goes along N
  EXPECT_EQ(C.WarpgroupsM, 1u);
  EXPECT_EQ(C.WarpgroupsN, 2u);
  EXPECT_EQ(C.InstrN, 32);
  EXPECT_EQ(wgmmaShape(128, 32, 4).InstrN, 32);
  // 8-bit integers take N from {224, 208, .., 32, 24, 16, 8}
  // (mmaVersionToInstrShape): 256 columns in two n128 instructions, 96 in
  // one n96, 40 in five n8.
  EXPECT_EQ(wgmmaShape(128, 256, 8, false, /*Int8=*/true).InstrN, 128);
  EXPECT_EQ(wgmmaShape(128, 256, 8, false, /*Int8=*/true).RepN, 2);
  EXPECT_EQ(wgmmaShape(64, 96, 4, false, /*Int8=*/true).InstrN, 96);
  EXPECT_EQ(wgmmaShape(64, 40, 4, false, /*Int8=*/true).InstrN, 8);
  EXPECT_EQ(wgmmaShape(64, 40, 4).InstrN, 40);
  // A chained dot (its result feeds another dot) puts every warp along M;
  // the second warpgroup of a 64-row block then holds copies.
  WgmmaShape D = wgmmaShape(64, 64, 8, /*Chained=*/true);
  EXPECT_EQ(D.WarpgroupsM, 2u);
  EXPECT_EQ(D.WarpgroupsN, 1u);
  EXPECT_EQ(D.RepN, 64 / D.InstrN);
  LinearLayout L = wgmmaAccumulatorLayout(64, 64, 8, D);
  for (unsigned Lane : {0u, 17u})
    for (unsigned R = 0; R < L.numRegs(); ++R)
      EXPECT_EQ(L.coord(R, Lane, 5), L.coord(R, Lane, 1));
  EXPECT_TRUE(L.owns(0, 3));
  EXPECT_FALSE(L.owns(0, 4));
}

TEST(WgmmaLayout, AccumulatorIsTheM64FragmentOfPtx) {
  WgmmaShape S = wgmmaShape(128, 64, 4);
  LinearLayout L = wgmmaAccumulatorLayout(128, 64, 4, S);
  // 128 x 64 fp32 over 128 threads: 64 registers; instruction m64n64: 32
  // registers per repetition along M.
  EXPECT_EQ(L.numRegs(), 64u);
  // PTX: d[i] of thread (warp w, lane) is row 16w + lane/4 (+8 when i%4 >= 2),
  // column 8(i/4) + 2(lane%4) + i%2.
  for (unsigned W : {0u, 3u})
    for (unsigned Lane : {0u, 5u, 31u})
      for (unsigned I = 0; I < 32; ++I) {
        Coord Want{16 * W + Lane / 4 + (I % 4 >= 2 ? 8 : 0), 8 * (I / 4) + 2 * (Lane % 4) + I % 2};
        EXPECT_EQ(L.coord(I, Lane, W), Want) << "warp " << W << " lane " << Lane << " d" << I;
        Want[0] += 64; // the repetition along M
        EXPECT_EQ(L.coord(32 + I, Lane, W), Want);
      }
  std::set<Coord> Seen;
  for (unsigned W = 0; W < 4; ++W)
    for (unsigned Lane = 0; Lane < 32; ++Lane)
      for (unsigned R = 0; R < L.numRegs(); ++R)
        Seen.insert(L.coord(R, Lane, W));
  EXPECT_EQ(Seen.size(), 128u * 64);
}

TEST(WgmmaLayout, NvmmaIsTheHardwareSwizzleOfEachColumnBlock) {
  // The hardware's swizzle XORs byte-address bits [4, 4 + log2(S/16)) with
  // the bits from 7 up, over a buffer that starts at 1024 bytes.
  for (int64_t Cols : {16, 32, 64, 128, 256}) {
    NvmmaLayout N = NvmmaLayout::forTile(64, Cols, 2);
    int64_t S = N.SwizzleBytes;
    ASSERT_EQ(S, std::min<int64_t>(128, Cols * 2));
    std::set<int64_t> Seen;
    for (int64_t R = 0; R < 64; ++R)
      for (int64_t Col = 0; Col < Cols; ++Col) {
        int64_t Block = Col / (S / 2);
        // Unswizzled: rows S bytes apart inside a column block.
        int64_t Linear = Block * 64 * S + R * S + (Col % (S / 2)) * 2;
        int64_t Mask = (S / 16 - 1) << 4;
        int64_t Swizzled = Linear ^ ((Linear >> 3) & Mask);
        EXPECT_EQ(N.offset(R, Col) * 2, Swizzled) << "cols " << Cols << " (" << R << ", " << Col << ")";
        Seen.insert(N.offset(R, Col));
      }
    EXPECT_EQ(Seen.size(), static_cast<size_t>(64 * Cols));
  }
  // Where a row is 128 bytes, the 64-column swizzle of mma.sync's staging is
  // the same (so both read one ring layout there).
  for (int64_t R = 0; R < 16; ++R)
    for (int64_t Col = 0; Col < 64; ++Col)
      EXPECT_EQ(NvmmaLayout::forTile(64, 64, 2).offset(R, Col), swizzledOffset(R, Col, 64));
}

TEST(WgmmaLayout, TransposedNvmmaHoldsTheTransposeSwizzledAlongTheRows) {
  // attention's k, [HEAD_DIM, BLOCK_N] with HEAD_DIM contiguous: the buffer
  // is the NVMMA layout of the [BLOCK_N, HEAD_DIM] transpose, swizzled by
  // the contiguous dimension's bytes, and wgmma reads it K-major as b.
  for (auto [Rows, Cols] : {std::pair<int64_t, int64_t>{64, 64}, {64, 32}, {16, 64}, {128, 64}, {32, 128}}) {
    NvmmaLayout T = NvmmaLayout::forTile(Rows, Cols, 2, /*Transposed=*/true);
    NvmmaLayout Plain = NvmmaLayout::forTile(Cols, Rows, 2);
    EXPECT_EQ(T.SwizzleBytes, Plain.SwizzleBytes);
    EXPECT_EQ(T.SwizzleBytes, std::min<int64_t>(128, Rows * 2));
    EXPECT_EQ(T.storedRows(), Cols);
    EXPECT_EQ(T.descriptorBits(), Plain.descriptorBits());
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t Col = 0; Col < Cols; ++Col)
        ASSERT_EQ(T.offset(R, Col), Plain.offset(Col, R)) << Rows << "x" << Cols << " (" << R << ", " << Col << ")";
  }
  // The header's worked case: (k, n) of a 64x64 b at n·64 + ((k/8) ^ (n%8))·8 + k%8.
  NvmmaLayout K = NvmmaLayout::forTile(64, 64, 2, true);
  for (int64_t Row : {0, 7, 8, 9, 63})
    for (int64_t Col : {0, 1, 7, 8, 33, 63})
      EXPECT_EQ(K.offset(Row, Col), Col * 64 + ((Row / 8) ^ (Col % 8)) * 8 + Row % 8);
  // Major modes: a row-major a and a transposed b are K-major (imm-trans
  // 0); a row-major b and a transposed a are MN-major (imm-trans 1).
  NvmmaLayout Row = NvmmaLayout::forTile(64, 64, 2);
  EXPECT_TRUE(Row.kMajor(0));
  EXPECT_FALSE(Row.kMajor(1));
  EXPECT_EQ(Row.transposeFlag(0), 0u);
  EXPECT_EQ(Row.transposeFlag(1), 1u);
  EXPECT_FALSE(K.kMajor(0));
  EXPECT_TRUE(K.kMajor(1));
  EXPECT_EQ(K.transposeFlag(0), 1u);
  EXPECT_EQ(K.transposeFlag(1), 0u);
  EXPECT_EQ(K.contiguousDim(), 0u);
  EXPECT_EQ(Row.contiguousDim(), 1u);
}

TEST(WgmmaLayout, DescriptorFieldsAsTritonWritesThem) {
  // a 128x64 fp16 (128B swizzle): 8-row groups 1024 bytes apart, column
  // blocks 128 rows x 128 bytes apart, mode 1 in bits 62-63.
  NvmmaLayout A = NvmmaLayout::forTile(128, 64, 2);
  EXPECT_EQ(A.descriptorBits(), (uint64_t{1} << 62) | (uint64_t{1024 >> 4} << 32) | (uint64_t{16384 >> 4} << 16));
  NvmmaLayout B = NvmmaLayout::forTile(32, 32, 2); // 64-byte rows: 64B swizzle
  EXPECT_EQ(B.swizzleMode(), 2u);
  EXPECT_EQ(B.strideBytes(), 512u);
  EXPECT_EQ(B.leadingBytes(), 32u * 64);
}

} // namespace
} // namespace tessel::codegen
