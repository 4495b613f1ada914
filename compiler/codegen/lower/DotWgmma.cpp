//===- DotWgmma.cpp - tl.dot on Hopper's warpgroup MMA (wgmma) ------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `dot(a, b, acc)` as Triton's MMA v3 path (DotOpToLLVM/WGMMA.cpp) computes
/// it on sm_90a, for the dots dotEngine gives DotEngine::Wgmma (fp16 / bf16,
/// fp8 e4m3 / e5m2 or fp32 at tf32 precision, fp32 accumulators, Triton's
/// wgmma conditions, an sm_90a target; `TESSEL_WGMMA=0` turns it off). fp8
/// takes k32 per instruction and tf32 k8, and both read both operands
/// K-major (the instruction has no transpose flags for them, Triton's
/// getSharedMemoryMMAOperand with allowTranspose false). A 4-byte load
/// along the other axis still fills a K-major ring, one element a copy
/// (Pipeliner.h); an fp8 one cannot be copied an element at a time, so it
/// is not pipelined and the operand is staged K-major here instead, from
/// its registers:
///
///  1. a [M, K] and b [K, N] sit in shared memory in the NVMMA layout
///     (layout/WgmmaLayout.h): a pipelined operand in its cp.async ring
///     (Pipeline.cpp writes the ring in that layout), any other staged here
///     from its registers; ordinary stores are made visible to the tensor
///     cores' async proxy with `fence.proxy.async.shared::cta` before the
///     barrier. Operand a stays in registers where its tile is in the q·k
///     accumulator's layout (attention's p: registerFragments, fp8's A
///     registers gathered from two lanes by warp shuffles), as Triton does,
///     and wherever Triton keeps it there (LayoutPlan::aInRegisters: an a
///     that does not come from a load), converted into wgmma's operand
///     layout first (operandFragments, layout/WgmmaLayout.h);
///  2. each warpgroup (4 warps) issues, per repetition of its m64nN tile
///     and per k step of 16 (the k steps of one accumulator back to back, as
///     Triton orders them), one `wgmma.mma_async.sync.aligned.m64nNk16.f32`
///     with two matrix descriptors (start address, swizzle mode, the
///     8-row-group and column-block strides) and its N/2 accumulator
///     registers, a K-major and b N-major (transposed), or the other way
///     round for an operand whose ring holds its tile transposed
///     (Pipeliner.h: attention's k, b K-major, imm-trans-b = 0);
///  3. `wgmma.fence` before the first, `wgmma.commit_group` after the last,
///     and `wgmma.wait_group 0` taking every accumulator register in and out,
///     so no later instruction reads one before the tensor cores wrote it
///     (`wait_group 1` for the dot of a pipelined loop that leaves its group
///     in flight: LoweringContext::AsyncWgmmaDot, Pipeline.cpp).
///
/// The accumulator stays in wgmmaAccumulatorLayout across the K loop (layout
/// assignment seeds it). In a pipelined loop the dot leaves its group in
/// flight into the next iteration (`wait_group 1`, the copies after a
/// second barrier), as Triton does: at 4096^3 on the H100, 23 % faster than
/// waiting for every group at 128x256x64 with 8 warps and 1 % at 128x128x64
/// with 4 (bench/RESULTS.md, issue 29; it was slower before the copies
/// shared their addresses). TESSEL_WGMMA_PENDING=0 keeps the synchronous dot,
/// whose loop copies ahead right after its one barrier (Pipeline.cpp).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/Pipeliner.h"
#include "compiler/codegen/layout/WgmmaLayout.h"
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <utility>

namespace tessel::codegen {

/// Elements of L's registers that stay in one 16-byte chunk of N's layout
/// (consecutive along its contiguous dimension, at an aligned start): the
/// width of one shared-memory access to or from N.
static unsigned nvmmaRun(const LinearLayout &L, const NvmmaLayout &N) {
  unsigned Chunk = 16 / N.ElemBytes, Dim = N.contiguousDim();
  unsigned Run = std::min(Chunk, L.contiguousRegs(Dim));
  auto Aligned = [&](const Coord &Base) { return Base[Dim] % Run == 0; };
  for (size_t I = log2Floor(Run); I < L.Reg.size(); ++I)
    if (!Aligned(L.Reg[I]))
      return 1;
  for (const auto *Bases : {&L.Lane, &L.Warp})
    for (const Coord &Base : *Bases)
      if (!Aligned(Base))
        return 1;
  return Run;
}

void stageNvmma(LoweringContext &C, const Tile &T, ElemType E, llvm::Value *Buf, const NvmmaLayout &N) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &L = T.Layout;
  unsigned Run = nvmmaRun(L, N);
  for (unsigned R = 0; R < L.numRegs(); R += Run) {
    llvm::Value *Ptr = C.sharedElement(Buf, E, nvmmaOffset(C, N, C.coord(L, R, 0), C.coord(L, R, 1)));
    if (Run == 1) {
      B.CreateStore(C.toMem(T.Regs[R], E), Ptr);
      continue;
    }
    llvm::Type *VT = llvm::FixedVectorType::get(C.memType(E), Run);
    llvm::Value *V = llvm::PoisonValue::get(VT);
    for (unsigned I = 0; I < Run; ++I)
      V = B.CreateInsertElement(V, C.toMem(T.Regs[R + I], E), C.i32(I));
    B.CreateAlignedStore(V, Ptr, llvm::Align(N.ElemBytes * Run));
  }
}

