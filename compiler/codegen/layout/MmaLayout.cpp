//===- MmaLayout.cpp - tensor-core layouts of tl.dot (mma.sync) -----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The bases of MmaLayout.h, built bit by bit; bases that step past the
/// block are zero (replication).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/MmaLayout.h"

#include <algorithm>

namespace tessel::codegen {

std::pair<unsigned, unsigned> mmaWarps(int64_t M, int64_t N, unsigned NumWarps) {
  // lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp, warpsPerTileV2.
  int64_t WM = 1, WN = 1;
  while (WM * WN < NumWarps) {
    if (M / 16 / WM >= N / (8 * 2) / WN) {
      if (WM < M / 16)
        WM *= 2;
      else
        WN *= 2;
    } else {
      WN *= 2;
    }
  }
  return {static_cast<unsigned>(WM), static_cast<unsigned>(WN)};
}

namespace {
struct Builder {
  LinearLayout L;
  Coord clip(Coord C) const {
    for (size_t D = 0; D < C.size(); ++D)
      if (C[D] >= L.Shape[D])
        return Coord(C.size(), 0);
    return C;
  }
};
} // namespace

LinearLayout mmaAccumulatorLayout(int64_t M, int64_t N, unsigned NumWarps) {
  auto [WM, WN] = mmaWarps(M, N, NumWarps);
  Builder Bd{LinearLayout{{M, N}, {}, {}, {}}};
  LinearLayout &L = Bd.L;
  L.Reg = {Bd.clip({0, 1}), Bd.clip({8, 0})};
  L.Lane = {Bd.clip({0, 2}), Bd.clip({0, 4}), Bd.clip({1, 0}), Bd.clip({2, 0}), Bd.clip({4, 0})};
  for (unsigned I = 0; I < log2Floor(WN); ++I)
    L.Warp.push_back(Bd.clip({0, int64_t{8} << I}));
  for (unsigned I = 0; I < log2Floor(WM); ++I)
    L.Warp.push_back(Bd.clip({int64_t{16} << I, 0}));
  for (int64_t S = 8 * WN; S < N; S *= 2)
    L.Reg.push_back({0, S});
  for (int64_t S = 16 * WM; S < M; S *= 2)
    L.Reg.push_back({S, 0});
  return L;
}

LinearLayout mmaOperandLayout(unsigned OpIdx, int64_t M, int64_t N, int64_t K, unsigned NumWarps) {
  auto [WM, WN] = mmaWarps(M, N, NumWarps);
  if (OpIdx == 0) {
    Builder Bd{LinearLayout{{M, K}, {}, {}, {}}};
    LinearLayout &L = Bd.L;
    L.Reg = {{0, 1}, {8, 0}, {0, 8}};
    L.Lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    for (unsigned I = 0; I < log2Floor(WN); ++I)
      L.Warp.push_back({0, 0});
    for (unsigned I = 0; I < log2Floor(WM); ++I)
      L.Warp.push_back(Bd.clip({int64_t{16} << I, 0}));
    for (int64_t S = 16; S < K; S *= 2)
      L.Reg.push_back({0, S});
    for (int64_t S = 16 * WM; S < M; S *= 2)
      L.Reg.push_back({S, 0});
    return L;
  }
  Builder Bd{LinearLayout{{K, N}, {}, {}, {}}};
  LinearLayout &L = Bd.L;
  L.Reg = {{1, 0}, {8, 0}};
  L.Lane = {{2, 0}, {4, 0}, Bd.clip({0, 1}), Bd.clip({0, 2}), Bd.clip({0, 4})};
  for (unsigned I = 0; I < log2Floor(WN); ++I)
    L.Warp.push_back(Bd.clip({0, int64_t{8} << I}));
  for (unsigned I = 0; I < log2Floor(WM); ++I)
    L.Warp.push_back({0, 0});
  for (int64_t S = 8 * WN; S < N; S *= 2)
    L.Reg.push_back({0, S});
  for (int64_t S = 16; S < K; S *= 2)
    L.Reg.push_back({S, 0});
  return L;
}

int64_t swizzledOffset(int64_t Row, int64_t Col, int64_t Cols, unsigned ElemBytes) {
  int64_t Vec = 16 / ElemBytes;
  int64_t Chunks = std::max<int64_t>(1, Cols / Vec);
  int64_t PerPhase = std::max<int64_t>(1, 128 / (Cols * ElemBytes));
  int64_t MaxPhase = std::max<int64_t>(1, std::min<int64_t>(Chunks, 8 / PerPhase));
  int64_t Phase = (Row / PerPhase) % MaxPhase;
  return Row * Cols + (((Col / Vec) ^ Phase) * Vec) + Col % Vec;
}

} // namespace tessel::codegen
