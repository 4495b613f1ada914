//===- Pipeliner.cpp - which loops are software-pipelined -----------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// planPipelines (Pipeliner.h): per `for` loop, the loads feeding a
/// tensor-core dot that cp.async can copy ahead, and the producer slice that
/// computes their operands for a later iteration.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/Pipeliner.h"
#include "compiler/codegen/lower/MmaInstr.h"

#include "compiler/ir/Ops.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace tessel::codegen {

using K = ir::OpKind;

bool pureRegisterOp(const ir::Op &O) {
  K Kind = O.kind();
  if (Kind >= ir::FirstBinary && Kind <= ir::LastBinary)
    return true;
  if (Kind >= ir::FirstUnary && Kind <= ir::LastUnary)
    return true;
  switch (Kind) {
  case K::Constant:
  case K::Splat:
  case K::Broadcast:
  case K::ExpandDims:
  case K::Arange:
  case K::ProgramId:
  case K::NumPrograms:
  case K::Fma:
  case K::Cmp:
  case K::Select:
  case K::Cast:
  case K::Bitcast:
  case K::AddPtr:
  case K::Hint:
    return true;
  default:
    return false;
  }
}

namespace {
/// Whether V is +0 in every element: a constant, splat, broadcast or cast
/// of one (`other=0.0` on fp16 pointers is `splat(cast(0.0))`; +0 converts
/// to +0 in every type).
bool isPositiveZero(const ir::Value *V) {
  const ir::Op *D = V ? V->definingOp() : nullptr;
  while (D && (D->kind() == K::Splat || D->kind() == K::Broadcast || D->kind() == K::Cast))
    D = D->operand(0)->definingOp();
  const auto *C = ir::dyn_cast<ir::ConstantOp>(D);
  if (!C)
    return false;
  if (isFloat(C->result()->type().Elem.Scalar))
    return C->floatValue() == 0.0 && !std::signbit(C->floatValue());
  return C->intValue() == 0;
}
} // namespace

bool zeroFilled(const ir::LoadOp &Ld) { return !Ld.mask() || !Ld.other() || isPositiveZero(Ld.other()); }