Tile loadNvmma(LoweringContext &C, const LinearLayout &L, ElemType E, llvm::Value *Buf, const NvmmaLayout &N) {
  llvm::IRBuilderBase &B = C.B;
  unsigned Run = nvmmaRun(L, N);
  Tile Out{L, {}};
  llvm::Type *MemTy = C.memType(E);
  for (unsigned R = 0; R < L.numRegs(); R += Run) {
    llvm::Value *Ptr = C.sharedElement(Buf, E, nvmmaOffset(C, N, C.coord(L, R, 0), C.coord(L, R, 1)));
    if (Run == 1) {
      Out.Regs.push_back(C.fromMem(B.CreateAlignedLoad(MemTy, Ptr, llvm::Align(N.ElemBytes)), E));
      continue;
    }
    auto *VT = llvm::FixedVectorType::get(MemTy, Run);
    llvm::Value *V = B.CreateAlignedLoad(VT, Ptr, llvm::Align(N.ElemBytes * Run));
    for (unsigned I = 0; I < Run; ++I)
      Out.Regs.push_back(C.fromMem(B.CreateExtractElement(V, C.i32(I)), E));
  }
  return Out;
}

namespace {

/// A matrix descriptor: N's fields with the start address Base + Offset
/// elements (Offset an i32 multiple of 8 elements: 16 bytes).
llvm::Value *descriptor(LoweringContext &C, const NvmmaLayout &N, llvm::Value *Base, llvm::Value *Offset) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *Addr = B.CreatePtrToInt(Base, B.getInt64Ty());
  Addr = B.CreateAdd(Addr, B.CreateZExt(B.CreateMul(Offset, C.i32(N.ElemBytes)), B.getInt64Ty()));
  // Bits 0-13: the shared address in 16-byte units.
  llvm::Value *Start = B.CreateAnd(B.CreateLShr(Addr, B.getInt64(4)), B.getInt64(0x3FFF));
  return B.CreateOr(Start, B.getInt64(N.descriptorBits()));
}

/// The descriptor of one instruction's slice of operand Operand (0: a
/// [M, K], 1: b [K, N]) in layout N at Base: rows (a) or columns (b)
/// Outer .. (an i32 multiple of 8), k steps K0 .. K0 + 15.
llvm::Value *operandDescriptor(LoweringContext &C, const NvmmaLayout &N, unsigned Operand, llvm::Value *Base,
                               llvm::Value *Outer, int64_t K0) {
  llvm::IRBuilderBase &B = C.B;
  if (N.kMajor(Operand)) {
    // The buffer's rows are M (or N), K0 inside one block row; row Outer is
    // a multiple of 8, where the swizzle leaves the chunk in place.
    int64_t E = N.elemsPerBlockRow();
    llvm::Value *Off = B.CreateAdd(B.CreateMul(Outer, C.i32(E)), C.i32((K0 / E) * N.storedRows() * E + K0 % E));
    return descriptor(C, N, Base, Off);
  }
  // The buffer's rows are K: the instruction starts at row K0, column Outer.
  return descriptor(C, N, Base,
                    Operand == 0 ? nvmmaOffset(C, N, Outer, C.i32(K0)) : nvmmaOffset(C, N, C.i32(K0), Outer));
}

/// The NVMMA layout wgmma reads operand V ([Rows, Cols]) in: its ring's
/// where V is a pipelined load (Pipeline.cpp writes the ring in it, possibly
/// transposed), else the row-major one this file (or the loop's
/// loop-invariant copy) writes.
NvmmaLayout operandLayout(const LoweringContext &C, const ir::Value *V, unsigned Operand) {
  const auto &S = V->type().Shape;
  if (C.Pipelines && V->definingOp())
    if (const PipelinedLoad *PL = C.Pipelines->load(*V->definingOp()); PL && PL->Dot)
      return PL->nvmmaOf(V);
  // wgmma reads 8- and 32-bit operands K-major only: b is staged
  // transposed.
  unsigned Bytes = static_cast<unsigned>(bitWidth(V->type().Elem.Scalar) / 8);
  return NvmmaLayout::forTile(S[0], S[1], Bytes, Bytes != 2 && Operand == 1);
}

