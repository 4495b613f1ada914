//===- DotMma.cpp - tl.dot on tensor cores (mma.sync) ---------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `dot(a, b, acc)` as Triton's MMAv2 path (DotOpToLLVM/MMAv2.cpp) computes
/// it on sm_80+, for the dots selectMma (MmaInstr.h) gives an instruction:
/// fp16 / bf16, fp32 as tf32 or tf32x3, int8, and fp8 (natively on sm_89
/// and sm_120, read as bytes and widened in registers on sm_90, widened
/// before staging on sm_80):
///
///  1. a [M, K] and b [K, N] are staged in two shared buffers (live together
///     until the last fragment load), row major and swizzled in 16-byte
///     chunks (swizzledOffset in layout/MmaLayout.h), from whatever layout
///     they arrive in; for 8-bit operands b is staged transposed ([N, K]),
///     so that the four k values of one fragment register are one word;
///  2. per k step of the instruction, each warp loads its fragments: 16-bit
///     operands with `ldmatrix` (x4 for a 16x16 piece of a, x4 .trans for
///     two 16x8 pieces of b, x2 .trans when the warp has one); fp32 with one
///     `ld.shared.f32` per element, rounded by `cvt.rna.tf32.f32`; 8-bit
///     with one `ld.shared.b32` per register (ldmatrix moves b16 rows: it
///     does not fit 32-bit elements, nor 8-bit b, which needs k-major words);
///  3. one `mma.sync.aligned.m16n8kK` per 16x8 tile of the warp's
///     accumulator, accumulating in the registers of the MMA layout
///     (mmaAccumulatorLayout: the same C fragment for every k), which the
///     accumulator keeps across the loop (LayoutAssignment seeds it there).
///
/// k steps accumulate in order, tile by tile, each mma rounding as the
/// tensor core does. tf32x3 runs three whole passes over K (a_small·b_big,
/// a_big·b_small, a_big·b_big), as Triton's F32DotTC rewrite orders them.
/// An fp16 out_dtype accumulates in fp32 and rounds once at the end. A
/// 16-bit operand that the pipeliner (Pipeliner.h) copied into a cp.async
/// ring is read there (swizzled the same way) instead of being staged, and
/// so is an 8-bit one (a row major, b transposed: Pipeline.cpp's ring).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/layout/MmaLayout.h"
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"
#include "compiler/codegen/lower/MmaInstr.h"

#include <optional>

