//===- WgmmaLayout.h - Hopper's warpgroup MMA layouts as data ---*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The layouts of `tl.dot` on Hopper's warpgroup MMA (`wgmma.mma_async`,
/// Triton's MMA v3), as data, for lower/DotWgmma.cpp and the pipeliner:
///
/// Warps and instruction shape (Triton's warpsPerTileV3 and
/// mmaVersionToInstrShape): four consecutive warps form a warpgroup, which
/// issues `m64nNk16` (k = 256 bits of the operand type); warpgroups go along
/// M while M has rows for them (64 each), then along N. N per instruction
/// is the largest multiple of 8 up to 256 that divides the block's N and
/// fits the N each warpgroup column covers. Each warpgroup repeats its
/// instruction RepM x RepN times over the block.
///
/// Accumulator: warp w of a warpgroup holds rows 16(w mod 4) .. +15 of the
/// warpgroup's 64; inside those, the instruction's N/8 columns of 8 each
/// hold the m16n8 C fragment of mma.sync (thread g = lane / 4, t = lane % 4:
/// (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)). As a linear layout: register
/// bits (0,1) (8,0) (0,8) (0,16) .. up to N, then the repetitions along N
/// (0, N·WgN) .., then along M (64·WgM, 0) ..; lane bits (0,2) (0,4) (1,0)
/// (2,0) (4,0); warp bits (16,0) (32,0), then the warpgroups along M (64,0)
/// .., then along N (0,N) ... The register order is the instruction's:
/// registers 4j .. 4j+3 of one instruction are its chunk j's c0..c3.
///
/// Operands in shared memory (Triton's NVMMASharedEncoding, the layout the
/// wgmma matrix descriptors read): a tile of Rows x Cols elements with Cols
/// contiguous is cut into column blocks of S bytes (S = the swizzle width:
/// 128, 64 or 32, the largest that fits a row of the tile); block b holds
/// columns [b·S/e, (b+1)·S/e) of every row, rows S bytes apart, the blocks
/// one after another. Inside a block the 16-byte chunks of row r are XORed
/// with (r / (128/S)) mod (S/16): exactly the hardware's 128B / 64B / 32B
/// swizzle of byte-address bits [4, 4+log2(S/16)) by bits [7, ..), so the
/// buffer must start at a multiple of 1024 bytes. Operand a [M, K] is
/// K-major (its rows are M), operand b [K, N] N-major (its rows are K, and
/// the instruction reads it transposed). A descriptor gives the start
/// address, the swizzle mode, the stride between 8-row groups (8·S bytes)
/// and between column blocks (Rows·S bytes).
///
/// A tile whose rows are contiguous in memory instead (attention's k, loaded
/// as [HEAD_DIM, BLOCK_N] from `offs_d[:, None]`) is kept transposed, as
/// Triton's NVMMASharedEncoding with `transposed = true` (order [0, 1]): the
/// buffer holds the Cols x Rows transpose in the layout above, so that the
/// cp.async copies stay 16 bytes wide, and the operand is read in the other
/// major mode: operand b [K, N] stored as N rows of K (K-major, wgmma's
/// imm-trans-b = 0), operand a [M, K] as K rows of M (M-major,
/// imm-trans-a = 1). For a 64x64 fp16 b, element (k, n) sits at
/// n·64 + ((k/8) XOR (n mod 8))·8 + k mod 8.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LAYOUT_WGMMALAYOUT_H
#define TESSEL_COMPILER_CODEGEN_LAYOUT_WGMMALAYOUT_H

#include "compiler/codegen/layout/LinearLayout.h"

#include <cstdint>

