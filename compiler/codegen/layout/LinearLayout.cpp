//===- LinearLayout.cpp - layouts as data and their conversions -----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The conversions of LinearLayout.h, one per encoding, and the coordinate
/// queries lowering asks. Everything here is compile-time arithmetic on
/// basis vectors; the generated code evaluates the same XORs on the thread
/// id (lower/LoweringContext.cpp, threadCoord).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/LinearLayout.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace tessel::codegen {

static void xorInto(Coord &Acc, const Coord &B) {
  for (size_t D = 0; D < Acc.size(); ++D)
    Acc[D] ^= B[D];
}

static bool isZero(const Coord &C) {
  return std::all_of(C.begin(), C.end(), [](int64_t V) { return V == 0; });
}

static unsigned log2u(uint64_t V) {
  unsigned L = 0;
  while ((uint64_t{1} << L) < V)
    ++L;
  return L;
}

unsigned log2Floor(int64_t V) {
  unsigned L = 0;
  while ((int64_t{1} << (L + 1)) <= V)
    ++L;
  return L;
}

Coord LinearLayout::regCoord(unsigned R) const {
  Coord C(Shape.size(), 0);
  for (size_t I = 0; I < Reg.size(); ++I)
    if ((R >> I) & 1)
      xorInto(C, Reg[I]);
  return C;
}

std::optional<int64_t> LinearLayout::regOffset(unsigned R,
                                               const std::function<int64_t(const Coord &)> &Offset) const {
  const SharedLayout RowMajor{Shape};
  // Every thread, not the bases alone: the offset need not be linear (a
  // swizzle's XOR, a block's stride), only the same distance everywhere.
  std::optional<int64_t> Distance;
  for (unsigned W = 0; W < (1u << Warp.size()); ++W)
    for (unsigned Ln = 0; Ln < (1u << Lane.size()); ++Ln) {
      Coord From = coord(0, Ln, W), To = coord(R, Ln, W);
      int64_t D = Offset ? Offset(To) - Offset(From) : RowMajor.offset(To) - RowMajor.offset(From);
      if (Distance && *Distance != D)
        return std::nullopt;
      Distance = D;
    }
  return Distance;
}

Coord LinearLayout::coord(unsigned R, unsigned LaneId, unsigned WarpId) const {
  Coord C = regCoord(R);
  for (size_t I = 0; I < Lane.size(); ++I)
    if ((LaneId >> I) & 1)
      xorInto(C, Lane[I]);
  for (size_t I = 0; I < Warp.size(); ++I)
    if ((WarpId >> I) & 1)
      xorInto(C, Warp[I]);
  return C;
}

bool LinearLayout::owns(unsigned LaneId, unsigned WarpId) const {
  for (size_t I = 0; I < Lane.size(); ++I)
    if (((LaneId >> I) & 1) && isZero(Lane[I]))
      return false;
  for (size_t I = 0; I < Warp.size(); ++I)
    if (((WarpId >> I) & 1) && isZero(Warp[I]))
      return false;
  return true;
}

unsigned LinearLayout::contiguousRegs(unsigned Dim) const {
  unsigned K = 0;
  for (; K < Reg.size(); ++K) {
    Coord Want(Shape.size(), 0);
    Want[Dim] = int64_t{1} << K;
    if (Reg[K] != Want)
      break;
  }
  return 1u << K;
}

static std::string basesStr(const std::vector<Coord> &Bs) {
  std::string S = "[";
  for (size_t I = 0; I < Bs.size(); ++I) {
    S += I ? ",[" : "[";
    for (size_t D = 0; D < Bs[I].size(); ++D)
      S += (D ? "," : "") + std::to_string(Bs[I][D]);
    S += "]";
  }
  return S + "]";
}

std::string LinearLayout::str() const {
  return "reg=" + basesStr(Reg) + " lane=" + basesStr(Lane) + " warp=" + basesStr(Warp);
}

LinearLayout scalarLayout(unsigned NumWarps) {
  LinearLayout L;
  L.Lane.assign(5, Coord{});
  L.Warp.assign(log2u(NumWarps), Coord{});
  return L;
}