namespace {
/// V's value where it is an integer constant.
std::optional<int64_t> constantInt(const ir::Value *V) {
  const auto *C = ir::dyn_cast<ir::ConstantOp>(V->definingOp());
  if (!C || isFloat(C->result()->type().Elem.Scalar))
    return std::nullopt;
  return C->intValue();
}

/// Whether For runs at most once whatever the kernel's arguments: its
/// bounds differ by a constant (both constants, or the upper one the lower
/// plus a constant) no greater than its constant step. MLIR's scf.for
/// canonicalization (SimplifyTrivialLoops, in Triton's first passes)
/// inlines such a loop's body or drops it, so nothing is left to pipeline:
/// a loop over a constexpr range shorter than its step (Liger's
/// neighborhood attention at seq_len 4, BLOCK_SIZE_K 64) keeps one buffer
/// per operand, not rings.
bool runsAtMostOnce(const ir::ForOp &For) {
  std::optional<int64_t> Step = constantInt(For.step());
  if (!Step || *Step <= 0)
    return false;
  std::optional<int64_t> Diff;
  std::optional<int64_t> Lb = constantInt(For.lowerBound()), Ub = constantInt(For.upperBound());
  if (Lb && Ub) {
    Diff = *Ub - *Lb;
  } else if (const ir::Op *Add = For.upperBound()->definingOp(); Add && Add->kind() == K::Add) {
    for (unsigned I = 0; I < 2 && !Diff; ++I)
      if (Add->operand(I) == For.lowerBound())
        Diff = constantInt(Add->operand(1 - I));
  }
  return Diff && *Diff <= *Step;
}

/// Uses of every value in Blk and its regions.
void countUses(const ir::Block &Blk, std::unordered_map<const ir::Value *, unsigned> &Uses) {
  for (const auto &O : Blk.ops()) {
    for (const ir::Value *V : O->operands())
      ++Uses[V];
    for (const auto &R : O->regions())
      countUses(*R, Uses);
  }
}

/// Bytes of one element of load Ld's tile in memory; 0 for pointers and i1.
unsigned elemBytes(const ir::LoadOp &Ld) {
  ElemType E = Ld.result()->type().Elem;
  if (E.isPointer() || E.Scalar == ScalarKind::I1)
    return 0;
  return static_cast<unsigned>(std::max(0, bitWidth(E.Scalar) / 8));
}

/// Elements per cp.async of load Ld's access, or 0 when it cannot be one
/// (see Pipeliner.h): vectors along dimension Dim (the stage's contiguous
/// one), 4, 8 or 16 bytes, each starting at a multiple of its width.
unsigned copyVector(const ir::LoadOp &Ld, const MemAccess &A, unsigned Dim) {
  const LinearLayout &L = A.Layout;
  if (L.rank() < 1 || A.Blocked.Order.empty() || A.Blocked.Order[0] != Dim)
    return 0;
  unsigned Vec = std::min<unsigned>(A.Vector, L.numRegs());
  unsigned Bytes = Vec * elemBytes(Ld);
  if (Bytes != 4 && Bytes != 8 && Bytes != 16)
    return 0;
  if (L.contiguousRegs(Dim) < Vec)
    return 0;
  auto Aligned = [&](const Coord &B) { return B[Dim] % Vec == 0; };
  unsigned VecBits = static_cast<unsigned>(__builtin_ctz(Vec));
  for (size_t I = VecBits; I < L.Reg.size(); ++I)
    if (!Aligned(L.Reg[I]))
      return 0;
  for (const Coord &B : L.Lane)
    if (!Aligned(B))
      return 0;
  for (const Coord &B : L.Warp)
    if (!Aligned(B))
      return 0;
  return Vec;
}

struct LoopPlanner {
  const ir::ForOp &For;
  const LayoutPlan &Plan;
  const std::unordered_map<const ir::Value *, unsigned> &Uses;
  unsigned NumWarps;
  int Arch;

  /// Ops of the body's top level.
  std::set<const ir::Op *> BodyOps;

  /// Adds the producer slice of V to Slice / Carried; false when V is
  /// computed by something the producer cannot repeat.
  bool slice(const ir::Value *V, std::set<const ir::Op *> &Slice, std::set<unsigned> &Carried) {
    const ir::Block *Body = For.body();
    if (V->ownerBlock() == Body) {
      if (V->index() == 0)
        return true; // the induction variable
      unsigned Idx = V->index() - 1;
      if (!Carried.insert(Idx).second)
        return true;
      const ir::Op *Y = Body->terminator();
      return Y && Idx < Y->numOperands() && slice(Y->operand(Idx), Slice, Carried);
    }
    // Defined before the loop: the same value in every iteration.
    const ir::Op *D = V->definingOp();
    if (!D)
      return !inBody(V->ownerBlock());
    if (!BodyOps.count(D))
      return !inBody(D->parentBlock());
    if (!pureRegisterOp(*D))
      return false;
    if (!Slice.insert(D).second)
      return true;
    for (const ir::Value *Op : D->operands())
      if (!slice(Op, Slice, Carried))
        return false;
    return true;
  }

  /// Whether Blk is the body or nested in it.
  bool inBody(const ir::Block *Blk) const {
    for (; Blk; Blk = Blk->parentOp() ? Blk->parentOp()->parentBlock() : nullptr)
      if (Blk == For.body())
        return true;
    return false;
  }

