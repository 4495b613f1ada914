//===- ConversionSwizzle.h - Triton's shared memory for a conversion -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// How Triton 3.6 lays out the shared memory of a layout conversion that
/// cannot stay in registers (lib/Tools/GenericSwizzling.cpp,
/// optimalSwizzling and optimalSwizzlingLdSt), as far as its size depends on
/// it.
///
/// Triton works on the tile flattened to one dimension, dimension 0 the
/// most minor (LinearLayout::flattenOuts), so every basis of a layout is an
/// integer: the flattened index of its coordinate. The buffer's own layout
/// splits the flattened index bits into four groups:
///  - vector: bits that are registers of both layouts (one vectorised
///    ld/st.shared moves them), at most 128 bits' worth;
///  - bank: the bits that spread one access over the 32 banks;
///  - segment: the rest of the tile, chosen to avoid bank conflicts (bits
///    neither side's lanes touch first, then XORs pairing the two sides'
///    own lane bits);
///  - reps: the segment bits that are registers of both layouts. Triton does
///    not give them shared memory: the conversion runs once per value of
///    those bits, each round writing and reading the registers that have
///    it, so the buffer is the tile over 2^reps (getNumScratchElemsSwizzledCvt).
///
/// tessel's conversion uses Triton's size and rounds (the rep bits) with its
/// own address swizzle (LoweringContext::convertSwizzled).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LAYOUT_CONVERSIONSWIZZLE_H
#define TESSEL_COMPILER_CODEGEN_LAYOUT_CONVERSIONSWIZZLE_H

#include "compiler/codegen/layout/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace tessel::codegen {

/// One bit of a tile coordinate: bit Bit of dimension Dim.
struct TileBit {
  unsigned Dim = 0;
  unsigned Bit = 0;
  friend bool operator==(const TileBit &, const TileBit &) = default;
};

/// The groups of flattened index bases of Triton's buffer for a conversion.
struct ConversionSwizzle {
  std::vector<int64_t> Vector;
  std::vector<int64_t> Bank;
  std::vector<int64_t> Segment; ///< without the reps
  std::vector<int64_t> Reps;
};

/// Triton's buffer layout for converting Src to Dst (same shape, power-of-two
/// dimensions) with elements of BitWidth bits in shared memory, on compute
/// capability Arch (x10), one CTA: the NVIDIA backend's choice
/// (getNvidiaAllocationAnalysisScratchSizeFn): every pair of a write
/// instruction (st.shared, and stmatrix from sm_90) and a read instruction
/// (ld.shared, ldmatrix) whose tiles fit both layouts, the one with the
/// fewest bank conflicts and then the most reps; optimalSwizzlingLdSt where
/// none fits. The bank bases are in Triton's order before its final
/// reordering of them, which changes no size.
ConversionSwizzle conversionSwizzle(const LinearLayout &Src, const LinearLayout &Dst, unsigned BitWidth, int Arch);

/// A conversion's buffer: the tile without Triton's rep bits, written and
/// read once per value of them (a round).
struct ConversionRounds {
  /// The tile's shape, each dimension halved once per rep bit it has.
  std::vector<int64_t> Shape;
  /// The rep bits, by dimension, then bit, ascending.
  std::vector<TileBit> Reps;
  unsigned count() const { return 1u << Reps.size(); }
  int64_t numel() const;
  /// The round of the element at C: its rep bits, in Reps' order.
  unsigned roundOf(const Coord &C) const;
  /// C without its rep bits: its coordinate in Shape.
  Coord squeeze(const Coord &C) const;
};

/// Triton's rounds for converting Src to Dst. Each rep bit is one coordinate
/// bit that both layouts hold in a register; where a lane or warp basis of
/// either touches it (then a register's round would depend on the thread),
/// the conversion takes the whole tile in one round.
ConversionRounds conversionRounds(const LinearLayout &Src, const LinearLayout &Dst, unsigned BitWidth, int Arch);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LAYOUT_CONVERSIONSWIZZLE_H