namespace tessel::codegen {

namespace {
/// Bytes of one staged element.
unsigned stageBytes(ScalarKind K) { return K == ScalarKind::FP32 ? 4 : (bitWidth(K) == 8 ? 1 : 2); }

/// Runtime swizzledOffset (element index, i32) of (Row, Col) for Cols
/// columns of EB-byte elements.
llvm::Value *swizzle(LoweringContext &C, llvm::Value *Row, llvm::Value *Col, int64_t Cols, unsigned EB) {
  llvm::IRBuilderBase &B = C.B;
  int64_t Vec = 16 / EB;
  int64_t Chunks = std::max<int64_t>(1, Cols / Vec);
  int64_t PerPhase = std::max<int64_t>(1, 128 / (Cols * EB));
  int64_t MaxPhase = std::max<int64_t>(1, std::min<int64_t>(Chunks, 8 / PerPhase));
  llvm::Value *Phase = B.CreateURem(B.CreateUDiv(Row, C.i32(PerPhase)), C.i32(MaxPhase));
  llvm::Value *Chunk = B.CreateXor(B.CreateLShr(Col, C.i32(log2Floor(Vec))), Phase);
  return B.CreateAdd(B.CreateAdd(B.CreateMul(Row, C.i32(Cols)), B.CreateShl(Chunk, C.i32(log2Floor(Vec)))),
                     B.CreateAnd(Col, C.i32(Vec - 1)));
}

/// Writes T (a tile of element type E) into Buf as Stage elements,
/// swizzled, with Cols columns: row major, or transposed (T's dim 1 as
/// rows) when Trans.
void stageSwizzled(LoweringContext &C, const Tile &T, ElemType E, ElemType Stage, llvm::Value *Buf, int64_t Cols,
                   bool Trans) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &L = T.Layout;
  unsigned RowDim = Trans ? 1 : 0, ColDim = Trans ? 0 : 1, EB = stageBytes(Stage.Scalar);
  // Runs of registers along the columns stay in one 16-byte chunk (they
  // start at a multiple of the run): one vector store each.
  unsigned Run = std::min(16u / EB, L.contiguousRegs(ColDim)), RunBits = 0;
  while ((1u << RunBits) < Run)
    ++RunBits;
  auto Aligned = [&](const Coord &B) { return B[ColDim] % Run == 0; };
  for (size_t I = RunBits; I < L.Reg.size(); ++I)
    if (!Aligned(L.Reg[I]))
      Run = 1;
  for (const Coord &B : L.Lane)
    if (!Aligned(B))
      Run = 1;
  for (const Coord &B : L.Warp)
    if (!Aligned(B))
      Run = 1;
  auto Value = [&](unsigned R) {
    llvm::Value *V = T.Regs[R];
    if (E.Scalar != Stage.Scalar)
      V = castRegister(C, V, E, Stage);
    return C.toMem(V, Stage);
  };
  for (unsigned R = 0; R < L.numRegs(); R += Run) {
    llvm::Value *Idx = swizzle(C, C.coord(L, R, RowDim), C.coord(L, R, ColDim), Cols, EB);
    llvm::Value *Ptr = C.sharedElement(Buf, Stage, Idx);
    if (Run == 1) {
      B.CreateStore(Value(R), Ptr);
      continue;
    }
    llvm::Type *VT = llvm::FixedVectorType::get(C.memType(Stage), Run);
    llvm::Value *V = llvm::PoisonValue::get(VT);
    for (unsigned I = 0; I < Run; ++I)
      V = B.CreateInsertElement(V, Value(R + I), C.i32(I));
    B.CreateAlignedStore(V, Ptr, llvm::Align(EB * Run));
  }
}

/// `ldmatrix` of Count 8x8 matrices (Trans: transposed) at this lane's
/// address; the i32 fragment registers.
std::vector<llvm::Value *> ldmatrix(LoweringContext &C, llvm::Value *Addr, unsigned Count, bool Trans) {
  llvm::IRBuilderBase &B = C.B;
  std::vector<llvm::Type *> Tys(Count, B.getInt32Ty());
  auto *RetTy = llvm::StructType::get(C.Ctx, Tys);
  std::string Asm = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(Count) + (Trans ? ".trans" : "") + ".shared.b16 {";
  std::string Cons;
  for (unsigned I = 0; I < Count; ++I) {
    Asm += (I ? ", $" : "$") + std::to_string(I);
    Cons += "=r,";
  }
  Asm += "}, [$" + std::to_string(Count) + "];";
  Cons += "r"; // a 32-bit shared address (codegen::NVPTXDataLayout)
  // A read of shared memory the asm does not declare: volatile, so that it
  // stays between the barriers around the staging (never hoisted or merged).
  llvm::Value *S = C.inlineAsm(RetTy, Asm, Cons, {Addr}, /*SideEffects=*/true);
  std::vector<llvm::Value *> Out;
  for (unsigned I = 0; I < Count; ++I)
    Out.push_back(B.CreateExtractValue(S, {I}));
  return Out;
}

/// `cvt.rna.tf32.f32`: X rounded to tf32 (ties away), as the i32 an mma takes.
llvm::Value *toTF32(LoweringContext &C, llvm::Value *X) {
  return C.inlineAsm(C.B.getInt32Ty(), "cvt.rna.tf32.f32 $0, $1;", "=r,f", {X}, /*SideEffects=*/false);
}

/// The fragment registers one k step of one warp reads: A per 16-row tile
/// (Mi), B per 8-column tile (Ni); for tf32x3 also the small halves.
struct Fragments {
  std::vector<std::vector<llvm::Value *>> A, ASmall;
  std::vector<std::vector<llvm::Value *>> B, BSmall;
};
} // namespace