  /// A TMA-copied load feeding Dot's operand V, directly or through a 2-d
  /// tl.trans of its only use (see Pipeliner.h).
  std::optional<PipelinedLoad> tmaCandidate(const ir::DotOp &Dot, unsigned Operand, const ir::Value *V) {
    const ir::Op *Trans = nullptr;
    const ir::Op *D = V->definingOp();
    if (const auto *P = ir::dyn_cast<ir::PermuteOp>(D); P && P->order() == std::vector<int64_t>{1, 0}) {
      Trans = P;
      D = P->operand(0)->definingOp();
    }
    const auto *Ld = ir::dyn_cast<ir::LoadOp>(D);
    if (!Ld || !BodyOps.count(Ld) || !Plan.copiedByTma(*Ld) || (Trans && !BodyOps.count(Trans)) ||
        Plan.engine(Dot) != DotEngine::Wgmma)
      return std::nullopt;
    // fp8 and tf32 wgmma read b K-major only: a transposed load (tutorial
    // 06's fp8 k and v).
    unsigned Bytes = elemBytes(*Ld);
    if (Bytes != 2 && !((Bytes == 1 || Bytes == 4) && Trans && Operand == 1))
      return std::nullopt;
    for (const ir::Value *U : {V, static_cast<const ir::Value *>(Ld->result())}) {
      auto N = Uses.find(U);
      if (N == Uses.end() || N->second != 1)
        return std::nullopt;
    }
    if (Operand == 0 && Dot.b() == V)
      return std::nullopt;
    const auto &S = V->type().Shape;
    PipelinedLoad PL{Ld, &Dot, Operand, S[0], S[1], 16 / Bytes, static_cast<uint64_t>(S[0] * S[1]) * Bytes};
    PL.ElemBytes = Bytes;
    PL.Tma = true;
    PL.Trans = Trans;
    PL.Transposed = Trans != nullptr;
    return PL;
  }

  /// The loads of the body's top level that the tensor-core dots' operands
  /// a and b are computed from through ops of the body, without another
  /// load between (their operands are not followed).
  std::vector<const ir::LoadOp *> feedingLoads() const {
    std::set<const ir::Op *> Seen;
    std::vector<const ir::Op *> Work;
    for (const auto &O : For.body()->ops())
      if (const auto *D = ir::dyn_cast<ir::DotOp>(O.get()); D && Plan.engine(*D) != DotEngine::Fma)
        for (const ir::Value *V : {D->a(), D->b()})
          if (const ir::Op *Def = V->definingOp(); Def && BodyOps.count(Def))
            Work.push_back(Def);
    while (!Work.empty()) {
      const ir::Op *O = Work.back();
      Work.pop_back();
      if (!Seen.insert(O).second || ir::dyn_cast<ir::LoadOp>(O))
        continue;
      const auto *D = ir::dyn_cast<ir::DotOp>(O);
      for (const ir::Value *V : O->operands()) {
        if (D && V == D->acc())
          continue;
        if (const ir::Op *Def = V->definingOp(); Def && BodyOps.count(Def))
          Work.push_back(Def);
      }
    }
    // In body order.
    std::vector<const ir::LoadOp *> Out;
    for (const auto &O : For.body()->ops())
      if (const auto *Ld = ir::dyn_cast<ir::LoadOp>(O.get()); Ld && Seen.count(Ld))
        Out.push_back(Ld);
    return Out;
  }

  /// Whether V is operand a or b of a dot of the body.
  bool isDotOperand(const ir::Value *V) const {
    for (const auto &O : For.body()->ops())
      if (const auto *D = ir::dyn_cast<ir::DotOp>(O.get()); D && (D->a() == V || D->b() == V))
        return true;
    return false;
  }

  /// Whether LP already copies Ld ahead (a load shared by several dots is
  /// found from each of them).
  static bool pipelines(const LoopPipeline &LP, const ir::LoadOp *Ld) {
    return std::any_of(LP.Loads.begin(), LP.Loads.end(), [&](const PipelinedLoad &L) { return L.Load == Ld; });
  }

