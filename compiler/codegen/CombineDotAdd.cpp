//===- CombineDotAdd.cpp - acc + dot(a, b, 0) as dot(a, b, acc) -----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Finds the adds Triton's CombineDotAdd patterns fold into their dot
/// (CombineDotAdd.h): one walk counting every value's uses, one walk over
/// the adds.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/CombineDotAdd.h"

#include "compiler/ir/Ops.h"

namespace tessel::codegen {

namespace {
void countUses(const ir::Block &B, std::unordered_map<const ir::Value *, unsigned> &Uses) {
  for (const auto &O : B.ops()) {
    for (const ir::Value *V : O->operands())
      ++Uses[V];
    for (const auto &R : O->regions())
      countUses(*R, Uses);
  }
}

/// Whether V is the constant zero (isZero in Triton: an integer 0 or a
/// float ±0, scalar or splat).
bool isZero(const ir::Value *V) {
  const auto *C = ir::dyn_cast<ir::ConstantOp>(V->definingOp());
  if (!C)
    return false;
  if (isFloat(V->type().Elem.Scalar))
    return C->floatValue() == 0.0;
  return C->intValue() == 0;
}

/// Whether D, defined somewhere in scope of an op of Blk, is available
/// before Dot (an op of Blk): only a value defined by a later op of the same
/// block is not.
bool availableBefore(const ir::Value *D, const ir::Op &Dot) {
  const ir::Op *Def = D->definingOp();
  if (!Def || Def->parentBlock() != Dot.parentBlock())
    return true;
  for (const auto &O : Dot.parentBlock()->ops()) {
    if (O.get() == Def)
      return true;
    if (O.get() == &Dot)
      return false;
  }
  return false;
}

struct Finder {
  const std::unordered_map<const ir::Value *, unsigned> &Uses;
  DotAddCombine &Out;

  /// The dot Add folds, with its addend, or null.
  const ir::DotOp *combinable(const ir::Op &Add, const ir::Value *DotResult, const ir::Value *D) const {
    const auto *Dot = ir::dyn_cast<ir::DotOp>(DotResult->definingOp());
    if (!Dot || Dot->parentBlock() != Add.parentBlock() || !isZero(Dot->acc()))
      return nullptr;
    if (Uses.at(DotResult) != 1 || Out.Addend.count(Dot))
      return nullptr;
    const TileType &T = Dot->result()->type();
    if (!(Add.result()->type() == T) || !(D->type() == T))
      return nullptr;
    if (isFloat(T.Elem.Scalar) && Dot->maxNumImpreciseAcc() != 0)
      return nullptr;
    return availableBefore(D, *Dot) ? Dot : nullptr;
  }

  void walk(const ir::Block &B) {
    for (const auto &O : B.ops()) {
      for (const auto &R : O->regions())
        walk(*R);
      if (O->kind() != ir::OpKind::Add || O->numOperands() != 2)
        continue;
      // Combine.td tries d + dot first, then dot + d.
      for (unsigned I : {1u, 0u}) {
        const ir::Value *DotResult = O->operand(I), *D = O->operand(1 - I);
        if (const ir::DotOp *Dot = combinable(*O, DotResult, D)) {
          Out.Addend.emplace(Dot, D);
          Out.Folded.emplace(O.get(), Dot);
          break;
        }
      }
    }
  }
};
} // namespace

const ir::Value *DotAddCombine::accumulator(const ir::DotOp &Dot) const {
  auto It = Addend.find(&Dot);
  return It == Addend.end() ? Dot.acc() : It->second;
}

const ir::Op *DotAddCombine::foldedDot(const ir::Op &Add) const {
  auto It = Folded.find(&Add);
  return It == Folded.end() ? nullptr : It->second;
}

DotAddCombine combineDotAdds(const ir::Function &F) {
  std::unordered_map<const ir::Value *, unsigned> Uses;
  countUses(F.body(), Uses);
  DotAddCombine Out;
  Finder{Uses, Out}.walk(F.body());
  return Out;
}

} // namespace tessel::codegen