llvm::Value *mmaSwizzle(LoweringContext &C, llvm::Value *Row, llvm::Value *Col, int64_t Cols, unsigned ElemBytes) {
  return swizzle(C, Row, Col, Cols, ElemBytes);
}

/// One word of four fp8 (the lower k first) as two words of two fp16 each:
/// bytes 0-1, then bytes 2-3.
static std::pair<llvm::Value *, llvm::Value *> widenWord(LoweringContext &C, llvm::Value *Word, ScalarKind K) {
  llvm::IRBuilderBase &B = C.B;
  std::string Cvt = std::string("cvt.rn.f16x2.") + (K == ScalarKind::FP8E4NV ? "e4m3x2" : "e5m2x2") + " $0, $1;";
  llvm::Value *Lo = B.CreateTrunc(Word, B.getInt16Ty());
  llvm::Value *Hi = B.CreateTrunc(B.CreateLShr(Word, C.i32(16)), B.getInt16Ty());
  return {C.inlineAsm(B.getInt32Ty(), Cvt, "=r,h", {Lo}, false), C.inlineAsm(B.getInt32Ty(), Cvt, "=r,h", {Hi}, false)};
}

/// The k32 byte fragments of one step as the fragments of two k16 fp16
/// instructions. Thread t's bytes 4t..4t+3 of a row (a) or column (b) fill
/// its fp16 slots 2t, 2t+1 (bytes 4t, 4t+1) and 2t+8, 2t+9 (4t+2, 4t+3) of
/// the first instruction, bytes 4t+16.. those of the second: the same
/// permutation of k for a and b, so every product is still summed once.
/// Afterwards a's fragments are the first instruction's four, then the
/// second's; b's two, then two.
static void widenFragments(LoweringContext &C, Fragments &F, ScalarKind KA, ScalarKind KB) {
  for (std::vector<llvm::Value *> &A : F.A) {
    auto [A0l, A0h] = widenWord(C, A[0], KA);
    auto [A1l, A1h] = widenWord(C, A[1], KA);
    auto [A2l, A2h] = widenWord(C, A[2], KA);
    auto [A3l, A3h] = widenWord(C, A[3], KA);
    A = {A0l, A1l, A0h, A1h, A2l, A3l, A2h, A3h};
  }
  for (std::vector<llvm::Value *> &Bf : F.B) {
    auto [B0l, B0h] = widenWord(C, Bf[0], KB);
    auto [B1l, B1h] = widenWord(C, Bf[1], KB);
    Bf = {B0l, B0h, B1l, B1h};
  }
}

