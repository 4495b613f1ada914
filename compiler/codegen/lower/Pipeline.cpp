//===- Pipeline.cpp - software-pipelined loops with cp.async --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A loop the pipeliner chose (Pipeliner.h) as Triton's sm_80 pipeliner
/// lowers it, with S = num_stages and one ring of S - 1 stage buffers per
/// pipelined load (row major, swizzled as DotMma reads its operands):
///
///   prologue: for j in 0 .. S-2: the producer at iteration j, cp.async of
///             each load into stage j, commit_group
///   loop i:   cp.async.wait_group S-2; barrier   (iteration i has landed:
///             of the i + S - 1 groups committed, the newest S - 2 may fly)
///             the body, the dot reading its operands from stage i % (S-1)
///             barrier                             (every warp has read it)
///             the producer at iteration i + S - 1, cp.async into the same
///             stage, commit_group; the stage index advances
///   exit:     cp.async.wait_group 0 (nothing in flight once the ring closes)
///
/// A wgmma operand's stage is in the NVMMA layout, transposed where the
/// access runs along the tile's rows (PipelinedLoad::Transposed: the
/// copies stay 16 bytes wide, and DotWgmma reads the stage in the other
/// major mode).
///
/// With S stage buffers (LoopPipeline::extraStage, the rings Triton keeps on
/// sm_90 for wgmma) the copies of iteration i + S - 1 go into stage
/// (i - 1) % S, which every warp finished reading before the barrier at the
/// top of iteration i; they are issued right after that barrier, before the
/// body, and the second barrier goes away. Where the body's wgmma dot leaves
/// its group in flight (asyncDot; TESSEL_WGMMA_PENDING=0 turns it off), the stage
/// (i - 1) % S is still being read at the top of iteration i: the copies go
/// after the dot's `wait_group 1` and a second barrier, as in Triton's loop,
/// and the exit waits for the last group. The loop-invariant operands of
/// the body's wgmma dots (attention's q) are written to a buffer of their
/// own before the prologue, once (invariantOperands).
///
/// A load through a host descriptor TMA copies (PipelinedLoad::Tma) has a
/// ring in the descriptor's NVMMA layout and an mbarrier per stage: thread 0
/// arms the stage's barrier with the block's bytes and the copies go out
/// as outside loops (Tma.cpp's tmaCopyBlock); the body waits on the stage's
/// barrier at the ring's phase (flipping as the stage index wraps) where the
/// load stands in the body (LoweringContext::StageWaits), so the rest of
/// the loop is the same.
///
/// The copies of iteration j copy 0 bytes where j is past the loop's end
/// (the producer runs past it, but never reads memory there) or the lane is
/// masked: src-size 0, so cp.async zero-fills the stage (the load's `other`
/// is 0), as Triton's copies. 16-byte copies are `cp.async.cg` (L2 only, as
/// Triton), 4- and 8-byte ones `cp.async.ca`. A load that feeds no dot (a
/// tl.range loop's) has a row-major stage and reads it back into its
/// registers where the load stood, `other` selected in the masked lanes. The producer's carried values
/// run S - 1 iterations ahead in phis of their own; the body's are
/// untouched, so the body computes exactly what the unpipelined loop does
/// and reads the same bytes.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/Pipeliner.h"
#include "compiler/codegen/layout/MmaLayout.h"
#include "compiler/codegen/layout/WgmmaLayout.h"
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace tessel::codegen {

namespace {
struct Ring {
  unsigned Id = 0;
  uint64_t StageBytes = 0;
  /// A TMA ring's mbarriers, one per stage (8 bytes each), and its map.
  std::optional<unsigned> Barriers;
  const TmaDescriptor *Tma = nullptr;
  /// A ring of NumStages - 1 stages read back at the top of an iteration of
  /// a loop with the extra stage (LoopPipeline::ringSlots): its copies ahead
  /// refill the stage this iteration read, after a barrier.
  bool Late = false;
};

/// The mbarrier of stage Slot (i32) of a TMA ring.
llvm::Value *stageBarrier(LoweringContext &C, const Ring &R, llvm::Value *Slot) {
  return C.B.CreateGEP(C.B.getInt8Ty(), C.sharedBase(*R.Barriers), {C.B.CreateMul(Slot, C.i32(8))});
}

bool anyCpAsync(const LoopPipeline &LP) {
  return std::any_of(LP.Loads.begin(), LP.Loads.end(), [](const PipelinedLoad &PL) { return !PL.Tma; });
}

/// Whether PL's stage is read by wgmma: then it is in the NVMMA layout, and
/// the tensor cores read it through the async proxy.
bool wgmmaStage(const LoweringContext &C, const PipelinedLoad &PL) {
  return PL.Dot && C.Plan.engine(*PL.Dot) == DotEngine::Wgmma;
}

/// Element offset of (Row, Col) in a stage mma.sync reads: DotMma's
/// swizzled staging, row major, or [N, K] for a transposed (8-bit) b.
llvm::Value *ringSwizzle(LoweringContext &C, const PipelinedLoad &PL, llvm::Value *Row, llvm::Value *Col) {
  if (PL.Transposed)
    return mmaSwizzle(C, Col, Row, PL.Rows, PL.ElemBytes);
  return mmaSwizzle(C, Row, Col, PL.Cols, PL.ElemBytes);
}

/// Element index of register R's element of L in PL's stage (i32): NVMMA
/// for a wgmma operand, ringSwizzle for an mma.sync one, else row major.
llvm::Value *stageIndex(LoweringContext &C, const PipelinedLoad &PL, const std::optional<NvmmaLayout> &Nvmma,
                        const LinearLayout &L, unsigned R) {
  if (Nvmma)
    return nvmmaOffset(C, *Nvmma, C.coord(L, R, 0), C.coord(L, R, 1));
  if (PL.Dot)
    return ringSwizzle(C, PL, C.coord(L, R, 0), C.coord(L, R, 1));
  return C.linearIndex(L, R);
}

/// stageIndex's numeric twin: the element index of a coordinate in PL's
/// stage; empty for the row-major stage (LinearLayout::regOffset's default).
std::function<int64_t(const Coord &)> stageOffset(const PipelinedLoad &PL, const std::optional<NvmmaLayout> &Nvmma) {
  if (Nvmma)
    return [N = *Nvmma](const Coord &X) { return N.offset(X[0], X[1]); };
  if (PL.Dot)
    return [&PL](const Coord &X) {
      return PL.Transposed ? swizzledOffset(X[1], X[0], PL.Rows, PL.ElemBytes)
                           : swizzledOffset(X[0], X[1], PL.Cols, PL.ElemBytes);
    };
  return {};
}

/// The base of stage Slot (i32) of R.
llvm::Value *stageBase(LoweringContext &C, const Ring &R, llvm::Value *Slot) {
  return C.B.CreateGEP(C.B.getInt8Ty(), C.sharedBase(R.Id), {C.B.CreateMul(Slot, C.i32(R.StageBytes))});
}

/// The layout the producer carries value K (an index into the inits) in:
/// that of the access of a pipelined load whose pointer it is (so that the
/// copies read it without conversion), else the plan's.
LinearLayout stateLayout(LoweringContext &C, const LoopPipeline &LP, unsigned K) {
  const ir::Value *Arg = LP.Loop->body()->argument(1 + K);
  for (const PipelinedLoad &PL : LP.Loads)
    if (PL.Load->ptr() == Arg)
      return C.Plan.Access.at(PL.Load).Layout;
  return C.wanted(Arg);
}

/// Lowers LP's producer for the iteration with induction value Iv and the
/// producer's carried values State (in LP.Carried's order); the next
/// carried values are computed in State's layouts.
void runProducer(LoweringContext &C, const LoopPipeline &LP, llvm::Value *Iv, const std::vector<Tile> &State) {
  const ir::Block *Body = LP.Loop->body();
  const ir::Op *Y = Body->terminator();
  C.set(Body->argument(0), C.scalarTile(Iv));
  std::vector<const ir::Value *> Overridden;
  for (size_t K = 0; K < LP.Carried.size(); ++K) {
    C.set(Body->argument(1 + LP.Carried[K]), State[K]);
    const ir::Value *Next = Y->operand(LP.Carried[K]);
    if (Next->definingOp() && Next->definingOp()->parentBlock() == Body && !C.WantedOverride.count(Next)) {
      C.WantedOverride[Next] = State[K].Layout;
      Overridden.push_back(Next);
    }
  }
  for (const ir::Op *O : LP.Producer)
    C.lowerOp(*O);
  for (const ir::Value *V : Overridden)
    C.WantedOverride.erase(V);
}

/// The producer's carried values of the next iteration (after runProducer).
std::vector<Tile> nextState(LoweringContext &C, const LoopPipeline &LP, const std::vector<Tile> &State) {
  const ir::Op *Y = LP.Loop->body()->terminator();
  std::vector<Tile> Out;
  for (size_t K = 0; K < LP.Carried.size(); ++K)
    Out.push_back(C.getAs(Y->operand(LP.Carried[K]), State[K].Layout));
  return Out;
}

/// One commit group: every pipelined load of the producer's iteration into
/// stage Slot (LateSlot for a late ring), when Valid (i1) says that
/// iteration runs.
void issueCopies(LoweringContext &C, const LoopPipeline &LP, const std::vector<Ring> &Rings, llvm::Value *RingSlot,
                 llvm::Value *LateSlot, llvm::Value *Valid) {
  llvm::IRBuilderBase &B = C.B;
  for (size_t I = 0; I < LP.Loads.size(); ++I) {
    const PipelinedLoad &PL = LP.Loads[I];
    llvm::Value *Slot = Rings[I].Late ? LateSlot : RingSlot;
    if (PL.Tma) {
      std::vector<llvm::Value *> Offsets;
      for (const ir::Value *V : PL.Load->descriptorOffsets())
        Offsets.push_back(C.get(V).Regs[0]);
      tmaCopyBlock(C, *Rings[I].Tma, Offsets, stageBase(C, Rings[I], Slot), stageBarrier(C, Rings[I], Slot), Valid);
      continue;
    }
    const LinearLayout &L = C.Plan.Access.at(PL.Load).Layout;
    ElemType E = PL.Load->result()->type().Elem;
    Tile Ptr = C.getAs(PL.Load->ptr(), L);
    std::optional<Tile> Mask;
    if (PL.Load->mask())
      Mask = C.getAs(PL.Load->mask(), L);
    llvm::Value *Base = stageBase(C, Rings[I], Slot);
    unsigned ElemBytes = static_cast<unsigned>(C.memType(E)->getPrimitiveSizeInBits() / 8);
    unsigned Bytes = PL.Vector * ElemBytes;
    auto *Always = llvm::dyn_cast<llvm::ConstantInt>(Valid);
    std::optional<NvmmaLayout> Nvmma;
    if (wgmmaStage(C, PL))
      Nvmma = PL.nvmmaOf(PL.Load->result()); // the copies write the load's tile
    std::function<int64_t(const Coord &)> Numeric = stageOffset(PL, Nvmma);
    for (unsigned G = 0; G < L.numRegs(); G += PL.Vector) {
      // Where a copy's element lies at the same distance from register 0's
      // in every thread (a row-major stage; a swizzled one, NVMMA or
      // mma.sync's, whose phase the register does not change), it is
      // written at register 0's address plus that constant, spelled in the
      // instruction: the stage's copies share one address register (inline
      // asm hides the sum from the back end, which would fold it for a plain
      // store), where computing each address apart kept one per copy live
      // across the loop (fused softmax: +17 registers over Triton's).
      std::optional<int64_t> Offset = L.regOffset(G, Numeric);
      llvm::Value *Idx = stageIndex(C, PL, Nvmma, L, Offset ? 0 : G);
      // The source: the first pointer of G's run in memory plus G's
      // distance from it (PipelinedLoad::SourceRun).
      unsigned Run0 = G & ~(PL.SourceRun - 1);
      std::string Asm = std::string("cp.async.") + (Bytes == 16 ? "cg" : "ca") + ".shared.global [ $0 + " +
                        std::to_string(Offset ? *Offset * ElemBytes : 0) + " ], [ $1 + " +
                        std::to_string((G - Run0) * ElemBytes) + " ], " + std::to_string(Bytes) + ", $2;";
      // An iteration past the loop's end copies nothing: src-size 0, as
      // Triton folds it, not a predicate on the copy. The size then depends
      // on the iteration, so it is computed beside the copy and only the
      // masks' predicates stay live across the loop; a loop-invariant size
      // per copy (the mask's alone) was hoisted and kept one register each.
      llvm::Value *Copied = Always && Always->isOne() ? nullptr : Valid;
      if (Mask)
        Copied = Copied ? B.CreateAnd(Copied, Mask->Regs[G]) : Mask->Regs[G];
      llvm::Value *Size = Copied ? B.CreateSelect(Copied, C.i32(Bytes), C.i32(0)) : C.i32(Bytes);
      // A shared address is 32 bits (codegen::NVPTXDataLayout): "r".
      C.inlineAsm(B.getVoidTy(), Asm, "r,l,r,~{memory}", {C.sharedElement(Base, E, Idx), Ptr.Regs[Run0], Size});
    }
  }
  if (anyCpAsync(LP))
    C.inlineAsm(B.getVoidTy(), "cp.async.commit_group;", "~{memory}", {});
}

void waitGroups(LoweringContext &C, unsigned Pending) {
  C.inlineAsm(C.B.getVoidTy(), "cp.async.wait_group " + std::to_string(Pending) + ";", "~{memory}", {});
}

/// A pipelined load that is no dot operand: its tile read back from this
/// iteration's stage (where each register's element sits at its row-major
/// index), `other` in the masked lanes (cp.async zero-filled them: nothing
/// to select where `other` is +0 or absent, zeroFilled).
void readBack(LoweringContext &C, const ir::LoadOp &Ld, const PipelinedLoad &PL,
              const std::optional<LinearLayout> &In = std::nullopt) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &Access = C.Plan.Access.at(&Ld).Layout;
  // Another layout than the copies' is read one element at a time.
  const LinearLayout &L = In ? *In : Access;
  const unsigned Vector = L == Access ? PL.Vector : 1;
  ElemType E = Ld.result()->type().Elem;
  llvm::Type *MemTy = C.memType(E);
  llvm::Value *Stage = C.stagedOperand(Ld.result());
  C.setStagedOperand(Ld.result(), nullptr); // its consumers take the registers
  std::optional<Tile> Mask, Other;
  if (!zeroFilled(Ld)) {
    Mask = C.getAs(Ld.mask(), L);
    Other = C.getAs(Ld.other(), L);
  }
  unsigned Bytes = static_cast<unsigned>(MemTy->getPrimitiveSizeInBits() / 8);
  auto *VT = llvm::FixedVectorType::get(MemTy, Vector);
  Tile Out{L, {}};
  for (unsigned G = 0; G < L.numRegs(); G += Vector) {
    llvm::Value *Ptr = C.sharedElement(Stage, E, C.linearIndex(L, G));
    llvm::Value *V = B.CreateAlignedLoad(VT, Ptr, llvm::Align(Vector * Bytes));
    for (unsigned I = 0; I < Vector; ++I) {
      llvm::Value *R = C.fromMem(B.CreateExtractElement(V, C.i32(I)), E);
      // The mask is constant over the vector (its width was bounded by the
      // mask's constancy, as the copy's src-size is): one predicate per
      // vector, as Triton's, instead of one compare per element kept live
      // across the loop.
      if (Mask)
        R = B.CreateSelect(Mask->Regs[G], R, Other->Regs[G + I]);
      Out.Regs.push_back(R);
    }
  }
  C.set(Ld.result(), std::move(Out));
}

/// The layout the body takes a late ring's tile in when its one use is an
/// expand_dims (attention backward's `m[None, :]`): the expansion's slice,
/// read straight from the stage, as Triton's local_load into the consumer's
/// layout, instead of converted through shared memory afterwards.
std::optional<LinearLayout> lateReadLayout(LoweringContext &C, const ir::Block &Body, const ir::LoadOp &Ld) {
  const ir::Op *User = nullptr;
  for (const auto &O : Body.ops())
    for (const ir::Value *V : O->operands())
      if (V == Ld.result()) {
        if (User)
          return std::nullopt;
        User = O.get();
      }
  const auto *E = User ? ir::dyn_cast<ir::ExpandDimsOp>(User) : nullptr;
  if (!E || Ld.result()->type().Shape.empty())
    return std::nullopt;
  return sliceLayout(C.wanted(E->result()), static_cast<unsigned>(E->axis()));
}

/// Uses of V by the ops of Blk and of their regions.
unsigned usesIn(const ir::Block &Blk, const ir::Value *V) {
  unsigned N = 0;
  for (const auto &Op : Blk.ops()) {
    N += static_cast<unsigned>(std::count(Op->operands().begin(), Op->operands().end(), V));
    for (const auto &R : Op->regions())
      N += usesIn(*R, V);
  }
  return N;
}

bool hasDot(const ir::Block &Blk) {
  for (const auto &Op : Blk.ops()) {
    if (Op->kind() == ir::OpKind::Dot)
      return true;
    for (const auto &R : Op->regions())
      if (hasDot(*R))
        return true;
  }
  return false;
}

/// The wgmma dot of a pipelined loop whose group may stay in flight into
/// the next iteration (Triton's pendings = 1), and the carried position K
/// of its accumulator. Only the next iteration's wgmma may read the
/// accumulator registers before they are waited for, and no operand buffer
/// may be rewritten while a group reads it, so: the only dot of the body,
/// at its top level, on wgmma, both operands read from the rings (whose
/// stage is refilled only after the next dot's wait and a barrier), its
/// value (or the add it was folded into, CombineDotAdd.h) used only by the
/// yield at K, and it accumulates into the body's argument K, which nothing
/// else reads.
///
/// Or Triton's attention loop (chainedAsyncDot): the group of the body's
/// last dot stays in flight into the next iteration, whose first dot's
/// wait (wait_group 0) completes it; Drain is that first dot and Acc the
/// carried accumulator whose registers pass through its wait.
struct AsyncDot {
  const ir::DotOp *Dot = nullptr;
  unsigned K = 0;
  const ir::DotOp *Drain = nullptr;
  const ir::Value *Acc = nullptr;
};

/// The dots of Body in order, all at its top level; nullopt when a region
/// of one of its ops holds one.
std::optional<std::vector<const ir::DotOp *>> topLevelDots(const ir::Block &Body) {
  std::vector<const ir::DotOp *> Dots;
  for (const auto &Op : Body.ops()) {
    if (const auto *D = ir::dyn_cast<ir::DotOp>(Op.get()))
      Dots.push_back(D);
    for (const auto &R : Op->regions())
      if (hasDot(*R))
        return std::nullopt;
  }
  return Dots;
}

/// The carried position K whose next value is Dot's (or the add it was
/// folded into, CombineDotAdd.h), when that value and the dot's own are
/// each used once in the body (by the yield); nullopt otherwise.
std::optional<unsigned> carriedSum(const LoweringContext &C, const ir::ForOp &O, const ir::DotOp &Dot) {
  const ir::Block &Body = *O.body();
  const ir::Value *Result = Dot.result();
  for (const auto &Op : Body.ops())
    if (C.Plan.Combine.foldedDot(*Op) == &Dot)
      Result = Op->result();
  if (usesIn(Body, Dot.result()) != 1 || usesIn(Body, Result) != 1)
    return std::nullopt;
  const ir::Op *Y = Body.terminator();
  for (unsigned K = 0; Y && K < Y->numOperands() && K < O.numInits(); ++K)
    if (Y->operand(K) == Result)
      return K;
  return std::nullopt;
}

/// Whether V is read by O or by an op of O's regions.
bool reads(const ir::Op &O, const ir::Value *V) {
  if (std::find(O.operands().begin(), O.operands().end(), V) != O.operands().end())
    return true;
  for (const auto &R : O.regions())
    if (usesIn(*R, V))
      return true;
  return false;
}

/// The chained form of AsyncDot: two or more dots at the top level of the
/// body, all on wgmma; the last one's value (or the add it was folded
/// into) used only by the yield at K, and the body's argument K read by
/// no op before the first dot, whose wait therefore comes before any read
/// of the registers the last dot's group writes; no late ring (AnyLate:
/// those are read back at the top, before the copies that a chained loop
/// issues at the end of the body instead). The last dot's own
/// operand buffers are checked where it is lowered (DotWgmma.cpp waits
/// for a group that reads a buffer it staged).
AsyncDot chainedAsyncDot(const LoweringContext &C, const ir::ForOp &O, const LoopPipeline &LP, bool AnyLate) {
  if (!C.Opts.WgmmaChain || !LP.extraStage() || AnyLate)
    return {};
  std::optional<std::vector<const ir::DotOp *>> Dots = topLevelDots(*O.body());
  if (!Dots || Dots->size() < 2 || std::any_of(Dots->begin(), Dots->end(), [&](const ir::DotOp *D) {
        return C.Plan.engine(*D) != DotEngine::Wgmma;
      }))
    return {};
  const ir::DotOp *First = Dots->front(), *Last = Dots->back();
  std::optional<unsigned> K = carriedSum(C, O, *Last);
  if (!K)
    return {};
  const ir::Value *Arg = O.body()->argument(1 + *K);
  if (Arg->type().Elem.Scalar != ScalarKind::FP32) // the wait hands f32 registers through
    return {};
  for (const auto &Op : O.body()->ops()) {
    if (Op.get() == First)
      return {Last, *K, First, Arg};
    if (reads(*Op, Arg))
      return {};
  }
  return {};
}

AsyncDot asyncDot(const LoweringContext &C, const ir::ForOp &O, const LoopPipeline &LP, bool AnyLate) {
  if (AsyncDot Chained = chainedAsyncDot(C, O, LP, AnyLate); Chained.Dot)
    return Chained;
  if (C.Opts.WgmmaPendings == 0 || !LP.extraStage())
    return {};
  std::optional<std::vector<const ir::DotOp *>> Dots = topLevelDots(*O.body());
  if (!Dots || Dots->size() != 1 || C.Plan.engine(*Dots->front()) != DotEngine::Wgmma)
    return {};
  const ir::DotOp *Dot = Dots->front();
  auto FromRing = [&](const ir::Value *V) {
    return std::any_of(LP.Loads.begin(), LP.Loads.end(),
                       [&](const PipelinedLoad &PL) { return PL.Dot == Dot && PL.Load->result() == V; });
  };
  if (!FromRing(Dot->a()) || !FromRing(Dot->b()))
    return {};
  std::optional<unsigned> K = carriedSum(C, O, *Dot);
  if (!K)
    return {};
  const ir::Value *Arg = O.body()->argument(1 + *K);
  if (C.Plan.Combine.accumulator(*Dot) != Arg || usesIn(*O.body(), Arg) != 1)
    return {};
  return {Dot, *K};
}

bool definedOutside(const ir::Value *V, const ir::Block *Body) {
  const ir::Block *Blk = V->definingOp() ? V->definingOp()->parentBlock() : V->ownerBlock();
  for (; Blk; Blk = Blk->parentOp() ? Blk->parentOp()->parentBlock() : nullptr)
    if (Blk == Body)
      return false;
  return true;
}

/// The operands of the body's wgmma dots that the loop does not change
/// and that are read from shared memory (attention's q, a load; an a
/// computed in registers stays there, LayoutPlan::aInRegisters): Triton
/// allocates such an operand's shared buffer outside the loop and writes it
/// once; each iteration staging it from registers again would keep its
/// registers live across the loop and cost a store, a fence and two
/// barriers per iteration. Only where every dot of the body is a wgmma one
/// DotWgmma lowers, at its top level (a dot on another engine would read
/// the registers).
std::vector<const ir::Value *> invariantOperands(const LoweringContext &C, const ir::ForOp &O) {
  const ir::Block *Body = O.body();
  std::vector<const ir::Value *> Out;
  for (const auto &Op : Body->ops()) {
    for (const auto &R : Op->regions())
      if (hasDot(*R))
        return {};
    const auto *D = ir::dyn_cast<ir::DotOp>(Op.get());
    if (!D)
      continue;
    if (C.Plan.engine(*D) != DotEngine::Wgmma || !lowersOnWgmma(C, *D))
      return {};
    for (const ir::Value *X : {D->a(), D->b()})
      if (definedOutside(X, Body) && !C.stagedOperand(X) && !(X == D->a() && C.Plan.aInRegisters(*D)) &&
          std::find(Out.begin(), Out.end(), X) == Out.end())
        Out.push_back(X);
  }
  return Out;
}

void lowerPipelinedFor(LoweringContext &C, const ir::ForOp &O, const LoopPipeline &LP) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *Lb = C.get(O.lowerBound()).Regs[0], *Ub = C.get(O.upperBound()).Regs[0];
  llvm::Value *Step = C.get(O.step()).Regs[0];
  // Kept for an enclosing pipelined loop (restored at the end).
  bool OuterRematerializeAll = C.RematerializeAll;
  C.RematerializeAll = true;
  std::vector<Tile> Inits;
  for (unsigned I = 0; I < O.numInits(); ++I)
    Inits.push_back(C.getAs(O.init(I), C.wanted(O.body()->argument(1 + I))));
  std::vector<Tile> State;
  for (unsigned K : LP.Carried)
    State.push_back(C.getAs(O.init(K), stateLayout(C, LP, K)));
  unsigned Slots = LP.Slots, Ahead = LP.NumStages - 1;

  // The rings, live from the prologue's copies to the drain after the loop.
  std::vector<Ring> Rings;
  bool AnyLate = false;
  for (const PipelinedLoad &PL : LP.Loads) {
    const TileType &T = PL.Load->result()->type();
    unsigned RS = LP.ringSlots(PL);
    std::string What = (PL.Dot ? std::string("operand ") + (PL.Operand ? "b" : "a") + " of tl.dot, "
                               : std::string("tl.load result, ")) +
                       std::to_string(RS) + " stage" + (RS > 1 ? "s" : "") + " of " +
                       LoweringContext::tileString(T.Shape, T.Elem) +
                       (PL.Tma              ? " (NVMMA, TMA)"
                        : wgmmaStage(C, PL) ? (PL.Transposed ? " (NVMMA transposed, cp.async)" : " (NVMMA, cp.async)")
                        : PL.Dot            ? " (swizzled, cp.async)"
                                            : " (cp.async)");
    Ring R;
    R.StageBytes = PL.StageBytes;
    R.Late = RS != Slots;
    AnyLate |= R.Late;
    if (PL.Tma)
      R.Tma = C.tmaDescriptor(PL.Load->descriptorBase());
    R.Id = C.openShared(SharedBufferKind::PipelineStage, What, PL.StageBytes * RS, RS,
                        R.Tma               ? tmaBufferAlign(*R.Tma)
                        : wgmmaStage(C, PL) ? PL.nvmma().alignment()
                                            : 16);
    Rings.push_back(R);
  }
  // A TMA ring's mbarriers, after the rings (as Triton allocates them), each
  // initialised once; the barrier before the prologue's copies makes every
  // initialisation seen.
  bool Tma = false;
  for (size_t I = 0; I < Rings.size(); ++I) {
    if (!Rings[I].Tma)
      continue;
    if (!Tma)
      C.barrier(); // earlier users of these bytes are done
    Tma = true;
    const TileType &T = LP.Loads[I].Load->result()->type();
    Rings[I].Barriers =
        C.openShared(SharedBufferKind::Barrier,
                     "mbarriers of a TMA ring, " + LoweringContext::tileString(T.Shape, T.Elem), 8 * Slots, Slots, 16);
    for (unsigned S = 0; S < Slots; ++S)
      mbarrierInit(C, stageBarrier(C, Rings[I], C.i32(S)));
  }
  if (Tma)
    C.barrier();

  // The loop-invariant wgmma operands, written once in the NVMMA layout.
  LoopInvariants Invariant = stageLoopInvariants(C, O);

  // Prologue: iterations 0 .. S-2 into stages 0 .. S-2.
  llvm::Value *IvP = Lb;
  for (unsigned S = 0; S < Ahead; ++S) {
    runProducer(C, LP, IvP, State);
    issueCopies(C, LP, Rings, C.i32(S), C.i32(S), forContinues(C, O, IvP, Ub, Step));
    State = nextState(C, LP, State);
    IvP = B.CreateAdd(IvP, Step);
  }

  llvm::BasicBlock *Pre = B.GetInsertBlock();
  llvm::BasicBlock *Header = llvm::BasicBlock::Create(C.Ctx, "pipelined.header", &C.Kernel);
  llvm::BasicBlock *Body = llvm::BasicBlock::Create(C.Ctx, "pipelined.body", &C.Kernel);
  llvm::BasicBlock *Exit = llvm::BasicBlock::Create(C.Ctx, "pipelined.exit", &C.Kernel);
  B.CreateBr(Header);
  B.SetInsertPoint(Header);
  auto Phi = [&](llvm::Value *Init) { return C.loopPhi(Init, Pre); };
  auto Phis = [&](const std::vector<Tile> &From) {
    std::vector<Tile> Out;
    for (const Tile &T : From) {
      Tile P{T.Layout, {}};
      for (llvm::Value *V : T.Regs)
        P.Regs.push_back(Phi(V));
      Out.push_back(std::move(P));
    }
    return Out;
  };
  llvm::PHINode *Iv = Phi(Lb);
  std::vector<Tile> Carried = Phis(Inits);
  llvm::PHINode *IvAhead = Phi(IvP);
  std::vector<Tile> StateAhead = Phis(State);
  llvm::PHINode *Slot = Phi(C.i32(0));
  // The stage the copies of iteration i + S - 1 fill: i's own with S - 1
  // stages, (i - 1) % S with S.
  llvm::PHINode *WriteSlot = LP.extraStage() ? Phi(C.i32(Slots - 1)) : nullptr;
  // The stage of the late rings (NumStages - 1 of them) iteration i reads,
  // i % (S - 1), which the copies of iteration i + S - 1 then refill.
  llvm::PHINode *LateSlot = AnyLate ? Phi(C.i32(0)) : nullptr;
  // The mbarrier phase of stage Slot's fill (TMA rings): it flips each time
  // the ring wraps.
  llvm::PHINode *Phase = Tma ? Phi(C.i32(0)) : nullptr;
  B.CreateCondBr(forContinues(C, O, Iv, Ub, Step), Body, Exit);
  auto AdvanceMod = [&](llvm::Value *S, unsigned N) -> llvm::Value * {
    if (N == 1)
      return C.i32(0);
    llvm::Value *Inc = B.CreateAdd(S, C.i32(1));
    return B.CreateSelect(B.CreateICmpEQ(Inc, C.i32(N)), C.i32(0), Inc);
  };
  auto Advance = [&](llvm::Value *S) { return AdvanceMod(S, Slots); };
  std::vector<Tile> StateNext;
  auto CopyAhead = [&](llvm::Value *Into) {
    runProducer(C, LP, IvAhead, StateAhead);
    issueCopies(C, LP, Rings, Into, LateSlot, forContinues(C, O, IvAhead, Ub, Step));
    StateNext = nextState(C, LP, StateAhead);
  };

  B.SetInsertPoint(Body);
  // No proxy fence for the rings: Triton fences only buffers written by
  // ordinary stores from registers before wgmma reads them (its
  // FenceInsertion: local_alloc / local_store), never the stages cp.async
  // fills, whose completion wait and barrier are the only ordering its loop
  // has (its PTX, bench/RESULTS.md issue 29). The loop-invariant operands
  // above and DotWgmma's staging keep their fence.
  if (anyCpAsync(LP))
    waitGroups(C, Ahead - 1);
  // A TMA stage read where its load stands is waited for there, as
  // Triton's pipeliner waits at the load's place in the body: attention's v
  // lands while q·k and the softmax run. A late ring's, read back here, now.
  for (size_t I = 0; I < LP.Loads.size(); ++I) {
    if (!Rings[I].Barriers)
      continue;
    if (Rings[I].Late)
      mbarrierWait(C, stageBarrier(C, Rings[I], Slot), Phase);
    else
      C.StageWaits[LP.Loads[I].Load] = {stageBarrier(C, Rings[I], Slot), Phase};
  }
  C.barrier();
  AsyncDot Async = asyncDot(C, O, LP, AnyLate);
  for (size_t I = 0; I < LP.Loads.size(); ++I)
    for (const ir::Value *V : LP.Loads[I].operands())
      C.setStagedOperand(V, stageBase(C, Rings[I], Rings[I].Late ? LateSlot : Slot));
  if (LP.extraStage() && !Async.Dot) {
    if (AnyLate) {
      // The late rings' stage is refilled by the copies below: read first,
      // and every warp has before they go out.
      for (size_t I = 0; I < LP.Loads.size(); ++I)
        if (Rings[I].Late)
          readBack(C, *LP.Loads[I].Load, LP.Loads[I], lateReadLayout(C, *O.body(), *LP.Loads[I].Load));
      C.barrier();
    }
    CopyAhead(WriteSlot);
  }
  bindLoopInvariants(C, Invariant, true);
  C.set(O.inductionVar(), C.scalarTile(Iv));
  for (unsigned I = 0; I < O.numInits(); ++I)
    C.set(O.body()->argument(1 + I), Carried[I]);
  const ir::Op *OuterAsync = C.AsyncWgmmaDot, *OuterDrain = C.AsyncWgmmaDrain;
  const ir::Value *OuterAcc = C.AsyncWgmmaAcc;
  C.AsyncWgmmaDot = Async.Dot;
  C.AsyncWgmmaDrain = Async.Drain;
  C.AsyncWgmmaAcc = Async.Acc;
  C.lowerBlock(*O.body());
  C.AsyncWgmmaDot = OuterAsync;
  C.AsyncWgmmaDrain = OuterDrain;
  C.AsyncWgmmaAcc = OuterAcc;
  for (const PipelinedLoad &PL : LP.Loads) // a load the body did not lower: every fill is still waited for
    if (auto It = C.StageWaits.find(PL.Load); It != C.StageWaits.end()) {
      mbarrierWait(C, It->second.Barrier, It->second.Phase);
      C.StageWaits.erase(It);
    }
  std::vector<Tile> Next = yieldedTiles(C, *O.body(), 0, Carried);
  for (const PipelinedLoad &PL : LP.Loads)
    for (const ir::Value *V : PL.operands())
      C.setStagedOperand(V, nullptr);
  bindLoopInvariants(C, Invariant, false);
  if (!LP.extraStage()) {
    // Every warp has read this iteration's stage before it is refilled.
    C.barrier();
    CopyAhead(Slot);
  } else if (Async.Dot) {
    // The dot waited for the previous iteration's group, the last reader
    // of stage (i - 1) % S; once every warp has, it is refilled.
    C.barrier();
    CopyAhead(WriteSlot);
  }
  llvm::Value *IvNext = B.CreateAdd(Iv, Step), *IvAheadNext = B.CreateAdd(IvAhead, Step);
  llvm::Value *SlotNext = Advance(Slot);
  llvm::Value *WriteSlotNext = WriteSlot ? Advance(WriteSlot) : nullptr;
  llvm::Value *LateSlotNext = LateSlot ? AdvanceMod(LateSlot, Slots - 1) : nullptr;
  llvm::Value *PhaseNext =
      Phase ? B.CreateSelect(B.CreateICmpEQ(SlotNext, C.i32(0)), B.CreateXor(Phase, C.i32(1)), Phase) : nullptr;
  llvm::BasicBlock *Latch = B.GetInsertBlock();
  B.CreateBr(Header);
  auto Incoming = [&](std::vector<Tile> &To, const std::vector<Tile> &From) {
    for (size_t I = 0; I < To.size(); ++I)
      for (size_t R = 0; R < To[I].Regs.size(); ++R)
        C.closeLoopPhi(llvm::cast<llvm::PHINode>(To[I].Regs[R]), From[I].Regs[R], Latch);
  };
  C.closeLoopPhi(Iv, IvNext, Latch);
  Incoming(Carried, Next);
  C.closeLoopPhi(IvAhead, IvAheadNext, Latch);
  Incoming(StateAhead, StateNext);
  C.closeLoopPhi(Slot, SlotNext, Latch);
  if (WriteSlot)
    C.closeLoopPhi(WriteSlot, WriteSlotNext, Latch);
  if (LateSlot)
    C.closeLoopPhi(LateSlot, LateSlotNext, Latch);
  if (Phase)
    C.closeLoopPhi(Phase, PhaseNext, Latch);

  B.SetInsertPoint(Exit);
  if (anyCpAsync(LP))
    waitGroups(C, 0);
  if (Tma) {
    // The copies past the last iteration never went out: every fill was
    // waited for. Once every thread is past its last wait, the barriers go.
    C.barrier();
    for (const Ring &R : Rings)
      if (R.Barriers)
        for (unsigned S = 0; S < Slots; ++S)
          mbarrierInval(C, stageBarrier(C, R, C.i32(S)));
  }
  if (Async.Dot) // the last iteration's group, before anything reads the sum
    wgmmaWait(C, Carried[Async.K].Regs, 0);
  for (const Ring &R : Rings) {
    C.closeShared(R.Id);
    if (R.Barriers)
      C.closeShared(*R.Barriers);
  }
  closeLoopInvariants(C, Invariant);
  for (unsigned I = 0; I < O.numResults(); ++I)
    C.set(O.result(I), Carried[I]);
  C.RematerializeAll = OuterRematerializeAll;
}
} // namespace

