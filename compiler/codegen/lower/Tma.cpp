//===- Tma.cpp - host tensor descriptors through the tensor memory accelerator ===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// On sm_90 a load or store through a host TensorDescriptor (a kernel
/// parameter that Triton passes as a CUtensorMap, KernelABI::Tma) becomes
/// what Triton's TMALowering makes of a descriptor op outside a pipelined
/// loop:
///
///   load:  a buffer in the descriptor's NVMMA layout and an mbarrier;
///          thread 0 initialises the barrier (one arrival) and arms it
///          with the block's bytes (expect_tx); copy j is issued by lane 0
///          of warp j mod num_warps, `cp.async.bulk.tensor.2d` of one box
///          (at most the swizzle's width of columns and 256 rows: the
///          tensor map's box, codegen::TmaDescriptor); every thread waits
///          for phase 0 and reads its registers from the buffer in the
///          result's layout; thread 0 invalidates the barrier.
///   store: the registers written to a buffer in that layout, a proxy
///          fence (generic writes, read by the async proxy) and a barrier;
///          thread 0 issues the copies, commits the bulk group and waits
///          until it has been read, and a barrier frees the buffer.
///
/// The copies clip at the tensor's bounds: a load's out-of-bounds elements
/// are the map's fill (zero, or NaN for padding="nan"), a store's are
/// dropped, which is a descriptor's meaning (the pointer form's mask).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/WgmmaLayout.h"
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"
#include "compiler/ir/Ops.h"

#include <algorithm>