bool lowerDotMma(LoweringContext &C, const ir::DotOp &O) {
  llvm::IRBuilderBase &B = C.B;
  std::optional<MmaInstr> I = selectMma(O, C.Opts.Arch);
  if (!I)
    return false;
  const auto &AS = O.a()->type().Shape, &BS = O.b()->type().Shape;
  int64_t M = AS[0], K = AS[1], N = BS[1];
  unsigned NumWarps = static_cast<unsigned>(C.Opts.NumWarps);
  LinearLayout L = mmaAccumulatorLayout(M, N, NumWarps);
  if (!(C.wanted(O.result()) == L))
    return false;
  ElemType AE = O.a()->type().Elem, BE = O.b()->type().Elem, OutE = O.result()->type().Elem;
  ElemType SA{I->StageA}, SB{I->StageB};
  unsigned EA = stageBytes(SA.Scalar), EBt = stageBytes(SB.Scalar);
  bool ByteB = I->Flavor == MmaFlavor::Byte; // b staged transposed, [N, K]
  auto [WM, WN] = mmaWarps(M, N, NumWarps);
  int64_t RepM = std::max<int64_t>(1, M / (16 * WM)), RepN = std::max<int64_t>(1, N / (8 * WN));
  unsigned RepNBits = log2Floor(RepN);
  Tile Acc = C.getAs(C.Plan.Combine.accumulator(O), L);

  // 1. Stage both operands (or read a pipelined one from its ring).
  uint64_t ABytes = static_cast<uint64_t>(M * K) * EA, BBytes = static_cast<uint64_t>(K * N) * EBt;
  std::string AWhat = "operand a of tl.dot, " + LoweringContext::tileString(AS, AE),
              BWhat = "operand b of tl.dot, " + LoweringContext::tileString(BS, BE);
  if (SA.Scalar != AE.Scalar)
    AWhat += " as " + std::string(shortName(SA.Scalar));
  if (SB.Scalar != BE.Scalar)
    BWhat += " as " + std::string(shortName(SB.Scalar));
  // A pipelined operand is already in its ring: the pipeliner takes 16-bit
  // operands and 8-bit ones this instruction reads unwidened (b transposed),
  // which are staged as they are.
  llvm::Value *ABase = C.stagedOperand(O.a()), *BBase = C.stagedOperand(O.b());
  bool AsLoaded = I->Flavor == MmaFlavor::F16 || (ByteB && SA.Scalar == AE.Scalar && SB.Scalar == BE.Scalar);
  if ((ABase || BBase) && !AsLoaded)
    return false;
  std::optional<unsigned> ABuf, BBuf;
  if (!ABase)
    ABuf = C.openShared(SharedBufferKind::DotOperand, AWhat + " (swizzled)", ABytes);
  if (!BBase)
    BBuf =
        C.openShared(SharedBufferKind::DotOperand, BWhat + (ByteB ? " (transposed, swizzled)" : " (swizzled)"), BBytes);
  if (ABuf || BBuf) {
    C.barrier();
    if (ABuf)
      stageSwizzled(C, C.get(O.a()), AE, SA, ABase = C.sharedBase(*ABuf), K, false);
    if (BBuf)
      stageSwizzled(C, C.get(O.b()), BE, SB, BBase = C.sharedBase(*BBuf), ByteB ? K : N, ByteB);
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
  // PTX's fragment coordinates: group g = lane / 4, thread t = lane % 4.
  llvm::Value *G = B.CreateLShr(Lane, C.i32(2)), *T = B.CreateAnd(Lane, C.i32(3));
  auto ARowOf = [&](int64_t Mi) { return B.CreateAdd(RowBase, C.i32(Mi * 16 * WM)); };
  auto BColOf = [&](int64_t Ni) { return B.CreateAdd(ColBase, C.i32(Ni * 8 * WN)); };

  // One k step's fragments.
  auto Load = [&](int64_t K0, bool Small) {
    Fragments F;
    F.A.resize(static_cast<size_t>(RepM));
    F.B.resize(static_cast<size_t>(RepN));
    F.ASmall.resize(static_cast<size_t>(RepM));
    F.BSmall.resize(static_cast<size_t>(RepN));
    if (I->Flavor == MmaFlavor::F16) {
      // a: matrix m covers rows (m & 1) * 8.., k (m >> 1) * 8..
      llvm::Value *ARow = B.CreateAdd(RowBase, B.CreateAdd(B.CreateShl(MatLow, C.i32(3)), InMat));
      llvm::Value *ACol = B.CreateShl(MatHigh, C.i32(3));
      // b (transposed): matrix m covers k (m & 1) * 8.., the warp's n tile m >> 1.
      llvm::Value *BRow = B.CreateAdd(B.CreateShl(MatLow, C.i32(3)), InMat);
      for (int64_t Mi = 0; Mi < RepM; ++Mi) {
        llvm::Value *Row = B.CreateAdd(ARow, C.i32(Mi * 16 * WM));
        llvm::Value *Idx = swizzle(C, Row, B.CreateAdd(ACol, C.i32(K0)), K, 2);
        F.A[static_cast<size_t>(Mi)] = ldmatrix(C, C.sharedElement(ABase, SA, Idx), 4, false);
      }
      for (int64_t Ni = 0; Ni < RepN; Ni += 2) {
        bool Pair = Ni + 1 < RepN;
        llvm::Value *Tile = Pair ? B.CreateAdd(MatHigh, C.i32(Ni)) : C.i32(Ni);
        llvm::Value *Col = B.CreateAdd(ColBase, B.CreateMul(Tile, C.i32(8 * WN)));
        llvm::Value *Idx = swizzle(C, B.CreateAdd(BRow, C.i32(K0)), Col, N, 2);
        std::vector<llvm::Value *> R = ldmatrix(C, C.sharedElement(BBase, SB, Idx), Pair ? 4 : 2, true);
        F.B[static_cast<size_t>(Ni)] = {R[0], R[1]};
        if (Pair)
          F.B[static_cast<size_t>(Ni + 1)] = {R[2], R[3]};
      }
      return F;
    }
    if (I->Flavor == MmaFlavor::Byte) {
      // a_r: row g (+8 for r odd), k 4t..4t+3 (+16 for r >= 2); b_r of
      // b^T: row n = g, k 4t.. (+16 for r = 1). One word each.
      auto Word = [&](llvm::Value *Base, ElemType E, llvm::Value *Row, int64_t Col0, int64_t Cols) {
        llvm::Value *Col = B.CreateAdd(B.CreateShl(T, C.i32(2)), C.i32(Col0));
        llvm::Value *Ptr = C.sharedElement(Base, E, swizzle(C, Row, Col, Cols, 1));
        return static_cast<llvm::Value *>(B.CreateAlignedLoad(B.getInt32Ty(), Ptr, llvm::Align(4)));
      };
      for (int64_t Mi = 0; Mi < RepM; ++Mi) {
        llvm::Value *R0 = B.CreateAdd(ARowOf(Mi), G), *R1 = B.CreateAdd(R0, C.i32(8));
        F.A[static_cast<size_t>(Mi)] = {Word(ABase, SA, R0, K0, K), Word(ABase, SA, R1, K0, K),
                                        Word(ABase, SA, R0, K0 + 16, K), Word(ABase, SA, R1, K0 + 16, K)};
      }
      for (int64_t Ni = 0; Ni < RepN; ++Ni) {
        llvm::Value *Nr = B.CreateAdd(BColOf(Ni), G);
        F.B[static_cast<size_t>(Ni)] = {Word(BBase, SB, Nr, K0, K), Word(BBase, SB, Nr, K0 + 16, K)};
      }
      if (I->WidenBytes)
        widenFragments(C, F, SA.Scalar, SB.Scalar);
      return F;
    }
    // tf32: a_r = (g (+8 for r odd), t (+4 for r >= 2)); b_r = (t (+4 for
    // r = 1), g). One fp32 each, rounded; tf32x3 also keeps x - big.
    auto Elt = [&](llvm::Value *Base, llvm::Value *Row, llvm::Value *Col, int64_t Cols, llvm::Value *&Big,
                   llvm::Value *&Lo) {
      llvm::Value *X = B.CreateLoad(B.getFloatTy(), C.sharedElement(Base, SA, swizzle(C, Row, Col, Cols, 4)));
      Big = toTF32(C, X);
      if (Small)
        Lo = toTF32(C, B.CreateFSub(X, B.CreateBitCast(Big, B.getFloatTy())));
    };
    llvm::Value *T4 = B.CreateAdd(T, C.i32(4));
    for (int64_t Mi = 0; Mi < RepM; ++Mi) {
      llvm::Value *R0 = B.CreateAdd(ARowOf(Mi), G), *R1 = B.CreateAdd(R0, C.i32(8));
      llvm::Value *C0 = B.CreateAdd(T, C.i32(K0)), *C1 = B.CreateAdd(T4, C.i32(K0));
      auto &Big = F.A[static_cast<size_t>(Mi)], &Lo = F.ASmall[static_cast<size_t>(Mi)];
      Big.assign(4, nullptr);
      Lo.assign(4, nullptr);
      Elt(ABase, R0, C0, K, Big[0], Lo[0]);
      Elt(ABase, R1, C0, K, Big[1], Lo[1]);
      Elt(ABase, R0, C1, K, Big[2], Lo[2]);
      Elt(ABase, R1, C1, K, Big[3], Lo[3]);
    }
    for (int64_t Ni = 0; Ni < RepN; ++Ni) {
      llvm::Value *Col = B.CreateAdd(BColOf(Ni), G);
      auto &Big = F.B[static_cast<size_t>(Ni)], &Lo = F.BSmall[static_cast<size_t>(Ni)];
      Big.assign(2, nullptr);
      Lo.assign(2, nullptr);
      Elt(BBase, B.CreateAdd(T, C.i32(K0)), Col, N, Big[0], Lo[0]);
      Elt(BBase, B.CreateAdd(T4, C.i32(K0)), Col, N, Big[1], Lo[1]);
    }
    return F;
  };

  // 3. The accumulator in the instruction's type: fp32 (an fp16 out_dtype
  //    widens here and rounds at the end) or int32.
  llvm::Type *AccTy = I->IntAcc ? static_cast<llvm::Type *>(B.getInt32Ty()) : B.getFloatTy();
  std::vector<llvm::Value *> Regs = Acc.Regs;
  for (llvm::Value *&R : Regs)
    if (R->getType() != AccTy)
      R = B.CreateFPExt(R, AccTy);
  auto *MmaTy = llvm::StructType::get(C.Ctx, {AccTy, AccTy, AccTy, AccTy});
  std::string Mma = I->mnemonic();
  std::string MmaCons = I->IntAcc ? "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3" : "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
  // tf32x3: a_small·b_big, a_big·b_small, a_big·b_big, each over all of K.
  unsigned Passes = I->Flavor == MmaFlavor::TF32x3 ? 3 : 1;
  // Widened bytes: each k32 step is two k16 instructions, fragments 0-3
  // and 4-7 of a (0-1 and 2-3 of b; widenFragments).
  size_t Halves = I->WidenBytes ? 2 : 1;
  for (unsigned Pass = 0; Pass < Passes; ++Pass) {
    for (int64_t K0 = 0; K0 < K; K0 += I->K) {
      Fragments F = Load(K0, Passes == 3);
      bool ASmall = Passes == 3 && Pass == 0, BSmall = Passes == 3 && Pass == 1;
      for (size_t H = 0; H < Halves; ++H)
        for (int64_t Mi = 0; Mi < RepM; ++Mi)
          for (int64_t Ni = 0; Ni < RepN; ++Ni) {
            unsigned Base = static_cast<unsigned>((Ni << 2) | (Mi << (2 + RepNBits)));
            const auto &A = (ASmall ? F.ASmall : F.A)[static_cast<size_t>(Mi)];
            const auto &Bf = (BSmall ? F.BSmall : F.B)[static_cast<size_t>(Ni)];
            llvm::Value *S = C.inlineAsm(MmaTy, Mma, MmaCons,
                                         {A[4 * H], A[4 * H + 1], A[4 * H + 2], A[4 * H + 3], Bf[2 * H],
                                          Bf[2 * H + 1], Regs[Base], Regs[Base + 1], Regs[Base + 2], Regs[Base + 3]},
                                         /*SideEffects=*/false);
            for (unsigned R = 0; R < 4; ++R)
              Regs[Base + R] = B.CreateExtractValue(S, {R});
          }
    }
  }
  llvm::Type *OutTy = C.regType(OutE);
  for (llvm::Value *&R : Regs)
    if (R->getType() != OutTy)
      R = B.CreateFPTrunc(R, OutTy);
  for (std::optional<unsigned> Buf : {ABuf, BBuf})
    if (Buf)
      C.closeShared(*Buf);
  C.set(O.result(), Tile{L, std::move(Regs)});
  return true;
}

} // namespace tessel::codegen
