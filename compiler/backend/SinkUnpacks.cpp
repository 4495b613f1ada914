//===- SinkUnpacks.cpp - unpacking next to its use -------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
#include "compiler/backend/SinkUnpacks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

namespace tessel::backend {

/// Pure, cheap and one value in: what unpacking a packed word is made of.
static bool isUnpack(const llvm::Instruction &I) {
  if (llvm::isa<llvm::CastInst>(I))
    return true;
  if (const auto *E = llvm::dyn_cast<llvm::ExtractElementInst>(&I))
    return llvm::isa<llvm::Constant>(E->getIndexOperand());
  if (llvm::isa<llvm::ExtractValueInst>(I))
    return true;
  switch (I.getOpcode()) {
  case llvm::Instruction::LShr:
  case llvm::Instruction::AShr:
  case llvm::Instruction::Shl:
  case llvm::Instruction::And:
    return llvm::isa<llvm::Constant>(I.getOperand(1));
  default:
    return false;
  }
}

llvm::PreservedAnalyses SinkUnpacksPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  bool Changed = false;
  for (llvm::BasicBlock &BB : F) {
    // Bottom up, so an unpack's user has moved already when it moves.
    for (auto It = BB.rbegin(); It != BB.rend();) {
      llvm::Instruction &I = *It++;
      if (!isUnpack(I) || I.use_empty())
        continue;
      llvm::Instruction *First = nullptr;
      bool Local = true;
      for (llvm::User *U : I.users()) {
        auto *UI = llvm::dyn_cast<llvm::Instruction>(U);
        if (!UI || UI->getParent() != &BB || llvm::isa<llvm::PHINode>(UI)) {
          Local = false;
          break;
        }
        if (!First || UI->comesBefore(First))
          First = UI;
      }
      if (!Local || I.getNextNode() == First)
        continue;
      I.moveBefore(First);
      Changed = true;
    }
  }
  if (!Changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses PA;
  PA.preserveSet<llvm::CFGAnalyses>();
  return PA;
}

} // namespace tessel::backend
