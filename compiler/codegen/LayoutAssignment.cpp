//===- LayoutAssignment.cpp - choosing each tile's layout -----------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Implements the two steps of LayoutAssignment.h: the coalesced layout of
/// every memory access (from AxisInfo), then one backward walk that hands
/// each value the layout its consumer wants.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/LayoutAssignment.h"

#include "compiler/codegen/layout/MmaLayout.h"
#include "compiler/codegen/lower/MmaInstr.h"

#include "compiler/ir/Ops.h"

#include <algorithm>
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

/// Coalesce's choice for one access through the pointer tile Ptr.
static MemAccess coalesce(const ir::Value *Ptr, const ir::Value *Mask, unsigned NumWarps, const AxisInfoAnalysis &AI) {
  MemAccess A;
  const std::vector<int64_t> &Shape = Ptr->type().Shape;
  if (Shape.empty()) {
    A.Layout = scalarLayout(NumWarps);
    return A;
  }
  size_t Rank = Shape.size();
  const AxisInfo &PI = AI.get(Ptr);
  // Fastest dimension: greatest contiguity, the last dimension on ties.
  std::vector<unsigned> Order(Rank);
  for (size_t D = 0; D < Rank; ++D)
    Order[D] = static_cast<unsigned>(Rank - 1 - D);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned X, unsigned Y) { return PI.Contiguity[X] > PI.Contiguity[Y]; });
  unsigned C = Order[0];
  int64_t ElemBits = std::max(8, bitWidth(Ptr->type().Elem.pointee().Scalar));
  int64_t ElemBytes = ElemBits / 8;
  int64_t Numel = std::accumulate(Shape.begin(), Shape.end(), int64_t{1}, std::multiplies<>());
  int64_t Threads = int64_t{32} * NumWarps;
  int64_t Align = std::min(floorPow2(PI.Contiguity[C]), std::max<int64_t>(1, PI.Divisibility[C] / ElemBytes));
  int64_t PerThread = std::min<int64_t>(Align, 128 / ElemBits);
  PerThread = std::min(PerThread, std::max<int64_t>(1, Numel / Threads));
  PerThread = std::max<int64_t>(1, std::min(PerThread, Shape[C]));
  std::vector<unsigned> Spt(Rank, 1);
  Spt[C] = static_cast<unsigned>(PerThread);
  A.Blocked = defaultBlocked(Shape, NumWarps, Spt, Order);
  A.Layout = toLinear(A.Blocked, Shape);
  int64_t Vec = std::min<int64_t>(PerThread, A.Layout.contiguousRegs(C));
  if (Mask)
    Vec = std::min(Vec, floorPow2(AI.get(Mask).Constancy[C]));
  A.Vector = static_cast<unsigned>(std::max<int64_t>(1, Vec));
  return A;
}

namespace {
struct Walker {
  LayoutPlan &P;
  const AxisInfoAnalysis &AI;

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

  void visit(const ir::Op &O) {
    using K = ir::OpKind;
    switch (O.kind()) {
    case K::Load:
    case K::Store:
    case K::AtomicRMW:
    case K::AtomicCas: {
      const ir::Value *Mask = nullptr;
      if (auto *L = ir::dyn_cast<ir::LoadOp>(&O))
        Mask = L->mask();
      else if (auto *S = ir::dyn_cast<ir::StoreOp>(&O))
        Mask = S->mask();
      else if (auto *R = ir::dyn_cast<ir::AtomicRMWOp>(&O))
        Mask = R->mask();
      auto Seeded = P.Access.find(&O);
      MemAccess A = Seeded != P.Access.end() ? Seeded->second : coalesce(O.operand(0), Mask, P.NumWarps, AI);
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
      for (ir::Value *R : O.results())
        resultLayout(R);
      for (ir::Value *V : O.operands())
        wantDefault(V);
      return;
    case K::Scan: {
      for (unsigned I = 0; I < O.numResults(); ++I)
        want(O.operand(I), resultLayout(O.result(I)));
      return;
    }
    case K::For: {
      const auto *F = ir::cast<ir::ForOp>(&O);
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

namespace {
/// The forward seeding of MMA layouts (LayoutAssignment.h).
struct MmaSeeder {
  LayoutPlan &P;
  const AxisInfoAnalysis &AI;
  int Arch;
  std::unordered_map<const ir::Value *, std::vector<const ir::Op *>> Users;

  void collect(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      for (ir::Value *V : O->operands())
        Users[V].push_back(O.get());
      for (const auto &R : O->regions())
        collect(*R);
    }
  }
  void seedDots(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      if (usesMma(*O, Arch)) {
        const auto *D = ir::cast<ir::DotOp>(O.get());
        const auto &Shape = D->result()->type().Shape;
        LinearLayout L = mmaAccumulatorLayout(Shape[0], Shape[1], P.NumWarps);
        set(D->acc(), L);
        set(D->result(), L);
      }
      for (const auto &R : O->regions())
        seedDots(*R);
    }
  }
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
    case K::DevicePrint:
    case K::DeviceAssert:
      return false;
    default:
      return O.numResults() == 1 && O.regions().empty();
    }
  }
  void set(const ir::Value *V, const LinearLayout &L) {
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
            set(F->init(I), L);
            set(F->body()->argument(1 + I), L);
            set(F->result(I), L);
          }
      } else if (const auto *S = ir::dyn_cast<ir::StoreOp>(U); S && S->value() == V) {
        store(*S, L);
      } else if (elementwise(*U) && U->result()->type().Shape == L.Shape) {
        set(U->result(), L);
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

LayoutPlan assignLayouts(const ir::Function &F, unsigned NumWarps, const AxisInfoAnalysis &AI, int Arch) {
  LayoutPlan P;
  P.NumWarps = NumWarps;
  if (Arch >= 80) {
    MmaSeeder S{P, AI, Arch, {}};
    S.collect(F.body());
    S.seedDots(F.body());
  }
  Walker W{P, AI};
  W.walk(F.body());
  return P;
}

} // namespace tessel::codegen
