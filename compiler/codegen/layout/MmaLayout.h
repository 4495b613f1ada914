//===- MmaLayout.h - tensor-core layouts of tl.dot (mma.sync) ---*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's NvidiaMmaEncoding (version 2, `mma.sync.m16n8k16`) and its
/// DotOperandEncoding, as linear layouts, and the swizzled shared layout the
/// operands are staged in before `ldmatrix`.
///
/// One warp computes a 16x8 tile of the accumulator per `mma.sync`. PTX's
/// fragment of thread (g = lane / 4, t = lane % 4):
///
///     accumulator c0 c1: (g, 2t) (g, 2t+1)    c2 c3: (g+8, 2t) (g+8, 2t+1)
///     operand a (16x16): a0 = (g, 2t..2t+1)  a1 = (g+8, ..)  a2 = (g, 2t+8..)  a3 = (g+8, 2t+8..)
///     operand b (16x8):  b0 = (2t..2t+1, g)  b1 = (2t+8..2t+9, g)
///
/// so the accumulator's bases are: register bits (0,1) (8,0); lane bits
/// (0,2) (0,4) (1,0) (2,0) (4,0); then warp bits, N first ((0, 8), (0, 16),
/// ... for WarpsN, then (16, 0), ... for WarpsM: Triton's warpsPerTile for
/// version 2), then more register bits for the repetitions of the warps' tile
/// over the block, along N first, then M. A warp basis that steps past the
/// block is zero (those warps compute copies).
///
/// Operand a [M, K] (registers are fp16 elements, two per 32-bit fragment
/// register): register bits (0,1) (8,0) (0,8); lanes as the accumulator's
/// with k for n; warps: the accumulator's M bits, zero for its N bits; then
/// repetitions along K (0,16), ... and M. Operand b [K, N]: register bits
/// (1,0) (8,0); lanes (2,0) (4,0) (0,1) (0,2) (0,4); warps: zero for M, the
/// accumulator's N bits; repetitions along N (0, 8·WarpsN) ..., then K.
///
/// Shared staging: row-major with the 16-byte chunks of each row XORed by
/// (row mod min(8, chunks per row)), so the eight rows one `ldmatrix`
/// 8x8 matrix reads fall in eight different bank groups. That is a linear
/// map over GF(2) of (row, chunk) as well: Triton's swizzled shared encoding
/// with vec = 8, perPhase = 1, maxPhase = min(8, chunks per row).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LAYOUT_MMALAYOUT_H
#define TESSEL_COMPILER_CODEGEN_LAYOUT_MMALAYOUT_H

#include "compiler/codegen/layout/LinearLayout.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tessel::codegen {

/// Triton's warpsPerTileV2: warps along (M, N) for an [M, N] accumulator.
std::pair<unsigned, unsigned> mmaWarps(int64_t M, int64_t N, unsigned NumWarps);

/// The accumulator layout of an [M, N] dot on NumWarps warps.
LinearLayout mmaAccumulatorLayout(int64_t M, int64_t N, unsigned NumWarps);

/// The register layout of operand OpIdx (0: a [M, K], 1: b [K, N]) that
/// `ldmatrix` fills for the accumulator of mmaAccumulatorLayout(M, N).
LinearLayout mmaOperandLayout(unsigned OpIdx, int64_t M, int64_t N, int64_t K, unsigned NumWarps);

/// Element offset of (Row, Col) in a row-major swizzled staging buffer with
/// Cols columns of ElemBytes each (Cols a power of two): 16-byte chunks
/// XORed with the row's phase, as DotMma's runtime `swizzle` computes it.
int64_t swizzledOffset(int64_t Row, int64_t Col, int64_t Cols, unsigned ElemBytes = 2);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LAYOUT_MMALAYOUT_H
