//===- LayoutAssignment.cpp - choosing each tile's layout -----------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Implements the steps of LayoutAssignment.h: the coalesced layout of
/// every memory access (from AxisInfo), then one backward walk that hands
/// each value the layout its consumer wants, then Triton's hoisting of a
/// store's conversion above a widening cast (ExtensionHoist).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/LayoutAssignment.h"

#include "compiler/codegen/layout/MmaLayout.h"
#include "compiler/codegen/layout/WgmmaLayout.h"
#include "compiler/codegen/lower/MmaInstr.h"

#include "compiler/ir/Ops.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace tessel::codegen {

LinearLayout defaultLayout(const std::vector<int64_t> &Shape, unsigned NumWarps) {
  if (Shape.empty())
    return scalarLayout(NumWarps);
  return toLinear(defaultBlocked(Shape, NumWarps), Shape);
}

LinearLayout LayoutPlan::wanted(const ir::Value *V) const {
  auto It = Wanted.find(V);
  if (It != Wanted.end())
    return It->second;
  return defaultLayout(V->type().Shape, NumWarps);
}

static int64_t floorPow2(int64_t V) {
  int64_t P = 1;
  while (P * 2 <= V)
    P *= 2;
  return P;
}

/// Whether memory op O's tile has at least one element per thread: Triton's
/// isExpensiveLoadOrStore. Such an access keeps its coalesced layout (an
/// anchor of the forward propagation); a smaller one is cheap to redo in
/// any layout.
static bool expensiveAccess(const ir::Op &O, unsigned NumWarps) {
  std::optional<int64_t> Numel = O.result()->type().numel();
  return Numel && *Numel >= int64_t{32} * NumWarps;
}

namespace {
/// Triton's Coalesce: the layout and vector of each global access through
/// a tile of pointers. An access's own facts (contiguity, divisibility)
/// give the elements one thread can take as a vector; a load then takes the
/// most that any access of the same shape and order takes (Triton's
/// memAccessesSameOrder, drawn from MLIR's slice of the op, which a
/// kernel's arguments make the whole function): the gaps that leaves cost
/// little through L1, and the loads of one computation land in one layout.
/// Layer norm's x, read with a row stride not divisible by 16, takes the 4
/// elements its weight and bias loads take rather than 1, so nothing
/// between them moves through shared memory. Writes keep their own count
/// (at most 128 bits, no gaps). A TMA copy moves its block through a shared
/// buffer whose rows are contiguous and 16-byte aligned, whatever the
/// pointers' facts say, and stays out of the groups (Triton's descriptor
/// loads have a layout of their own).
class Coalescer {
public:
  Coalescer(const ir::Function &F, const LayoutPlan &P, const AxisInfoAnalysis &AI) : P(P), AI(AI) { collect(F.body()); }

  MemAccess operator()(const ir::Op &O) const {
    const ir::Value *Ptr = O.operand(0);
    MemAccess A;
    const std::vector<int64_t> &Shape = Ptr->type().Shape;
    if (Shape.empty()) {
      A.Layout = scalarLayout(P.NumWarps);
      return A;
    }
    bool Whole = P.copiedByTma(O);
    Facts F = facts(Ptr, Whole);
    unsigned C = F.Order[0];
    int64_t Own = elementsPerThread(Ptr, F);
    int64_t PerThread = Own;
    if (O.kind() == ir::OpKind::Load && !Whole && Ptr->definingOp()) {
      auto It = MostPerThread.find({Shape, F.Order});
      if (It != MostPerThread.end())
        PerThread = std::max(PerThread, It->second);
    }
    int64_t Numel = std::accumulate(Shape.begin(), Shape.end(), int64_t{1}, std::multiplies<>());
    PerThread = std::min(PerThread, std::max<int64_t>(1, Numel / (int64_t{32} * P.NumWarps)));
    PerThread = std::max<int64_t>(1, std::min(PerThread, Shape[C]));
    std::vector<unsigned> Spt(Shape.size(), 1);
    Spt[C] = static_cast<unsigned>(PerThread);
    A.Blocked = defaultBlocked(Shape, P.NumWarps, Spt, F.Order);
    A.Layout = toLinear(A.Blocked, Shape);
    A.Vector = vector(O, A.Layout, C, std::min(PerThread, Own));
    return A;
  }

