//===- Debug.cpp - device_print and device_assert -------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `device_print` calls CUDA's `vprintf(format, args)` once per element a
/// thread owns, in Triton's form `pid (x, y, z) idx (i, j) prefix: value`
/// (floats promoted to double as C varargs are; `hex` prints 0x%x). The
/// argument buffer is an alloca in the prologue.
/// `device_assert` exists only when CodegenOptions::Debug is set, as in
/// Triton (without `debug=True` the op is removed): a lane whose condition
/// is false (and mask true) calls `__assertfail(message, file, line,
/// function, 1)`.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

namespace tessel::codegen {

/// A generic pointer to a NUL-terminated constant string.
static llvm::Value *cString(LoweringContext &C, const std::string &S) {
  llvm::Constant *Init = llvm::ConstantDataArray::getString(C.Ctx, S, true);
  auto *G = new llvm::GlobalVariable(C.M, Init->getType(), true, llvm::GlobalValue::InternalLinkage, Init, "printf_fmt",
                                     nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  return C.B.CreateAddrSpaceCast(G, llvm::PointerType::get(C.Ctx, 0));
}

static void lowerPrint(LoweringContext &C, const ir::DevicePrintOp &O) {
  llvm::IRBuilderBase &B = C.B;
  auto *Gen = llvm::PointerType::get(C.Ctx, 0);
  llvm::FunctionCallee Vprintf =
      C.M.getOrInsertFunction("vprintf", llvm::FunctionType::get(B.getInt32Ty(), {Gen, Gen}, false));
  llvm::Value *Pid[3];
  for (unsigned I = 0; I < 3; ++I)
    Pid[I] = C.programId(I);
  for (ir::Value *V : O.operands()) {
    const Tile &T = C.get(V);
    ElemType E = V->type().Elem;
    llvm::Value *Owner = C.ownerPredicate(T.Layout);
    for (unsigned R = 0; R < T.Regs.size(); ++R) {
      std::string Fmt = "pid (%u, %u, %u) idx (";
      std::vector<llvm::Value *> Args{Pid[0], Pid[1], Pid[2]};
      for (unsigned D = 0; D < T.Layout.rank(); ++D) {
        Fmt += D ? ", %d" : "%d";
        Args.push_back(C.coord(T.Layout, R, D));
      }
      Fmt += ") " + O.prefix() + (O.prefix().empty() || O.prefix().back() == ' ' ? "" : " ");
      llvm::Value *X = T.Regs[R];
      if (E.isPointer()) {
        Fmt += "%p";
        X = B.CreateAddrSpaceCast(X, Gen);
      } else if (isFloat(E.Scalar) && !isFP8(E.Scalar)) {
        Fmt += O.hex() ? "0x%llx" : "%f";
        X = O.hex()
                ? B.CreateZExt(B.CreateBitCast(X, B.getIntNTy(X->getType()->getPrimitiveSizeInBits())), B.getInt64Ty())
                : B.CreateFPExt(X, B.getDoubleTy());
        if (!O.hex() && E.Scalar == ScalarKind::FP64)
          X = T.Regs[R];
      } else {
        bool Wide = X->getType()->getIntegerBitWidth() == 64;
        Fmt += O.hex() ? (Wide ? "0x%llx" : "0x%x")
               : Wide  ? (isUnsigned(E.Scalar) ? "%llu" : "%lld")
                       : (isUnsigned(E.Scalar) ? "%u" : "%d");
        if (!Wide)
          X = isUnsigned(E.Scalar) || E.Scalar == ScalarKind::I1 ? B.CreateZExt(X, B.getInt32Ty())
                                                                 : B.CreateSExt(X, B.getInt32Ty());
      }
      Fmt += "\n";
      Args.push_back(X);
      std::vector<llvm::Type *> Tys;
      Tys.reserve(Args.size());
      for (llvm::Value *A : Args)
        Tys.push_back(A->getType());
      auto *ST = llvm::StructType::get(C.Ctx, Tys);
      llvm::Value *Buf;
      {
        llvm::IRBuilder<> P(C.prologue(), C.prologue()->begin());
        Buf = P.CreateAlloca(ST);
      }
      for (unsigned I = 0; I < Args.size(); ++I)
        B.CreateStore(Args[I], B.CreateStructGEP(ST, Buf, I));
      llvm::Value *Fs = cString(C, Fmt);
      if (!Owner) {
        B.CreateCall(Vprintf, {Fs, B.CreateAddrSpaceCast(Buf, Gen)});
        continue;
      }
      llvm::BasicBlock *Do = llvm::BasicBlock::Create(C.Ctx, "print", &C.Kernel);
      llvm::BasicBlock *Done = llvm::BasicBlock::Create(C.Ctx, "printed", &C.Kernel);
      B.CreateCondBr(Owner, Do, Done);
      B.SetInsertPoint(Do);
      B.CreateCall(Vprintf, {Fs, B.CreateAddrSpaceCast(Buf, Gen)});
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
    }
  }
}

static void lowerAssert(LoweringContext &C, const ir::DeviceAssertOp &O) {
  if (!C.Opts.Debug)
    return;
  llvm::IRBuilderBase &B = C.B;
  const Tile &Cond = C.get(O.operand(0));
  std::optional<Tile> Mask;
  if (O.mask())
    Mask = C.getAs(O.mask(), Cond.Layout);
  llvm::Value *Fail = B.getFalse();
  for (unsigned R = 0; R < Cond.Regs.size(); ++R) {
    llvm::Value *Bad = B.CreateNot(Cond.Regs[R]);
    if (Mask)
      Bad = B.CreateAnd(Bad, Mask->Regs[R]);
    Fail = B.CreateOr(Fail, Bad);
  }
  auto *Gen = llvm::PointerType::get(C.Ctx, 0);
  llvm::FunctionCallee AssertFail = C.M.getOrInsertFunction(
      "__assertfail", llvm::FunctionType::get(B.getVoidTy(), {Gen, Gen, B.getInt32Ty(), Gen, B.getInt64Ty()}, false));
  llvm::BasicBlock *Do = llvm::BasicBlock::Create(C.Ctx, "assert.fail", &C.Kernel);
  llvm::BasicBlock *Done = llvm::BasicBlock::Create(C.Ctx, "assert.ok", &C.Kernel);
  B.CreateCondBr(Fail, Do, Done);
  B.SetInsertPoint(Do);
  B.CreateCall(AssertFail, {cString(C, O.message()), cString(C, C.M.getName().str()), B.getInt32(O.loc().Begin),
                            cString(C, C.Kernel.getName().str()), B.getInt64(1)});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
}

bool lowerDebug(LoweringContext &C, const ir::Op &O) {
  if (auto *P = ir::dyn_cast<ir::DevicePrintOp>(&O)) {
    lowerPrint(C, *P);
    return true;
  }
  if (auto *A = ir::dyn_cast<ir::DeviceAssertOp>(&O)) {
    lowerAssert(C, *A);
    return true;
  }
  if (O.kind() == ir::OpKind::Barrier) {
    // Triton's gpu.barrier: threads exchanging values through memory
    // (torchao's Hadamard butterflies store, wait, load the partner's).
    C.barrier();
    return true;
  }
  return false;
}

} // namespace tessel::codegen
