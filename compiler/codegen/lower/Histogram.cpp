//===- Histogram.cpp - tl.histogram through shared-memory atomics ---------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `histogram` as Triton's HistogramOpToLLVM lowers it: the bins are a
/// scratch of max(bins, 32) i32 (Allocation.cpp's size for a histogram),
/// zeroed by every thread at `(tid + i * threads) % bins`, then each input
/// element in [0, bins) (an unsigned compare, so negative values count
/// nowhere) and not masked off adds one to its bin with a shared-memory
/// atomic, and after a barrier every result register reads its bin.
/// Triton lets replicated threads count too and divides by the replication
/// factor; here only the thread that owns an element counts it, which gives
/// the same bins without the division.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <algorithm>

namespace tessel::codegen {

bool lowerHistogram(LoweringContext &C, const ir::Op &Op) {
  const auto *H = ir::dyn_cast<ir::HistogramOp>(&Op);
  if (!H)
    return false;
  llvm::IRBuilderBase &B = C.B;
  const int64_t Bins = H->bins();
  const ElemType I32{ScalarKind::I32};
  llvm::Value *Buf = C.scratch(SharedBufferKind::HistogramBins, "histogram of " + std::to_string(Bins) + " bins",
                               static_cast<uint64_t>(std::max<int64_t>(Bins, 32)) * 4);
  const int64_t Threads = 32 * C.Opts.NumWarps;
  C.barrier();
  for (int64_t I = 0; I * Threads < Bins; ++I) {
    llvm::Value *Slot = B.CreateURem(B.CreateAdd(C.threadId(), C.i32(I * Threads)), C.i32(Bins));
    B.CreateStore(C.i32(0), C.sharedElement(Buf, I32, Slot));
  }
  C.barrier();

  const Tile &X = C.get(H->input());
  std::optional<Tile> Mask;
  if (H->mask())
    Mask = C.getAs(H->mask(), X.Layout);
  llvm::Value *Owner = C.ownerPredicate(X.Layout);
  for (unsigned R = 0; R < X.Regs.size(); ++R) {
    llvm::Value *V = B.CreateIntCast(X.Regs[R], B.getInt32Ty(), !isUnsigned(H->input()->type().Elem.Scalar));
    // The compare on the input's own width: a 64-bit value past 2^32 is no bin.
    llvm::Value *Pred = B.CreateICmpULT(X.Regs[R], llvm::ConstantInt::get(X.Regs[R]->getType(), Bins));
    if (Mask)
      Pred = B.CreateAnd(Pred, B.CreateTrunc(Mask->Regs[R], B.getInt1Ty()));
    if (Owner)
      Pred = B.CreateAnd(Pred, Owner);
    llvm::BasicBlock *Add = llvm::BasicBlock::Create(C.Ctx, "histogram.add", &C.Kernel);
    llvm::BasicBlock *Next = llvm::BasicBlock::Create(C.Ctx, "histogram.next", &C.Kernel);
    B.CreateCondBr(Pred, Add, Next);
    B.SetInsertPoint(Add);
    B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, C.sharedElement(Buf, I32, V), C.i32(1), llvm::MaybeAlign(4),
                      llvm::AtomicOrdering::Monotonic);
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
  }
  C.barrier();

  LinearLayout L = C.wanted(H->result());
  Tile Out{L, {}};
  for (unsigned R = 0; R < L.numRegs(); ++R)
    Out.Regs.push_back(B.CreateLoad(B.getInt32Ty(), C.sharedElement(Buf, I32, C.coord(L, R, 0))));
  C.set(H->result(), std::move(Out));
  return true;
}

} // namespace tessel::codegen