/// The A fragments of operand a read from its registers, as Triton feeds
/// attention's p to wgmma (a DotOperandEncoding with an MMA v3 parent):
/// when a's tile is in the accumulator layout of an [M, K] chained dot
/// (every warp along M: the q·k accumulator p was computed in) and this dot
/// spreads its warpgroups along M the same way. For 16-bit a each thread
/// already holds, for every 64-row repetition Rm and k step of 16, the
/// elements of `m64nNk16`'s four A registers: (r, k0 + 2t + {0,1}),
/// (r + 8, ..), (r, k0 + 8 + 2t + {0,1}), (r + 8, ..), r its accumulator row.
/// fp8's `m64nNk32` wants four consecutive k per register instead,
/// (r, k0 + 4t + {0..3}), (r + 8, ..), (r, k0 + 16 + 4t + {0..3}), (r + 8, ..),
/// which lie in two neighbouring lanes' accumulator pairs: fp8Fragment
/// fetches them with warp shuffles, as Triton's convert_layout to
/// `dot_op<kWidth = 4>` does (no shared memory either way). Returns the
/// fragments by [Rm][k0 / k step] (four i32 each), or nothing when the tile
/// is in another layout (a then goes through shared memory).
/// One fp8 A register of `m64nNk32`: the four k (k0 + 16 H + 4t + {0..3})
/// of row r + 8 Half. Lane (g, t) holds the pair (8j + 2t, +1) of each
/// 8-column block j, so they sit in lanes s0 = (g, 2 (t & 1)) and s0 + 1,
/// block 2 H + (t >> 1). Each source packs the pairs of two blocks into one
/// word; each target shuffles both sources' words in and keeps half t >> 1
/// of each (prmt selector Sel).
llvm::Value *fp8Fragment(LoweringContext &C, const std::array<llvm::Value *, 4> &Bytes, llvm::Value *Src0,
                         llvm::Value *Src1, llvm::Value *Sel) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *W = llvm::PoisonValue::get(llvm::FixedVectorType::get(B.getInt8Ty(), 4));
  for (unsigned I = 0; I < 4; ++I)
    W = B.CreateInsertElement(W, Bytes[I], C.i32(I));
  W = B.CreateBitCast(W, B.getInt32Ty());
  auto Shfl = [&](llvm::Value *Lane) {
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_shfl_sync_idx_i32),
                        {B.getInt32(0xFFFFFFFFu), W, Lane, B.getInt32(0x1F)});
  };
  llvm::Value *X0 = Shfl(Src0), *X1 = Shfl(Src1);
  return C.inlineAsm(B.getInt32Ty(), "prmt.b32 $0, $1, $2, $3;", "=r,r,r,r", {X0, X1, Sel});
}

/// The register index of each thread-independent coordinate of a 2-d
/// layout (the lane and warp bits add the same offset to all of them).
std::map<std::pair<int64_t, int64_t>, unsigned> registersAt(const LinearLayout &L) {
  std::map<std::pair<int64_t, int64_t>, unsigned> At;
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    Coord RC = L.regCoord(R);
    At.emplace(std::pair{RC[0], RC[1]}, R);
  }
  return At;
}

