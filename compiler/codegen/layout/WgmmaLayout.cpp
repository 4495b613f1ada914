//===- WgmmaLayout.cpp - Hopper's warpgroup MMA layouts as data -----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Implements WgmmaLayout.h: Triton's warpgroup arrangement and instruction
/// N for MMA v3, the accumulator as a linear layout, and the NVMMA shared
/// layout with its descriptor fields.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/WgmmaLayout.h"

#include <algorithm>
#include <utility>

namespace tessel::codegen {

WgmmaShape wgmmaShape(int64_t M, int64_t N, unsigned NumWarps, bool Chained, bool Int8) {
  WgmmaShape S;
  // The instruction's N: each warp's 16 rows of M first, the warps left over
  // share N.
  int64_t WarpsForM = std::max<int64_t>(M / 16, 1);
  int64_t WarpsForN = std::max<int64_t>(NumWarps / WarpsForM, 1);
  int64_t MaxN = std::max<int64_t>(N / WarpsForN, 8);
  auto Valid = [Int8](int64_t Cand) { return !Int8 || (Cand <= 224 && (Cand % 16 == 0 || Cand <= 24)); };
  for (int64_t Cand = 256; Cand >= 8; Cand -= 8)
    if (Valid(Cand) && N % Cand == 0 && Cand <= MaxN) {
      S.InstrN = Cand;
      break;
    }
  // Warps in units of (4, 1): double along M while M has rows for them.
  unsigned WarpsM = Chained ? std::max(4u, NumWarps) : 4, WarpsN = 1;
  while (WarpsM * WarpsN < NumWarps) {
    if (M > 16 * static_cast<int64_t>(WarpsM))
      WarpsM *= 2;
    else
      WarpsN *= 2;
  }
  S.WarpgroupsM = WarpsM / 4;
  S.WarpgroupsN = WarpsN;
  S.RepM = std::max<int64_t>(1, M / (64 * int64_t{S.WarpgroupsM}));
  S.RepN = std::max<int64_t>(1, N / (S.InstrN * S.WarpgroupsN));
  return S;
}

namespace {
/// C, or (0, 0) where it steps past L's block: those threads or registers
/// hold copies.
Coord inBlock(const LinearLayout &L, const Coord &C) {
  return C[0] >= L.Shape[0] || C[1] >= L.Shape[1] ? Coord{0, 0} : C;
}

/// The register bases of S's repetitions along M, which come last.
void addRowRepeats(LinearLayout &L, const WgmmaShape &S) {
  for (unsigned B = 0; B < log2Floor(S.RepM); ++B)
    L.Reg.push_back(inBlock(L, {(int64_t{64} * S.WarpgroupsM) << B, 0}));
}

/// The warp bases along M: a warpgroup's four warps 16 rows apart, then the
/// warpgroups along M.
void addWarpRows(LinearLayout &L, const WgmmaShape &S) {
  L.Warp = {inBlock(L, {16, 0}), inBlock(L, {32, 0})};
  for (unsigned B = 0; B < log2Floor(S.WarpgroupsM); ++B)
    L.Warp.push_back(inBlock(L, {int64_t{64} << B, 0}));
}

/// Warps the bases so far do not place hold copies.
void padWarps(LinearLayout &L, unsigned NumWarps) {
  while (L.Warp.size() < log2Floor(NumWarps))
    L.Warp.push_back({0, 0});
}
} // namespace

LinearLayout wgmmaAccumulatorLayout(int64_t M, int64_t N, unsigned NumWarps, const WgmmaShape &S) {
  LinearLayout L;
  L.Shape = {M, N};
  L.Reg.push_back(inBlock(L, {0, 1}));
  L.Reg.push_back(inBlock(L, {8, 0}));
  for (unsigned B = 0; B < log2Floor(S.InstrN / 8); ++B)
    L.Reg.push_back(inBlock(L, {0, int64_t{8} << B}));
  for (unsigned B = 0; B < log2Floor(S.RepN); ++B)
    L.Reg.push_back(inBlock(L, {0, (S.InstrN * S.WarpgroupsN) << B}));
  addRowRepeats(L, S);
  L.Lane = {inBlock(L, {0, 2}), inBlock(L, {0, 4}), inBlock(L, {1, 0}), inBlock(L, {2, 0}), inBlock(L, {4, 0})};
  addWarpRows(L, S);
  for (unsigned B = 0; B < log2Floor(S.WarpgroupsN); ++B)
    L.Warp.push_back(inBlock(L, {0, S.InstrN << B}));
  // NumWarps beyond the warpgroups the block uses (never with Triton's
  // arrangement, which always uses every warp) would hold copies.
  padWarps(L, NumWarps);
  return L;
}

LinearLayout wgmmaOperandALayout(int64_t M, int64_t K, unsigned NumWarps, const WgmmaShape &S, unsigned ElemBits) {
  const int64_t KWidth = 32 / std::max(8u, ElemBits);
  LinearLayout L;
  L.Shape = {M, K};
  for (int64_t B = 1; B < KWidth; B <<= 1)
    L.Reg.push_back(inBlock(L, {0, B}));
  L.Reg.push_back(inBlock(L, {8, 0}));
  L.Reg.push_back(inBlock(L, {0, 4 * KWidth}));
  for (int64_t B = 8 * KWidth; B < K; B <<= 1)
    L.Reg.push_back(inBlock(L, {0, B}));
  addRowRepeats(L, S);
  L.Lane = {inBlock(L, {0, KWidth}), inBlock(L, {0, 2 * KWidth}), inBlock(L, {1, 0}), inBlock(L, {2, 0}),
            inBlock(L, {4, 0})};
  // The warpgroups along N read the same rows: copies.
  addWarpRows(L, S);
  padWarps(L, NumWarps);
  return L;
}

NvmmaLayout NvmmaLayout::forTile(int64_t Rows, int64_t Cols, unsigned ElemBytes, bool Transposed) {
  NvmmaLayout L;
  L.Rows = Rows;
  L.Cols = Cols;
  L.ElemBytes = ElemBytes;
  L.Transposed = Transposed;
  int64_t RowBytes = L.storedCols() * ElemBytes;
  L.SwizzleBytes = RowBytes >= 128 ? 128 : RowBytes >= 64 ? 64 : RowBytes >= 32 ? 32 : 0;
  return L;
}

int64_t NvmmaLayout::offset(int64_t Row, int64_t Col) const {
  if (Transposed)
    std::swap(Row, Col);
  int64_t StoredRows = storedRows();
  int64_t E = elemsPerBlockRow(), Chunk = 16 / ElemBytes;
  int64_t PerPhase = 128 / SwizzleBytes, MaxPhase = SwizzleBytes / 16;
  int64_t Block = Col / E, InRow = Col % E;
  int64_t Phase = (Row / PerPhase) % MaxPhase;
  return Block * StoredRows * E + Row * E + (((InRow / Chunk) ^ Phase) * Chunk) + InRow % Chunk;
}

unsigned NvmmaLayout::swizzleMode() const {
  switch (SwizzleBytes) {
  case 128:
    return 1;
  case 64:
    return 2;
  case 32:
    return 3;
  default:
    return 0;
  }
}

uint64_t NvmmaLayout::descriptorBits() const {
  return (((leadingBytes() >> 4) & 0x3FFF) << 16) | (((strideBytes() >> 4) & 0x3FFF) << 32) |
         (uint64_t{swizzleMode()} << 62);
}

} // namespace tessel::codegen
