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
///     shape; loop-carried values take the layout of the op's results. A
///     load that is not an anchor (fewer elements than threads) reads its
///     tile straight into the layout its consumers want, as Triton's
///     backward rematerialization redoes such a cheap load rather than
///     converting its result; a loop carrying its pointers makes them in
///     that layout (the walk runs twice where such a load exists, the
///     second time with the loops knowing their loads' layouts);
///
/// Before the walk, layouts flow forward from anchors as Triton's
/// RemoveLayoutConversions propagates them (its LayoutPropagation): every
/// tl.dot on tensor cores seeds its accumulator layout (accumulatorLayout)
/// on its result and accumulator, then every load or atomic with at least
/// one element per thread (Triton's "expensive" memory ops) its coalesced
/// layout on its result. A seed flows through the loop that carries the
/// value (init, region argument, result), elementwise ops and casts of the
/// same shape, a reduction (its result takes the slice of the layout) and
/// expand_dims; an accumulator layout also into a store, which then writes
/// from it (pairs of consecutive elements) instead of converting the tile.
/// Where two seeds meet, the first to arrive stays: dots before memory ops
/// (Triton keeps an MMA layout over a blocked one), later memory ops before
/// earlier ones (Triton's propagation order). Seeds win over what the walk
/// would want later. So a reduction takes its operand in the layout the
/// operand was loaded in (layer norm's row sums, softmax's row max): only
/// the partials of each warp go through shared memory, as in Triton.
///
/// Lowering gives each produced tile its wanted layout where the op can
/// produce any layout (elementwise, constants, arange, loads use their
/// access layout); where the producer's layout and the consumer's differ,
/// the consumer converts (through shared memory, LoweringContext::convert).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LAYOUTASSIGNMENT_H
#define TESSEL_COMPILER_CODEGEN_LAYOUTASSIGNMENT_H

#include "compiler/codegen/AxisInfo.h"
#include "compiler/codegen/CombineDotAdd.h"
#include "compiler/codegen/layout/LinearLayout.h"
#include "compiler/codegen/layout/WgmmaLayout.h"

#include <set>
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

/// The unit tessel runs a tl.dot on.
enum class DotEngine {
  Fma,     ///< FMA units (lower/Dot.cpp)
  MmaSync, ///< `mma.sync` (lower/DotMma.cpp)
  Wgmma,   ///< `wgmma.mma_async`, sm_90a (lower/DotWgmma.cpp)
};

/// The engine of Dot on Arch: wgmma where Wgmma (an sm_90a target, unless
/// TESSEL_WGMMA=0) is set, Triton would take it (wgmmaEligible) and the operands
/// are fp16, bf16, fp8 or fp32 at tf32 precision with an fp32 result, or
/// int8 with an int32 one (what DotWgmma.cpp lowers);
/// otherwise mma.sync where usesMma; else the FMA units.
DotEngine dotEngine(const ir::Op &Dot, int Arch, unsigned NumWarps, bool Wgmma);

struct LayoutPlan {
  std::unordered_map<const ir::Value *, LinearLayout> Wanted;
  std::unordered_map<const ir::Op *, MemAccess> Access;
  unsigned NumWarps = 4;
  int Arch = 0;
  /// wgmma allowed (CodegenOptions::Wgmma on an sm_90a target).
  bool Wgmma = false;
  DotEngine engine(const ir::Op &Dot) const { return dotEngine(Dot, Arch, NumWarps, Wgmma); }
  /// The dots whose result reaches another dot through its uses (Triton's
  /// chained dots, attention's q·k: wgmmaShape's Chained).
  std::set<const ir::Op *> ChainedDots;
  /// The adds folded into their dot (Triton's CombineDotAdd patterns): a
  /// tensor-core dot seeds its layout on what it accumulates into.
  DotAddCombine Combine;
  /// The host descriptors whose accesses are TMA copies (TmaDescriptors.h):
  /// such an access has no mask (its block is read and written whole) and
  /// is never a cp.async.
  std::set<const ir::Value *> TmaBases;
  bool copiedByTma(const ir::Op &Access) const;
  /// The mask that limits Access's vectors: its mask, none for a TMA copy.
  const ir::Value *accessMask(const ir::Op &Access) const;
  /// Dot's warpgroups and instruction on wgmma.
  WgmmaShape wgmmaShapeOf(const ir::Op &Dot) const;
  /// Whether a wgmma Dot reads operand a from registers: Triton 3.6's
  /// AccelerateMatmul keeps a in registers (a convert to its dot-operand
  /// layout) unless it comes, through tl.trans, from a load or a block
  /// argument (comesFromLoadOrBlockArg); such an a is staged in shared
  /// memory.
  bool aInRegisters(const ir::Op &Dot) const;
  /// The accumulator layout of a tensor-core Dot ([M, N]) on its engine:
  /// layout/MmaLayout.h's for mma.sync, layout/WgmmaLayout.h's for wgmma.
  LinearLayout accumulatorLayout(const ir::Op &Dot) const;
  /// The wanted layout of V (the default blocked one for values the walk
  /// did not reach).
  LinearLayout wanted(const ir::Value *V) const;
};

/// Arch is the compute capability x 10 (tensor cores from 80); Wgmma allows
/// wgmma (dotEngine); TmaBases become the plan's. StoreFromAccumulator: a
/// store of a dot's result writes from the accumulator layout; false, it
/// keeps its coalesced layout and the value is converted (Triton's anchor:
/// an expensive store keeps its layout; CodegenOptions::TritonEpilogue).
LayoutPlan assignLayouts(const ir::Function &F, unsigned NumWarps, const AxisInfoAnalysis &AI, int Arch = 0,
                         bool Wgmma = false, std::set<const ir::Value *> TmaBases = {},
                         bool StoreFromAccumulator = true);

/// Whether Dot runs on tensor cores (`mma.sync`) on Arch: selectMma
/// (lower/MmaInstr.h) has an instruction for its operand types, precision
/// and shape.
bool usesMma(const ir::Op &Dot, int Arch);

/// Whether Triton 3.6 lowers Dot with wgmma (its MMA v3) on Arch with
/// NumWarps warps: supportMMA(dot, 3)'s conditions (sm_90+, whole
/// warpgroups, M a multiple of 64 and N of 8, K at least 256 bits of the
/// operand type, fp16 / bf16 / fp8 / int8 / tf32 operands, and fp8 with an
/// fp32 result only when max_num_imprecise_acc is unset or at least 32).
/// Triton's pipeliner gives such a dot's operand rings one more stage (the
/// asynchronous wgmma may still read the previous one), so this decides the
/// shared-memory figure whether or not tessel emits wgmma itself.
bool wgmmaEligible(const ir::Op &Dot, int Arch, unsigned NumWarps);

/// Triton's default layout for a tile of Shape: blocked, one element per
/// thread along the fastest dimension, lanes and warps filled row-major.
LinearLayout defaultLayout(const std::vector<int64_t> &Shape, unsigned NumWarps);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LAYOUTASSIGNMENT_H