std::optional<std::vector<std::vector<std::array<llvm::Value *, 4>>>>
registerFragments(LoweringContext &C, const ir::DotOp &O, const WgmmaShape &WS) {
  const auto &AS = O.a()->type().Shape;
  int64_t M = AS[0], K = AS[1];
  unsigned NumWarps = static_cast<unsigned>(C.Opts.NumWarps);
  WgmmaShape WA = wgmmaShape(M, K, NumWarps, /*Chained=*/true);
  unsigned Bits = bitWidth(O.a()->type().Elem.Scalar);
  const int64_t KStep = Bits == 8 ? 32 : 16;
  if ((Bits != 16 && Bits != 8) || WA.RepM != WS.RepM || K % KStep)
    return std::nullopt;
  // Each warpgroup must hold the rows its instructions read: the same
  // warpgroup-to-rows map for a's tile and this dot (warpgroups along N
  // read the rows of their M group; a's warpgroups past M hold copies, as
  // a chained dot's accumulator does: kernl's p.v on 8 warps at BLOCK_M 64,
  // whose two warpgroups along N both read p's rows 0-63 from registers, as
  // Triton's does).
  auto RowsOf = [M](const WgmmaShape &S, unsigned Wg) {
    return (static_cast<int64_t>(Wg & (S.WarpgroupsM - 1)) * 64) % M;
  };
  if (WA.WarpgroupsM != WS.WarpgroupsM && WS.RepM != 1)
    return std::nullopt;
  for (unsigned Wg = 0; Wg < NumWarps / 4; ++Wg)
    if (RowsOf(WA, Wg) != RowsOf(WS, Wg))
      return std::nullopt;
  const Tile &A = C.get(O.a());
  if (!(A.Layout == wgmmaAccumulatorLayout(M, K, NumWarps, WA)))
    return std::nullopt;
  std::map<std::pair<int64_t, int64_t>, unsigned> At = registersAt(A.Layout);
  llvm::IRBuilderBase &B = C.B;
  ElemType AE = O.a()->type().Elem;
  // The thread's own accumulator pair (r, c + 2t + {0,1}), as memory values.
  auto Pair = [&](int64_t R0, int64_t C0) -> std::optional<std::array<llvm::Value *, 2>> {
    auto Lo = At.find({R0, C0}), Hi = At.find({R0, C0 + 1});
    if (Lo == At.end() || Hi == At.end())
      return std::nullopt;
    return std::array{C.toMem(A.Regs[Lo->second], AE), C.toMem(A.Regs[Hi->second], AE)};
  };
  llvm::Value *Src0 = nullptr, *Src1 = nullptr, *Sel = nullptr;
  if (Bits == 8) {
    llvm::Value *T = B.CreateAnd(C.laneId(), C.i32(3));
    Src0 = B.CreateOr(B.CreateAnd(C.laneId(), C.i32(~3u)), B.CreateShl(B.CreateAnd(T, C.i32(1)), C.i32(1)));
    Src1 = B.CreateOr(Src0, C.i32(1));
    Sel = B.CreateSelect(B.CreateICmpUGE(T, C.i32(2)), C.i32(0x7632), C.i32(0x5410));
  }
  llvm::Type *PairTy = llvm::FixedVectorType::get(C.memType(AE), 2);
  std::vector<std::vector<std::array<llvm::Value *, 4>>> Out(static_cast<size_t>(WS.RepM));
  for (int64_t Rm = 0; Rm < WS.RepM; ++Rm) {
    int64_t Row = Rm * 64 * WS.WarpgroupsM;
    for (int64_t K0 = 0; K0 < K; K0 += KStep) {
      std::array<llvm::Value *, 4> Frag{};
      for (unsigned I = 0; I < 4; ++I) {
        int64_t R0 = Row + (I & 1) * 8;
        if (Bits == 8) {
          std::array<llvm::Value *, 4> Bytes{};
          for (int64_t J = 0; J < 2; ++J) {
            auto P = Pair(R0, K0 + 16 * (I >> 1) + 8 * J);
            if (!P)
              return std::nullopt;
            Bytes[2 * J] = (*P)[0];
            Bytes[2 * J + 1] = (*P)[1];
          }
          Frag[I] = fp8Fragment(C, Bytes, Src0, Src1, Sel);
          continue;
        }
        auto P = Pair(R0, K0 + (I >> 1) * 8);
        if (!P)
          return std::nullopt;
        llvm::Value *V = llvm::PoisonValue::get(PairTy);
        V = B.CreateInsertElement(V, (*P)[0], C.i32(0));
        V = B.CreateInsertElement(V, (*P)[1], C.i32(1));
        Frag[I] = B.CreateBitCast(V, B.getInt32Ty());
      }
      Out[static_cast<size_t>(Rm)].push_back(Frag);
    }
  }
  return Out;
}

/// Operand a's fragments from registers in wgmma's own operand layout
/// (wgmmaOperandALayout), a converted there first, as Triton's convert to
/// the dot-operand encoding: the operand a computed in registers that does
/// not already sit in the chained accumulator's layout (mamba's scaled cb,
/// a cast of a loaded tile).
std::vector<std::vector<std::array<llvm::Value *, 4>>> operandFragments(LoweringContext &C, const ir::DotOp &O,
                                                                        const WgmmaShape &WS) {
  const auto &AS = O.a()->type().Shape;
  int64_t M = AS[0], K = AS[1];
  ElemType AE = O.a()->type().Elem;
  unsigned Bits = bitWidth(AE.Scalar);
  const int64_t KWidth = 32 / Bits, KStep = 8 * KWidth;
  LinearLayout L = wgmmaOperandALayout(M, K, static_cast<unsigned>(C.Opts.NumWarps), WS, Bits);
  // The value itself is converted, never its producers recomputed in the
  // operand layout: Triton's RemoveLayoutConversions leaves a conversion to
  // a dot-operand layout where it is (mamba's cb, cast to fp16 after its
  // fp32 arithmetic: 64x64 fp16 through shared memory, not fp32).
  Tile A = C.get(O.a());
  if (!(A.Layout == L))
    A = C.convert(A, L, AE);
  std::map<std::pair<int64_t, int64_t>, unsigned> At = registersAt(L);
  llvm::IRBuilderBase &B = C.B;
  llvm::Type *WordTy = llvm::FixedVectorType::get(C.memType(AE), static_cast<unsigned>(KWidth));
  std::vector<std::vector<std::array<llvm::Value *, 4>>> Out(static_cast<size_t>(WS.RepM));
  for (int64_t Rm = 0; Rm < WS.RepM; ++Rm) {
    int64_t Row = (Rm * 64 * WS.WarpgroupsM) % M;
    for (int64_t K0 = 0; K0 < K; K0 += KStep) {
      std::array<llvm::Value *, 4> Frag{};
      for (unsigned I = 0; I < 4; ++I) {
        llvm::Value *W = llvm::PoisonValue::get(WordTy);
        for (int64_t J = 0; J < KWidth; ++J) {
          const int64_t Half = I >> 1, Low = I & 1;
          unsigned R = At.at({Row + Low * 8, K0 + Half * 4 * KWidth + J});
          W = B.CreateInsertElement(W, C.toMem(A.Regs[R], AE), C.i32(static_cast<unsigned>(J)));
        }
        Frag[I] = B.CreateBitCast(W, B.getInt32Ty());
      }
      Out[static_cast<size_t>(Rm)].push_back(Frag);
    }
  }
  return Out;
}

