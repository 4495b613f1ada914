//===- Scan.cpp - inclusive scans along one axis --------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `scan` (cumsum, cumprod, associative_scan, reverse) through the shared
/// scratch: the operands are written row major; each thread then walks
/// whole rows (the lines along the axis; thread t takes rows t, t + T, ...)
/// sequentially from the first element (or the last, reversed), combining
/// and writing back the running value; after a barrier every register reads
/// its element. Sequential combination is what the interpreter does, so
/// float results match it bit for bit, and a custom combine needs no
/// associativity. (Triton's warp-shuffle scan is faster for long rows; it
/// is a later optimisation, not a semantic one.)
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

namespace tessel::codegen {

bool lowerScan(LoweringContext &C, const ir::Op &Op) {
  const auto *O = ir::dyn_cast<ir::ScanOp>(&Op);
  if (!O)
    return false;
  llvm::IRBuilderBase &B = C.B;
  const auto &Shape = O->operand(0)->type().Shape;
  unsigned Axis = static_cast<unsigned>(O->axis());
  int64_t Len = Shape[Axis], Inner = 1, Numel = 1;
  for (size_t D = 0; D < Shape.size(); ++D) {
    Numel *= Shape[D];
    if (D > Axis)
      Inner *= Shape[D];
  }
  int64_t Rows = Numel / Len;
  size_t N = O->numOperands();
  std::vector<ElemType> Types;
  std::vector<uint64_t> ByteBase;
  uint64_t Bytes = 0;
  for (ir::Value *V : O->operands()) {
    Types.push_back(V->type().Elem);
    ByteBase.push_back(Bytes = (Bytes + 15) / 16 * 16);
    Bytes += static_cast<uint64_t>(Numel) * C.M.getDataLayout().getTypeAllocSize(C.memType(V->type().Elem));
  }
  llvm::Value *Buf = C.scratch(SharedBufferKind::ScanScratch, LoweringContext::tileString(Shape, Types[0]), Bytes);
  auto Slot = [&](size_t I, llvm::Value *Idx) {
    llvm::Value *Base = C.sharedElement(Buf, ElemType{ScalarKind::I8}, C.i32(static_cast<int64_t>(ByteBase[I])));
    return B.CreateGEP(C.memType(Types[I]), Base, {Idx});
  };
  C.barrier();
  for (size_t I = 0; I < N; ++I) {
    const Tile &T = C.get(O->operand(static_cast<unsigned>(I)));
    for (unsigned R = 0; R < T.Regs.size(); ++R)
      B.CreateStore(C.toMem(T.Regs[R], Types[I]), Slot(I, C.linearIndex(T.Layout, R)));
  }
  C.barrier();

  // for (row = tid; row < Rows; row += threads) walk the row.
  int64_t Threads = 32 * C.Opts.NumWarps;
  llvm::BasicBlock *Pre = B.GetInsertBlock();
  llvm::BasicBlock *RowHead = llvm::BasicBlock::Create(C.Ctx, "scan.row", &C.Kernel);
  llvm::BasicBlock *RowBody = llvm::BasicBlock::Create(C.Ctx, "scan.row.body", &C.Kernel);
  llvm::BasicBlock *ElemHead = llvm::BasicBlock::Create(C.Ctx, "scan.elem", &C.Kernel);
  llvm::BasicBlock *ElemBody = llvm::BasicBlock::Create(C.Ctx, "scan.elem.body", &C.Kernel);
  llvm::BasicBlock *RowNext = llvm::BasicBlock::Create(C.Ctx, "scan.row.next", &C.Kernel);
  llvm::BasicBlock *Done = llvm::BasicBlock::Create(C.Ctx, "scan.done", &C.Kernel);
  B.CreateBr(RowHead);
  B.SetInsertPoint(RowHead);
  llvm::PHINode *Row = C.loopPhi(C.threadId(), Pre, "row");
  B.CreateCondBr(B.CreateICmpULT(Row, C.i32(Rows)), RowBody, Done);

  B.SetInsertPoint(RowBody);
  llvm::Value *Outer = B.CreateUDiv(Row, C.i32(Inner)), *In = B.CreateURem(Row, C.i32(Inner));
  llvm::Value *RowBase = B.CreateAdd(B.CreateMul(Outer, C.i32(Len * Inner)), In);
  auto Index = [&](llvm::Value *J) { return B.CreateAdd(RowBase, B.CreateMul(J, C.i32(Inner))); };
  bool Rev = O->reverse();
  llvm::Value *First = C.i32(Rev ? Len - 1 : 0);
  std::vector<llvm::Value *> Init;
  for (size_t I = 0; I < N; ++I)
    Init.push_back(C.fromMem(B.CreateLoad(C.memType(Types[I]), Slot(I, Index(First))), Types[I]));
  B.CreateBr(ElemHead);

  B.SetInsertPoint(ElemHead);
  llvm::PHINode *Step = C.loopPhi(C.i32(1), RowBody, "step");
  std::vector<llvm::PHINode *> Acc;
  for (size_t I = 0; I < N; ++I)
    Acc.push_back(C.loopPhi(Init[I], RowBody));
  B.CreateCondBr(B.CreateICmpULT(Step, C.i32(Len)), ElemBody, RowNext);

  B.SetInsertPoint(ElemBody);
  llvm::Value *J = Rev ? B.CreateSub(C.i32(Len - 1), Step) : static_cast<llvm::Value *>(Step);
  std::vector<llvm::Value *> Cur;
  for (size_t I = 0; I < N; ++I)
    Cur.push_back(C.fromMem(B.CreateLoad(C.memType(Types[I]), Slot(I, Index(J))), Types[I]));
  std::vector<llvm::Value *> Next;
  ScalarKind S = Types[0].Scalar;
  bool Fp = isFloat(S);
  switch (O->scanKind()) {
  case ir::ScanKind::CumSum:
    Next.push_back(Fp ? B.CreateFAdd(Acc[0], Cur[0]) : B.CreateAdd(Acc[0], Cur[0]));
    break;
  case ir::ScanKind::CumProd:
    Next.push_back(Fp ? B.CreateFMul(Acc[0], Cur[0]) : B.CreateMul(Acc[0], Cur[0]));
    break;
  case ir::ScanKind::Custom: {
    std::vector<llvm::Value *> Args(Acc.begin(), Acc.end());
    Args.insert(Args.end(), Cur.begin(), Cur.end());
    Next = C.lowerScalarRegion(*O->combine(), Args);
    break;
  }
  }
  for (size_t I = 0; I < N && I < Next.size(); ++I)
    B.CreateStore(C.toMem(Next[I], Types[I]), Slot(I, Index(J)));
  llvm::BasicBlock *ElemEnd = B.GetInsertBlock();
  C.closeLoopPhi(Step, B.CreateAdd(Step, C.i32(1)), ElemEnd);
  for (size_t I = 0; I < N; ++I)
    C.closeLoopPhi(Acc[I], I < Next.size() ? Next[I] : static_cast<llvm::Value *>(Acc[I]), ElemEnd);
  B.CreateBr(ElemHead);

  B.SetInsertPoint(RowNext);
  C.closeLoopPhi(Row, B.CreateAdd(Row, C.i32(Threads)), RowNext);
  B.CreateBr(RowHead);

  B.SetInsertPoint(Done);
  C.barrier();
  for (size_t I = 0; I < N; ++I) {
    LinearLayout L = C.wanted(O->result(static_cast<unsigned>(I)));
    Tile Out{L, {}};
    for (unsigned R = 0; R < L.numRegs(); ++R)
      Out.Regs.push_back(C.fromMem(B.CreateLoad(C.memType(Types[I]), Slot(I, C.linearIndex(L, R))), Types[I]));
    C.set(O->result(static_cast<unsigned>(I)), std::move(Out));
  }
  return true;
}

} // namespace tessel::codegen
