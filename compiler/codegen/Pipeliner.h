//===- Pipeliner.h - which loops are software-pipelined ---------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The decision half of Triton's software pipeliner
/// (lib/Dialect/TritonGPU/Transforms/Pipeliner/): for every `for` loop, the
/// loads whose tiles a tensor-core `tl.dot` of the same iteration reads
/// are copied from global to shared memory with `cp.async` num_stages - 1
/// iterations ahead, into a ring of num_stages - 1 buffers (one stage per
/// iteration in flight), which the dot then reads in place. On sm_90, where
/// Triton runs the dot on wgmma (wgmmaEligible), the ring has num_stages
/// buffers, as Triton's (LoopPipeline::Slots). The lowering
/// (lower/Pipeline.cpp) emits the prologue, the ring and the waits; this
/// file only says which loops and loads, and is LLVM-free.
///
/// In a loop whose dot rings are all read by wgmma, the loads that the dots'
/// operands are computed from, unmasked or with lanes cp.async's zero fill
/// gives (zeroFilled), (through ops of the body, with no
/// other load between: Triton's loadOpsToIndirectionLevel at distance 0,
/// attention backward's m and Di) get rings of num_stages - 1 stages, read
/// back at the top of the iteration in the layout their one expand_dims
/// takes them in (LoopPipeline::ringSlots). Such a load, and a tl.range
/// loop's below, is copied one element a cp.async where its access has no
/// contiguous run and an element is 4 or 8 bytes (Triton takes any load of
/// 32 bits a copy or more: lightllm's int4 zero points).
///
/// A loop written `tl.range(..., num_stages=N)` also pipelines its other
/// loads, as Triton does (fused softmax's row): each gets a row-major ring
/// of N - 1 stages that the load then reads back into its registers, where
/// `other` replaces the masked lanes (any `other`, any consumer).
///
/// A load is pipelined when all of these hold, else the loop is lowered as
/// before (never an error):
///  - num_stages >= 2 (the loop's `tl.range(..., num_stages=N)` when it gives
///    one, as in Triton, else the kernel's) and Arch >= 80;
///  - the loop may run more than once: one whose bounds differ by a constant
///    no greater than its constant step (a constexpr range shorter than its
///    block) is inlined by MLIR's scf.for canonicalization before Triton's
///    pipeliner sees it (runsAtMostOnce);
///  - its only use is operand a or b of a dot in the loop's body (not in a
///    nested region) that runs on tensor cores (dotEngine) with the
///    accumulator layout, on 16-bit operands (or 8-bit ones the dot reads
///    K-major, or 32-bit ones of a wgmma dot: a K-major ring, filled one
///    4-byte copy per element where the load runs along the other axis,
///    PipelinedLoad::SourceRun); or its uses are operands of several such dots that run on
///    wgmma, each reading the tile directly or through a 2-d tl.trans
///    (attention backward's qT and do): one ring, each dot reading its view
///    (PipelinedLoad::MoreReaders, nvmmaOf);
///  - it is not volatile, and its `other` is absent or the constant 0
///    (masked lanes then read 0: cp.async's src-size zero-fills them);
///  - its access (LayoutPlan::Access) is contiguous along the tile's
///    columns, the buffer's row-major dimension, with 4, 8 or 16 bytes per
///    vector (Triton converts no load below 4 bytes to cp.async, which is
///    why its shared-memory figure and tessel's agree without pipelining
///    when the strides are unknown), every vector starting at a multiple of
///    its width so that it stays in one 16-byte chunk of the swizzle; or,
///    for an operand of a dot tessel runs on wgmma, contiguous along the
///    tile's rows the same way (attention's k, [HEAD_DIM, BLOCK_N] read
///    from `offs_d[:, None]`): its ring then holds the transposed NVMMA
///    layout (layout/WgmmaLayout.h), which wgmma reads in the other major
///    mode (b K-major), as Triton's pipeliner does;
///  - its pointer, mask and `other` are computed in the body only by pure
///    ops (constants, shapes that stay in registers, elementwise, casts,
///    addptr, hints) from values defined before the loop, the induction
///    variable and carried values whose next value is computed the same
///    way (the tutorial's `a_ptrs += BLOCK_K * stride_ak`). Those ops (the
///    producer) are lowered again for the iterations ahead.
///
/// A load through a host descriptor TMA copies (LayoutPlan::copiedByTma)
/// is pipelined when it is a 16-bit operand of a dot tessel runs on wgmma,
/// directly or through a tl.trans (PipelinedLoad::Tma, Trans), or an fp8 or
/// fp32 operand b through a tl.trans (K-major, as wgmma reads them), and its
/// offsets are computed as above: its ring's stages are filled by TMA.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_PIPELINER_H
#define TESSEL_COMPILER_CODEGEN_PIPELINER_H

#include "compiler/codegen/LayoutAssignment.h"

#include <unordered_map>
#include <vector>

namespace tessel::ir {
class DotOp;
class ForOp;
class Function;
class LoadOp;
class Op;
} // namespace tessel::ir

