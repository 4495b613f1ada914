//===- Histogram.cpp - tl.histogram with warp ballots ---------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `histogram` as Triton 3.6's HistogramOpToLLVM computes it, so the bins
/// are Triton's for any input: the bin count is padded to P = max(bins, 32)
/// and lane L owns bins [L·P/32, (L+1)·P/32). For every input register the
/// warp takes one ballot per bit of the bin index (log2 P of them) and one
/// of the mask; a lane's bins are the elements whose high index bits equal
/// its lane id, counted with popc per owned bin. So a value is binned by its
/// low log2 P bits (-1 lands in the last bin; on an H200, 64 bins counted
/// 64..79 in bins 0..15), and bins ≥ `bins` are padding never read back.
/// The warps then add their counts into P i32 of shared memory (zeroed at
/// `(tid + i·threads) % P`) with atomics, and after a barrier every result
/// register reads its bin. Triton counts replicated elements and divides by
/// the replication factor; here the mask ballot leaves out the threads that
/// do not own their elements, which gives the same bins.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>

namespace tessel::codegen {

bool lowerHistogram(LoweringContext &C, const ir::Op &Op) {
  const auto *H = ir::dyn_cast<ir::HistogramOp>(&Op);
  if (!H)
    return false;
  llvm::IRBuilderBase &B = C.B;
  const int64_t Padded = std::max<int64_t>(H->bins(), 32);
  const int64_t PerLane = Padded / 32;
  const int NumBits = static_cast<int>(llvm::Log2_64(static_cast<uint64_t>(Padded))); // Padded is a power of 2
  constexpr int LaneBits = 5;
  const ElemType I32{ScalarKind::I32};
  llvm::Value *Full = C.i32(-1);
  auto Ballot = [&](llvm::Value *Pred) {
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_vote_ballot_sync), {Full, Pred});
  };

  const Tile &X = C.get(H->input());
  std::optional<Tile> Mask;
  if (H->mask())
    Mask = C.getAs(H->mask(), X.Layout);
  llvm::Value *Owner = C.ownerPredicate(X.Layout);
  bool Signed = !isUnsigned(H->input()->type().Elem.Scalar);
  std::vector<llvm::Value *> Counts(static_cast<size_t>(PerLane), C.i32(0));
  for (unsigned R = 0; R < X.Regs.size(); ++R) {
    llvm::Value *V = B.CreateIntCast(X.Regs[R], B.getInt32Ty(), Signed);
    std::vector<llvm::Value *> Bits;
    for (int J = 0; J < NumBits; ++J)
      Bits.push_back(Ballot(B.CreateICmpNE(B.CreateAnd(V, C.i32(int64_t{1} << J)), C.i32(0))));
    // The elements whose high bin bits are this lane's id.
    llvm::Value *Mine = Full;
    for (int I = 0; I < LaneBits; ++I) {
      llvm::Value *LaneBitSet = B.CreateICmpNE(B.CreateAnd(C.laneId(), C.i32(1 << I)), C.i32(0));
      llvm::Value *Flip = B.CreateSelect(LaneBitSet, C.i32(0), Full);
      Mine = B.CreateAnd(Mine, B.CreateXor(Bits[static_cast<size_t>(I + NumBits - LaneBits)], Flip));
    }
    llvm::Value *Counted = Mask ? B.CreateTrunc(Mask->Regs[R], B.getInt1Ty()) : nullptr;
    if (Owner)
      Counted = Counted ? B.CreateAnd(Counted, Owner) : Owner;
    if (Counted)
      Mine = B.CreateAnd(Mine, Ballot(Counted));
    for (int64_t K = 0; K < PerLane; ++K) {
      llvm::Value *Bin = Mine;
      for (int J = 0; J < NumBits - LaneBits; ++J)
        Bin = B.CreateAnd(Bin, B.CreateXor(Bits[static_cast<size_t>(J)], (K >> J) & 1 ? C.i32(0) : Full));
      llvm::Value *Pop = B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, Bin);
      Counts[static_cast<size_t>(K)] = B.CreateAdd(Counts[static_cast<size_t>(K)], Pop);
    }
  }

  llvm::Value *Buf = C.scratch(SharedBufferKind::HistogramBins, "histogram of " + std::to_string(H->bins()) + " bins",
                               static_cast<uint64_t>(Padded) * 4);
  const int64_t Threads = 32 * C.Opts.NumWarps;
  C.barrier();
  for (int64_t I = 0; I * Threads < Padded; ++I) {
    llvm::Value *Slot = B.CreateURem(B.CreateAdd(C.threadId(), C.i32(I * Threads)), C.i32(Padded));
    B.CreateStore(C.i32(0), C.sharedElement(Buf, I32, Slot));
  }
  C.barrier();
  for (int64_t K = 0; K < PerLane; ++K) {
    llvm::Value *Slot = B.CreateAdd(B.CreateMul(C.laneId(), C.i32(PerLane)), C.i32(K));
    B.CreateAtomicRMW(llvm::AtomicRMWInst::Add, C.sharedElement(Buf, I32, Slot), Counts[static_cast<size_t>(K)],
                      llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
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
