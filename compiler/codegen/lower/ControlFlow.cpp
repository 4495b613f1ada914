//===- ControlFlow.cpp - for, while and if with carried tiles -------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Structured control flow becomes LLVM blocks and phis, one phi per
/// register of every carried tile. A carried value keeps one layout across
/// iterations: the layout assignment gives the block arguments the layout
/// of the op's results, and inits and yielded values are converted to it.
///
///   for:   header(iv, carried) -> body -> header; header -> exit when
///          iv >= ub (signed or unsigned compare as the induction type;
///          `iv > ub` for a negative constant step)
///   while: before(carried) -> condition -> after -> before; the forwarded
///          values are the results
///   if:    then / else -> merge, phis for the results
/// The conditions and bounds are scalars every thread holds, so all threads
/// take the same path (barriers inside regions are safe).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

namespace tessel::codegen {

namespace {
/// The phis of one carried list.
struct CarriedPhis {
  std::vector<Tile> Tiles;

  void create(LoweringContext &C, const std::vector<ir::Value *> &Results, llvm::BasicBlock *Pred,
              const std::vector<Tile> &Inits) {
    for (size_t I = 0; I < Results.size(); ++I) {
      Tile T{Inits[I].Layout, {}};
      for (llvm::Value *V : Inits[I].Regs) {
        T.Regs.push_back(C.loopPhi(V, Pred));
      }
      Tiles.push_back(std::move(T));
    }
  }
  void addIncoming(LoweringContext &C, const std::vector<Tile> &From, llvm::BasicBlock *Pred) {
    for (size_t I = 0; I < Tiles.size(); ++I)
      for (size_t R = 0; R < Tiles[I].Regs.size(); ++R)
        C.closeLoopPhi(llvm::cast<llvm::PHINode>(Tiles[I].Regs[R]), From[I].Regs[R], Pred);
  }
};
} // namespace

std::vector<Tile> yieldedTiles(LoweringContext &C, const ir::Block &Blk, unsigned First,
                               const std::vector<Tile> &Like) {
  std::vector<Tile> Out;
  const ir::Op *T = Blk.terminator();
  for (size_t I = 0; I < Like.size(); ++I)
    Out.push_back(T && First + I < T->numOperands() ? C.getAs(T->operand(First + I), Like[I].Layout) : Like[I]);
  return Out;
}

llvm::Value *forContinues(LoweringContext &C, const ir::ForOp &O, llvm::Value *Iv, llvm::Value *Ub, llvm::Value *Step) {
  llvm::IRBuilderBase &B = C.B;
  bool Uns = isUnsigned(O.inductionVar()->type().Elem.Scalar);
  bool Down = false;
  if (auto *CI = llvm::dyn_cast<llvm::ConstantInt>(Step))
    Down = !Uns && CI->isNegative();
  // Built without the folder: Iv's phi still holds the stand-in for its latch
  // value, and simplifying over it (known bits of a half-built phi) crashed
  // LLVM on a loop that never runs (`range(0)` once constexprs are known).
  llvm::CmpInst::Predicate P = Down ? llvm::CmpInst::ICMP_SGT : Uns ? llvm::CmpInst::ICMP_ULT : llvm::CmpInst::ICMP_SLT;
  return B.Insert(new llvm::ICmpInst(P, Iv, Ub));
}

static void lowerFor(LoweringContext &C, const ir::ForOp &O) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *Lb = C.get(O.lowerBound()).Regs[0], *Ub = C.get(O.upperBound()).Regs[0];
  llvm::Value *Step = C.get(O.step()).Regs[0];
  std::vector<Tile> Inits;
  for (unsigned I = 0; I < O.numInits(); ++I)
    Inits.push_back(C.getAs(O.init(I), C.wanted(O.body()->argument(1 + I))));
  LoopInvariants Invariant = stageLoopInvariants(C, O);
  llvm::BasicBlock *Pre = B.GetInsertBlock();
  llvm::BasicBlock *Header = llvm::BasicBlock::Create(C.Ctx, "for.header", &C.Kernel);
  llvm::BasicBlock *Body = llvm::BasicBlock::Create(C.Ctx, "for.body", &C.Kernel);
  llvm::BasicBlock *Exit = llvm::BasicBlock::Create(C.Ctx, "for.exit", &C.Kernel);
  B.CreateBr(Header);
  B.SetInsertPoint(Header);
  llvm::PHINode *Iv = C.loopPhi(Lb, Pre, "iv");
  CarriedPhis Phis;
  std::vector<ir::Value *> Results(O.results().begin(), O.results().end());
  Phis.create(C, Results, Pre, Inits);
  B.CreateCondBr(forContinues(C, O, Iv, Ub, Step), Body, Exit);
  B.SetInsertPoint(Body);
  C.set(O.inductionVar(), C.scalarTile(Iv));
  for (unsigned I = 0; I < O.numInits(); ++I)
    C.set(O.body()->argument(1 + I), Phis.Tiles[I]);
  bindLoopInvariants(C, Invariant, true);
  C.lowerBlock(*O.body());
  bindLoopInvariants(C, Invariant, false);
  std::vector<Tile> Next = yieldedTiles(C, *O.body(), 0, Phis.Tiles);
  llvm::Value *IvNext = B.CreateAdd(Iv, Step);
  llvm::BasicBlock *Latch = B.GetInsertBlock();
  B.CreateBr(Header);
  C.closeLoopPhi(Iv, IvNext, Latch);
  Phis.addIncoming(C, Next, Latch);
  B.SetInsertPoint(Exit);
  closeLoopInvariants(C, Invariant);
  for (unsigned I = 0; I < O.numResults(); ++I)
    C.set(O.result(I), Phis.Tiles[I]);
}

