//===- LinearLayout.h - which thread holds which tile element ---*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A tile of the tile IR lives in the registers of a CTA's threads. A
/// *layout* says which element of the tile each register of each thread
/// holds. tessel describes every layout the way Triton's LinearLayout does,
/// because then lowering never switches on the layout's kind: it asks the
/// layout for coordinates.
///
/// Tutorial. A thread of the CTA is (lane, warp): lane in 0..31, warp in
/// 0..NumWarps-1; each thread holds NumRegs registers, r in 0..NumRegs-1.
/// Every tile dimension is a power of two (Triton requires it), and so are
/// the counts of registers, lanes and warps. A linear layout gives one
/// *basis vector* (a coordinate, one entry per tile dimension) for every
/// bit of r, of lane and of warp; the element held by register r of thread
/// (lane, warp) is the XOR of the basis vectors of the bits set in r, lane
/// and warp:
///
///     coord(r, lane, warp) = XOR_{i: bit i of r} Reg[i]
///                          ^ XOR_{i: bit i of lane} Lane[i]
///                          ^ XOR_{i: bit i of warp} Warp[i]
///
/// Example: a [8] fp32 tile, Triton's blocked layout sizePerThread=[2],
/// threadsPerWarp=[32], warpsPerCTA=[1]. Register bit 0 steps one element
/// (Reg = {[1]}), lane bits 0 and 1 step 2 and 4 (Lane = {[2], [4], [0],
/// [0], [0]}): lanes 0..3 hold elements {0,1}, {2,3}, {4,5}, {6,7}; the
/// zero vectors of lane bits 2..4 mean lanes 4..31 hold copies of lanes
/// 0..3 (the tile is *replicated*). The table:
///
///     lane:   0    1    2    3    4    5 ...
///     r=0:    0    2    4    6    0    2
///     r=1:    1    3    5    7    1    3
///
/// What falls out of the form:
///  - a thread owns an element (is the one that stores it or performs its
///    atomic) when every lane and warp bit it has set has a non-zero basis:
///    replicated threads are exactly the ones with a zero-basis bit set;
///  - reducing along dimension k combines, in order, the registers whose
///    bases move k (in the thread), then the lanes whose bases move k
///    (butterfly shuffles, one per such lane bit), then the warps (through
///    shared memory); the result's layout is this one with k removed
///    (Triton's SliceEncoding of the parent, `sliceLayout` below);
///  - broadcasting a [M, 1] tile to [M, N] in registers needs the operand
///    in the result's layout with dimension 1 cut to size 1 (`restrict`);
///  - two layouts that are equal as data need no conversion, whatever
///    encoding they came from; any other conversion goes through shared
///    memory (every thread writes its registers at their row-major index,
///    then reads the ones the new layout gives it).
///
/// Encodings (Triton's, TritonGPUAttrDefs.td) are plain structs with one
/// conversion each: BlockedLayout (toLinear), a slice of a parent
/// (sliceLayout), and SharedLayout (the row-major unswizzled scratch the
/// conversions use; its offset function is the row-major index).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LAYOUT_LINEARLAYOUT_H
#define TESSEL_COMPILER_CODEGEN_LAYOUT_LINEARLAYOUT_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::codegen {

using Coord = std::vector<int64_t>;

/// Register/lane/warp bits to tile coordinates (the tutorial above).
struct LinearLayout {
  /// The tile's shape; empty for a scalar (one register, every thread).
  std::vector<int64_t> Shape;
  std::vector<Coord> Reg;
  std::vector<Coord> Lane; ///< always 5 bases (32 lanes)
  std::vector<Coord> Warp; ///< log2(NumWarps) bases

