//===- Dot.cpp - tl.dot on FMA units --------------------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `dot(a, b, acc)` as Triton's FMA path (DotOpToLLVM/FMA.cpp) computes it,
/// for the dots tensor cores do not take (DotMma.cpp has those): both operands are staged in the
/// shared scratch (row major, a first), and each accumulator register
/// (b, m, n) adds a[b, m, k] * b[b, k, n] for k = 0..K-1 in order, one fma
/// each, in the accumulator's type (fp16/bf16/fp8 operands widen exactly to
/// fp32; int8 multiplies and accumulates in int32). Operand values are
/// loaded once per k and distinct row or column a thread's registers use,
/// in one loop over k.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/Intrinsics.h>

namespace tessel::codegen {

bool lowerDot(LoweringContext &C, const ir::Op &Op) {
  const auto *O = ir::dyn_cast<ir::DotOp>(&Op);
  if (!O)
    return false;
  switch (C.Plan.engine(Op)) {
  case DotEngine::Wgmma:
    if (lowerDotWgmma(C, *O))
      return true;
    if (C.AsyncWgmmaDrain == &Op && C.AsyncWgmmaAcc) {
      // The group this dot's wait was to complete is still in flight.
      std::vector<llvm::Value *> None;
      wgmmaDrain(C, None);
    }
    break;
  case DotEngine::MmaSync:
    if (lowerDotMma(C, *O))
      return true;
    break;
  case DotEngine::Fma:
    break;
  }
  if (C.stagedOperand(O->a()) || C.stagedOperand(O->b())) {
    // The pipeliner (Pipeliner.h) promised this dot to a tensor-core
    // lowering (DotMma or DotWgmma); its operands
    // are in shared memory only, so an FMA loop would read nothing.
    C.unsupported(Op, "a pipelined dot that the tensor-core lowering refused (a tessel bug)");
    return true;
  }
  llvm::IRBuilderBase &B = C.B;
  const auto &AS = O->a()->type().Shape, &BS = O->b()->type().Shape;
  unsigned Rank = static_cast<unsigned>(AS.size());
  if (Rank != 2 && Rank != 3) {
    C.unsupported(Op, "a dot of rank " + std::to_string(Rank));
    return true;
  }
  ElemType AE = O->a()->type().Elem, BE = O->b()->type().Elem, OutE = O->result()->type().Elem;
  bool IntDot = isInt(OutE.Scalar);
  llvm::Type *AccTy = C.regType(OutE);
  int64_t M = AS[Rank - 2], K = AS[Rank - 1], N = BS[Rank - 1];
  int64_t Batch = Rank == 3 ? AS[0] : 1;
  LinearLayout L = C.wanted(O->result());
  Tile Acc = C.getAs(C.Plan.Combine.accumulator(*O), L);
  // Both operand tiles stay in shared memory for the whole k loop.
  uint64_t ABytes = static_cast<uint64_t>(Batch * M * K) * C.M.getDataLayout().getTypeAllocSize(C.memType(AE));
  uint64_t BBytes = static_cast<uint64_t>(Batch * K * N) * C.M.getDataLayout().getTypeAllocSize(C.memType(BE));
  unsigned ABuf = C.openShared(SharedBufferKind::DotOperand,
                               "operand a of tl.dot, " + LoweringContext::tileString(O->a()->type().Shape, AE), ABytes);
  unsigned BBuf = C.openShared(SharedBufferKind::DotOperand,
                               "operand b of tl.dot, " + LoweringContext::tileString(O->b()->type().Shape, BE), BBytes);
  llvm::Value *ABase = C.sharedBase(ABuf), *BBase = C.sharedBase(BBuf);
  C.barrier();
  C.stageToShared(C.get(O->a()), AE, ABase, 0, false);
  {
    const Tile &T = C.get(O->b());
    for (unsigned R = 0; R < T.Regs.size(); ++R)
      B.CreateStore(C.toMem(T.Regs[R], BE), B.CreateGEP(C.memType(BE), BBase, {C.linearIndex(T.Layout, R)}));
  }
  C.barrier();
  // Widening of one operand element to the accumulator type.
  auto Widen = [&](llvm::Value *V, ElemType E) -> llvm::Value * {
    if (IntDot)
      return isUnsigned(E.Scalar) ? B.CreateZExtOrTrunc(V, AccTy) : B.CreateSExtOrTrunc(V, AccTy);
    if (V->getType() == AccTy)
      return V;
    // Integer operands with a float accumulator (an int8 dot under an
    // assumed float32 out_dtype): the products are exact in fp32, as the
    // interpreter's integer sum added to the accumulator is.
    if (!isFloat(E.Scalar))
      return isUnsigned(E.Scalar) ? B.CreateUIToFP(V, AccTy) : B.CreateSIToFP(V, AccTy);
    if (isFP8(E.Scalar)) // exact through fp32 (Casts.cpp's decode table)
      return castRegister(C, V, E, OutE);
    return V->getType()->getPrimitiveSizeInBits() < AccTy->getPrimitiveSizeInBits() ? B.CreateFPExt(V, AccTy)
                                                                                    : B.CreateFPTrunc(V, AccTy);
  };
  // One loop over k (not unrolled here: code size stays linear in the
  // accumulator registers; LLVM unrolls what pays).
  llvm::BasicBlock *Pre = B.GetInsertBlock();
  llvm::BasicBlock *Loop = llvm::BasicBlock::Create(C.Ctx, "dot.k", &C.Kernel);
  llvm::BasicBlock *Exit = llvm::BasicBlock::Create(C.Ctx, "dot.done", &C.Kernel);
  // Row / column offsets (without k) are loop-invariant: compute them first.
  std::map<std::pair<int64_t, int64_t>, llvm::Value *> ARowBase, BColBase;
  std::vector<std::pair<llvm::Value *, llvm::Value *>> RegBase;
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    Coord RC = L.regCoord(R);
    int64_t Bt = Rank == 3 ? RC[0] : 0;
    llvm::Value *BIdx = Rank == 3 ? C.coord(L, R, 0) : C.i32(0);
    auto [AIt, ANew] = ARowBase.try_emplace({Bt, RC[Rank - 2]});
    if (ANew)
      AIt->second = B.CreateMul(B.CreateAdd(B.CreateMul(BIdx, C.i32(M)), C.coord(L, R, Rank - 2)), C.i32(K));
    auto [BIt, BNew] = BColBase.try_emplace({Bt, RC[Rank - 1]});
    if (BNew)
      BIt->second = B.CreateAdd(B.CreateMul(BIdx, C.i32(K * N)), C.coord(L, R, Rank - 1));
    RegBase.emplace_back(AIt->second, BIt->second);
  }
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  llvm::PHINode *Kv = C.loopPhi(C.i32(0), Pre, "k");
  std::vector<llvm::PHINode *> AccPhi;
  for (unsigned R = 0; R < L.numRegs(); ++R)
    AccPhi.push_back(C.loopPhi(Acc.Regs[R], Pre));
  std::map<llvm::Value *, llvm::Value *> AVals, BVals;
  auto LoadA = [&](llvm::Value *Base) {
    auto [It, New] = AVals.try_emplace(Base);
    if (New)
      It->second =
          Widen(C.fromMem(B.CreateLoad(C.memType(AE), C.sharedElement(ABase, AE, B.CreateAdd(Base, Kv))), AE), AE);
    return It->second;
  };
  auto LoadB = [&](llvm::Value *Base) {
    auto [It, New] = BVals.try_emplace(Base);
    if (New) {
      llvm::Value *Off = B.CreateAdd(Base, B.CreateMul(Kv, C.i32(N)));
      It->second = Widen(C.fromMem(B.CreateLoad(C.memType(BE), B.CreateGEP(C.memType(BE), BBase, {Off})), BE), BE);
    }
    return It->second;
  };
  Tile Out{L, {}};
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    llvm::Value *Av = LoadA(RegBase[R].first), *Bv = LoadB(RegBase[R].second);
    llvm::Value *V = IntDot ? B.CreateAdd(AccPhi[R], B.CreateMul(Av, Bv))
                            : B.CreateIntrinsic(llvm::Intrinsic::fma, {AccTy}, {Av, Bv, AccPhi[R]});
    Out.Regs.push_back(V);
  }
  llvm::Value *KNext = B.CreateAdd(Kv, C.i32(1));
  C.closeLoopPhi(Kv, KNext, Loop);
  for (unsigned R = 0; R < L.numRegs(); ++R)
    C.closeLoopPhi(AccPhi[R], Out.Regs[R], Loop);
  B.CreateCondBr(B.CreateICmpULT(KNext, C.i32(K)), Loop, Exit);
  B.SetInsertPoint(Exit);
  C.closeShared(ABuf);
  C.closeShared(BBuf);
  C.set(O->result(), std::move(Out));
  return true;
}

} // namespace tessel::codegen