  /// Load O read straight into layout L, where Triton rematerializes a
  /// cheap load (fewer elements than threads) in its consumer's layout
  /// rather than converting what it loaded: the vector is what L's
  /// registers and the pointers' facts both allow.
  MemAccess inLayout(const ir::Op &O, const LinearLayout &L) const {
    const ir::Value *Ptr = O.operand(0);
    Facts F = facts(Ptr, false);
    unsigned C = F.Order[0];
    MemAccess A;
    A.Blocked.Order = F.Order;
    A.Layout = L;
    A.Vector = vector(O, L, C, elementsPerThread(Ptr, F));
    return A;
  }

private:
  /// Elements per vector access of O in layout L along dimension C: at most
  /// Cap, the registers L keeps consecutive there, and the run its mask is
  /// constant over.
  unsigned vector(const ir::Op &O, const LinearLayout &L, unsigned C, int64_t Cap) const {
    int64_t Vec = std::min<int64_t>(Cap, L.contiguousRegs(C));
    if (const ir::Value *Mask = P.accessMask(O))
      Vec = std::min(Vec, floorPow2(AI.get(Mask).Constancy[C]));
    return static_cast<unsigned>(std::max<int64_t>(1, Vec));
  }

  struct Facts {
    std::vector<int64_t> Contiguity, Divisibility;
    std::vector<unsigned> Order; ///< fastest dimension first
  };

  Facts facts(const ir::Value *Ptr, bool Whole) const {
    const std::vector<int64_t> &Shape = Ptr->type().Shape;
    Facts F{AI.get(Ptr).Contiguity, AI.get(Ptr).Divisibility, {}};
    if (Whole) {
      std::fill(F.Contiguity.begin(), F.Contiguity.end(), 1);
      F.Contiguity.back() = Shape.back();
      F.Divisibility.back() = 16;
    }
    // Greatest contiguity first, the lower dimension on ties: triton 3.6.0
    // orders a [128, 64] pointer tile with no contiguous dimension [0, 1]
    // (threadsPerWarp [32, 1]) and a [4, 16, 32] one [0, 1, 2], measured on
    // the H100 (bench/RESULTS.md, issue 29), though the sources of later
    // commits reverse the dimensions first.
    size_t Rank = Shape.size();
    F.Order.resize(Rank);
    for (size_t D = 0; D < Rank; ++D)
      F.Order[D] = static_cast<unsigned>(D);
    std::stable_sort(F.Order.begin(), F.Order.end(),
                     [&](unsigned X, unsigned Y) { return F.Contiguity[X] > F.Contiguity[Y]; });
    return F;
  }

  /// Triton's getNumElementsPerThread: aligned and contiguous elements
  /// along the fastest dimension, 128 bits at most.
  static int64_t elementsPerThread(const ir::Value *Ptr, const Facts &F) {
    unsigned C = F.Order[0];
    int64_t ElemBits = std::max(8, bitWidth(Ptr->type().Elem.pointee().Scalar));
    int64_t Align = std::min(floorPow2(F.Contiguity[C]), std::max<int64_t>(1, F.Divisibility[C] / (ElemBits / 8)));
    return std::min<int64_t>(Align, 128 / ElemBits);
  }

  void collect(const ir::Block &B) {
    using K = ir::OpKind;
    for (const auto &O : B.ops()) {
      bool Access = O->kind() == K::Load || O->kind() == K::Store || O->kind() == K::AtomicRMW ||
                    O->kind() == K::AtomicCas;
      if (Access && O->numOperands() && !P.copiedByTma(*O)) {
        const ir::Value *Ptr = O->operand(0);
        if (Ptr->type().Elem.isPointer() && !Ptr->type().Shape.empty()) {
          Facts F = facts(Ptr, false);
          int64_t &Most = MostPerThread[{Ptr->type().Shape, F.Order}];
          Most = std::max(Most, elementsPerThread(Ptr, F));
        }
      }
      for (const auto &R : O->regions())
        collect(*R);
    }
  }

  const LayoutPlan &P;
  const AxisInfoAnalysis &AI;
  std::map<std::pair<std::vector<int64_t>, std::vector<unsigned>>, int64_t> MostPerThread;
};
} // namespace

namespace {
struct Walker {
  LayoutPlan &P;
  const AxisInfoAnalysis &AI;
  const Coalescer &Coalesce;
  /// The cheap loads read in their consumers' layout (rematerialized()),
  /// found by this walk; a loop visited before its body learns them from
  /// an earlier walk's (Previous), so that the pointers it carries to them
  /// are made in that layout rather than converted at every iteration.
  std::unordered_map<const ir::Op *, MemAccess> Rematerialized;
  const std::unordered_map<const ir::Op *, MemAccess> *Previous = nullptr;