namespace tessel::codegen {

/// How an [M, N] dot is spread over warpgroups and instructions.
struct WgmmaShape {
  unsigned WarpgroupsM = 1, WarpgroupsN = 1;
  int64_t InstrN = 8; ///< N of one `m64nNk*`
  int64_t RepM = 1, RepN = 1;
};

/// Triton's choice for an [M, N] block on NumWarps warps (a multiple of 4,
/// M a multiple of 64, N of 8). Chained: the dot's result feeds another dot
/// (attention's q·k); Triton then puts every warp along M, so that a row's
/// reduction stays inside one warpgroup, and warpgroups past M hold copies.
/// Int8: 8-bit integer operands, whose instruction N Triton takes from
/// {224, 208, .., 32 by 16, 24, 16, 8} (mmaVersionToInstrShape) where the
/// others take any multiple of 8 up to 256.
WgmmaShape wgmmaShape(int64_t M, int64_t N, unsigned NumWarps, bool Chained = false, bool Int8 = false);

/// The accumulator layout of an [M, N] dot under Shape (file comment).
LinearLayout wgmmaAccumulatorLayout(int64_t M, int64_t N, unsigned NumWarps, const WgmmaShape &Shape);

/// The registers wgmma reads operand a [M, K] of ElemBits-bit elements from,
/// for a dot arranged as Shape (Triton's DotOperandEncoding of opIdx 0 over
/// its MMA v3 parent, kWidth = 32 / ElemBits): per 16 x 8·kWidth tile,
/// register bits along K for the kWidth elements of one 32-bit register,
/// lane bits (0, kWidth) (0, 2·kWidth) (1,0) (2,0) (4,0), then registers
/// (8, 0) and (0, 4·kWidth): the instruction's a0..a3; then the K steps,
/// then the repetitions along M (64·WgM, 0). Warp bits (16,0) (32,0), the
/// warpgroups along M (64,0) .., and those along N hold copies (0, 0).
LinearLayout wgmmaOperandALayout(int64_t M, int64_t K, unsigned NumWarps, const WgmmaShape &Shape,
                                 unsigned ElemBits);

/// Triton's NVMMASharedEncoding of a Rows x Cols tile of ElemBytes-byte
/// elements, Cols contiguous, or Rows where Transposed (file comment).
struct NvmmaLayout {
  int64_t Rows = 0, Cols = 0;
  unsigned ElemBytes = 2;
  /// 128, 64 or 32; 0 when a row is narrower than 32 bytes (no wgmma).
  unsigned SwizzleBytes = 0;
  /// The buffer holds the Cols x Rows transpose (the tile's rows are
  /// contiguous: Triton's `transposed`).
  bool Transposed = false;

  static NvmmaLayout forTile(int64_t Rows, int64_t Cols, unsigned ElemBytes, bool Transposed = false);
  /// The same bytes read as the transposed tile (a tl.trans of it).
  NvmmaLayout transposed() const { return forTile(Cols, Rows, ElemBytes, !Transposed); }
  /// The buffer's rows and (contiguous) columns: the tile's, or its
  /// transpose's.
  int64_t storedRows() const { return Transposed ? Cols : Rows; }
  int64_t storedCols() const { return Transposed ? Rows : Cols; }
  /// The tile dimension that is contiguous in the buffer.
  unsigned contiguousDim() const { return Transposed ? 0 : 1; }
  int64_t elemsPerBlockRow() const { return SwizzleBytes / ElemBytes; }
  /// Element offset of the tile's (Row, Col) from the buffer's start.
  int64_t offset(int64_t Row, int64_t Col) const;
  /// Whether wgmma reads this tile as operand Operand (0: a [M, K], 1: b
  /// [K, N]) K-major: a untransposed, b transposed.
  bool kMajor(unsigned Operand) const { return Transposed == (Operand == 1); }
  /// wgmma's imm-trans flag for operand Operand: 1 where it is not K-major.
  unsigned transposeFlag(unsigned Operand) const { return kMajor(Operand) ? 0 : 1; }
  /// The descriptor's fields, in bytes: between 8-row groups, and between
  /// column blocks (of the buffer).
  uint64_t strideBytes() const { return 8ull * SwizzleBytes; }
  uint64_t leadingBytes() const { return static_cast<uint64_t>(storedRows()) * SwizzleBytes; }
  /// The descriptor's 2-bit swizzle mode: 1 = 128B, 2 = 64B, 3 = 32B.
  unsigned swizzleMode() const;
  /// The descriptor without its start address (bits 0-13).
  uint64_t descriptorBits() const;
  /// Where a buffer in this layout may start: one repeat of the swizzle
  /// (8 rows of SwizzleBytes), so descriptors need no base offset; Triton's
  /// NVMMASharedEncodingAttr::getAlignment (128 x its phases), which its
  /// allocator packs by.
  unsigned alignment() const { return 128u * (SwizzleBytes ? SwizzleBytes / 16 : 1); }
};

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LAYOUT_WGMMALAYOUT_H
