//===- HoistConstantOffsets.cpp - constants to the outside of index sums --===//
/// \file
/// `(X + C) + Y` becomes `(X + Y) + C`,
/// repeated until no constant sits under a sum with a non-constant (see the
/// header for why). Both steps are exact in wrapping arithmetic; the flags
/// of the old sums are dropped and InstCombine, which runs next, derives
/// `or disjoint` and no-wrap again from the known bits.
//===----------------------------------------------------------------------===//
#include "compiler/backend/HoistConstantOffsets.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/ValueHandle.h"

#include <vector>

namespace tessel::backend {

namespace {

/// An `add`, or an `or` whose operands share no bit: both a sum.
bool isSum(const llvm::Value *V) {
  const auto *B = llvm::dyn_cast<llvm::BinaryOperator>(V);
  if (!B || !B->getType()->isIntegerTy())
    return false;
  if (B->getOpcode() == llvm::Instruction::Add)
    return true;
  return B->getOpcode() == llvm::Instruction::Or && llvm::cast<llvm::PossiblyDisjointInst>(B)->isDisjoint();
}

/// The sum's constant term, where it has one. The sum may feed others too
/// (a row index also addresses the reduction's scratch): it then stays for
/// them, and the rewritten sum shares `X + Y` with its neighbours instead.
llvm::ConstantInt *hoistableConstant(llvm::Value *V) {
  if (!isSum(V))
    return nullptr;
  return llvm::dyn_cast<llvm::ConstantInt>(llvm::cast<llvm::BinaryOperator>(V)->getOperand(1));
}

/// Rewrites `I = (X + C) + Y` (either operand order) into `S + C` with
/// `S = X + Y` and returns S, or null where I has no such shape.
llvm::BinaryOperator *hoist(llvm::BinaryOperator &I) {
  if (!isSum(&I))
    return nullptr;
  for (unsigned K = 0; K < 2; ++K) {
    llvm::Value *Inner = I.getOperand(K);
    llvm::Value *Other = I.getOperand(1 - K);
    llvm::ConstantInt *C = hoistableConstant(Inner);
    if (!C || llvm::isa<llvm::Constant>(Other))
      continue;
    auto *InnerSum = llvm::cast<llvm::BinaryOperator>(Inner);
    auto *Shared = llvm::BinaryOperator::CreateAdd(InnerSum->getOperand(0), Other, "", I.getIterator());
    auto *Outer = llvm::BinaryOperator::CreateAdd(Shared, C, "", I.getIterator());
    Shared->setDebugLoc(I.getDebugLoc());
    Outer->setDebugLoc(I.getDebugLoc());
    Outer->takeName(&I);
    I.replaceAllUsesWith(Outer);
    I.eraseFromParent();
    if (InnerSum->use_empty())
      InnerSum->eraseFromParent();
    return Shared;
  }
  return nullptr;
}

} // namespace

llvm::PreservedAnalyses HoistConstantOffsetsPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  // One sweep in program order takes each constant outward past all the
  // sums above it (an inner sum is rewritten before its users are looked
  // at); a second sweep finds the constants that a new `X + Y` brought in
  // from Y. Weak handles: a sum folded away leaves a null entry.
  bool Changed = false;
  for (int Sweep = 0; Sweep < 8; ++Sweep) {
    std::vector<llvm::WeakVH> Work;
    for (llvm::Instruction &I : llvm::instructions(F))
      if (isSum(&I))
        Work.emplace_back(&I);
    bool Swept = false;
    for (llvm::WeakVH &H : Work)
      if (auto *B = llvm::dyn_cast_or_null<llvm::BinaryOperator>(H))
        Swept |= hoist(*B) != nullptr;
    if (!Swept)
      break;
    Changed = true;
  }
  if (!Changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses PA;
  PA.preserveSet<llvm::CFGAnalyses>();
  return PA;
}

} // namespace tessel::backend