  void want(const ir::Value *V, const LinearLayout &L) {
    if (V->type().Shape.empty() || L.Shape != V->type().Shape)
      return;
    P.Wanted.emplace(V, L);
  }
  LinearLayout resultLayout(const ir::Value *V) {
    auto It = P.Wanted.find(V);
    if (It != P.Wanted.end())
      return It->second;
    LinearLayout L = defaultLayout(V->type().Shape, P.NumWarps);
    if (!V->type().Shape.empty())
      P.Wanted.emplace(V, L);
    return L;
  }
  void wantDefault(const ir::Value *V) { want(V, defaultLayout(V->type().Shape, P.NumWarps)); }

  /// Whether load O reads its tile in the layout its consumers want, as
  /// Triton's backward rematerialization redoes a load that is not
  /// expensive (isExpensiveLoadOrStore: fewer elements than threads, each
  /// thread's few elements likely L1 hits) instead of converting its
  /// result through shared memory; expensive loads are anchors and keep
  /// their coalesced layout (ForwardSeeder).
  bool rematerialized(const ir::Op &O) const {
    if (O.kind() != ir::OpKind::Load || !O.numResults() || P.copiedByTma(O) || !P.Wanted.count(O.result()))
      return false;
    const ir::Value *Ptr = O.operand(0);
    if (!Ptr->type().Elem.isPointer() || Ptr->type().Shape.empty())
      return false;
    return !expensiveAccess(O, P.NumWarps);
  }

  void walk(const ir::Block &B) {
    for (auto It = B.ops().rbegin(); It != B.ops().rend(); ++It)
      visit(**It);
  }

  void carry(const ir::Op &O, const ir::Block &Region, unsigned FirstArg, unsigned FirstYielded) {
    for (unsigned I = 0; I < O.numResults(); ++I) {
      LinearLayout L = resultLayout(O.result(I));
      if (FirstArg + I < Region.arguments().size())
        want(Region.argument(FirstArg + I), L);
      if (const ir::Op *T = Region.terminator(); T && FirstYielded + I < T->numOperands())
        want(T->operand(FirstYielded + I), L);
    }
  }

  /// A pointer tile the loop carries and a memory access in its body reads
  /// through takes the access's coalesced layout, in the loop and before it,
  /// so that the addresses are computed where they are used rather than
  /// moved through shared memory at every iteration (Triton's Coalesce
  /// converts the pointer, and RemoveLayoutConversions rematerializes that
  /// conversion up through the loop's argument to where the pointers are
  /// made).
  void carriedPointers(const ir::Op &Loop, const ir::Block &Body, unsigned FirstArg) {
    for (unsigned I = 0; I < Loop.numResults(); ++I) {
      if (FirstArg + I >= Body.arguments().size() || P.Wanted.count(Loop.result(I)))
        continue;
      const ir::Value *Arg = Body.argument(FirstArg + I);
      if (!Arg->type().Elem.isPointer() || Arg->type().Shape.empty())
        continue;
      for (const auto &Op : Body.ops()) {
        if (!Op->numOperands() || Op->operand(0) != Arg)
          continue;
        auto A = P.Access.find(Op.get());
        if (A != P.Access.end()) {
          want(Loop.result(I), A->second.Layout);
          break;
        }
        if (Previous) {
          auto R = Previous->find(Op.get());
          if (R != Previous->end()) {
            want(Loop.result(I), R->second.Layout);
            break;
          }
        }
      }
    }
  }