static void lowerWhile(LoweringContext &C, const ir::WhileOp &O) {
  llvm::IRBuilderBase &B = C.B;
  std::vector<Tile> Inits;
  for (unsigned I = 0; I < O.numOperands(); ++I)
    Inits.push_back(C.getAs(O.operand(I), C.wanted(O.before()->argument(I))));
  llvm::BasicBlock *Pre = B.GetInsertBlock();
  llvm::BasicBlock *Before = llvm::BasicBlock::Create(C.Ctx, "while.before", &C.Kernel);
  llvm::BasicBlock *After = llvm::BasicBlock::Create(C.Ctx, "while.after", &C.Kernel);
  llvm::BasicBlock *Exit = llvm::BasicBlock::Create(C.Ctx, "while.exit", &C.Kernel);
  B.CreateBr(Before);
  B.SetInsertPoint(Before);
  CarriedPhis Phis;
  std::vector<ir::Value *> Args(O.before()->arguments().begin(), O.before()->arguments().end());
  Phis.create(C, Args, Pre, Inits);
  for (size_t I = 0; I < Args.size(); ++I)
    C.set(Args[I], Phis.Tiles[I]);
  C.lowerBlock(*O.before());
  const ir::Op *Cond = O.before()->terminator();
  llvm::Value *Go = Cond ? C.get(Cond->operand(0)).Regs[0] : B.getFalse();
  std::vector<Tile> Like;
  for (ir::Value *R : O.results())
    Like.push_back(Tile{C.wanted(R), {}});
  std::vector<Tile> Forwarded = yieldedTiles(C, *O.before(), 1, Like);
  B.CreateCondBr(Go, After, Exit);
  B.SetInsertPoint(After);
  for (size_t I = 0; I < O.after()->arguments().size() && I < Forwarded.size(); ++I)
    C.set(O.after()->argument(static_cast<unsigned>(I)), Forwarded[I]);
  C.lowerBlock(*O.after());
  std::vector<Tile> Next = yieldedTiles(C, *O.after(), 0, Phis.Tiles);
  llvm::BasicBlock *Latch = B.GetInsertBlock();
  B.CreateBr(Before);
  Phis.addIncoming(C, Next, Latch);
  B.SetInsertPoint(Exit);
  for (unsigned I = 0; I < O.numResults() && I < Forwarded.size(); ++I)
    C.set(O.result(I), Forwarded[I]);
}

static void lowerIf(LoweringContext &C, const ir::IfOp &O) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *Cond = C.get(O.condition()).Regs[0];
  llvm::BasicBlock *Then = llvm::BasicBlock::Create(C.Ctx, "if.then", &C.Kernel);
  llvm::BasicBlock *Else = llvm::BasicBlock::Create(C.Ctx, "if.else", &C.Kernel);
  llvm::BasicBlock *Merge = llvm::BasicBlock::Create(C.Ctx, "if.end", &C.Kernel);
  B.CreateCondBr(Cond, Then, Else);
  std::vector<Tile> Like;
  for (ir::Value *R : O.results())
    Like.push_back(Tile{C.wanted(R), {}});
  auto Arm = [&](llvm::BasicBlock *BB, const ir::Block *Region) {
    B.SetInsertPoint(BB);
    std::vector<Tile> Vals;
    if (Region) {
      C.lowerBlock(*Region);
      Vals = yieldedTiles(C, *Region, 0, Like);
    }
    llvm::BasicBlock *End = B.GetInsertBlock();
    B.CreateBr(Merge);
    return std::make_pair(Vals, End);
  };
  auto [ThenVals, ThenEnd] = Arm(Then, O.thenBlock());
  auto [ElseVals, ElseEnd] = Arm(Else, O.elseBlock());
  B.SetInsertPoint(Merge);
  for (unsigned I = 0; I < O.numResults(); ++I) {
    Tile T{Like[I].Layout, {}};
    for (unsigned R = 0; R < Like[I].Layout.numRegs(); ++R) {
      llvm::Value *A = ThenVals.size() > I ? ThenVals[I].Regs[R] : nullptr;
      llvm::Value *Bv = ElseVals.size() > I ? ElseVals[I].Regs[R] : nullptr;
      llvm::Type *Ty = A ? A->getType() : Bv ? Bv->getType() : C.regType(O.result(I)->type().Elem);
      llvm::PHINode *P = B.CreatePHI(Ty, 2);
      P->addIncoming(A ? A : llvm::PoisonValue::get(Ty), ThenEnd);
      P->addIncoming(Bv ? Bv : llvm::PoisonValue::get(Ty), ElseEnd);
      T.Regs.push_back(P);
    }
    C.set(O.result(I), std::move(T));
  }
}

bool lowerControlFlow(LoweringContext &C, const ir::Op &O) {
  switch (O.kind()) {
  case ir::OpKind::For:
    lowerFor(C, *ir::cast<ir::ForOp>(&O));
    return true;
  case ir::OpKind::While:
    lowerWhile(C, *ir::cast<ir::WhileOp>(&O));
    return true;
  case ir::OpKind::If:
    lowerIf(C, *ir::cast<ir::IfOp>(&O));
    return true;
  default:
    return false;
  }
}

} // namespace tessel::codegen