static std::string listStr(const std::vector<unsigned> &V) {
  std::string S = "[";
  for (size_t I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S + "]";
}

std::string BlockedLayout::str() const {
  return "#blocked<sizePerThread=" + listStr(SizePerThread) + ", threadsPerWarp=" + listStr(ThreadsPerWarp) +
         ", warpsPerCTA=" + listStr(WarpsPerCTA) + ", order=" + listStr(Order) + ">";
}

BlockedLayout defaultBlocked(const std::vector<int64_t> &Shape, unsigned NumWarps, std::vector<unsigned> SizePerThread,
                             std::vector<unsigned> Order) {
  size_t Rank = Shape.size();
  BlockedLayout B;
  B.SizePerThread = SizePerThread.empty() ? std::vector<unsigned>(Rank, 1) : std::move(SizePerThread);
  if (Order.empty())
    for (size_t D = 0; D < Rank; ++D)
      Order.push_back(static_cast<unsigned>(Rank - 1 - D));
  B.Order = std::move(Order);
  B.ThreadsPerWarp.assign(Rank, 1);
  B.WarpsPerCTA.assign(Rank, 1);
  // As Triton's BlockedEncodingAttr builder: fill lanes, then warps, along
  // the order while the shape has room; what is left goes to the slowest
  // dimension (replication when the tile is small).
  unsigned LanesLeft = 32;
  for (unsigned D : B.Order) {
    int64_t Room = std::max<int64_t>(1, Shape[D] / B.SizePerThread[D]);
    unsigned T = static_cast<unsigned>(std::clamp<int64_t>(Room, 1, LanesLeft));
    B.ThreadsPerWarp[D] = T;
    LanesLeft /= T;
  }
  B.ThreadsPerWarp[B.Order.back()] *= LanesLeft;
  unsigned WarpsLeft = NumWarps;
  for (unsigned D : B.Order) {
    int64_t Room = std::max<int64_t>(1, Shape[D] / (int64_t{B.SizePerThread[D]} * B.ThreadsPerWarp[D]));
    unsigned W = static_cast<unsigned>(std::clamp<int64_t>(Room, 1, WarpsLeft));
    B.WarpsPerCTA[D] = W;
    WarpsLeft /= W;
  }
  B.WarpsPerCTA[B.Order.back()] *= WarpsLeft;
  return B;
}

LinearLayout toLinear(const BlockedLayout &B, const std::vector<int64_t> &Shape) {
  size_t Rank = Shape.size();
  assert(B.Order.size() == Rank && "blocked layout of another rank");
  LinearLayout L;
  L.Shape = Shape;
  // A basis stepping Step along D, or zero where Step is past the shape.
  auto Basis = [&](unsigned D, int64_t Step) {
    Coord C(Rank, 0);
    if (Step < Shape[D])
      C[D] = Step;
    return C;
  };
  std::vector<int64_t> Covered(Rank, 1);
  auto Add = [&](std::vector<Coord> &Into, unsigned D, unsigned Count, bool DropZero) {
    for (unsigned I = 1; I < Count; I <<= 1) {
      Coord C = Basis(D, Covered[D]);
      Covered[D] <<= 1;
      if (DropZero && isZero(C))
        continue;
      Into.push_back(std::move(C));
    }
  };
  for (unsigned D : B.Order)
    Add(L.Reg, D, B.SizePerThread[D], true);
  for (unsigned D : B.Order)
    Add(L.Lane, D, B.ThreadsPerWarp[D], false);
  for (unsigned D : B.Order)
    Add(L.Warp, D, B.WarpsPerCTA[D], false);
  // Repetitions of the CTA tile: more registers, fastest dimension first.
  for (unsigned D : B.Order)
    while (Covered[D] < Shape[D]) {
      L.Reg.push_back(Basis(D, Covered[D]));
      Covered[D] <<= 1;
    }
  return L;
}

static void dropZeroRegs(LinearLayout &L, std::vector<unsigned> *RegMap, unsigned OldRegs,
                         const std::vector<bool> &Kept) {
  std::vector<Coord> Reg;
  for (size_t I = 0; I < L.Reg.size(); ++I)
    if (Kept[I])
      Reg.push_back(L.Reg[I]);
  L.Reg = std::move(Reg);
  if (!RegMap)
    return;
  RegMap->assign(OldRegs, 0);
  for (unsigned R = 0; R < OldRegs; ++R) {
    unsigned To = 0, Bit = 0;
    for (size_t I = 0; I < Kept.size(); ++I) {
      if (!Kept[I])
        continue;
      if ((R >> I) & 1)
        To |= 1u << Bit;
      ++Bit;
    }
    (*RegMap)[R] = To;
  }
}

LinearLayout sliceLayout(const LinearLayout &Parent, unsigned Dim) {
  LinearLayout L = Parent;
  L.Shape.erase(L.Shape.begin() + Dim);
  for (auto *Bs : {&L.Reg, &L.Lane, &L.Warp})
    for (Coord &C : *Bs)
      C.erase(C.begin() + Dim);
  std::vector<bool> Kept;
  for (const Coord &C : L.Reg)
    Kept.push_back(!isZero(C));
  dropZeroRegs(L, nullptr, Parent.numRegs(), Kept);
  return L;
}

LinearLayout restrictLayout(const LinearLayout &Parent, unsigned Dim, std::vector<unsigned> *RegMap) {
  LinearLayout L = Parent;
  L.Shape[Dim] = 1;
  for (auto *Bs : {&L.Reg, &L.Lane, &L.Warp})
    for (Coord &C : *Bs)
      C[Dim] = 0;
  std::vector<bool> Kept;
  for (const Coord &C : L.Reg)
    Kept.push_back(!isZero(C));
  dropZeroRegs(L, RegMap, Parent.numRegs(), Kept);
  return L;
}

LinearLayout insertDim(const LinearLayout &In, unsigned Dim) {
  LinearLayout L = In;
  L.Shape.insert(L.Shape.begin() + Dim, 1);
  for (auto *Bs : {&L.Reg, &L.Lane, &L.Warp})
    for (Coord &C : *Bs)
      C.insert(C.begin() + Dim, 0);
  return L;
}

int64_t SharedLayout::offset(const Coord &C) const {
  int64_t Off = 0;
  for (size_t D = 0; D < Shape.size(); ++D)
    Off = Off * Shape[D] + C[D];
  return Off;
}

int64_t SharedLayout::numel() const {
  return std::accumulate(Shape.begin(), Shape.end(), int64_t{1}, std::multiplies<>());
}

LinearLayout reshapeLayout(const LinearLayout &L, const std::vector<int64_t> &NewShape) {
  auto Map = [&](const Coord &C) {
    int64_t Idx = 0;
    for (size_t D = 0; D < L.Shape.size(); ++D)
      Idx = Idx * L.Shape[D] + C[D];
    Coord Out(NewShape.size());
    for (size_t D = NewShape.size(); D-- > 0;) {
      Out[D] = Idx % NewShape[D];
      Idx /= NewShape[D];
    }
    return Out;
  };
  LinearLayout Out{NewShape, {}, {}, {}};
  for (const Coord &C : L.Reg)
    Out.Reg.push_back(Map(C));
  for (const Coord &C : L.Lane)
    Out.Lane.push_back(Map(C));
  for (const Coord &C : L.Warp)
    Out.Warp.push_back(Map(C));
  return Out;
}

LinearLayout permuteLayout(const LinearLayout &L, const std::vector<int64_t> &Order) {
  auto Map = [&](const Coord &C) {
    Coord Out(Order.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Out[I] = C[static_cast<size_t>(Order[I])];
    return Out;
  };
  LinearLayout Out{Map(L.Shape), {}, {}, {}};
  for (const Coord &C : L.Reg)
    Out.Reg.push_back(Map(C));
  for (const Coord &C : L.Lane)
    Out.Lane.push_back(Map(C));
  for (const Coord &C : L.Warp)
    Out.Warp.push_back(Map(C));
  return Out;
}

} // namespace tessel::codegen