namespace tessel::codegen {

/// One load copied ahead into its ring.
struct PipelinedLoad {
  const ir::LoadOp *Load = nullptr;
  /// The dot that reads the stage in place (swizzled); null for a load read
  /// back into registers (row-major stage, tl.range loops).
  const ir::DotOp *Dot = nullptr;
  /// 0: the dot's a ([M, K], Cols = K); 1: its b ([K, N], Cols = N).
  unsigned Operand = 0;
  int64_t Rows = 0, Cols = 0;
  /// Elements per cp.async (4, 8 or 16 bytes' worth).
  unsigned Vector = 1;
  /// Bytes of one stage, and of one element (2; 1 for a wgmma fp8 operand).
  uint64_t StageBytes = 0;
  unsigned ElemBytes = 2;
  /// Consecutive registers of the access that are consecutive in memory,
  /// where that is more than Vector (a tf32 ring K-major where the load runs
  /// along N, one element a copy): each copy then reads from the first
  /// element's pointer plus its distance, so one pointer a run stays live.
  unsigned SourceRun = 1;
  /// The access is contiguous along the rows (a wgmma operand only): the
  /// stage holds the tile transposed (NvmmaLayout::Transposed).
  bool Transposed = false;
  /// The layout a wgmma dot's stage is written and read in.
  NvmmaLayout nvmma() const { return NvmmaLayout::forTile(Rows, Cols, ElemBytes, Transposed); }
  /// A host-descriptor load TMA copies (LayoutPlan::copiedByTma): its stage
  /// is filled by `cp.async.bulk.tensor` copies completing on an mbarrier of
  /// the stage, in the descriptor's NVMMA layout, which the dot reads in
  /// place, as Triton's pipeliner does with descriptor loads on sm_90.
  bool Tma = false;
  /// The tl.trans between a TMA load and its dot (attention's
  /// `desc_k.load(...).T`): the dot reads the stage as the transposed
  /// operand (Transposed, Rows and Cols are the operand's).
  const ir::Op *Trans = nullptr;
  /// The value the dot reads.
  const ir::Value *operand() const;
  /// The other wgmma dots reading the same stage (Triton's pipeliner gives a
  /// load one ring for all of its dot uses: attention backward's qT, read
  /// by one dot as it is and by another through tl.trans): each reads the
  /// load's tile (Via null) or its tl.trans (Via).
  struct Reader {
    const ir::DotOp *Dot = nullptr;
    unsigned Operand = 0;
    const ir::Op *Via = nullptr;
  };
  std::vector<Reader> MoreReaders = {};
  /// Every value a dot reads from the stage: operand() first.
  std::vector<const ir::Value *> operands() const;
  /// The stage's layout as value V (one of operands()) reads it: nvmma(),
  /// or its transpose for the other view of the tile.
  NvmmaLayout nvmmaOf(const ir::Value *V) const { return V == operand() ? nvmma() : nvmma().transposed(); }
};

/// One pipelined loop.
struct LoopPipeline {
  const ir::ForOp *Loop = nullptr;
  unsigned NumStages = 3;
  /// Stage buffers per ring: NumStages - 1 (Triton's sm_80 pipeliner), or
  /// NumStages when every pipelined load feeds a dot Triton runs on wgmma
  /// (wgmmaEligible): its pipeliner keeps one more buffer because an
  /// asynchronous wgmma may still read the previous iteration's stage. The
  /// copies ahead then go into the stage the previous iteration read, which
  /// the barrier at the top of the iteration has released, so the loop needs
  /// one barrier per iteration instead of two.
  unsigned Slots = 2;
  bool extraStage() const { return Slots == NumStages; }
  /// Stages of PL's ring: Slots, but NumStages - 1 for a load read back into
  /// registers in a loop with the extra stage (attention backward's m and
  /// Di: no wgmma reads them, so Triton gives them no extra buffer). Such a
  /// ring is read at the top of the iteration, before the copies ahead
  /// refill the stage it read (lower/Pipeline.cpp).
  unsigned ringSlots(const PipelinedLoad &PL) const { return extraStage() && !PL.Dot ? NumStages - 1 : Slots; }
  std::vector<PipelinedLoad> Loads;
  /// The body's ops that compute the loads' operands and the carried
  /// values below, in body order.
  std::vector<const ir::Op *> Producer;
  /// Indices (into the loop's inits) of the carried values the producer
  /// reads; its ops also compute their next values.
  std::vector<unsigned> Carried;
};

struct PipelinePlan {
  std::unordered_map<const ir::Op *, LoopPipeline> Loops;
  /// Each pipelined load's loop (and its tl.trans's, PipelinedLoad::Trans
  /// and the readers' Via).
  std::unordered_map<const ir::Op *, const ir::ForOp *> LoadLoop;
  const LoopPipeline *loop(const ir::Op &For) const {
    auto It = Loops.find(&For);
    return It == Loops.end() ? nullptr : &It->second;
  }
  /// The plan of pipelined load Load, or of the load a pipelined tl.trans
  /// Load reads (null when it is neither).
  const PipelinedLoad *load(const ir::Op &Load) const;
};

/// Ops the producer may hold: pure, and lowered in registers only (no
/// shared memory of their own), so that lowering them again, for the
/// iterations ahead or in another layout, adds no buffer and moves no
/// shared-memory figure.
bool pureRegisterOp(const ir::Op &O);

/// Whether a cp.async copy of Ld gives its value in every lane: unmasked,
/// or masked with no `other` or +0 (src-size 0 zero-fills the masked
/// lanes), so a stage read back needs no mask.
bool zeroFilled(const ir::LoadOp &Ld);

/// The loops of F to pipeline under NumStages on Arch (see the file comment).
/// RangeLoads false: a tl.range loop's loads that feed no dot stay plain
/// loads (CodegenOptions::PipelineRangeLoads).
PipelinePlan planPipelines(const ir::Function &F, const LayoutPlan &Plan, unsigned NumWarps, int NumStages, int Arch,
                           bool RangeLoads = true);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_PIPELINER_H
