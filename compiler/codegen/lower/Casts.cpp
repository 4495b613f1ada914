//===- Casts.cpp - conversions between element types ----------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// `cast` and `bitcast` as Triton lowers them:
///  - ints: truncation, sign extension from signed sources and zero
///    extension from unsigned ones and i1 (True is 1); anything to i1 is
///    `!= 0`;
///  - int -> float rounds to nearest; float -> int truncates and saturates
///    with NaN -> 0 (llvm.fptosi.sat, PTX cvt.rzi);
///  - float narrowing rounds to nearest even, or toward zero under
///    `fp_downcast_rounding="rtz"` (PTX cvt.rz for fp16 / fp32, truncation
///    of the low half for bf16);
///  - fp8: e4m3 (fp8e4nv) and e5m2 (fp8e5) through PTX's cvt (sm_89 and
///    later: `cvt.rn.satfinite.e4m3x2.f32`, `cvt.rn.f16x2.e4m3x2`), other
///    formats and targets through a 256-entry decode table in constant
///    memory for widening; narrowing to them is a Problem for now;
///  - pointers: casts between pointer types keep the address; int <-> ptr
///    go through inttoptr / ptrtoint.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include "compiler/numerics/FloatFormats.h"

#include <llvm/IR/Intrinsics.h>

namespace tessel::codegen {

/// fp8 byte -> f32 through the format's decode table (exact).
static llvm::Value *fp8ToF32(LoweringContext &C, ScalarKind K, llvm::Value *Byte) {
  llvm::IRBuilderBase &B = C.B;
  std::string Name = "tessel_fp8_table_" + std::string(shortName(K));
  llvm::GlobalVariable *G = C.M.getNamedGlobal(Name);
  if (!G) {
    const float *Table = numerics::decodeTable(*fp8Format(K));
    std::vector<llvm::Constant *> Vals;
    for (int I = 0; I < 256; ++I)
      Vals.push_back(llvm::ConstantFP::get(B.getFloatTy(), static_cast<double>(Table[I])));
    auto *AT = llvm::ArrayType::get(B.getFloatTy(), 256);
    G = new llvm::GlobalVariable(C.M, AT, true, llvm::GlobalValue::InternalLinkage, llvm::ConstantArray::get(AT, Vals),
                                 Name, nullptr, llvm::GlobalValue::NotThreadLocal, 4);
    G->setAlignment(llvm::Align(16));
  }
  llvm::Value *Idx = B.CreateZExt(Byte, B.getInt32Ty());
  return B.CreateLoad(B.getFloatTy(), B.CreateGEP(G->getValueType(), G, {B.getInt32(0), Idx}));
}

/// f32 -> fp8e4nv / fp8e5 with PTX's cvt (round to nearest, saturating).
static llvm::Value *f32ToFp8(LoweringContext &C, ScalarKind K, llvm::Value *F) {
  std::string Fmt = K == ScalarKind::FP8E4NV ? "e4m3x2" : "e5m2x2";
  llvm::IRBuilderBase &B = C.B;
  llvm::Value *Pair = C.inlineAsm(B.getInt16Ty(), "cvt.rn.satfinite." + Fmt + ".f32 $0, $2, $1;", "=h,f,f",
                                  {F, llvm::ConstantFP::get(B.getFloatTy(), 0.0)}, false);
  return B.CreateTrunc(Pair, B.getInt8Ty());
}

/// Float narrowing toward zero.
static llvm::Value *truncRTZ(LoweringContext &C, llvm::Value *V, ScalarKind To) {
  llvm::IRBuilderBase &B = C.B;
  if (V->getType()->isDoubleTy() && To != ScalarKind::FP32)
    V = B.CreateFPTrunc(V, B.getFloatTy()); // fp64 -> 16 bits: as Triton, through fp32
  if (V->getType()->isDoubleTy())
    return C.inlineAsm(B.getFloatTy(), "cvt.rz.f32.f64 $0, $1;", "=f,d", {V}, false);
  if (To == ScalarKind::FP16)
    return B.CreateBitCast(C.inlineAsm(B.getInt16Ty(), "cvt.rz.f16.f32 $0, $1;", "=h,f", {V}, false), B.getHalfTy());
  // bf16: the high half of the fp32 bits, NaNs kept quiet.
  llvm::Value *Bits = B.CreateBitCast(V, B.getInt32Ty());
  llvm::Value *Hi = B.CreateTrunc(B.CreateLShr(Bits, 16), B.getInt16Ty());
  llvm::Value *IsNan = B.CreateFCmpUNO(V, V);
  Hi = B.CreateSelect(IsNan, B.CreateOr(Hi, B.getInt16(0x40)), Hi);
  return B.CreateBitCast(Hi, B.getBFloatTy());
}

/// Converts one register; null when the conversion is not supported.
static llvm::Value *castReg(LoweringContext &C, llvm::Value *V, ElemType From, ElemType To, ir::RoundingMode R) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Type *ToTy = C.regType(To);
  if (From.isPointer() || To.isPointer()) {
    if (From.isPointer() && To.isPointer())
      return V;
    if (From.isPointer())
      return To.Scalar == ScalarKind::I1 ? B.CreateICmpNE(B.CreatePtrToInt(V, B.getInt64Ty()), B.getInt64(0))
                                         : B.CreatePtrToInt(V, ToTy);
    return B.CreateIntToPtr(B.CreateZExtOrTrunc(V, B.getInt64Ty()), ToTy);
  }
  ScalarKind F = From.Scalar, T = To.Scalar;
  if (F == T)
    return V;
  // fp8 sources widen to fp32 first, fp8 results narrow from fp32.
  if (isFP8(F)) {
    llvm::Value *W = fp8ToF32(C, F, V);
    return castReg(C, W, ElemType{ScalarKind::FP32}, To, R);
  }
  if (isFP8(T)) {
    if ((T != ScalarKind::FP8E4NV && T != ScalarKind::FP8E5) || C.Opts.Arch < 89 || R == ir::RoundingMode::RTZ)
      return nullptr;
    llvm::Value *W = isFloat(F) ? castReg(C, V, From, ElemType{ScalarKind::FP32}, R)
                                : castReg(C, V, From, ElemType{ScalarKind::FP32}, R);
    return W ? f32ToFp8(C, T, W) : nullptr;
  }
  bool FFloat = isFloat(F), TFloat = isFloat(T);
  bool FUns = isUnsigned(F) || F == ScalarKind::I1;
  if (T == ScalarKind::I1)
    return FFloat ? B.CreateFCmpUNE(V, llvm::ConstantFP::get(V->getType(), 0.0))
                  : B.CreateICmpNE(V, llvm::ConstantInt::get(V->getType(), 0));
  if (!FFloat && !TFloat)
    return FUns ? B.CreateZExtOrTrunc(V, ToTy) : B.CreateSExtOrTrunc(V, ToTy);
  if (!FFloat)
    return FUns ? B.CreateUIToFP(V, ToTy) : B.CreateSIToFP(V, ToTy);
  if (!TFloat)
    return B.CreateIntrinsic(isUnsigned(T) ? llvm::Intrinsic::fptoui_sat : llvm::Intrinsic::fptosi_sat,
                             {ToTy, V->getType()}, {V});
  unsigned FBits = V->getType()->getPrimitiveSizeInBits(), TBits = ToTy->getPrimitiveSizeInBits();
  if (TBits > FBits || (TBits == FBits)) {
    // fp16 <-> bf16 go through fp32 (exact widening, then one rounding).
    if (TBits == FBits) {
      llvm::Value *W = B.CreateFPExt(V, B.getFloatTy());
      return R == ir::RoundingMode::RTZ ? truncRTZ(C, W, T) : B.CreateFPTrunc(W, ToTy);
    }
    return B.CreateFPExt(V, ToTy);
  }
  if (R == ir::RoundingMode::RTZ)
    return truncRTZ(C, V, T);
  return B.CreateFPTrunc(V, ToTy);
}