  void visit(const ir::Op &O) {
    using K = ir::OpKind;
    switch (O.kind()) {
    case K::Load:
    case K::Store:
    case K::AtomicRMW:
    case K::AtomicCas: {
      auto Seeded = P.Access.find(&O);
      MemAccess A = Seeded != P.Access.end() ? Seeded->second : Coalesce(O);
      if (Seeded == P.Access.end() && rematerialized(O)) {
        A = Coalesce.inLayout(O, P.Wanted.at(O.result()));
        Rematerialized.emplace(&O, A);
      }
      if (O.kind() != K::Load && Seeded == P.Access.end())
        A.Vector = O.kind() == K::Store ? A.Vector : 1;
      for (ir::Value *V : O.operands())
        want(V, A.Layout);
      if (O.numResults())
        want(O.result(), A.Layout);
      P.Access.emplace(&O, std::move(A));
      return;
    }
    case K::Broadcast: {
      LinearLayout L = resultLayout(O.result());
      const auto &From = O.operand(0)->type().Shape;
      for (unsigned D = 0; D < From.size(); ++D)
        if (From[D] == 1 && L.Shape[D] != 1)
          L = restrictLayout(L, D);
      want(O.operand(0), L);
      return;
    }
    case K::ExpandDims: {
      LinearLayout L = resultLayout(O.result());
      want(O.operand(0), sliceLayout(L, static_cast<unsigned>(ir::cast<ir::ExpandDimsOp>(&O)->axis())));
      return;
    }
    case K::Splat:
    case K::Constant:
    case K::Arange:
      resultLayout(O.result());
      return;
    case K::Reshape: {
      // The operand in the layout that makes the reshape free.
      const ir::Value *In = O.operand(0);
      if (!In->type().Shape.empty() && !O.result()->type().Shape.empty())
        want(In, reshapeLayout(resultLayout(O.result()), In->type().Shape));
      return;
    }
    case K::Permute: {
      const auto &Order = ir::cast<ir::PermuteOp>(&O)->order();
      std::vector<int64_t> Inverse(Order.size());
      for (size_t I = 0; I < Order.size(); ++I)
        Inverse[static_cast<size_t>(Order[I])] = static_cast<int64_t>(I);
      want(O.operand(0), permuteLayout(resultLayout(O.result()), Inverse));
      return;
    }
    case K::Reduce:
    case K::Join:
    case K::Split:
    case K::Dot:
    case K::DevicePrint:
    case K::DeviceAssert:
    case K::Barrier:
      for (ir::Value *R : O.results())
        resultLayout(R);
      for (ir::Value *V : O.operands())
        wantDefault(V);
      return;
    case K::Gather:
      // Any source and index layout will do (the source goes through shared
      // memory; the result is made in the index's layout, then converted).
      resultLayout(O.result());
      return;
    case K::Histogram:
      // Any input layout will do (the thread that owns an element counts
      // it); the mask in the input's, as Triton's HistogramOp requires.
      resultLayout(O.result());
      if (O.numOperands() > 1)
        want(O.operand(1), resultLayout(O.operand(0)));
      return;
    case K::Scan: {
      for (unsigned I = 0; I < O.numResults(); ++I)
        want(O.operand(I), resultLayout(O.result(I)));
      return;
    }
    case K::For: {
      const auto *F = ir::cast<ir::ForOp>(&O);
      carriedPointers(O, *F->body(), 1);
      carry(O, *F->body(), 1, 0);
      walk(*F->body());
      for (unsigned I = 0; I < F->numInits(); ++I)
        want(F->init(I), resultLayout(O.result(I)));
      return;
    }
    case K::While: {
      const auto *W = ir::cast<ir::WhileOp>(&O);
      carry(O, *W->before(), 0, 1);
      carry(O, *W->after(), 0, 0);
      walk(*W->after());
      walk(*W->before());
      for (unsigned I = 0; I < O.numOperands(); ++I)
        want(O.operand(I), resultLayout(O.result(I)));
      return;
    }
    case K::If: {
      for (const auto &R : O.regions()) {
        carry(O, *R, 0, 0);
        walk(*R);
      }
      return;
    }
    case K::Yield:
    case K::Condition:
    case K::Return:
      return;
    default:
      break;
    }
    // Elementwise: operands in the result's layout.
    if (O.numResults() == 0)
      return;
    LinearLayout L = resultLayout(O.result());
    for (ir::Value *V : O.operands())
      want(V, L);
  }
};
} // namespace

bool usesMma(const ir::Op &Op, int Arch) {
  const auto *O = ir::dyn_cast<ir::DotOp>(&Op);
  return O && selectMma(*O, Arch).has_value();
}