namespace tessel::codegen {

namespace {

/// True on lane 0 of warp W.
llvm::Value *laneZeroOfWarp(LoweringContext &C, unsigned W) {
  return C.B.CreateICmpEQ(C.threadId(), C.i32(static_cast<int64_t>(W) * 32));
}

/// The shared address of element Elem of buffer Base (bytes ElemBytes each).
llvm::Value *elementAddress(LoweringContext &C, llvm::Value *Base, int64_t Bytes) {
  return C.B.CreateGEP(C.B.getInt8Ty(), Base, {C.i32(Bytes)});
}

/// The tensor-map coordinates of copy (I, J) of D at the access's offsets:
/// innermost first, as `cp.async.bulk.tensor` takes them.
std::vector<llvm::Value *> copyCoords(LoweringContext &C, const TmaDescriptor &D,
                                      const std::vector<llvm::Value *> &Offsets, int64_t I, int64_t J) {
  llvm::IRBuilderBase &B = C.B;
  return {B.CreateAdd(Offsets[1], C.i32(J * D.Box[1])), B.CreateAdd(Offsets[0], C.i32(I * D.Box[0]))};
}

/// Byte offset of copy (I, J)'s box in the buffer: column blocks of Rows
/// rows of SwizzleBytes one after another (NvmmaLayout), boxes of a block
/// Box[0] rows apart.
int64_t copyOffset(const TmaDescriptor &D, int64_t I, int64_t J) {
  const NvmmaLayout &N = D.Layout;
  return J * N.Rows * N.SwizzleBytes + I * D.Box[0] * N.SwizzleBytes;
}

std::vector<llvm::Value *> offsetsOf(LoweringContext &C, const std::vector<ir::Value *> &Offsets) {
  std::vector<llvm::Value *> Out;
  for (const ir::Value *V : Offsets)
    Out.push_back(C.get(V).Regs[0]);
  return Out;
}

std::string coordList(unsigned First, unsigned Rank) {
  std::string S = "{";
  for (unsigned D = 0; D < Rank; ++D)
    S += (D ? ", $" : "$") + std::to_string(First + D);
  return S + "}";
}

/// Whether V's readers in Blk (and the regions of its ops) are all ops that
/// Reads accepts; Last becomes the op of Blk that holds the last reader.
template <class Fn>
bool readersIn(const ir::Block &Blk, const ir::Value *V, Fn Reads, const ir::Op *Top, const ir::Op *&Last) {
  bool Ok = true;
  for (const auto &Op : Blk.ops()) {
    const ir::Op *Here = Top ? Top : Op.get();
    if (std::find(Op->operands().begin(), Op->operands().end(), V) != Op->operands().end()) {
      Ok = Ok && Reads(*Op);
      Last = Here;
    }
    for (const auto &R : Op->regions())
      Ok = readersIn(*R, V, Reads, Here, Last) && Ok;
  }
  return Ok;
}

/// Whether the block load O copies into a buffer in layout N can stay there
/// for its readers: every one a dot wgmma runs, reading it as operand a, or
/// as a 16-bit operand b (N-major, which wgmma reads for 16-bit types), in
/// the layout DotWgmma reads an unpipelined operand in (Triton feeds
/// attention's q to wgmma from its TMA buffer). Last: the op of the load's
/// block after which the buffer is dead.
bool readInPlace(const LoweringContext &C, const ir::LoadOp &O, const NvmmaLayout &N, const ir::Op *&Last) {
  const ir::Value *V = O.result();
  const auto &S = V->type().Shape;
  if (S.size() != 2 || N.Transposed || S[0] != N.Rows || S[1] != N.Cols)
    return false;
  auto Reads = [&](const ir::Op &U) {
    const auto *Dot = ir::dyn_cast<ir::DotOp>(&U);
    if (!Dot || C.Plan.engine(*Dot) != DotEngine::Wgmma || (Dot->a() == V && Dot->b() == V))
      return false;
    return Dot->a() == V || N.ElemBytes == 2;
  };
  Last = nullptr;
  return readersIn(*O.parentBlock(), V, Reads, nullptr, Last) && Last;
}

void lowerTmaLoad(LoweringContext &C, const ir::LoadOp &O, const TmaDescriptor &D) {
  llvm::IRBuilderBase &B = C.B;
  const NvmmaLayout &N = D.Layout;
  const TileType &T = O.result()->type();
  unsigned Buf =
      C.openShared(SharedBufferKind::TmaBuffer,
                   "tensor descriptor load, " + LoweringContext::tileString(T.Shape, T.Elem) + " (NVMMA, TMA)",
                   tmaBlockBytes(D), 1, tmaBufferAlign(D));
  unsigned Bar = C.openShared(SharedBufferKind::Barrier, "mbarrier of a tensor descriptor load", 8, 1, 8);
  llvm::Value *Base = C.sharedBase(Buf), *Barrier = C.sharedBase(Bar);
  C.barrier(); // the buffers' earlier users are done with them
  mbarrierInit(C, Barrier);
  C.barrier(); // every thread sees the initialised barrier before it waits on it
  tmaCopyBlock(C, D, offsetsOf(C, O.descriptorOffsets()), Base, Barrier, B.getTrue());
  mbarrierWait(C, Barrier, C.i32(0));
  const ir::Op *Last = nullptr;
  bool InPlace = readInPlace(C, O, N, Last);
  if (InPlace) {
    C.setStagedOperand(O.result(), Base);
    C.poisonResults(O); // no register reads it
  } else {
    C.set(O.result(), loadNvmma(C, C.wanted(O.result()), T.Elem, Base, N));
  }
  C.barrier(); // every thread has passed the wait (and read the buffer)
  mbarrierInval(C, Barrier);
  C.closeShared(Bar);
  if (!InPlace) {
    C.closeShared(Buf);
    return;
  }
  const ir::Value *V = O.result();
  C.afterOp(*Last, [&C, V, Buf] {
    C.setStagedOperand(V, nullptr);
    C.closeShared(Buf);
  });
}

void lowerTmaStore(LoweringContext &C, const ir::StoreOp &O, const TmaDescriptor &D) {
  llvm::IRBuilderBase &B = C.B;
  const NvmmaLayout &N = D.Layout;
  const TileType &T = O.value()->type();
  unsigned Buf =
      C.openShared(SharedBufferKind::TmaBuffer,
                   "tensor descriptor store, " + LoweringContext::tileString(T.Shape, T.Elem) + " (NVMMA, TMA)",
                   tmaBlockBytes(D), 1, tmaBufferAlign(D));
  llvm::Value *Base = C.sharedBase(Buf);
  C.barrier();
  stageNvmma(C, C.get(O.value()), T.Elem, Base, N);
  C.inlineAsm(B.getVoidTy(), "fence.proxy.async.shared::cta;", "~{memory}", {});
  C.barrier();
  std::vector<llvm::Value *> Offsets = offsetsOf(C, O.descriptorOffsets());
  llvm::Value *Tid0 = B.CreateICmpEQ(C.threadId(), C.i32(0));
  std::string Asm = "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$2, " + coordList(3, 2) + "], [$1];";
  for (int64_t I = 0; I < N.Rows / D.Box[0]; ++I)
    for (int64_t J = 0; J < N.Cols / D.Box[1]; ++J) {
      std::vector<llvm::Value *> Coords = copyCoords(C, D, Offsets, I, J);
      C.inlineAsm(B.getVoidTy(), Asm, "b,r,l,r,r,~{memory}",
                  {Tid0, elementAddress(C, Base, copyOffset(D, I, J)), D.Map, Coords[0], Coords[1]});
    }
  C.inlineAsm(B.getVoidTy(), "@$0 cp.async.bulk.commit_group;", "b,~{memory}", {Tid0});
  C.inlineAsm(B.getVoidTy(), "@$0 cp.async.bulk.wait_group.read 0;", "b,~{memory}", {Tid0});
  C.barrier(); // the buffer has been read before anything reuses it
  C.closeShared(Buf);
}

} // namespace

uint64_t tmaBlockBytes(const TmaDescriptor &D) {
  return static_cast<uint64_t>(D.Layout.Rows * D.Layout.Cols) * D.Layout.ElemBytes;
}

unsigned tmaBufferAlign(const TmaDescriptor &D) {
  return D.Layout.alignment();
}

void mbarrierInit(LoweringContext &C, llvm::Value *Barrier) {
  llvm::Value *Tid0 = C.B.CreateICmpEQ(C.threadId(), C.i32(0));
  C.inlineAsm(C.B.getVoidTy(), "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r,~{memory}", {Tid0, Barrier});
}

void mbarrierInval(LoweringContext &C, llvm::Value *Barrier) {
  llvm::Value *Tid0 = C.B.CreateICmpEQ(C.threadId(), C.i32(0));
  C.inlineAsm(C.B.getVoidTy(), "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r,~{memory}", {Tid0, Barrier});
}

void mbarrierWait(LoweringContext &C, llvm::Value *Barrier, llvm::Value *Phase) {
  C.inlineAsm(
      C.B.getVoidTy(),
      "{\n\t.reg .pred complete;\n\twaitLoop:\n\tmbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;\n\t"
      "@!complete bra.uni waitLoop;\n\t}",
      "r,r,~{memory}", {Barrier, Phase});
}

void tmaCopyBlock(LoweringContext &C, const TmaDescriptor &D, const std::vector<llvm::Value *> &Offsets,
                  llvm::Value *Base, llvm::Value *Barrier, llvm::Value *Pred) {
  llvm::IRBuilderBase &B = C.B;
  const NvmmaLayout &N = D.Layout;
  llvm::Value *Tid0 = B.CreateAnd(B.CreateICmpEQ(C.threadId(), C.i32(0)), Pred);
  C.inlineAsm(B.getVoidTy(),
              "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " + std::to_string(tmaBlockBytes(D)) + ";",
              "b,r,~{memory}", {Tid0, Barrier});
  int64_t RowCopies = N.Rows / D.Box[0], ColCopies = N.Cols / D.Box[1];
  unsigned Warps = static_cast<unsigned>(std::max(1, C.Opts.NumWarps));
  std::string Asm = "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, " +
                    coordList(4, 2) + "], [$3];";
  unsigned Copy = 0;
  for (int64_t I = 0; I < RowCopies; ++I)
    for (int64_t J = 0; J < ColCopies; ++J, ++Copy) {
      std::vector<llvm::Value *> Coords = copyCoords(C, D, Offsets, I, J);
      C.inlineAsm(B.getVoidTy(), Asm, "b,r,l,r,r,r,~{memory}",
                  {B.CreateAnd(laneZeroOfWarp(C, Copy % Warps), Pred), elementAddress(C, Base, copyOffset(D, I, J)),
                   D.Map, Barrier, Coords[0], Coords[1]});
    }
}

bool lowerTma(LoweringContext &C, const ir::Op &O) {
  if (const auto *L = ir::dyn_cast<ir::LoadOp>(&O)) {
    if (const TmaDescriptor *D = L->descriptorBase() ? C.tmaDescriptor(L->descriptorBase()) : nullptr) {
      lowerTmaLoad(C, *L, *D);
      return true;
    }
  } else if (const auto *S = ir::dyn_cast<ir::StoreOp>(&O)) {
    if (const TmaDescriptor *D = S->descriptorBase() ? C.tmaDescriptor(S->descriptorBase()) : nullptr) {
      lowerTmaStore(C, *S, *D);
      return true;
    }
  }
  return false;
}

} // namespace tessel::codegen