/// Whether buffer Buf, where Dot staged V as its operand Operand, stays
/// open for a later wgmma dot of the same block reading V as the same
/// operand: V is then bound to it (the later dot stages nothing) until
/// that dot is lowered. Not in a loop whose dot leaves its group in
/// flight, which frees only what it staged itself.
bool keepForLaterDot(LoweringContext &C, const ir::DotOp &Dot, const ir::Value *V, unsigned Operand, unsigned Buf) {
  const ir::Block *Blk = Dot.parentBlock();
  if (!Blk || C.AsyncWgmmaDot)
    return false;
  const ir::Op *Last = nullptr;
  bool After = false;
  for (const auto &Op : Blk->ops()) {
    if (Op.get() == &Dot) {
      After = true;
      continue;
    }
    const auto *D = ir::dyn_cast<ir::DotOp>(Op.get());
    if (!After || !D || (D->a() != V && D->b() != V))
      continue;
    // Every later dot reading V reads this buffer: the same operand of a
    // wgmma dot that takes it from shared memory (another engine would read
    // the buffer as its own layout).
    if (D->operand(Operand) != V || D->operand(1 - Operand) == V || C.Plan.engine(*D) != DotEngine::Wgmma ||
        (Operand == 0 && C.Plan.aInRegisters(*D)) || !lowersOnWgmma(C, *D))
      return false;
    Last = D;
  }
  if (!Last)
    return false;
  C.setStagedOperand(V, C.sharedBase(Buf));
  C.afterOp(*Last, [&C, V, Buf] {
    C.setStagedOperand(V, nullptr);
    C.closeShared(Buf);
  });
  return true;
}
} // namespace

/// Whether DotWgmma lowers O (an sm_90a dot whose engine is wgmma): its
/// result wanted in the accumulator layout, its shared operands in an NVMMA
/// layout with a swizzle, and K-major where the type has no transpose flag
/// (only 16-bit operands have one: fp8, tf32 and int8 read both K-major).
/// An a read from registers has no shared layout.
bool lowersOnWgmma(const LoweringContext &C, const ir::DotOp &O) {
  const auto &AS = O.a()->type().Shape, &BS = O.b()->type().Shape;
  WgmmaShape WS = C.Plan.wgmmaShapeOf(O);
  if (!(C.wanted(O.result()) == wgmmaAccumulatorLayout(AS[0], BS[1], static_cast<unsigned>(C.Opts.NumWarps), WS)))
    return false;
  NvmmaLayout LA = operandLayout(C, O.a(), 0), LB = operandLayout(C, O.b(), 1);
  bool KMajorOnly = LA.ElemBytes != 2;
  bool ARegs = !C.stagedOperand(O.a()) && C.Plan.aInRegisters(O);
  return (ARegs || LA.SwizzleBytes) && LB.SwizzleBytes &&
         !(KMajorOnly && ((!ARegs && !LA.kMajor(0)) || !LB.kMajor(1)));
}

llvm::Value *nvmmaOffset(LoweringContext &C, const NvmmaLayout &N, llvm::Value *Row, llvm::Value *Col) {
  llvm::IRBuilderBase &B = C.B;
  if (N.Transposed)
    std::swap(Row, Col);
  int64_t E = N.elemsPerBlockRow(), Chunk = 16 / N.ElemBytes;
  int64_t PerPhase = 128 / N.SwizzleBytes, MaxPhase = N.SwizzleBytes / 16;
  llvm::Value *Block = B.CreateLShr(Col, C.i32(log2Floor(E)));
  llvm::Value *InRow = B.CreateAnd(Col, C.i32(E - 1));
  llvm::Value *Phase = B.CreateAnd(B.CreateLShr(Row, C.i32(log2Floor(PerPhase))), C.i32(MaxPhase - 1));
  llvm::Value *ChunkIdx = B.CreateXor(B.CreateLShr(InRow, C.i32(log2Floor(Chunk))), Phase);
  llvm::Value *Off = B.CreateMul(Block, C.i32(N.storedRows() * E));
  Off = B.CreateAdd(Off, B.CreateMul(Row, C.i32(E)));
  Off = B.CreateAdd(Off, B.CreateShl(ChunkIdx, C.i32(log2Floor(Chunk))));
  return B.CreateAdd(Off, B.CreateAnd(InRow, C.i32(Chunk - 1)));
}

