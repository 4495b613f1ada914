//===- DotMma.cpp - tl.dot on tensor cores (mma.sync) ---------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `dot(a, b, acc)` as Triton's MMAv2 path (DotOpToLLVM/MMAv2.cpp) computes
/// it on sm_80+, for the dots usesMma accepts (fp16 / bf16 into fp32):
///
///  1. a [M, K] and b [K, N] are staged in two shared buffers (live together
///     until the last ldmatrix), row major and swizzled (swizzledOffset in
///     layout/MmaLayout.h), from whatever layout they arrive in;
///  2. per 16-wide k step, each warp loads its fragments with `ldmatrix`:
///     x4 for a 16x16 piece of a (one per 16 rows of the warp's tile), x4
///     .trans for two 16x8 pieces of b (x2 .trans when the warp has one);
///  3. one `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}` per 16x8 tile
///     of the warp's accumulator, accumulating in the registers of the MMA
///     layout (mmaAccumulatorLayout), which the accumulator keeps across the
///     loop (LayoutAssignment seeds it there).
///
/// k steps accumulate in order, tile by tile, each mma rounding as the
/// tensor core does (fp32 accumulation of exact fp16 / bf16 products).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/MmaLayout.h"
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <array>
#include <optional>

namespace tessel::codegen {

llvm::Value *mmaSwizzle(LoweringContext &C, llvm::Value *Row, llvm::Value *Col, int64_t Cols) {
  llvm::IRBuilder<> &B = C.B;
  int64_t Chunks = Cols / 8;
  int64_t PerPhase = std::max<int64_t>(1, 128 / (Cols * 2));
  int64_t MaxPhase = std::max<int64_t>(1, std::min<int64_t>(Chunks, 8 / PerPhase));
  llvm::Value *Phase = B.CreateURem(B.CreateUDiv(Row, C.i32(PerPhase)), C.i32(MaxPhase));
  llvm::Value *Chunk = B.CreateXor(B.CreateLShr(Col, C.i32(3)), Phase);
  return B.CreateAdd(B.CreateAdd(B.CreateMul(Row, C.i32(Cols)), B.CreateShl(Chunk, C.i32(3))),
                     B.CreateAnd(Col, C.i32(7)));
}

namespace {

/// Writes T (a [Rows, Cols] tile of 16-bit elements) into Buf, swizzled.
void stageSwizzled(LoweringContext &C, const Tile &T, ElemType E, llvm::Value *Buf, int64_t Cols) {
  llvm::IRBuilder<> &B = C.B;
  const LinearLayout &L = T.Layout;
  // Runs of up to 8 registers along the columns stay in one 16-byte chunk
  // (they start at a multiple of the run): one vector store each.
  unsigned Run = std::min(8u, L.contiguousRegs(1)), RunBits = 0;
  while ((1u << RunBits) < Run)
    ++RunBits;
  auto Aligned = [&](const Coord &B) { return B[1] % Run == 0; };
  for (size_t I = RunBits; I < L.Reg.size(); ++I)
    if (!Aligned(L.Reg[I]))
      Run = 1;
  for (const Coord &B : L.Lane)
    if (!Aligned(B))
      Run = 1;
  for (const Coord &B : L.Warp)
    if (!Aligned(B))
      Run = 1;
  for (unsigned R = 0; R < L.numRegs(); R += Run) {
    llvm::Value *Idx = mmaSwizzle(C, C.coord(L, R, 0), C.coord(L, R, 1), Cols);
    llvm::Value *Ptr = C.sharedElement(Buf, E, Idx);
    if (Run == 1) {
      B.CreateStore(C.toMem(T.Regs[R], E), Ptr);
      continue;
    }
    llvm::Type *VT = llvm::FixedVectorType::get(C.memType(E), Run);
    llvm::Value *V = llvm::PoisonValue::get(VT);
    for (unsigned I = 0; I < Run; ++I)
      V = B.CreateInsertElement(V, C.toMem(T.Regs[R + I], E), C.i32(I));
    B.CreateAlignedStore(V, Ptr, llvm::Align(2 * Run));
  }
}

/// `ldmatrix` of Count 8x8 matrices (Trans: transposed) at this lane's
/// address; the i32 fragment registers.
std::vector<llvm::Value *> ldmatrix(LoweringContext &C, llvm::Value *Addr, unsigned Count, bool Trans) {
  llvm::IRBuilder<> &B = C.B;
  std::vector<llvm::Type *> Tys(Count, B.getInt32Ty());
  auto *RetTy = llvm::StructType::get(C.Ctx, Tys);
  std::string Asm = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(Count) + (Trans ? ".trans" : "") + ".shared.b16 {";
  std::string Cons;
  for (unsigned I = 0; I < Count; ++I) {
    Asm += (I ? ", $" : "$") + std::to_string(I);
    Cons += "=r,";
  }
  Asm += "}, [$" + std::to_string(Count) + "];";
  Cons += "l";
  // A read of shared memory the asm does not declare: volatile, so that it
  // stays between the barriers around the staging (never hoisted or merged).
  llvm::Value *S = C.inlineAsm(RetTy, Asm, Cons, {Addr}, /*SideEffects=*/true);
  std::vector<llvm::Value *> Out;
  for (unsigned I = 0; I < Count; ++I)
    Out.push_back(B.CreateExtractValue(S, {I}));
  return Out;
}
} // namespace

bool lowerDotMma(LoweringContext &C, const ir::DotOp &O) {
  llvm::IRBuilder<> &B = C.B;
  const auto &AS = O.a()->type().Shape, &BS = O.b()->type().Shape;
  int64_t M = AS[0], K = AS[1], N = BS[1];
  unsigned NumWarps = static_cast<unsigned>(C.Opts.NumWarps);
  LinearLayout L = mmaAccumulatorLayout(M, N, NumWarps);
  if (!(C.wanted(O.result()) == L))
    return false;
  ElemType AE = O.a()->type().Elem, BE = O.b()->type().Elem;
  bool Bf16 = AE.Scalar == ScalarKind::BF16;
  auto [WM, WN] = mmaWarps(M, N, NumWarps);
  int64_t RepM = std::max<int64_t>(1, M / (16 * WM)), RepN = std::max<int64_t>(1, N / (8 * WN));
  unsigned RepNBits = 0;
  while ((int64_t{1} << RepNBits) < RepN)
    ++RepNBits;
  Tile Acc = C.getAs(O.acc(), L);

  // 1. Stage both operands; one a pipelined loop copied into its ring
  //    (Pipeline.cpp) is read there, swizzled the same way.
  uint64_t ABytes = static_cast<uint64_t>(M * K) * 2, BBytes = static_cast<uint64_t>(K * N) * 2;
  llvm::Value *ABase = C.stagedOperand(O.a()), *BBase = C.stagedOperand(O.b());
  std::optional<unsigned> ABuf, BBuf;
  if (!ABase)
    ABuf = C.openShared(SharedBufferKind::DotOperand,
                        "operand a of tl.dot, " + LoweringContext::tileString(AS, AE) + " (swizzled)", ABytes);
  if (!BBase)
    BBuf = C.openShared(SharedBufferKind::DotOperand,
                        "operand b of tl.dot, " + LoweringContext::tileString(BS, BE) + " (swizzled)", BBytes);
  if (ABuf || BBuf) {
    C.barrier();
    if (ABuf)
      stageSwizzled(C, C.get(O.a()), AE, ABase = C.sharedBase(*ABuf), K);
    if (BBuf)
      stageSwizzled(C, C.get(O.b()), BE, BBase = C.sharedBase(*BBuf), N);
    C.barrier();
  }

  // 2. This warp's place: its N index in the low warp bits, then M (the
  //    layout's warp bases); warps past the block wrap (they compute copies).
  llvm::Value *Lane = C.laneId(), *Warp = C.warpId();
  llvm::Value *WarpN = B.CreateAnd(Warp, C.i32(WN - 1));
  llvm::Value *WarpM = B.CreateAnd(B.CreateLShr(Warp, C.i32(__builtin_ctz(WN))), C.i32(WM - 1));
  llvm::Value *RowBase = B.CreateAnd(B.CreateMul(WarpM, C.i32(16)), C.i32(M - 1));
  llvm::Value *ColBase = B.CreateAnd(B.CreateMul(WarpN, C.i32(8)), C.i32(N - 1));
  llvm::Value *Mat = B.CreateLShr(Lane, C.i32(3)), *InMat = B.CreateAnd(Lane, C.i32(7));
  llvm::Value *MatLow = B.CreateAnd(Mat, C.i32(1)), *MatHigh = B.CreateLShr(Mat, C.i32(1));
  // a: matrix m covers rows (m & 1) * 8.., k (m >> 1) * 8..
  llvm::Value *ARow = B.CreateAdd(RowBase, B.CreateAdd(B.CreateShl(MatLow, C.i32(3)), InMat));
  llvm::Value *ACol = B.CreateShl(MatHigh, C.i32(3));
  // b (transposed): matrix m covers k (m & 1) * 8.., the warp's n tile m >> 1.
  llvm::Value *BRow = B.CreateAdd(B.CreateShl(MatLow, C.i32(3)), InMat);

  std::vector<llvm::Value *> Regs = Acc.Regs;
  auto *F32 = B.getFloatTy();
  auto *MmaTy = llvm::StructType::get(C.Ctx, {F32, F32, F32, F32});
  std::string Mma = std::string("mma.sync.aligned.m16n8k16.row.col.f32.") + (Bf16 ? "bf16.bf16" : "f16.f16") +
                    ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};";
  const char *MmaCons = "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
  for (int64_t K0 = 0; K0 < K; K0 += 16) {
    std::vector<std::vector<llvm::Value *>> AFrag(static_cast<size_t>(RepM));
    for (int64_t Mi = 0; Mi < RepM; ++Mi) {
      llvm::Value *Row = B.CreateAdd(ARow, C.i32(Mi * 16 * WM));
      llvm::Value *Idx = mmaSwizzle(C, Row, B.CreateAdd(ACol, C.i32(K0)), K);
      AFrag[static_cast<size_t>(Mi)] = ldmatrix(C, C.sharedElement(ABase, AE, Idx), 4, false);
    }
    std::vector<std::array<llvm::Value *, 2>> BFrag(static_cast<size_t>(RepN));
    for (int64_t Ni = 0; Ni < RepN; Ni += 2) {
      bool Pair = Ni + 1 < RepN;
      llvm::Value *Tile = Pair ? B.CreateAdd(MatHigh, C.i32(Ni)) : C.i32(Ni);
      llvm::Value *Col = B.CreateAdd(ColBase, B.CreateMul(Tile, C.i32(8 * WN)));
      llvm::Value *Idx = mmaSwizzle(C, B.CreateAdd(BRow, C.i32(K0)), Col, N);
      std::vector<llvm::Value *> R = ldmatrix(C, C.sharedElement(BBase, BE, Idx), Pair ? 4 : 2, true);
      BFrag[static_cast<size_t>(Ni)] = {R[0], R[1]};
      if (Pair)
        BFrag[static_cast<size_t>(Ni + 1)] = {R[2], R[3]};
    }
    for (int64_t Mi = 0; Mi < RepM; ++Mi)
      for (int64_t Ni = 0; Ni < RepN; ++Ni) {
        unsigned Base = static_cast<unsigned>((Ni << 2) | (Mi << (2 + RepNBits)));
        const auto &A = AFrag[static_cast<size_t>(Mi)];
        const auto &Bf = BFrag[static_cast<size_t>(Ni)];
        llvm::Value *S = C.inlineAsm(
            MmaTy, Mma, MmaCons,
            {A[0], A[1], A[2], A[3], Bf[0], Bf[1], Regs[Base], Regs[Base + 1], Regs[Base + 2], Regs[Base + 3]},
            /*SideEffects=*/false);
        for (unsigned I = 0; I < 4; ++I)
          Regs[Base + I] = B.CreateExtractValue(S, {I});
      }
  }
  for (std::optional<unsigned> Buf : {ABuf, BBuf})
    if (Buf)
      C.closeShared(*Buf);
  C.set(O.result(), Tile{L, std::move(Regs)});
  return true;
}

} // namespace tessel::codegen