  /// Whether Ld is a load of the body that cp.async may copy ahead for a
  /// dot: not volatile, its `other` absent or +0 (the copy zero-fills the
  /// masked lanes), not a TMA copy.
  bool copyable(const ir::LoadOp *Ld) const {
    return Ld && BodyOps.count(Ld) && !Ld->isVolatile() && (!Ld->other() || isPositiveZero(Ld->other())) &&
           !Plan.copiedByTma(*Ld);
  }

  /// Whether Dot runs on wgmma with its accumulator layout (a reader that
  /// shares a ring).
  bool wgmmaReader(const ir::DotOp &Dot) const {
    return Plan.engine(Dot) == DotEngine::Wgmma && Plan.wanted(Dot.result()) == Plan.accumulatorLayout(Dot);
  }

  /// The dots of the body reading V as operand a or b, directly or through
  /// a 2-d tl.trans of V whose only uses they are; false when V has any
  /// other use (or a dot reads it as both operands).
  bool readersOf(const ir::Value *V, std::vector<PipelinedLoad::Reader> &Out) {
    unsigned Seen = 0;
    for (const auto &O : For.body()->ops()) {
      for (const ir::Value *X : O->operands()) {
        if (X != V)
          continue;
        ++Seen;
        if (const auto *D = ir::dyn_cast<ir::DotOp>(O.get())) {
          if ((D->a() == V) == (D->b() == V))
            return false;
          Out.push_back({D, D->a() == V ? 0u : 1u, nullptr});
          continue;
        }
        const auto *P = ir::dyn_cast<ir::PermuteOp>(O.get());
        if (!P || P->order() != std::vector<int64_t>{1, 0})
          return false;
        std::vector<PipelinedLoad::Reader> Through;
        if (!readersOf(P->result(), Through))
          return false;
        for (const PipelinedLoad::Reader &R : Through) {
          if (R.Via)
            return false;
          Out.push_back({R.Dot, R.Operand, P});
        }
      }
    }
    auto N = Uses.find(V);
    return N != Uses.end() && N->second == Seen && Seen > 0;
  }

  /// A load several wgmma dots read, or one reads through a tl.trans: one
  /// ring in the load's NVMMA layout, each dot reading its view of it.
  std::optional<PipelinedLoad> sharedCandidate(const ir::DotOp &Dot, unsigned Operand, const ir::Value *V,
                                               const ir::LoadOp &Ld, const std::vector<PipelinedLoad::Reader> &Readers) {
    if (!std::all_of(Readers.begin(), Readers.end(), [&](const auto &R) { return wgmmaReader(*R.Dot); }))
      return std::nullopt;
    auto A = Plan.Access.find(&Ld);
    const auto &S = Ld.result()->type().Shape;
    if (A == Plan.Access.end() || S.size() != 2 || elemBytes(Ld) != 2)
      return std::nullopt;
    bool AccessRows = !A->second.Blocked.Order.empty() && A->second.Blocked.Order[0] == 0;
    unsigned Vec = copyVector(Ld, A->second, AccessRows ? 0 : 1);
    if (!Vec)
      return std::nullopt;
    const ir::Op *Via = V == Ld.result() ? nullptr : V->definingOp();
    const auto &OS = V->type().Shape;
    PipelinedLoad PL{&Ld, &Dot, Operand, OS[0], OS[1], Vec, static_cast<uint64_t>(S[0] * S[1]) * 2};
    PL.Trans = Via;
    PL.Transposed = Via ? !AccessRows : AccessRows;
    for (const PipelinedLoad::Reader &R : Readers)
      if (R.Dot != &Dot || R.Operand != Operand)
        PL.MoreReaders.push_back(R);
    return PL;
  }