void wgmmaWait(LoweringContext &C, std::vector<llvm::Value *> &Regs, unsigned Pending) {
  llvm::IRBuilderBase &B = C.B;
  // The wait hands every accumulator register through, so their readers
  // come after it.
  std::string Wait = "wgmma.wait_group.sync.aligned " + std::to_string(Pending) + ";", WaitCons;
  // fp32 accumulators ("f"), or an int8 dot's int32 ones ("r").
  for (size_t I = 0; I < Regs.size(); ++I)
    WaitCons += std::string(I ? "," : "") + (Regs[I]->getType()->isIntegerTy() ? "=r" : "=f");
  for (size_t I = 0; I < Regs.size(); ++I)
    WaitCons += "," + std::to_string(I);
  WaitCons += ",~{memory}";
  std::vector<llvm::Type *> Types;
  Types.reserve(Regs.size());
  for (llvm::Value *R : Regs)
    Types.push_back(R->getType());
  auto *AllTy = llvm::StructType::get(C.Ctx, Types);
  llvm::Value *W = C.inlineAsm(AllTy, Wait, WaitCons, Regs, /*SideEffects=*/true);
  for (size_t I = 0; I < Regs.size(); ++I)
    Regs[I] = B.CreateExtractValue(W, {static_cast<unsigned>(I)});
}

void wgmmaDrain(LoweringContext &C, std::vector<llvm::Value *> &Regs) {
  Tile InFlight = C.get(C.AsyncWgmmaAcc);
  size_t Own = Regs.size();
  Regs.insert(Regs.end(), InFlight.Regs.begin(), InFlight.Regs.end());
  wgmmaWait(C, Regs, 0);
  InFlight.Regs.assign(Regs.begin() + static_cast<long>(Own), Regs.end());
  Regs.resize(Own);
  C.set(C.AsyncWgmmaAcc, std::move(InFlight));
}

