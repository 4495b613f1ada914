//===- Dot.cpp - tl.dot on FMA units --------------------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `dot(a, b, acc)` as Triton's FMA path (DotOpToLLVM/FMA.cpp) computes it,
/// until tensor cores arrive (issue 11): both operands are staged in the
/// shared scratch (row major, a first), and each accumulator register
/// (b, m, n) adds a[b, m, k] * b[b, k, n] for k = 0..K-1 in order, one fma
/// each, in the accumulator's type (fp16/bf16/fp8 operands widen exactly to
/// fp32; int8 multiplies and accumulates in int32). Operand values are
/// loaded once per distinct row or column a thread's registers use.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/Intrinsics.h>

namespace tessel::codegen {

bool lowerDot(LoweringContext &C, const ir::Op &Op) {
  const auto *O = ir::dyn_cast<ir::DotOp>(&Op);
  if (!O)
    return false;
  llvm::IRBuilder<> &B = C.B;
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
  Tile Acc = C.getAs(O->acc(), L);
  // Stage a at element 0 of its type, b after it (16-byte aligned).
  uint64_t ABytes = static_cast<uint64_t>(Batch * M * K) * C.M.getDataLayout().getTypeAllocSize(C.memType(AE));
  ABytes = (ABytes + 15) / 16 * 16;
  uint64_t BBytes = static_cast<uint64_t>(Batch * K * N) * C.M.getDataLayout().getTypeAllocSize(C.memType(BE));
  C.needShared(ABytes + BBytes);
  C.barrier();
  C.stageToShared(C.get(O->a()), AE, nullptr, false);
  llvm::Value *BBase = C.sharedElement(ElemType{ScalarKind::I8}, C.i32(static_cast<int64_t>(ABytes)));
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
    if (isFP8(E.Scalar))
      return nullptr;
    return V->getType()->getPrimitiveSizeInBits() < AccTy->getPrimitiveSizeInBits() ? B.CreateFPExt(V, AccTy)
                                                                                    : B.CreateFPTrunc(V, AccTy);
  };
  if (isFP8(AE.Scalar) || isFP8(BE.Scalar)) {
    C.unsupported(Op, "a dot of fp8 operands on FMA units");
    return true;
  }
  std::map<std::pair<int64_t, int64_t>, std::vector<llvm::Value *>> ARows, BCols;
  auto Operand = [&](bool IsA, unsigned R) -> const std::vector<llvm::Value *> & {
    Coord RC = L.regCoord(R);
    int64_t Bt = Rank == 3 ? RC[0] : 0, Idx = IsA ? RC[Rank - 2] : RC[Rank - 1];
    auto &Cache = IsA ? ARows : BCols;
    auto [It, New] = Cache.try_emplace({Bt, Idx});
    if (!New)
      return It->second;
    llvm::Value *BIdx = Rank == 3 ? C.coord(L, R, 0) : C.i32(0);
    llvm::Value *Row = C.coord(L, R, IsA ? Rank - 2 : Rank - 1);
    for (int64_t Kk = 0; Kk < K; ++Kk) {
      llvm::Value *Off;
      ElemType E = IsA ? AE : BE;
      if (IsA)
        Off = B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(BIdx, C.i32(M)), Row), C.i32(K)), C.i32(Kk));
      else
        Off = B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(BIdx, C.i32(K)), C.i32(Kk)), C.i32(N)), Row);
      llvm::Value *P = IsA ? C.sharedElement(E, Off) : B.CreateGEP(C.memType(E), BBase, {Off});
      It->second.push_back(Widen(C.fromMem(B.CreateLoad(C.memType(E), P), E), E));
    }
    return It->second;
  };
  Tile Out{L, {}};
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    const std::vector<llvm::Value *> &Av = Operand(true, R);
    const std::vector<llvm::Value *> &Bv = Operand(false, R);
    llvm::Value *V = Acc.Regs[R];
    for (int64_t Kk = 0; Kk < K; ++Kk)
      V = IntDot ? B.CreateAdd(V, B.CreateMul(Av[Kk], Bv[Kk]))
                 : B.CreateIntrinsic(llvm::Intrinsic::fma, {AccTy}, {Av[Kk], Bv[Kk], V});
    Out.Regs.push_back(V);
  }
  C.set(O->result(), std::move(Out));
  return true;
}

} // namespace tessel::codegen