llvm::Value *castRegister(LoweringContext &C, llvm::Value *V, ElemType From, ElemType To) {
  return castReg(C, V, From, To, ir::RoundingMode::RTNE);
}

bool lowerCasts(LoweringContext &C, const ir::Op &O) {
  if (O.kind() != ir::OpKind::Cast && O.kind() != ir::OpKind::Bitcast)
    return false;
  ElemType From = O.operand(0)->type().Elem, To = O.result()->type().Elem;
  LinearLayout L = C.wanted(O.result());
  Tile In = C.getAs(O.operand(0), L);
  Tile Out{L, {}};
  // fp32 to fp16 / bf16 to nearest even, two registers at a time: one
  // `cvt.rn.f16x2.f32` each, as Triton's FpToFp converter packs them.
  bool Pairs = O.kind() == ir::OpKind::Cast && From.Scalar == ScalarKind::FP32 && !From.isPointer() &&
               (To.Scalar == ScalarKind::FP16 || To.Scalar == ScalarKind::BF16) && !To.isPointer() &&
               ir::cast<ir::CastOp>(&O)->rounding() == ir::RoundingMode::RTNE && In.Regs.size() % 2 == 0 &&
               C.Opts.Arch >= 80;
  if (Pairs) {
    llvm::IRBuilderBase &B = C.B;
    llvm::Type *ToTy = C.regType(To);
    for (size_t I = 0; I < In.Regs.size(); I += 2) {
      // The first operand goes to the high half.
      llvm::Value *W = C.inlineAsm(B.getInt32Ty(),
                                   std::string("cvt.rn.") + (To.Scalar == ScalarKind::BF16 ? "bf16" : "f16") +
                                       "x2.f32 $0, $2, $1;",
                                   "=r,f,f", {In.Regs[I], In.Regs[I + 1]}, /*SideEffects=*/false);
      llvm::Value *T = B.CreateBitCast(W, llvm::FixedVectorType::get(ToTy, 2));
      Out.Regs.push_back(B.CreateExtractElement(T, C.i32(0)));
      Out.Regs.push_back(B.CreateExtractElement(T, C.i32(1)));
    }
    C.set(O.result(), std::move(Out));
    return true;
  }
  for (llvm::Value *V : In.Regs) {
    llvm::Value *R = nullptr;
    if (O.kind() == ir::OpKind::Bitcast) {
      llvm::Type *ToTy = C.regType(To);
      if (V->getType() == ToTy)
        R = V;
      else if (V->getType()->isPointerTy() || ToTy->isPointerTy())
        R = V->getType()->isPointerTy() ? C.B.CreatePtrToInt(V, ToTy) : C.B.CreateIntToPtr(V, ToTy);
      else if (V->getType()->getPrimitiveSizeInBits() == ToTy->getPrimitiveSizeInBits())
        R = C.B.CreateBitCast(V, ToTy);
    } else {
      R = castReg(C, V, From, To, ir::cast<ir::CastOp>(&O)->rounding());
    }
    if (!R) {
      C.unsupported(O, "the cast from " + From.str() + " to " + To.str() +
                           (C.Opts.Arch < 89 && isFP8(To.Scalar) ? " on sm_" + std::to_string(C.Opts.Arch) : ""));
      return true;
    }
    Out.Regs.push_back(R);
  }
  C.set(O.result(), std::move(Out));
  return true;
}

} // namespace tessel::codegen