  unsigned numRegs() const { return 1u << Reg.size(); }
  unsigned rank() const { return static_cast<unsigned>(Shape.size()); }
  /// The register part of the coordinate of register R.
  Coord regCoord(unsigned R) const;
  /// The coordinate of register R of thread (Lane, Warp).
  Coord coord(unsigned R, unsigned LaneId, unsigned WarpId) const;
  /// How far register R's element lies from register 0's of the same
  /// thread under Offset (a buffer's element offset of a coordinate), where
  /// that distance is the same for every thread; nullopt elsewhere (a
  /// swizzle that moves R's element differently per thread). Then R's
  /// address is register 0's plus a constant. Offset defaults to the
  /// tile's row-major order.
  std::optional<int64_t> regOffset(unsigned R, const std::function<int64_t(const Coord &)> &Offset = {}) const;
  /// Whether thread (Lane, Warp) owns its elements (no replicated bit set).
  bool owns(unsigned LaneId, unsigned WarpId) const;
  /// How many consecutive registers, from every multiple of the count, hold
  /// consecutive elements along Dim (the vector width a load can use).
  unsigned contiguousRegs(unsigned Dim) const;
  /// "reg=[[1]] lane=[[2],[4],[0],[0],[0]] warp=[]", for tests and dumps.
  std::string str() const;
  friend bool operator==(const LinearLayout &A, const LinearLayout &B) {
    return A.Shape == B.Shape && A.Reg == B.Reg && A.Lane == B.Lane && A.Warp == B.Warp;
  }
};

/// The largest L with 2^L <= V (0 for V <= 1): bit counts of the power-of-two
/// sizes layouts are built from.
unsigned log2Floor(int64_t V);

/// The layout of a scalar (0-d tile): every thread holds it in one register.
LinearLayout scalarLayout(unsigned NumWarps);

/// Triton's BlockedEncodingAttr.
struct BlockedLayout {
  std::vector<unsigned> SizePerThread;
  std::vector<unsigned> ThreadsPerWarp;
  std::vector<unsigned> WarpsPerCTA;
  /// Dimensions from the fastest-varying (contiguous) to the slowest.
  std::vector<unsigned> Order;
  std::string str() const;
  friend bool operator==(const BlockedLayout &, const BlockedLayout &) = default;
};

/// Triton's getDefaultBlockedEncoding: SizePerThread as given (1s when
/// empty), then lanes and warps assigned along Order, fastest first, as
/// far as Shape lets them (the rest go to the slowest dimension).
BlockedLayout defaultBlocked(const std::vector<int64_t> &Shape, unsigned NumWarps,
                             std::vector<unsigned> SizePerThread = {}, std::vector<unsigned> Order = {});

/// The blocked encoding over Shape as a linear layout: registers within a
/// thread first (along Order), then lanes, then warps, then the repetitions
/// of the CTA tile over larger shapes (more registers). Bases that step
/// beyond Shape become zero (replication); zero register bases are dropped.
LinearLayout toLinear(const BlockedLayout &B, const std::vector<int64_t> &Shape);

/// Triton's SliceEncodingAttr: Parent with dimension Dim removed (what a
/// reduction along Dim leaves). Register bases that only moved Dim vanish.
LinearLayout sliceLayout(const LinearLayout &Parent, unsigned Dim);

/// Parent with dimension Dim set to size 1: every basis loses its Dim part
/// (register bases that then vanish are dropped). The layout of the [.., 1,
/// ..] operand of a broadcast to Parent's shape, read in registers.
/// RegMap, when given, receives for each register of Parent the register of
/// the result that holds its element.
LinearLayout restrictLayout(const LinearLayout &Parent, unsigned Dim, std::vector<unsigned> *RegMap = nullptr);

/// The layout whose Dim is a new dimension of size 1 inserted into L (the
/// result of expand_dims of a tile in layout L).
LinearLayout insertDim(const LinearLayout &L, unsigned Dim);

/// L over NewShape (same element count): every basis keeps its row-major
/// element index. A reshape that keeps the order (Triton's inferred reshape
/// encoding) is then free: the same registers, reinterpreted.
LinearLayout reshapeLayout(const LinearLayout &L, const std::vector<int64_t> &NewShape);

/// L with its dimensions permuted: result dimension I is L's dimension
/// Order[I] (tl.permute / tl.trans move no data).
LinearLayout permuteLayout(const LinearLayout &L, const std::vector<int64_t> &Order);

/// Triton's SharedEncodingAttr, in the one form tessel uses so far: row
/// major, no swizzle. offset() is the element index into the scratch.
struct SharedLayout {
  std::vector<int64_t> Shape;
  int64_t offset(const Coord &C) const;
  int64_t numel() const;
};

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LAYOUT_LINEARLAYOUT_H