  std::optional<PipelinedLoad> candidate(const ir::DotOp &Dot, unsigned Operand) {
    const ir::Value *V = Operand == 0 ? Dot.a() : Dot.b();
    if (std::optional<PipelinedLoad> T = tmaCandidate(Dot, Operand, V))
      return T;
    // Through a tl.trans, or shared with other dots: one ring for all.
    {
      const ir::Op *D = V->definingOp();
      if (const auto *P = ir::dyn_cast<ir::PermuteOp>(D); P && BodyOps.count(P))
        D = P->operand(0)->definingOp();
      const auto *L = ir::dyn_cast<ir::LoadOp>(D);
      std::vector<PipelinedLoad::Reader> Readers;
      if (copyable(L) && readersOf(L->result(), Readers) && (Readers.size() > 1 || Readers[0].Via))
        return sharedCandidate(Dot, Operand, V, *L, Readers);
    }
    const auto *Ld = ir::dyn_cast<ir::LoadOp>(V->definingOp());
    if (!copyable(Ld))
      return std::nullopt;
    auto U = Uses.find(V);
    if (U == Uses.end() || U->second != 1 || (Operand == 0 && Dot.b() == V))
      return std::nullopt;
    auto A = Plan.Access.find(Ld);
    const auto &S = V->type().Shape;
    if (A == Plan.Access.end() || S.size() != 2)
      return std::nullopt;
    // Contiguous along the rows: wgmma reads such a stage in its other major
    // mode; mma.sync's ldmatrix reads row-major rings, its 8-bit loads a
    // transposed b.
    bool Transposed = !A->second.Blocked.Order.empty() && A->second.Blocked.Order[0] == 0;
    unsigned Bytes = elemBytes(*Ld);
    bool Wgmma = Plan.engine(Dot) == DotEngine::Wgmma;
    // 1-byte operands are read K-major, a's rows and b's columns contiguous
    // (b transposed): by wgmma's fp8, and by mma.sync's 8-bit instructions
    // (words of four k), which take them as they are loaded (Triton's
    // cp.async ring of tutorial 03's fp8 matmul on 2 warps).
    bool ByteMma = false;
    if (Bytes == 1 && !Wgmma)
      if (std::optional<MmaInstr> I = selectMma(Dot, Arch))
        ByteMma = I->Flavor == MmaFlavor::Byte && I->StageA == Dot.a()->type().Elem.Scalar &&
                  I->StageB == Dot.b()->type().Elem.Scalar;
    if (Transposed && !Wgmma && !ByteMma)
      return std::nullopt;
    unsigned Vec = copyVector(*Ld, A->second, Transposed ? 0 : 1);
    bool KMajorByte = Bytes == 1 && (Wgmma || ByteMma) && Transposed == (Operand == 1);
    // tf32's wgmma reads K-major rings only too. A 4-byte element is one
    // cp.async, so a load along the other major still fills a K-major ring,
    // one element a copy: Triton's async copy into the K-major NVMMA layout
    // AccelerateMatmul forces for it (the copies' vector is what source and
    // destination share: one element), num_stages stages as for a K-major
    // load. (A 1-byte element cannot be copied alone: fp8's stays a load.)
    bool Word = Bytes == 4 && Wgmma;
    unsigned SourceRun = 1;
    if (Word && Transposed != (Operand == 1)) {
      SourceRun = Vec;
      Vec = Vec ? 1 : 0;
      Transposed = Operand == 1;
    }
    if (!Vec || (Bytes != 2 && !KMajorByte && !Word))
      return std::nullopt;
    PipelinedLoad PL{Ld, &Dot, Operand, S[0], S[1], Vec, static_cast<uint64_t>(S[0] * S[1]) * Bytes};
    PL.SourceRun = SourceRun;
    PL.ElemBytes = Bytes;
    PL.Transposed = Transposed;
    return PL;
  }