bool wgmmaEligible(const ir::Op &Op, int Arch, unsigned NumWarps) {
  const auto *O = ir::dyn_cast<ir::DotOp>(&Op);
  if (!O || Arch < 90 || NumWarps % 4 != 0)
    return false;
  std::optional<MmaInstr> I = selectMma(*O, Arch);
  if (!I)
    return false;
  const auto &AS = O->a()->type().Shape, &BS = O->b()->type().Shape;
  ScalarKind A = O->a()->type().Elem.Scalar;
  int64_t M = AS[0], K = AS[1], N = BS[1];
  // Triton's supportMMA(op, 3): N a multiple of 16, K at least one
  // instruction's 32 bytes.
  if (M % 64 != 0 || N % 16 != 0 || K < 256 / std::max(8, bitWidth(A)))
    return false;
  int64_t Imprecise = O->maxNumImpreciseAcc();
  if (isFP8(A) && O->result()->type().Elem.Scalar == ScalarKind::FP32 && Imprecise > 0 && Imprecise < 32)
    return false;
  return true;
}

DotEngine dotEngine(const ir::Op &Op, int Arch, unsigned NumWarps, bool Wgmma) {
  if (!usesMma(Op, Arch))
    return DotEngine::Fma;
  const auto *O = ir::cast<ir::DotOp>(&Op);
  ScalarKind A = O->a()->type().Elem.Scalar, B = O->b()->type().Elem.Scalar;
  bool Half = (A == ScalarKind::FP16 || A == ScalarKind::BF16) && A == B;
  // wgmma's fp8 kinds: e4m3 and e5m2, either operand either kind.
  auto WgmmaFp8 = [](ScalarKind K) { return K == ScalarKind::FP8E4NV || K == ScalarKind::FP8E5; };
  bool Fp8 = WgmmaFp8(A) && WgmmaFp8(B);
  // fp32 operands at tf32 precision: `wgmma ... .tf32` (Triton's supportMMA
  // takes F32 at version 3 only for InputPrecision::TF32; tf32x3 stays on
  // mma.sync here).
  bool Tf32 = A == ScalarKind::FP32 && B == ScalarKind::FP32 && O->inputPrecision() == ir::InputPrecision::TF32;
  ScalarKind Out = O->result()->type().Elem.Scalar;
  // int8 with an int32 result: `wgmma ... .s32.s8.s8` (Triton's MMA v3
  // takes 8-bit integers).
  bool Int8 = A == ScalarKind::I8 && B == ScalarKind::I8 && Out == ScalarKind::I32;
  if (Wgmma && (((Half || Fp8 || Tf32) && Out == ScalarKind::FP32) || Int8) && wgmmaEligible(Op, Arch, NumWarps))
    return DotEngine::Wgmma;
  return DotEngine::MmaSync;
}

WgmmaShape LayoutPlan::wgmmaShapeOf(const ir::Op &Dot) const {
  const auto &Shape = Dot.result()->type().Shape;
  return wgmmaShape(Shape[0], Shape[1], NumWarps, ChainedDots.count(&Dot) > 0,
                    isInt(Dot.operand(0)->type().Elem.Scalar));
}

bool LayoutPlan::aInRegisters(const ir::Op &Dot) const {
  if (engine(Dot) != DotEngine::Wgmma)
    return false;
  const ir::Value *A = Dot.operand(0);
  while (A->definingOp() && A->definingOp()->kind() == ir::OpKind::Permute)
    A = A->definingOp()->operand(0);
  const ir::Op *D = A->definingOp();
  return D && D->kind() != ir::OpKind::Load;
}

LinearLayout LayoutPlan::accumulatorLayout(const ir::Op &Dot) const {
  const auto &Shape = Dot.result()->type().Shape;
  if (engine(Dot) == DotEngine::Wgmma)
    return wgmmaAccumulatorLayout(Shape[0], Shape[1], NumWarps, wgmmaShapeOf(Dot));
  return mmaAccumulatorLayout(Shape[0], Shape[1], NumWarps);
}

/// Whether O computes its one result in registers, element by element, from
/// operands of its shape (or from nothing: splat, arange, constants): what
/// takes its operands' layout, and what Triton recomputes in another layout
/// without cost.
static bool elementwise(const ir::Op &O) {
  using K = ir::OpKind;
  switch (O.kind()) {
  case K::Load:
  case K::Store:
  case K::AtomicRMW:
  case K::AtomicCas:
  case K::Broadcast:
  case K::ExpandDims:
  case K::Reduce:
  case K::Reshape:
  case K::Permute:
  case K::Join:
  case K::Split:
  case K::Dot:
  case K::Scan:
  case K::Gather:
  case K::Histogram:
  case K::DevicePrint:
  case K::DeviceAssert:
  case K::Barrier:
    return false;
  default:
    return O.numResults() == 1 && O.regions().empty();
  }
}

/// The ops that read each value.
using Uses = std::unordered_map<const ir::Value *, std::vector<const ir::Op *>>;

