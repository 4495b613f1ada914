//===- LayoutAssignment.h - choosing each tile's layout ---------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The layout-assignment pass, Triton's Coalesce plus the cheap half of
/// RemoveLayoutConversions, over the tile IR:
///
///  1. every global memory op (load, store, atomic) gets a blocked layout
///     from its pointer's AxisInfo, as Coalesce builds it: the dimension
///     of greatest contiguity is fastest (Order), and each thread holds
///     min(alignment, 128 bits, numel / threads) consecutive elements along
///     it, where alignment = min(contiguity, divisibility / element size)
///     (so 16-byte-aligned contiguous fp32 gives 4 elements per thread and
///     one `ld.global.v4.b32`); a mask's constancy limits the vector width
///     of that access further (MemAccess::Vector);
///  2. a backward walk gives every value the layout its first consumer (in
///     reverse program order) wants: an elementwise op wants its operands
///     in its own layout, a broadcast wants the [.., 1, ..] operand in its
///     layout restricted, expand_dims wants the slice of its layout, a
///     reduction wants the parent of its result's slice; a value no
///     consumer constrains gets Triton's default blocked layout for its
///     shape; loop-carried values take the layout of the op's results.
///
/// Before the walk, every tl.dot that runs on tensor cores (usesMma) seeds
/// Triton's MMA accumulator layout (layout/MmaLayout.h) on its result and
/// accumulator, and the seed flows forward as RemoveLayoutConversions
/// propagates it: through the loop that carries the accumulator (init,
/// region argument, result), through elementwise ops and casts of the same
/// shape, and into a store of such a value, which then writes from the MMA
/// layout (pairs of consecutive elements) instead of converting the tile.
/// Seeds win over what the walk would want later.
///
/// Lowering gives each produced tile its wanted layout where the op can
/// produce any layout (elementwise, constants, arange, loads use their
/// access layout); where the producer's layout and the consumer's differ,
/// the consumer converts (through shared memory, LoweringContext::convert).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LAYOUTASSIGNMENT_H
#define TESSEL_COMPILER_CODEGEN_LAYOUTASSIGNMENT_H

#include "compiler/codegen/AxisInfo.h"
#include "compiler/codegen/layout/LinearLayout.h"

#include <unordered_map>

namespace tessel::ir {
class Function;
class Op;
class Value;
} // namespace tessel::ir

namespace tessel::codegen {

/// The layout and vector width of one global memory access.
struct MemAccess {
  BlockedLayout Blocked;
  LinearLayout Layout;
  /// Elements per vector access (1, 2, 4, 8, 16; 128 bits at most).
  unsigned Vector = 1;
};

struct LayoutPlan {
  std::unordered_map<const ir::Value *, LinearLayout> Wanted;
  std::unordered_map<const ir::Op *, MemAccess> Access;
  unsigned NumWarps = 4;
  /// The wanted layout of V (the default blocked one for values the walk
  /// did not reach).
  LinearLayout wanted(const ir::Value *V) const;
};

/// Arch is the compute capability x 10 (tensor cores from 80).
LayoutPlan assignLayouts(const ir::Function &F, unsigned NumWarps, const AxisInfoAnalysis &AI, int Arch = 0);

/// Whether Dot runs on tensor cores (`mma.sync`) on Arch: selectMma
/// (lower/MmaInstr.h) has an instruction for its operand types, precision
/// and shape.
bool usesMma(const ir::Op &Dot, int Arch);

/// Triton's default layout for a tile of Shape: blocked, one element per
/// thread along the fastest dimension, lanes and warps filled row-major.
LinearLayout defaultLayout(const std::vector<int64_t> &Shape, unsigned NumWarps);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LAYOUTASSIGNMENT_H