  /// A load of a tl.range loop read back into registers.
  std::optional<PipelinedLoad> rangeCandidate(const ir::LoadOp &Ld) {
    if (Ld.isVolatile() || Plan.copiedByTma(Ld))
      return std::nullopt;
    auto A = Plan.Access.find(&Ld);
    if (A == Plan.Access.end())
      return std::nullopt;
    unsigned Vec = copyVector(Ld, A->second, A->second.Layout.rank() - 1);
    // A 4- or 8-byte element is a cp.async of its own whatever the access's
    // order (Triton's canBeConvertedToAsyncLoad: 32 bits a copy or more):
    // lightllm's int4 zero points, read one word per 8 columns.
    if (!Vec && (elemBytes(Ld) == 4 || elemBytes(Ld) == 8))
      Vec = 1;
    std::optional<int64_t> N = Ld.result()->type().numel();
    if (!Vec || !N)
      return std::nullopt;
    PipelinedLoad PL{&Ld, nullptr, 0, 0, 0, Vec, static_cast<uint64_t>(*N) * elemBytes(Ld)};
    return PL;
  }

  /// Adds PL when the producer can compute its operands.
  bool take(const PipelinedLoad &PL, LoopPipeline &LP, std::set<const ir::Op *> &Slice, std::set<unsigned> &Carried) {
    // A load whose operands the producer cannot compute stays as it is;
    // what its slice added is dropped with it.
    std::set<const ir::Op *> S = Slice;
    std::set<unsigned> C = Carried;
    // A TMA copy reads only its offsets (its pointer form is dead code).
    std::vector<ir::Value *> Reads = PL.Tma ? PL.Load->descriptorOffsets() : PL.Load->operands();
    for (const ir::Value *V : Reads)
      if (!slice(V, S, C))
        return false;
    Slice = std::move(S);
    Carried = std::move(C);
    LP.Loads.push_back(PL);
    return true;
  }

  std::optional<LoopPipeline> plan(int NumStages, bool RangeLoads) {
    const ir::Block *Body = For.body();
    for (const auto &O : Body->ops())
      BodyOps.insert(O.get());
    LoopPipeline LP;
    LP.Loop = &For;
    LP.NumStages = static_cast<unsigned>(NumStages);
    std::set<const ir::Op *> Slice;
    std::set<unsigned> Carried;
    for (const auto &O : Body->ops()) {
      const auto *Dot = ir::dyn_cast<ir::DotOp>(O.get());
      if (!Dot || Plan.engine(*Dot) == DotEngine::Fma || !(Plan.wanted(Dot->result()) == Plan.accumulatorLayout(*Dot)))
        continue;
      for (unsigned Operand : {0u, 1u})
        if (std::optional<PipelinedLoad> PL = candidate(*Dot, Operand))
          if (!pipelines(LP, PL->Load))
            take(*PL, LP, Slice, Carried);
    }
    // In a loop whose dots all read their rings with wgmma, the loads the
    // dots' operands are computed from (Triton's loadOpsToIndirectionLevel
    // at distance 0: attention backward's m and Di) are read back from
    // rings of their own. Ones whose masked lanes cp.async's zero fill
    // gives (zeroFilled), which are not operands themselves: they are read
    // at the top of the iteration (LoopPipeline::ringSlots), before the
    // body computes their mask (mamba's _chunk_state_fwd_kernel: b, masked
    // by the chunk's end, scaled, then the dot's operand).
    bool WgmmaRings = !LP.Loads.empty() && std::all_of(LP.Loads.begin(), LP.Loads.end(), [&](const PipelinedLoad &L) {
      return wgmmaEligible(*L.Dot, Arch, NumWarps);
    });
    if (WgmmaRings)
      for (const ir::LoadOp *Ld : feedingLoads())
        if (!pipelines(LP, Ld) && zeroFilled(*Ld) && !isDotOperand(Ld->result()))
          if (std::optional<PipelinedLoad> PL = rangeCandidate(*Ld))
            take(*PL, LP, Slice, Carried);
    // tl.range(num_stages=) loops: the other loads too, read back.
    if (RangeLoads && For.numStages() >= 2)
      for (const auto &O : Body->ops()) {
        const auto *Ld = ir::dyn_cast<ir::LoadOp>(O.get());
        if (Ld && !pipelines(LP, Ld))
          if (std::optional<PipelinedLoad> PL = rangeCandidate(*Ld))
            take(*PL, LP, Slice, Carried);
      }
    if (LP.Loads.empty())
      return std::nullopt;
    // Every dot operand read by wgmma, every other load zero-filled (read at
    // the top of the iteration from a ring of NumStages - 1).
    bool Async = std::all_of(LP.Loads.begin(), LP.Loads.end(),
                             [&](const PipelinedLoad &L) {
                               return L.Dot ? wgmmaEligible(*L.Dot, Arch, NumWarps) : zeroFilled(*L.Load);
                             }) &&
                 std::any_of(LP.Loads.begin(), LP.Loads.end(), [](const PipelinedLoad &L) { return L.Dot; });
    LP.Slots = Async ? LP.NumStages : LP.NumStages - 1;
    for (const auto &O : Body->ops())
      if (Slice.count(O.get()))
        LP.Producer.push_back(O.get());
    LP.Carried.assign(Carried.begin(), Carried.end());
    return LP;
  }
};

void planBlock(const ir::Block &Blk, const LayoutPlan &Plan,
               const std::unordered_map<const ir::Value *, unsigned> &Uses, unsigned NumWarps, int NumStages, int Arch,
               bool RangeLoads, PipelinePlan &Out) {
  for (const auto &O : Blk.ops()) {
    for (const auto &R : O->regions())
      planBlock(*R, Plan, Uses, NumWarps, NumStages, Arch, RangeLoads, Out);
    const auto *For = ir::dyn_cast<ir::ForOp>(O.get());
    if (!For)
      continue;
    // tl.range's num_stages wins over the kernel's, as in Triton.
    int Stages = For->numStages() ? static_cast<int>(For->numStages()) : NumStages;
    if (Stages < 2 || runsAtMostOnce(*For))
      continue;
    LoopPlanner LP{*For, Plan, Uses, NumWarps, Arch, {}};
    if (std::optional<LoopPipeline> P = LP.plan(Stages, RangeLoads)) {
      for (const PipelinedLoad &L : P->Loads) {
        Out.LoadLoop[L.Load] = For;
        if (L.Trans)
          Out.LoadLoop[L.Trans] = For;
        for (const PipelinedLoad::Reader &R : L.MoreReaders)
          if (R.Via)
            Out.LoadLoop[R.Via] = For;
      }
      Out.Loops.emplace(For, std::move(*P));
    }
  }
}
} // namespace

