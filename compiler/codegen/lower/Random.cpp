//===- Random.cpp - Philox rand, randn, randint ---------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's random.py, register by register, bit-identical to Triton (and
/// to compiler/interp/Random.cpp): Philox4x32 with n_rounds rounds on the
/// counter (offset, 0, 0, 0) and the key (seed's low, high 32 bits);
/// `randint` is the first word, `rand` is uint_to_uniform_float of it (as
/// int32, negatives folded to -x - 1, times 4.6566127342e-10 in fp32),
/// `randn` is Box-Muller on the first two words with Triton's math lowering
/// (log via libdevice, sqrt.approx, cos via libdevice).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <array>
#include <optional>

namespace tessel::codegen {

static llvm::Value *mulhi(llvm::IRBuilderBase &B, uint32_t K, llvm::Value *X) {
  llvm::Value *P = B.CreateMul(B.CreateZExt(X, B.getInt64Ty()), B.getInt64(K));
  return B.CreateTrunc(B.CreateLShr(P, 32), B.getInt32Ty());
}

static llvm::Value *uniform(llvm::IRBuilderBase &B, llvm::Value *X) {
  llvm::Value *Neg = B.CreateICmpSLT(X, B.getInt32(0));
  llvm::Value *Folded = B.CreateSelect(Neg, B.CreateSub(B.CreateNeg(X), B.getInt32(1)), X);
  return B.CreateFMul(B.CreateSIToFP(Folded, B.getFloatTy()), llvm::ConstantFP::get(B.getFloatTy(), 4.6566127342e-10));
}

bool lowerRandom(LoweringContext &C, const ir::Op &Op) {
  const auto *O = ir::dyn_cast<ir::RandomOp>(&Op);
  if (!O)
    return false;
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *Seed = C.get(O->seed()).Regs[0];
  Seed = isUnsigned(O->seed()->type().Elem.Scalar) ? B.CreateZExtOrTrunc(Seed, B.getInt64Ty())
                                                   : B.CreateSExtOrTrunc(Seed, B.getInt64Ty());
  llvm::Value *K0Init = B.CreateTrunc(Seed, B.getInt32Ty());
  llvm::Value *K1Init = B.CreateTrunc(B.CreateLShr(Seed, 32), B.getInt32Ty());
  LinearLayout L = C.wanted(O->result());
  Tile Offs = C.getAs(O->offset(), L);
  std::array<std::optional<Tile>, 3> Words; // counter words 1..3, where the op has them
  for (unsigned I = 1; I < 4; ++I)
    if (const ir::Value *W = O->counter(I))
      Words[I - 1] = C.getAs(W, L);
  Tile Out{L, {}};
  for (size_t R = 0; R < Offs.Regs.size(); ++R) {
    llvm::Value *Ctr[4] = {B.CreateZExtOrTrunc(Offs.Regs[R], B.getInt32Ty()), B.getInt32(0), B.getInt32(0),
                           B.getInt32(0)};
    for (unsigned I = 0; I < 3; ++I)
      if (Words[I])
        Ctr[I + 1] = B.CreateZExtOrTrunc(Words[I]->Regs[R], B.getInt32Ty());
    llvm::Value *K0 = K0Init, *K1 = K1Init;
    for (int R = 0; R < O->nRounds(); ++R) {
      llvm::Value *C0 = Ctr[0], *C2 = Ctr[2];
      Ctr[0] = B.CreateXor(B.CreateXor(mulhi(B, 0xCD9E8D57u, C2), Ctr[1]), K0);
      Ctr[2] = B.CreateXor(B.CreateXor(mulhi(B, 0xD2511F53u, C0), Ctr[3]), K1);
      Ctr[1] = B.CreateMul(B.getInt32(0xCD9E8D57u), C2);
      Ctr[3] = B.CreateMul(B.getInt32(0xD2511F53u), C0);
      K0 = B.CreateAdd(K0, B.getInt32(0x9E3779B9u));
      K1 = B.CreateAdd(K1, B.getInt32(0xBB67AE85u));
    }
    if (O->kind() == ir::OpKind::Randint) {
      Out.Regs.push_back(Ctr[O->word()]);
      continue;
    }
    if (O->kind() == ir::OpKind::Rand) {
      Out.Regs.push_back(uniform(B, Ctr[0]));
      continue;
    }
    llvm::Type *F = B.getFloatTy();
    llvm::Value *U1 =
        B.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, llvm::ConstantFP::get(F, 1.0e-7), uniform(B, Ctr[0]));
    llvm::Value *U2 = uniform(B, Ctr[1]);
    llvm::Value *Th = B.CreateFMul(llvm::ConstantFP::get(F, 6.283185307179586), U2);
    llvm::Value *Log = B.CreateCall(C.libdevice("__nv_logf", F, {F}), {U1});
    llvm::Value *Rr = B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_sqrt_approx_f),
                                   {B.CreateFMul(llvm::ConstantFP::get(F, -2.0), Log)});
    Out.Regs.push_back(B.CreateFMul(Rr, B.CreateCall(C.libdevice("__nv_cosf", F, {F}), {Th})));
  }
  C.set(O->result(), std::move(Out));
  return true;
}

} // namespace tessel::codegen