namespace {
/// The forward half of Triton's RemoveLayoutConversions (LayoutPropagation):
/// an anchor's layout flows to every value computed from it without moving
/// data, and a value it reaches keeps it (LayoutAssignment.h). Anchors are
/// the tensor-core dots (their MMA accumulator layout) and every load or
/// atomic whose tile has at least one element per thread (Triton's
/// isExpensiveLoadOrStore: smaller ones are cheap to reload in any layout).
struct ForwardSeeder {
  LayoutPlan &P;
  const AxisInfoAnalysis &AI;
  const Coalescer &Coalesce;
  Uses Users;
  /// The anchors' memory ops, in program order.
  std::vector<const ir::Op *> MemAnchors;
  /// A store of an accumulator-derived value writes from that layout.
  bool StoreFromAccumulator = true;

  void collect(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      for (ir::Value *V : O->operands())
        Users[V].push_back(O.get());
      bool Mem =
          O->kind() == ir::OpKind::Load || O->kind() == ir::OpKind::AtomicRMW || O->kind() == ir::OpKind::AtomicCas;
      if (Mem && O->numResults() && !O->result()->type().Shape.empty()) {
        if (expensiveAccess(*O, P.NumWarps))
          MemAnchors.push_back(O.get());
      }
      for (const auto &R : O->regions())
        collect(*R);
    }
  }
  void seedDots(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      if (P.engine(*O) != DotEngine::Fma) {
        const auto *D = ir::cast<ir::DotOp>(O.get());
        LinearLayout L = P.accumulatorLayout(*D);
        set(D->acc(), L, true);
        set(P.Combine.accumulator(*D), L, true);
        set(D->result(), L, true);
      }
      for (const auto &R : O->regions())
        seedDots(*R);
    }
  }
  /// The loads' layouts, after the dots' (Triton's conflict rule keeps an
  /// MMA layout over a blocked one). Triton propagates its anchors from a
  /// stack, so the last anchor's values are reached first and its layout
  /// wins where two meet: the loop runs backwards for the same outcome.
  void seedMemory() {
    for (auto It = MemAnchors.rbegin(); It != MemAnchors.rend(); ++It) {
      const ir::Op &O = **It;
      auto A = P.Access.find(&O);
      if (A == P.Access.end()) {
        MemAccess Acc = Coalesce(O);
        if (O.kind() != ir::OpKind::Load)
          Acc.Vector = 1;
        A = P.Access.emplace(&O, std::move(Acc)).first;
      }
      set(O.result(), A->second.Layout, false);
    }
  }
  /// Whether V's uses reach a dot (MLIR's forward slice, as Triton's
  /// warpsPerTileV3 takes it: through every user's results, not into
  /// regions by their arguments).
  bool reachesDot(const ir::Value *V, std::set<const ir::Value *> &Seen) {
    if (!Seen.insert(V).second)
      return false;
    auto It = Users.find(V);
    if (It == Users.end())
      return false;
    for (const ir::Op *U : It->second) {
      if (U->kind() == ir::OpKind::Dot)
        return true;
      for (const ir::Value *R : U->results())
        if (reachesDot(R, Seen))
          return true;
    }
    return false;
  }
  void findChainedDots(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      std::set<const ir::Value *> Seen;
      if (O->kind() == ir::OpKind::Dot && reachesDot(O->result(), Seen))
        P.ChainedDots.insert(O.get());
      for (const auto &R : O->regions())
        findChainedDots(*R);
    }
  }
  /// V takes L unless it has a layout already; then so does every value
  /// computed from V in registers: elementwise results of V's shape, the
  /// values a loop carries from V, a reduction's result (the slice of L)
  /// and expand_dims' (L with the new dimension). Mma: L is a dot's
  /// accumulator layout, which a store of V then writes from directly.
  void set(const ir::Value *V, const LinearLayout &L, bool Mma) {
    if (V->type().Shape != L.Shape || P.Wanted.count(V))
      return;
    P.Wanted.emplace(V, L);
    auto It = Users.find(V);
    if (It == Users.end())
      return;
    for (const ir::Op *U : It->second) {
      if (U->kind() == ir::OpKind::Yield) {
        const ir::Op *Parent = U->parentBlock() ? U->parentBlock()->parentOp() : nullptr;
        const auto *F = Parent ? ir::dyn_cast<ir::ForOp>(Parent) : nullptr;
        if (!F)
          continue;
        for (unsigned I = 0; I < U->numOperands() && I < F->numInits(); ++I)
          if (U->operand(I) == V) {
            set(F->init(I), L, Mma);
            set(F->body()->argument(1 + I), L, Mma);
            set(F->result(I), L, Mma);
          }
      } else if (const auto *S = ir::dyn_cast<ir::StoreOp>(U); S && S->value() == V) {
        if (Mma && StoreFromAccumulator)
          store(*S, L);
      } else if (const auto *R = ir::dyn_cast<ir::ReduceOp>(U)) {
        // Every operand of a reduction shares the first one's layout, and
        // a reduction to a scalar leaves no layout to pass on.
        if (R->operand(0) != V || R->result()->type().Shape.empty())
          continue;
        LinearLayout Out = sliceLayout(L, static_cast<unsigned>(R->axis()));
        for (ir::Value *Res : R->results())
          set(Res, Out, Mma);
      } else if (const auto *E = ir::dyn_cast<ir::ExpandDimsOp>(U)) {
        set(E->result(), insertDim(L, static_cast<unsigned>(E->axis())), Mma);
      } else if (elementwise(*U) && U->result()->type().Shape == L.Shape) {
        set(U->result(), L, Mma);
      }
    }
  }
  /// The store writes from L: consecutive registers along the last
  /// dimension, as far as the pointer's alignment and the mask allow.
  void store(const ir::StoreOp &S, const LinearLayout &L) {
    if (P.Access.count(&S))
      return;
    const AxisInfo &PI = AI.get(S.ptr());
    unsigned Last = L.rank() - 1;
    int64_t ElemBytes = std::max(1, bitWidth(S.ptr()->type().Elem.pointee().Scalar) / 8);
    int64_t Vec = std::min<int64_t>(L.contiguousRegs(Last), floorPow2(PI.Contiguity[Last]));
    Vec = std::min(Vec, std::max<int64_t>(1, PI.Divisibility[Last] / ElemBytes));
    if (S.mask())
      Vec = std::min(Vec, floorPow2(AI.get(S.mask()).Constancy[Last]));
    MemAccess A;
    A.Layout = L;
    A.Vector = static_cast<unsigned>(std::max<int64_t>(1, Vec));
    P.Access.emplace(&S, std::move(A));
  }
};
} // namespace