const PipelinedLoad *PipelinePlan::load(const ir::Op &Load) const {
  auto It = LoadLoop.find(&Load);
  if (It == LoadLoop.end())
    return nullptr;
  for (const PipelinedLoad &PL : Loops.at(It->second).Loads) {
    if (PL.Load == &Load || PL.Trans == &Load)
      return &PL;
    for (const PipelinedLoad::Reader &R : PL.MoreReaders)
      if (R.Via == &Load)
        return &PL;
  }
  return nullptr;
}

const ir::Value *PipelinedLoad::operand() const { return Trans ? Trans->result() : Load->result(); }

std::vector<const ir::Value *> PipelinedLoad::operands() const {
  std::vector<const ir::Value *> Out{operand()};
  for (const Reader &R : MoreReaders) {
    const ir::Value *V = R.Via ? R.Via->result() : Load->result();
    if (std::find(Out.begin(), Out.end(), V) == Out.end())
      Out.push_back(V);
  }
  return Out;
}

PipelinePlan planPipelines(const ir::Function &F, const LayoutPlan &Plan, unsigned NumWarps, int NumStages, int Arch,
                           bool RangeLoads) {
  PipelinePlan Out;
  if (Arch < 80)
    return Out;
  std::unordered_map<const ir::Value *, unsigned> Uses;
  countUses(F.body(), Uses);
  planBlock(F.body(), Plan, Uses, NumWarps, NumStages, Arch, RangeLoads, Out);
  return Out;
}

} // namespace tessel::codegen