bool lowerDotWgmma(LoweringContext &C, const ir::DotOp &O) {
  llvm::IRBuilderBase &B = C.B;
  if (C.Plan.engine(O) != DotEngine::Wgmma)
    return false;
  if (!lowersOnWgmma(C, O))
    return false;
  const auto &AS = O.a()->type().Shape, &BS = O.b()->type().Shape;
  int64_t M = AS[0], K = AS[1], N = BS[1];
  unsigned NumWarps = static_cast<unsigned>(C.Opts.NumWarps);
  WgmmaShape WS = C.Plan.wgmmaShapeOf(O);
  LinearLayout L = wgmmaAccumulatorLayout(M, N, NumWarps, WS);
  ElemType AE = O.a()->type().Elem, BE = O.b()->type().Elem;
  NvmmaLayout LA = operandLayout(C, O.a(), 0), LB = operandLayout(C, O.b(), 1);
  bool KMajorOnly = LA.ElemBytes != 2;
  Tile Acc = C.getAs(C.Plan.Combine.accumulator(O), L);

  // 1. The operands in shared memory (a in registers where its layout
  //    already is wgmma's A fragments).
  llvm::Value *ABase = C.stagedOperand(O.a()), *BBase = C.stagedOperand(O.b());
  std::optional<std::vector<std::vector<std::array<llvm::Value *, 4>>>> AFrags;
  if (!ABase)
    AFrags = registerFragments(C, O, WS);
  if (!ABase && !AFrags && C.Plan.aInRegisters(O))
    AFrags = operandFragments(C, O, WS);
  std::optional<unsigned> ABuf, BBuf;
  if (!ABase && !AFrags)
    ABuf = C.openShared(SharedBufferKind::DotOperand,
                        "operand a of tl.dot, " + LoweringContext::tileString(AS, AE) + " (NVMMA)",
                        static_cast<uint64_t>(M * K) * LA.ElemBytes, 1, LA.alignment());
  if (!BBase)
    BBuf = C.openShared(SharedBufferKind::DotOperand,
                        "operand b of tl.dot, " + LoweringContext::tileString(BS, BE) + " (NVMMA)",
                        static_cast<uint64_t>(K * N) * LB.ElemBytes, 1, LB.alignment());
  if (ABuf)
    C.liveFromDefinition(*ABuf, O.a(), O);
  if (BBuf)
    C.liveFromDefinition(*BBuf, O.b(), O);
  // A tile staged for a later dot too is staged once, as Triton's CSE
  // merges the two identical local_allocs (Liger's SwiGLU: x read by the
  // gate and the up projection): the buffer stays open, bound to the value,
  // until the last such dot.
  bool KeepA = ABuf && keepForLaterDot(C, O, O.a(), 0, *ABuf);
  bool KeepB = BBuf && keepForLaterDot(C, O, O.b(), 1, *BBuf);
  if (ABuf || BBuf) {
    C.barrier();
    if (ABuf)
      stageNvmma(C, C.get(O.a()), AE, ABase = C.sharedBase(*ABuf), LA);
    if (BBuf)
      stageNvmma(C, C.get(O.b()), BE, BBase = C.sharedBase(*BBuf), LB);
    C.inlineAsm(B.getVoidTy(), "fence.proxy.async.shared::cta;", "~{memory}", {});
    C.barrier();
  }

  // 2. This warpgroup's place: along M in the low warpgroup bits, then N
  //    (the layout's warp bases).
  llvm::Value *Wg = B.CreateLShr(C.warpId(), C.i32(2));
  llvm::Value *WgM = B.CreateAnd(Wg, C.i32(WS.WarpgroupsM - 1));
  llvm::Value *WgN = B.CreateAnd(B.CreateLShr(Wg, C.i32(log2Floor(WS.WarpgroupsM))), C.i32(WS.WarpgroupsN - 1));
  // a: rows m0 = 64 (wgM + rm WgM); warpgroups past the block (a chained
  // dot's) wrap and compute copies. b: columns n0 = N_instr (wgN + rn WgN).
  auto ADesc = [&](int64_t Rm, int64_t K0) {
    llvm::Value *M0 = B.CreateMul(B.CreateAdd(WgM, C.i32(Rm * WS.WarpgroupsM)), C.i32(64));
    return operandDescriptor(C, LA, 0, ABase, B.CreateAnd(M0, C.i32(M - 1)), K0);
  };
  auto BDesc = [&](int64_t Rn, int64_t K0) {
    llvm::Value *N0 = B.CreateMul(B.CreateAdd(WgN, C.i32(Rn * WS.WarpgroupsN)), C.i32(WS.InstrN));
    return operandDescriptor(C, LB, 1, BBase, B.CreateAnd(N0, C.i32(N - 1)), K0);
  };

  // 3. The instructions.
  const int64_t InstrRegs = WS.InstrN / 2;
  std::vector<llvm::Value *> Regs = Acc.Regs;
  auto TypeName = [](ScalarKind K) {
    switch (K) {
    case ScalarKind::BF16:
      return "bf16";
    case ScalarKind::FP8E4NV:
      return "e4m3";
    case ScalarKind::FP8E5:
      return "e5m2";
    case ScalarKind::FP32:
      return "tf32";
    case ScalarKind::I8:
      return "s8";
    default:
      return "f16";
    }
  };
  // One instruction takes 32 bytes of K: k16 of 16-bit types, k32 of fp8,
  // k8 of tf32.
  const int64_t KStep = 32 / LA.ElemBytes;
  // One asm statement per accumulator: its k steps back to back (Triton's
  // order) with the accumulator tied once, not once a step: the same PTX,
  // and a quarter of the operands for instruction selection and the
  // register coalescer at BLOCK_K 64 (128-register accumulators, the bulk
  // of a large matmul's source -> PTX time). Operands: the accumulators,
  // then each step's a (its descriptor or four fragment registers) and b
  // descriptor, the scale-d flag, then the tied inputs. An accumulator that
  // starts from zero (tl.dot without acc, or acc = tl.zeros) spells scale-d
  // 0 in its first step and reads no inputs, as Triton's (useC false):
  // attention's q k^T then sets no 32 registers to 0.0 per accumulator
  // before each dot.
  const int64_t Steps = K / KStep;
  const bool IntAcc = isInt(O.result()->type().Elem.Scalar);
  auto Op = [](int64_t I) { return "$" + std::to_string(I); };
  auto Statement = [&](bool ZeroFirst) {
    std::vector<std::string> Cons(static_cast<size_t>(InstrRegs), IntAcc ? "=r" : "=f");
    std::string D;
    for (int64_t I = 0; I < InstrRegs; ++I)
      D += (I ? ", " : "") + Op(I);
    int64_t Next = InstrRegs;
    std::vector<std::string> AB;
    for (int64_t S = 0; S < Steps; ++S) {
      std::string A;
      if (AFrags) {
        A = "{" + Op(Next) + ", " + Op(Next + 1) + ", " + Op(Next + 2) + ", " + Op(Next + 3) + "}";
        Cons.insert(Cons.end(), {"r", "r", "r", "r"});
        Next += 4;
      } else {
        A = Op(Next++);
        Cons.push_back("l");
      }
      AB.push_back(A + ", " + Op(Next++));
      Cons.push_back("l");
    }
    const bool Flag = !(ZeroFirst && Steps == 1);
    std::string Asm;
    if (Flag) {
      Asm = "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " + Op(Next) + ", 0;\n\t";
      Cons.push_back("r");
    }
    if (!ZeroFirst)
      for (int64_t I = 0; I < InstrRegs; ++I)
        Cons.push_back(std::to_string(I));
    // The scales (1, 1), then the transpose flags: imm-trans-a (descriptor
    // a only) and imm-trans-b; fp8 and tf32 have none (K-major operands),
    // and the integer form neither (scale-d only).
    std::string Trans = IntAcc ? "" : ", 1, 1";
    if (!KMajorOnly)
      Trans += (AFrags ? "" : ", " + std::to_string(LA.transposeFlag(0))) + ", " + std::to_string(LB.transposeFlag(1));
    for (int64_t S = 0; S < Steps; ++S)
      Asm += std::string(S ? "\n\t" : "") + "wgmma.mma_async.sync.aligned.m64n" + std::to_string(WS.InstrN) + "k" +
             std::to_string(KStep) + (IntAcc ? ".s32." : ".f32.") + TypeName(AE.Scalar) + "." + TypeName(BE.Scalar) +
             " {" + D + "}, " + AB[static_cast<size_t>(S)] + ", " + (S == 0 && ZeroFirst ? "0" : "p") + Trans + ";";
    if (Flag)
      Asm += "\n}";
    std::string Joined;
    for (size_t I = 0; I < Cons.size(); ++I)
      Joined += (I ? "," : "") + Cons[I];
    return std::pair{Asm, Joined};
  };
  const bool ZeroAcc = std::all_of(Regs.begin(), Regs.end(), [](llvm::Value *V) {
    const auto *K = llvm::dyn_cast<llvm::Constant>(V);
    return K && K->isNullValue();
  });
  const auto [Asm, Cons] = Statement(ZeroAcc);
  auto *RetTy = llvm::StructType::get(
      C.Ctx, std::vector<llvm::Type *>(static_cast<size_t>(InstrRegs), IntAcc ? B.getInt32Ty() : B.getFloatTy()));
  unsigned ChunkBits = log2Floor(WS.InstrN / 8), RepNBits = log2Floor(WS.RepN);
  C.inlineAsm(B.getVoidTy(), "wgmma.fence.sync.aligned;", "~{memory}", {});
  // Triton's order (WGMMA.cpp): each accumulator's k steps back to back,
  // then the next repetition's.
  for (int64_t Rm = 0; Rm < WS.RepM; ++Rm)
    for (int64_t Rn = 0; Rn < WS.RepN; ++Rn) {
      unsigned Base = static_cast<unsigned>((Rn << (2 + ChunkBits)) | (Rm << (2 + ChunkBits + RepNBits)));
      std::vector<llvm::Value *> Args;
      for (int64_t K0 = 0; K0 < K; K0 += KStep) {
        if (AFrags) {
          const auto &F = (*AFrags)[static_cast<size_t>(Rm)][static_cast<size_t>(K0 / KStep)];
          Args.insert(Args.end(), F.begin(), F.end());
        } else {
          Args.push_back(ADesc(Rm, K0));
        }
        Args.push_back(BDesc(Rn, K0));
      }
      if (!(ZeroAcc && Steps == 1))
        Args.push_back(C.i32(1));
      if (!ZeroAcc)
        for (int64_t I = 0; I < InstrRegs; ++I)
          Args.push_back(Regs[Base + I]);
      llvm::Value *S = C.inlineAsm(RetTy, Asm, Cons, Args, /*SideEffects=*/true);
      for (int64_t I = 0; I < InstrRegs; ++I)
        Regs[Base + I] = B.CreateExtractValue(S, {static_cast<unsigned>(I)});
    }
  C.inlineAsm(B.getVoidTy(), "wgmma.commit_group.sync.aligned;", "~{memory}", {});
  // A pipelined loop's dot may leave its group in flight (Pipeline.cpp):
  // its accumulator then only reaches the next iteration's wgmma, unless it
  // reads a buffer staged here, which is freed below. The dot that drains a
  // chained loop's group hands that group's registers through its wait.
  if (C.AsyncWgmmaDrain == &O && C.AsyncWgmmaAcc)
    wgmmaDrain(C, Regs);
  else
    wgmmaWait(C, Regs, C.AsyncWgmmaDot == &O && !ABuf && !BBuf ? 1 : 0);
  if (ABuf && !KeepA)
    C.closeShared(*ABuf);
  if (BBuf && !KeepB)
    C.closeShared(*BBuf);
  C.set(O.result(), Tile{L, std::move(Regs)});
  return true;
}

} // namespace tessel::codegen