LoopInvariants stageLoopInvariants(LoweringContext &C, const ir::ForOp &O) {
  llvm::IRBuilderBase &B = C.B;
  LoopInvariants Out;
  for (const ir::Value *X : invariantOperands(C, O)) {
    const TileType &T = X->type();
    NvmmaLayout N = NvmmaLayout::forTile(T.Shape[0], T.Shape[1], 2);
    // fp8 operands are K-major, which this row-major copy is not for b:
    // the dot stages them itself.
    if (!N.SwizzleBytes || bitWidth(T.Elem.Scalar) != 16)
      continue;
    if (Out.empty())
      C.barrier();
    unsigned Id =
        C.openShared(SharedBufferKind::DotOperand,
                     "operand of tl.dot, loop-invariant, " + LoweringContext::tileString(T.Shape, T.Elem) + " (NVMMA)",
                     static_cast<uint64_t>(T.Shape[0] * T.Shape[1]) * 2, 1, N.alignment());
    stageNvmma(C, C.get(X), T.Elem, C.sharedBase(Id), N);
    Out.emplace_back(X, Id);
  }
  if (!Out.empty()) {
    C.inlineAsm(B.getVoidTy(), "fence.proxy.async.shared::cta;", "~{memory}", {});
    C.barrier();
  }
  return Out;
}

