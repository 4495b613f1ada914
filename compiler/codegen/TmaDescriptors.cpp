//===- TmaDescriptors.cpp - descriptors copied through tensor maps --------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// planTmaDescriptors (TmaDescriptors.h).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/TmaDescriptors.h"

#include "compiler/ir/Ops.h"

#include <algorithm>
#include <optional>

namespace tessel::codegen {

namespace {

/// Triton's TMA_ELEMENT_TYPES (TMAUtilities.cpp): floats by kind, other
/// elements by size (Triton's integers are signless: unsigned).
unsigned tmaElemType(ScalarKind K, unsigned Bytes) {
  switch (K) {
  case ScalarKind::FP16:
    return 6;
  case ScalarKind::BF16:
    return 10;
  case ScalarKind::FP32:
    return 7;
  case ScalarKind::FP64:
    return 9;
  default:
    return Bytes == 1 ? 0 : Bytes == 2 ? 1 : Bytes == 4 ? 2 : 4;
  }
}

/// Whether the parameters after Base are a descriptor's of rank Rank, in the
/// order of KernelABI's TmaDescriptorMeta comment.
bool descriptorGroup(const ir::Function &F, unsigned Base, unsigned Rank) {
  const auto &P = F.params();
  if (Base + 4 * Rank + 2 >= P.size())
    return false;
  auto Is = [&](unsigned I, ScalarKind K) {
    const TileType &T = P[I]->type();
    return T.Shape.empty() && !T.Elem.isPointer() && T.Elem.Scalar == K;
  };
  for (unsigned D = 0; D < 2 * Rank; ++D)
    if (!Is(Base + 1 + D, ScalarKind::I64))
      return false;
  if (!Is(Base + 2 * Rank + 1, ScalarKind::I1) || !Is(Base + 2 * Rank + 2, ScalarKind::I1))
    return false;
  for (unsigned D = 0; D < Rank; ++D)
    if (!Is(Base + 2 * Rank + 3 + D, ScalarKind::I32) || !Is(Base + 3 * Rank + 3 + D, ScalarKind::I64))
      return false;
  return true;
}

struct Access {
  std::vector<int64_t> Block;
  ElemType Elem;
};

void collect(const ir::Block &Blk, std::map<const ir::Value *, std::vector<Access>> &Out) {
  for (const auto &O : Blk.ops()) {
    if (const auto *L = ir::dyn_cast<ir::LoadOp>(O.get()); L && L->descriptorBase())
      Out[L->descriptorBase()].push_back({L->result()->type().Shape, L->result()->type().Elem});
    if (const auto *S = ir::dyn_cast<ir::StoreOp>(O.get()); S && S->descriptorBase())
      Out[S->descriptorBase()].push_back({S->value()->type().Shape, S->value()->type().Elem});
    for (const auto &R : O->regions())
      collect(*R, Out);
  }
}

/// The plan for a descriptor whose accesses are these, if TMA can copy its
/// blocks.
std::optional<TmaPlan> planFor(const std::vector<Access> &Accesses) {
  const Access &First = Accesses.front();
  bool Same = std::all_of(Accesses.begin(), Accesses.end(),
                          [&](const Access &A) { return A.Block == First.Block && A.Elem == First.Elem; });
  int Bits = bitWidth(First.Elem.Scalar);
  unsigned Bytes = Bits > 0 ? static_cast<unsigned>(Bits / 8) : 0;
  if (!Same || First.Block.size() != 2 || (Bytes != 1 && Bytes != 2 && Bytes != 4))
    return std::nullopt;
  int64_t Rows = First.Block[0], Cols = First.Block[1];
  NvmmaLayout N = NvmmaLayout::forTile(Rows, Cols, Bytes);
  if (!N.SwizzleBytes || (Cols * Bytes) % N.SwizzleBytes)
    return std::nullopt;
  TmaPlan P;
  P.Layout = N;
  P.Meta.Rank = 2;
  P.Meta.ElemBytes = Bytes;
  P.Meta.ElemType = tmaElemType(First.Elem.Scalar, Bytes);
  P.Meta.Swizzle = N.SwizzleBytes == 128 ? 3 : N.SwizzleBytes == 64 ? 2 : 1;
  P.Meta.Box = {static_cast<uint32_t>(std::min<int64_t>(Rows, 256)), static_cast<uint32_t>(N.SwizzleBytes / Bytes)};
  if (Rows % P.Meta.Box[0])
    return std::nullopt;
  return P;
}

/// Whether O runs once per program where it stands: no loop holds it.
bool outsideLoops(const ir::Op &O) {
  for (const ir::Op *P = O.parentBlock() ? O.parentBlock()->parentOp() : nullptr; P;
       P = P->parentBlock() ? P->parentBlock()->parentOp() : nullptr)
    if (P->kind() == ir::OpKind::For || P->kind() == ir::OpKind::While)
      return false;
  return true;
}

void collectCreated(const ir::Block &Blk, std::vector<const ir::MakeTensorDescOp *> &Out) {
  for (const auto &O : Blk.ops()) {
    if (const auto *M = ir::dyn_cast<ir::MakeTensorDescOp>(O.get()))
      Out.push_back(M);
    for (const auto &R : O->regions())
      collectCreated(*R, Out);
  }
}

} // namespace

TmaDescriptorPlan planTmaDescriptors(const ir::Function &F, int Arch) {
  TmaDescriptorPlan Out;
  if (Arch < 90)
    return Out;
  std::map<const ir::Value *, std::vector<Access>> Accesses;
  collect(F.body(), Accesses);
  const auto &Params = F.params();
  for (unsigned I = 0; I < Params.size(); ++I) {
    auto It = Accesses.find(Params[I]);
    if (It == Accesses.end() || !descriptorGroup(F, I, 2))
      continue;
    if (std::optional<TmaPlan> P = planFor(It->second)) {
      P->Meta.Param = I;
      Out.Params.emplace(I, std::move(*P));
    }
  }
  std::vector<const ir::MakeTensorDescOp *> Created;
  collectCreated(F.body(), Created);
  for (const ir::MakeTensorDescOp *M : Created) {
    auto It = Accesses.find(M->result());
    if (It == Accesses.end() || M->rank() != 2 || !outsideLoops(*M))
      continue;
    if (std::optional<TmaPlan> P = planFor(It->second)) {
      unsigned Slot = static_cast<unsigned>(Out.Created.size());
      Out.Created.emplace(M, CreatedTma{std::move(*P), Slot});
    }
  }
  return Out;
}

} // namespace tessel::codegen
