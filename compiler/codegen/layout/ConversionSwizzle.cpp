//===- ConversionSwizzle.cpp - Triton's shared memory for a conversion ----===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A port of the parts of Triton 3.6's optimalSwizzlingLdSt
/// (lib/Tools/GenericSwizzling.cpp) that decide a conversion buffer's size,
/// step for step, since the choice of segment bases, and so of the reps, depends
/// on the order in which Triton visits bases.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/ConversionSwizzle.h"

#include <algorithm>
#include <optional>
#include <set>

namespace tessel::codegen {
namespace {

using Bases = std::vector<int64_t>;

bool isPowerOf2(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

bool contains(const Bases &B, int64_t V) { return std::find(B.begin(), B.end(), V) != B.end(); }

/// The flattened index of a coordinate, dimension 0 the most minor
/// (Triton's flattenOuts).
int64_t flatIndex(const LinearLayout &L, const Coord &C) {
  int64_t X = 0, Stride = 1;
  for (unsigned D = 0; D < L.rank(); ++D) {
    X += C[D] * Stride;
    Stride *= L.Shape[D];
  }
  return X;
}

Bases flatten(const LinearLayout &L, const std::vector<Coord> &Of, bool DropZeros) {
  Bases Out;
  for (const Coord &C : Of) {
    int64_t X = flatIndex(L, C);
    if (X != 0 || !DropZeros)
      Out.push_back(X);
  }
  return Out;
}

/// Reduced row echelon form over GF(2), columns (bits) taken from bit 0
/// up, as f2reduce does for Triton: every row's pivot is its lowest bit.
std::vector<uint64_t> rowEchelon(const Bases &Rows, unsigned Dim) {
  std::vector<uint64_t> M(Rows.begin(), Rows.end());
  size_t Rank = 0;
  for (unsigned Col = 0; Col < Dim && Rank < M.size(); ++Col) {
    uint64_t Bit = 1ull << Col;
    size_t P = Rank;
    while (P < M.size() && !(M[P] & Bit))
      ++P;
    if (P == M.size())
      continue;
    std::swap(M[Rank], M[P]);
    for (size_t R = 0; R < M.size(); ++R)
      if (R != Rank && (M[R] & Bit))
        M[R] ^= M[Rank];
    ++Rank;
  }
  M.resize(Rank);
  return M;
}

std::set<unsigned> pivots(const std::vector<uint64_t> &Rref) {
  std::set<unsigned> P;
  for (uint64_t Row : Rref)
    P.insert(static_cast<unsigned>(__builtin_ctzll(Row)));
  return P;
}

/// The vectors orthogonal to every vector of Rows (Triton's nullspaceBasis).
Bases nullspaceBasis(const Bases &Rows, unsigned Dim) {
  std::vector<uint64_t> M = rowEchelon(Rows, Dim);
  std::set<unsigned> P = pivots(M);
  Bases Out;
  for (unsigned Free = 0; Free < Dim; ++Free) {
    if (P.count(Free))
      continue;
    uint64_t V = 1ull << Free;
    for (uint64_t Row : M)
      if (Row & (1ull << Free))
        V ^= 1ull << __builtin_ctzll(Row);
    Out.push_back(static_cast<int64_t>(V));
  }
  return Out;
}

/// Triton's intersectionBasis: for single bits, B1's bits that B2 has, in
/// B1's order.
Bases intersectionBasis(const Bases &B1, const Bases &B2, unsigned Dim) {
  if (std::all_of(B1.begin(), B1.end(), isPowerOf2) && std::all_of(B2.begin(), B2.end(), isPowerOf2)) {
    Bases Out;
    for (int64_t V : B1)
      if (V != 0 && contains(B2, V))
        Out.push_back(V);
    return Out;
  }
  Bases Joint = nullspaceBasis(B1, Dim);
  Bases N2 = nullspaceBasis(B2, Dim);
  Joint.insert(Joint.end(), N2.begin(), N2.end());
  return nullspaceBasis(Joint, Dim);
}

/// The unit vectors of the bits Basis's span does not pivot on.
Bases complementBasis(const Bases &Basis, unsigned Dim) {
  std::set<unsigned> P = pivots(rowEchelon(Basis, Dim));
  Bases Out;
  for (unsigned I = 0; I < Dim; ++I)
    if (!P.count(I))
      Out.push_back(int64_t{1} << I);
  return Out;
}

/// Triton's computeSegment (one CTA: no block bases).
Bases computeSegment(const Bases &BankSrc, const Bases &BankDst, unsigned Dim, size_t Len) {
  std::set<int64_t> Src(BankSrc.begin(), BankSrc.end()), Dst(BankDst.begin(), BankDst.end());
  Src.erase(0);
  Dst.erase(0);
  Bases Segment;
  for (unsigned B = 0; B < Dim; ++B)
    if (!Src.count(int64_t{1} << B) && !Dst.count(int64_t{1} << B))
      Segment.push_back(int64_t{1} << B);
  if (Segment.size() >= Len) {
    Segment.resize(Len);
    return Segment;
  }
  Bases A, B;
  for (int64_t V : Src)
    if (!Dst.count(V))
      A.push_back(V);
  for (int64_t V : Dst)
    if (!Src.count(V))
      B.push_back(V);
  if (A.size() > B.size())
    std::swap(A, B);
  std::sort(A.begin(), A.end());
  std::sort(B.begin(), B.end());
  int64_t Conflicts = std::min<int64_t>(
      std::max<int64_t>(0, static_cast<int64_t>(Len) - static_cast<int64_t>(A.size() + Segment.size())),
      static_cast<int64_t>(A.size()));
  for (size_t I = static_cast<size_t>(Conflicts); I < A.size(); ++I)
    Segment.push_back(A[I] ^ B[I]);
  Segment.insert(Segment.end(), A.begin(), A.begin() + Conflicts);
  Segment.insert(Segment.end(), B.begin(), B.begin() + Conflicts);
  if (Segment.size() > Len)
    Segment.resize(Len);
  return Segment;
}

} // namespace

namespace {

/// A layout flattened (Triton's flattenOuts), broadcast registers removed
/// (actionRemoveBroadcastedRegs).
struct Flat {
  Bases Reg, Lane, Warp;
  unsigned Dim = 0;
  explicit Flat(const LinearLayout &L) {
    Reg = flatten(L, L.Reg, true);
    Lane = flatten(L, L.Lane, false);
    Warp = flatten(L, L.Warp, false);
    int64_t Numel = 1;
    for (int64_t D : L.Shape)
      Numel *= D;
    Dim = log2Floor(Numel);
  }
};

/// Triton's optimalSwizzling for a chosen vector and the lane tiles of the
/// two instructions: the bank bits fill a 32-bank line, the segment avoids
/// conflicts, and the segment bits both sides hold in registers are the
/// reps, but for the first LeaveReps of them (kept for ldmatrix/stmatrix's
/// .x2/.x4 forms).
ConversionSwizzle swizzleFor(const Flat &Src, const Flat &Dst, unsigned BitWidth, const Bases &V, const Bases &TileSrc,
                             const Bases &TileDst, unsigned LeaveReps) {
  Bases BankSrc = V, BankDst = V;
  BankSrc.insert(BankSrc.end(), TileSrc.begin(), TileSrc.end());
  BankDst.insert(BankDst.end(), TileDst.begin(), TileDst.end());
  int64_t VecBits = (int64_t{1} << V.size()) * BitWidth;
  // A bank line is 32 banks of 32 bits.
  int64_t Free = std::max<int64_t>(0, static_cast<int64_t>(Src.Dim) - static_cast<int64_t>(V.size()));
  int64_t LenBank = std::min<int64_t>(log2Floor(std::max<int64_t>(1, 1024 / VecBits)), Free);
  Bases Segment = computeSegment(BankSrc, BankDst, Src.Dim, static_cast<size_t>(Free - LenBank));
  ConversionSwizzle S;
  S.Vector = V;
  Bases Union = V;
  Union.insert(Union.end(), Segment.begin(), Segment.end());
  S.Bank = complementBasis(Union, Src.Dim);
  // buildReps: a segment basis both sides hold in registers is a round.
  for (int64_t B : Segment) {
    bool Rep = contains(Src.Reg, B) && contains(Dst.Reg, B);
    if (Rep && LeaveReps > 0) {
      --LeaveReps;
      Rep = false;
    }
    (Rep ? S.Reps : S.Segment).push_back(B);
  }
  return S;
}

/// Triton's optimalSwizzlingLdSt: the conversion by ld.shared / st.shared
/// only, for when no instruction pair has a tile.
ConversionSwizzle ldStSwizzle(const Flat &Src, const Flat &Dst, unsigned BitWidth) {
  unsigned Dim = Src.Dim;
  Bases V = intersectionBasis(Src.Reg, Dst.Reg, Dim);
  size_t MaxVec = log2Floor(128 / BitWidth);
  if (V.size() > MaxVec)
    V.resize(MaxVec);
  // Fill the vector up to 32 bits with bases that are a register on one
  // side and a warp on the other, then with warp bases.
  if ((int64_t{1} << V.size()) * BitWidth < 32) {
    size_t PerBank = log2Floor(32 / BitWidth);
    Bases WarpSrc, WarpDst;
    for (int64_t W : Src.Warp)
      if (W)
        WarpSrc.push_back(W);
    for (int64_t W : Dst.Warp)
      if (W)
        WarpDst.push_back(W);
    auto NotInVec = [&](const Bases &Of) {
      Bases Out;
      for (int64_t R : Of)
        if (!contains(V, R))
          Out.push_back(R);
      return Out;
    };
    Bases RegSrcWarp = intersectionBasis(NotInVec(Src.Reg), WarpDst, Dim);
    Bases RegDstWarp = intersectionBasis(NotInVec(Dst.Reg), WarpSrc, Dim);
    const Bases *Largest;
    if (RegSrcWarp.size() == RegDstWarp.size() && !RegSrcWarp.empty())
      Largest = *std::min_element(RegSrcWarp.begin(), RegSrcWarp.end()) <
                        *std::min_element(RegDstWarp.begin(), RegDstWarp.end())
                    ? &RegSrcWarp
                    : &RegDstWarp;
    else
      Largest = RegSrcWarp.size() > RegDstWarp.size() ? &RegSrcWarp : &RegDstWarp;
    V.insert(V.end(), Largest->begin(), Largest->end());
    if (V.size() < PerBank) {
      Bases Both = intersectionBasis(WarpSrc, WarpDst, Dim);
      V.insert(V.end(), Both.begin(), Both.end());
    }
    for (size_t I = 0; V.size() < PerBank && (I < WarpSrc.size() || I < WarpDst.size()); ++I) {
      if (I < WarpSrc.size() && !contains(V, WarpSrc[I]))
        V.push_back(WarpSrc[I]);
      if (V.size() < PerBank && I < WarpDst.size() && !contains(V, WarpDst[I]))
        V.push_back(WarpDst[I]);
    }
    if (V.size() > PerBank)
      V.resize(PerBank);
  }
  int64_t VecBits = (int64_t{1} << V.size()) * BitWidth;
  size_t Log2Vec = log2Floor(std::max<int64_t>(1, VecBits / 32));
  Bases TileSrc(Src.Lane.begin(), Src.Lane.end() - std::min(Log2Vec, Src.Lane.size()));
  Bases TileDst(Dst.Lane.begin(), Dst.Lane.end() - std::min(Log2Vec, Dst.Lane.size()));
  return swizzleFor(Src, Dst, BitWidth, V, TileSrc, TileDst, 0);
}

/// Which hardware bits of A hold the element at flattened index X: a mask
/// over A's register bits (low) and lane bits (above them); nullopt where no
/// combination of A's bases gives X.
struct Preimage {
  uint64_t Reg = 0, Lane = 0;
};
std::optional<Preimage> preimage(const Flat &A, int64_t X) {
  // Gaussian elimination over A's bases, each row tracking the in-bits it sums.
  struct Row {
    uint64_t Value;
    uint64_t RegBits, LaneBits;
  };
  std::vector<Row> Rows;
  for (size_t I = 0; I < A.Reg.size(); ++I)
    Rows.push_back({static_cast<uint64_t>(A.Reg[I]), 1ull << I, 0});
  for (size_t I = 0; I < A.Lane.size(); ++I)
    Rows.push_back({static_cast<uint64_t>(A.Lane[I]), 0, 1ull << I});
  for (int64_t W : A.Warp)
    Rows.push_back({static_cast<uint64_t>(W), 0, 0});
  std::vector<Row> Pivots;
  for (Row R : Rows) {
    for (const Row &P : Pivots)
      if (R.Value & (1ull << __builtin_ctzll(P.Value)))
        R = {R.Value ^ P.Value, R.RegBits ^ P.RegBits, R.LaneBits ^ P.LaneBits};
    if (!R.Value)
      continue;
    for (Row &P : Pivots)
      if (P.Value & (1ull << __builtin_ctzll(R.Value)))
        P = {P.Value ^ R.Value, P.RegBits ^ R.RegBits, P.LaneBits ^ R.LaneBits};
    Pivots.push_back(R);
  }
  Preimage Out;
  uint64_t Left = static_cast<uint64_t>(X);
  for (const Row &P : Pivots)
    if (Left & (1ull << __builtin_ctzll(P.Value))) {
      Left ^= P.Value;
      Out.Reg ^= P.RegBits;
      Out.Lane ^= P.LaneBits;
    }
  if (Left)
    return std::nullopt;
  return Out;
}

/// An instruction's access pattern (Triton's LocalMemOpTile): the lanes whose
/// elements are contiguous in one 16-byte row (registers fill the rest), and
/// the lanes that give the row addresses (registers give the first of the
/// three where there are fewer).
struct MemOpTile {
  std::vector<unsigned> LaneContig, LaneAddr;
};

/// Triton's optimalSwizzlingTile: a vector that both instructions' tiles
/// can share; nullopt where they cannot.
std::optional<Bases> swizzlingTile(const Flat &A, const Flat &B, size_t NRegA, size_t NRegB,
                                   const std::vector<unsigned> &LaneIdA, const std::vector<unsigned> &LaneIdB) {
  if (NRegA < NRegB)
    return swizzlingTile(B, A, NRegB, NRegA, LaneIdB, LaneIdA);
  Bases V = intersectionBasis(A.Reg, B.Reg, A.Dim);
  if (V.size() < NRegB)
    return std::nullopt;
  V.resize(NRegB);
  Bases LaneTileB;
  for (unsigned I : LaneIdA)
    if (A.Lane[I] == 0)
      return std::nullopt;
  for (unsigned I : LaneIdB) {
    if (B.Lane[I] == 0)
      return std::nullopt;
    LaneTileB.push_back(B.Lane[I]);
  }
  // B's first lanes must be registers of A, the rest A's lanes one for one.
  for (size_t I = 0; I < NRegA - NRegB; ++I) {
    std::optional<Preimage> P = preimage(A, B.Lane[LaneIdB[I]]);
    if (!P || P->Reg == 0)
      return std::nullopt;
  }
  size_t Skip = LaneIdB.size() - LaneIdA.size();
  for (size_t I = 0; I < LaneIdA.size(); ++I) {
    std::optional<Preimage> P = preimage(A, B.Lane[LaneIdB[Skip + I]]);
    if (!P || P->Lane != (1ull << LaneIdA[I]))
      return std::nullopt;
  }
  V.insert(V.end(), LaneTileB.begin(), LaneTileB.end());
  return V;
}

/// Triton's getTile: the first registers not in the vector, then the
/// address lanes.
std::optional<Bases> addressTile(const MemOpTile &T, const Bases &Reg, const Bases &Lane, const Bases &V) {
  Bases Tile;
  size_t Needed = 3 - T.LaneAddr.size();
  for (int64_t R : Reg) {
    if (!Needed)
      break;
    if (!contains(V, R)) {
      Tile.push_back(R);
      --Needed;
    }
  }
  if (Needed)
    return std::nullopt;
  for (unsigned I : T.LaneAddr)
    Tile.push_back(Lane[I]);
  return Tile;
}

/// Triton's bankConflicts: the read and write conflicts of a buffer layout.
int64_t bankConflicts(const Bases &TileSrc, const Bases &TileDst, const ConversionSwizzle &S, unsigned Dim) {
  int64_t Write = int64_t{1} << intersectionBasis(S.Segment, TileSrc, Dim).size();
  int64_t Read = int64_t{1} << intersectionBasis(S.Segment, TileDst, Dim).size();
  return (Read - 1) + (Write - 1);
}

} // namespace

ConversionSwizzle conversionSwizzle(const LinearLayout &Src, const LinearLayout &Dst, unsigned BitWidth, int Arch) {
  BitWidth = std::max(BitWidth, 1u);
  Flat FS(Src), FD(Dst);
  // getSrcDstTiles: ld/st.shared everywhere; stmatrix (sm_90) writes and
  // ldmatrix reads 32-bit rows, their .trans forms 16-bit elements.
  std::vector<MemOpTile> SrcTiles{{{}, {0, 1, 2}}}, DstTiles{{{}, {0, 1, 2}}};
  if (BitWidth <= 32) {
    if (Arch >= 90)
      SrcTiles.push_back({{0, 1}, {2, 3, 4}});
    DstTiles.push_back({{0, 1}, {2, 3, 4}});
  }
  if (BitWidth == 16) {
    if (Arch >= 90)
      SrcTiles.push_back({{2, 3, 4}, {0, 1}});
    DstTiles.push_back({{2, 3, 4}, {0, 1}});
  }
  size_t TotalBases = log2Floor(128 / std::min(BitWidth, 128u));
  std::optional<ConversionSwizzle> Best;
  int64_t BestConflicts = 0;
  for (const MemOpTile &TS : SrcTiles)
    for (const MemOpTile &TD : DstTiles) {
      if (TS.LaneContig.size() > TotalBases || TD.LaneContig.size() > TotalBases)
        continue;
      std::optional<Bases> V = swizzlingTile(FS, FD, TotalBases - TS.LaneContig.size(),
                                             TotalBases - TD.LaneContig.size(), TS.LaneContig, TD.LaneContig);
      if (!V)
        continue;
      std::optional<Bases> TileSrc = addressTile(TS, FS.Reg, FS.Lane, *V);
      std::optional<Bases> TileDst = addressTile(TD, FD.Reg, FD.Lane, *V);
      if (!TileSrc || !TileDst)
        continue;
      // ldmatrix / stmatrix on both sides keep two reps for their .x4 form.
      unsigned LeaveReps = static_cast<unsigned>(std::min(TS.LaneContig.size() + TS.LaneAddr.size() - 3,
                                                          TD.LaneContig.size() + TD.LaneAddr.size() - 3));
      ConversionSwizzle S = swizzleFor(FS, FD, BitWidth, *V, *TileSrc, *TileDst, LeaveReps);
      int64_t Conflicts = bankConflicts(*TileSrc, *TileDst, S, FS.Dim);
      // The fewest conflicts; on a tie, the most rounds.
      if (!Best || Conflicts < BestConflicts || (Conflicts == BestConflicts && S.Reps.size() > Best->Reps.size())) {
        Best = std::move(S);
        BestConflicts = Conflicts;
      }
    }
  return Best ? *Best : ldStSwizzle(FS, FD, BitWidth);
}

int64_t ConversionRounds::numel() const {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

unsigned ConversionRounds::roundOf(const Coord &C) const {
  unsigned Round = 0;
  for (size_t I = 0; I < Reps.size(); ++I)
    Round |= static_cast<unsigned>((C[Reps[I].Dim] >> Reps[I].Bit) & 1) << I;
  return Round;
}

Coord ConversionRounds::squeeze(const Coord &C) const {
  Coord Out = C;
  // Highest bit first, so the lower ones keep their places.
  for (auto It = Reps.rbegin(); It != Reps.rend(); ++It) {
    int64_t Low = (int64_t{1} << It->Bit) - 1;
    Out[It->Dim] = (Out[It->Dim] & Low) | ((Out[It->Dim] >> (It->Bit + 1)) << It->Bit);
  }
  return Out;
}

ConversionRounds conversionRounds(const LinearLayout &Src, const LinearLayout &Dst, unsigned BitWidth, int Arch) {
  ConversionRounds R;
  R.Shape = Src.Shape;
  for (int64_t Rep : conversionSwizzle(Src, Dst, BitWidth, Arch).Reps) {
    if (!isPowerOf2(Rep))
      continue; // a register basis of both sides is one bit in the layouts tessel builds
    unsigned K = log2Floor(Rep);
    for (unsigned D = 0; D < Src.rank(); ++D) {
      unsigned Bits = log2Floor(Src.Shape[D]);
      if (K < Bits) {
        R.Reps.push_back({D, K});
        break;
      }
      K -= Bits;
    }
  }
  auto Touches = [&](const std::vector<Coord> &Of) {
    for (const Coord &C : Of)
      for (const TileBit &T : R.Reps)
        if ((C[T.Dim] >> T.Bit) & 1)
          return true;
    return false;
  };
  if (Touches(Src.Lane) || Touches(Src.Warp) || Touches(Dst.Lane) || Touches(Dst.Warp))
    R.Reps.clear();
  std::sort(R.Reps.begin(), R.Reps.end(),
            [](const TileBit &A, const TileBit &B) { return A.Dim != B.Dim ? A.Dim < B.Dim : A.Bit < B.Bit; });
  for (const TileBit &T : R.Reps)
    R.Shape[T.Dim] /= 2;
  return R;
}

} // namespace tessel::codegen