void bindLoopInvariants(LoweringContext &C, const LoopInvariants &Staged, bool Bind) {
  for (const auto &[X, Id] : Staged)
    C.setStagedOperand(X, Bind ? C.sharedBase(Id) : nullptr);
}

void closeLoopInvariants(LoweringContext &C, const LoopInvariants &Staged) {
  for (const auto &[X, Id] : Staged)
    C.closeShared(Id);
}

bool lowerPipelined(LoweringContext &C, const ir::Op &O) {
  if (!C.Pipelines)
    return false;
  if (const LoopPipeline *LP = C.Pipelines->loop(O)) {
    lowerPipelinedFor(C, *ir::cast<ir::ForOp>(&O), *LP);
    return true;
  }
  if (const PipelinedLoad *PL = C.Pipelines->load(O)) {
    if (auto It = C.StageWaits.find(&O); It != C.StageWaits.end()) {
      mbarrierWait(C, It->second.Barrier, It->second.Phase);
      C.StageWaits.erase(It);
    }
    if (PL->Dot)
      C.poisonResults(O); // its tile is in this iteration's stage, where the dot reads it
    else if (C.stagedOperand(O.result(0)))
      readBack(C, *ir::cast<ir::LoadOp>(&O), *PL);
    // else read at the top of the iteration (a late ring)
    return true;
  }
  return false;
}

} // namespace tessel::codegen