bool LayoutPlan::copiedByTma(const ir::Op &Access) const {
  const ir::Value *Base = nullptr;
  if (const auto *L = ir::dyn_cast<ir::LoadOp>(&Access))
    Base = L->descriptorBase();
  else if (const auto *S = ir::dyn_cast<ir::StoreOp>(&Access))
    Base = S->descriptorBase();
  return Base && TmaBases.count(Base);
}

const ir::Value *LayoutPlan::accessMask(const ir::Op &Access) const {
  if (copiedByTma(Access))
    return nullptr;
  if (const auto *L = ir::dyn_cast<ir::LoadOp>(&Access))
    return L->mask();
  if (const auto *S = ir::dyn_cast<ir::StoreOp>(&Access))
    return S->mask();
  if (const auto *R = ir::dyn_cast<ir::AtomicRMWOp>(&Access))
    return R->mask();
  return nullptr;
}

namespace {
/// Triton's hoistConvertOnTopOfExtOrBroadcast (RemoveLayoutConversions.cpp)
/// for the conversion in front of a store: where the stored value is
/// computed in registers from one widening cast (fp16 -> fp32, i8 -> i32,
/// an fp8 upcast) of a value that cannot be recomputed in the store's
/// layout (a load), Triton moves the conversion above the cast, onto the
/// narrower values, and recomputes what follows in the store's layout:
/// flash-attention's cross-entropy backward reads fp16 logits eight to a
/// thread and writes fp32 four to a thread, and converts 2048 bytes, not
/// 4096. Here the values between the cast and the store take the store's
/// layout, so the cast's operand is the one converted. tessel gives a value
/// one layout, so where a float value of the chain has a user outside it
/// (Triton would compute it twice) the conversion stays at the store;
/// indices and masks are recomputed where needed, as Triton does.
class ExtensionHoist {
public:
  /// Users: every op that reads each value (ForwardSeeder::Users).
  ExtensionHoist(const ir::Function &F, LayoutPlan &P, const Uses &Users) : P(P), Users(Users) { collect(F.body()); }

