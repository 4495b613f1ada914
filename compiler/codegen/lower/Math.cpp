//===- Math.cpp - transcendental and rounding functions -------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's math lowering for NVIDIA: fp32 `exp` is `ex2.approx.f32` of
/// x * log2(e) (its own llvm.nvvm.ex2.approx.f32 call), `exp2` and `sqrt`
/// are `ex2.approx.ftz.f32` and `sqrt.approx.ftz.f32` (Triton lowers them to
/// LLVM's exp2 and sqrt, which its NVPTX back end emits flushing subnormals,
/// as its PTX shows: tutorial 06's exp2, tutorial 05's sqrt; the ftz forms
/// are also shorter in SASS, with no subnormal fix-up around MUFU), `rsqrt`
/// is `rsqrt.approx.f32` (Triton's `tl.sqrt` is the fast one; `sqrt_rn` is
/// the IEEE one), `floor`/`ceil` are LLVM's intrinsics
/// (cvt.rmi / cvt.rpi); everything else, and every fp64 function, is a call
/// of libdevice's `__nv_*` (the backend links libdevice). fp16/bf16 operands
/// compute in fp32 and round back, as Triton does.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace tessel::codegen {

static const char *libdeviceName(ir::OpKind K, bool F64) {
  using O = ir::OpKind;
  switch (K) {
  case O::Exp:
    return F64 ? "__nv_exp" : "__nv_expf";
  case O::Exp2:
    return F64 ? "__nv_exp2" : "__nv_exp2f";
  case O::Log:
    return F64 ? "__nv_log" : "__nv_logf";
  case O::Log2:
    return F64 ? "__nv_log2" : "__nv_log2f";
  case O::Sqrt:
    return F64 ? "__nv_sqrt" : "__nv_sqrtf";
  case O::Rsqrt:
    return F64 ? "__nv_rsqrt" : "__nv_rsqrtf";
  case O::Sin:
    return F64 ? "__nv_sin" : "__nv_sinf";
  case O::Cos:
    return F64 ? "__nv_cos" : "__nv_cosf";
  case O::Erf:
    return F64 ? "__nv_erf" : "__nv_erff";
  case O::Tanh:
    return F64 ? "__nv_tanh" : "__nv_tanhf";
  case O::Log1p:
    return F64 ? "__nv_log1p" : "__nv_log1pf";
  case O::Expm1:
    return F64 ? "__nv_expm1" : "__nv_expm1f";
  case O::Tan:
    return F64 ? "__nv_tan" : "__nv_tanf";
  case O::Asin:
    return F64 ? "__nv_asin" : "__nv_asinf";
  case O::Acos:
    return F64 ? "__nv_acos" : "__nv_acosf";
  case O::Atan:
    return F64 ? "__nv_atan" : "__nv_atanf";
  case O::Sinh:
    return F64 ? "__nv_sinh" : "__nv_sinhf";
  case O::Cosh:
    return F64 ? "__nv_cosh" : "__nv_coshf";
  case O::Cbrt:
    return F64 ? "__nv_cbrt" : "__nv_cbrtf";
  case O::Round:
    return F64 ? "__nv_round" : "__nv_roundf";
  case O::Rint:
    return F64 ? "__nv_rint" : "__nv_rintf";
  case O::Trunc:
    return F64 ? "__nv_trunc" : "__nv_truncf";
  default:
    return nullptr;
  }
}

static llvm::Value *mathF32(LoweringContext &C, ir::OpKind K, llvm::Value *X) {
  llvm::IRBuilderBase &B = C.B;
  using O = ir::OpKind;
  switch (K) {
  case O::Exp: {
    llvm::Value *Scaled = B.CreateFMul(X, llvm::ConstantFP::get(B.getFloatTy(), 1.4426950408889634));
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_ex2_approx_f), {Scaled});
  }
  case O::Exp2:
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz_f), {X});
  case O::Sqrt:
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_sqrt_approx_ftz_f), {X});
  case O::Rsqrt:
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_rsqrt_approx_f), {X});
  case O::Floor:
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, X);
  case O::Ceil:
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, X);
  default:
    return B.CreateCall(C.libdevice(libdeviceName(K, false), B.getFloatTy(), {B.getFloatTy()}), {X});
  }
}

bool lowerMath(LoweringContext &C, const ir::Op &O) {
  using K = ir::OpKind;
  switch (O.kind()) {
  case K::Exp:
  case K::Exp2:
  case K::Log:
  case K::Log2:
  case K::Sqrt:
  case K::Rsqrt:
  case K::Sin:
  case K::Cos:
  case K::Erf:
  case K::Tanh:
  case K::Log1p:
  case K::Expm1:
  case K::Tan:
  case K::Asin:
  case K::Acos:
  case K::Atan:
  case K::Sinh:
  case K::Cosh:
  case K::Cbrt:
  case K::Round:
  case K::Rint:
  case K::Trunc:
  case K::Floor:
  case K::Ceil:
    break;
  default:
    return false;
  }
  llvm::IRBuilderBase &B = C.B;
  ScalarKind S = O.operand(0)->type().Elem.Scalar;
  if (!isFloat(S) || isFP8(S)) {
    C.unsupported(O, "'" + std::string(ir::opName(O.kind())) + "' on " + std::string(shortName(S)));
    return true;
  }
  LinearLayout L = C.wanted(O.result());
  Tile In = C.getAs(O.operand(0), L);
  Tile Out{L, {}};
  for (llvm::Value *X : In.Regs) {
    if (S == ScalarKind::FP64) {
      if (O.kind() == K::Floor || O.kind() == K::Ceil)
        Out.Regs.push_back(
            B.CreateUnaryIntrinsic(O.kind() == K::Floor ? llvm::Intrinsic::floor : llvm::Intrinsic::ceil, X));
      else
        Out.Regs.push_back(
            B.CreateCall(C.libdevice(libdeviceName(O.kind(), true), B.getDoubleTy(), {B.getDoubleTy()}), {X}));
      continue;
    }
    llvm::Value *F = S == ScalarKind::FP32 ? X : B.CreateFPExt(X, B.getFloatTy());
    llvm::Value *R = mathF32(C, O.kind(), F);
    Out.Regs.push_back(S == ScalarKind::FP32 ? R : B.CreateFPTrunc(R, X->getType()));
  }
  C.set(O.result(), std::move(Out));
  return true;
}

} // namespace tessel::codegen