  void run() {
    for (const ir::StoreOp *S : Stores)
      hoist(*S);
  }

private:
  LayoutPlan &P;
  const Uses &Users;
  std::vector<const ir::StoreOp *> Stores;

  void collect(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      if (const auto *S = ir::dyn_cast<ir::StoreOp>(O.get()))
        Stores.push_back(S);
      for (const auto &R : O->regions())
        collect(*R);
    }
  }

  static bool widening(const ir::Op &O) {
    if (O.kind() != ir::OpKind::Cast || O.numOperands() != 1)
      return false;
    ScalarKind From = O.operand(0)->type().Elem.Scalar, To = O.result()->type().Elem.Scalar;
    if (O.operand(0)->type().Elem.isPointer() || O.result()->type().Elem.isPointer())
      return false;
    return isFloat(From) == isFloat(To) && bitWidth(From) < bitWidth(To);
  }

  void hoist(const ir::StoreOp &S) {
    auto A = P.Access.find(&S);
    const ir::Value *V = S.value();
    if (A == P.Access.end() || P.copiedByTma(S) || V->type().Shape.empty() || !P.Wanted.count(V))
      return;
    const LinearLayout &To = A->second.Layout;
    if (P.wanted(V) == To || To.Shape != V->type().Shape)
      return;
    // The chain back from the stored value to the one cast: every value of
    // the tile's shape, computed in registers, used only inside the chain.
    std::vector<const ir::Value *> Chain, Work{V};
    std::set<const ir::Value *> Seen{V};
    const ir::Op *Cast = nullptr;
    while (!Work.empty()) {
      const ir::Value *X = Work.back();
      Work.pop_back();
      const ir::Op *D = X->definingOp();
      if (!D || (!widening(*D) && !elementwise(*D)))
        return;
      Chain.push_back(X);
      if (widening(*D)) {
        if (Cast)
          return; // Triton hoists above one extension only
        Cast = D;
        continue;
      }
      for (const ir::Value *Op : D->operands())
        if (Op->type().Shape == V->type().Shape && Seen.insert(Op).second)
          Work.push_back(Op);
    }
    if (!Cast || !Cast->operand(0)->definingOp())
      return;
    std::set<const ir::Op *> Inside{&S};
    for (const ir::Value *X : Chain)
      Inside.insert(X->definingOp());
    std::vector<const ir::Value *> Moved;
    for (const ir::Value *X : Chain) {
      auto It = Users.find(X);
      bool Outside = It != Users.end() &&
                     std::any_of(It->second.begin(), It->second.end(), [&](const ir::Op *U) { return !Inside.count(U); });
      ElemType E = X->type().Elem;
      // Indices, masks and pointers used elsewhere keep their layout: the
      // chain recomputes them in the store's (LoweringContext::getAs).
      if (!Outside)
        Moved.push_back(X);
      else if (!E.isPointer() && isFloat(E.Scalar))
        return;
    }
    for (const ir::Value *X : Moved)
      P.Wanted.insert_or_assign(X, To);
  }
};
} // namespace

LayoutPlan assignLayouts(const ir::Function &F, unsigned NumWarps, const AxisInfoAnalysis &AI, int Arch, bool Wgmma,
                         std::set<const ir::Value *> TmaBases, bool StoreFromAccumulator) {
  LayoutPlan P;
  P.TmaBases = std::move(TmaBases);
  P.NumWarps = NumWarps;
  P.Arch = Arch;
  P.Wgmma = Wgmma && Arch >= 90;
  P.Combine = combineDotAdds(F);
  Coalescer Coalesce(F, P, AI);
  ForwardSeeder S{P, AI, Coalesce, {}, {}};
  S.StoreFromAccumulator = StoreFromAccumulator;
  S.collect(F.body());
  S.findChainedDots(F.body());
  if (Arch >= 80)
    S.seedDots(F.body());
  S.seedMemory();
  LayoutPlan Seeds = P;
  Walker W{P, AI, Coalesce, {}, nullptr};
  W.walk(F.body());
  if (!W.Rematerialized.empty()) {
    // Again, with the loops knowing which of their loads were read in
    // another layout: the consumers want the same layouts as before (a
    // pointer's layout changes no value's), now without the conversions.
    P = std::move(Seeds);
    Walker Again{P, AI, Coalesce, {}, &W.Rematerialized};
    Again.walk(F.body());
  }
  ExtensionHoist(F, P, S.Users).run();
  return P;
}

} // namespace tessel::codegen
