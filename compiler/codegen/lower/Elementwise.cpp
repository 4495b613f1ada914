//===- Elementwise.cpp - arithmetic, comparisons, constants, pointers -----===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The register-by-register ops: every operand is read in the result's
/// layout and one LLVM instruction (or a short sequence) is emitted per
/// register. Integer semantics are Triton's on the GPU: wrap-around
/// arithmetic, `//` truncating and `%` with the dividend's sign (sdiv/srem,
/// udiv/urem on unsigned), shifts by the width or more give 0 (or the sign
/// for an arithmetic right shift) as PTX's shl/shr do, `umulhi` through
/// libdevice. Float `minimum`/`maximum` are minnum/maxnum unless NaNs
/// propagate (llvm.minimum, PTX `min.NaN`); comparisons are ordered except
/// `!=`, as Triton's arith.cmpf.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include "compiler/numerics/FloatFormats.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace tessel::codegen {

static llvm::Value *constantOf(LoweringContext &C, const ir::ConstantOp &O) {
  ElemType E = O.result()->type().Elem;
  llvm::Type *T = C.regType(E);
  if (E.isPointer())
    return llvm::ConstantExpr::getIntToPtr(C.B.getInt64(static_cast<uint64_t>(O.intValue())), T);
  if (auto F = fp8Format(E.Scalar))
    return C.B.getInt8(static_cast<uint8_t>(numerics::encode(*F, O.floatValue())));
  if (isFloat(E.Scalar))
    return llvm::ConstantFP::get(T, O.floatValue());
  return llvm::ConstantInt::get(T, static_cast<uint64_t>(O.intValue()), !isUnsigned(E.Scalar));
}

/// Applies Fn to the registers of O's operands, each read in the result's
/// layout, and sets the result.
static void mapRegs(LoweringContext &C, const ir::Op &O,
                    const std::function<llvm::Value *(const std::vector<llvm::Value *> &)> &Fn) {
  LinearLayout L = C.wanted(O.result());
  std::vector<Tile> Ins;
  for (ir::Value *V : O.operands())
    Ins.push_back(C.getAs(V, L));
  Tile Out{L, {}};
  std::vector<llvm::Value *> Args(Ins.size());
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    for (size_t I = 0; I < Ins.size(); ++I)
      Args[I] = Ins[I].Regs[R];
    Out.Regs.push_back(Fn(Args));
  }
  C.set(O.result(), std::move(Out));
}

static llvm::Value *shiftOp(LoweringContext &C, ir::OpKind K, bool Unsigned, llvm::Value *A, llvm::Value *S) {
  llvm::IRBuilderBase &B = C.B;
  unsigned W = A->getType()->getIntegerBitWidth();
  llvm::Value *Wide = B.CreateICmpUGE(S, llvm::ConstantInt::get(S->getType(), W));
  if (K == ir::OpKind::Shl)
    return B.CreateSelect(Wide, llvm::ConstantInt::get(A->getType(), 0), B.CreateShl(A, S));
  if (Unsigned)
    return B.CreateSelect(Wide, llvm::ConstantInt::get(A->getType(), 0), B.CreateLShr(A, S));
  llvm::Value *Clamped = B.CreateSelect(Wide, llvm::ConstantInt::get(S->getType(), W - 1), S);
  return B.CreateAShr(A, Clamped);
}

static llvm::Value *binaryOp(LoweringContext &C, const ir::Op &O, llvm::Value *A, llvm::Value *Bv) {
  llvm::IRBuilderBase &B = C.B;
  ScalarKind S = O.operand(0)->type().Elem.Scalar;
  bool Fp = isFloat(S);
  bool Uns = isUnsigned(S) || S == ScalarKind::I1;
  using K = ir::OpKind;
  switch (O.kind()) {
  case K::Add:
    return Fp ? B.CreateFAdd(A, Bv) : B.CreateAdd(A, Bv);
  case K::Sub:
    return Fp ? B.CreateFSub(A, Bv) : B.CreateSub(A, Bv);
  case K::Mul:
    return Fp ? B.CreateFMul(A, Bv) : B.CreateMul(A, Bv);
  case K::Div:
    // Triton's FDivOpConversion: fp32 through div.full.f32 (at most 2 ulp, a
    // few instructions) rather than the IEEE division's subroutine; fp64 and
    // the rest as LLVM's fdiv (div.rn). LLVM 19 has no intrinsic for it and
    // selects it only under a process-wide option, hence the asm.
    if (A->getType()->isFloatTy()) {
      auto *FT = llvm::FunctionType::get(B.getFloatTy(), {B.getFloatTy(), B.getFloatTy()}, false);
      return B.CreateCall(llvm::InlineAsm::get(FT, "div.full.f32 $0, $1, $2;", "=f,f,f", /*hasSideEffects=*/false),
                          {A, Bv});
    }
    return B.CreateFDiv(A, Bv);
  case K::DivRn:
    return B.CreateFDiv(A, Bv);
  case K::FloorDiv:
    return Uns ? B.CreateUDiv(A, Bv) : B.CreateSDiv(A, Bv);
  case K::Mod:
    if (Fp)
      return B.CreateFRem(A, Bv);
    return Uns ? B.CreateURem(A, Bv) : B.CreateSRem(A, Bv);
  case K::And:
    return B.CreateAnd(A, Bv);
  case K::Or:
    return B.CreateOr(A, Bv);
  case K::Xor:
    return B.CreateXor(A, Bv);
  case K::Shl:
  case K::Shr:
    return shiftOp(C, O.kind(), Uns, A, Bv);
  case K::Minimum:
  case K::Maximum: {
    bool Min = O.kind() == K::Minimum;
    if (Fp) {
      bool Nan = ir::cast<ir::BinaryOp>(&O)->propagateNan() == ir::PropagateNan::All;
      auto ID = Min ? (Nan ? llvm::Intrinsic::minimum : llvm::Intrinsic::minnum)
                    : (Nan ? llvm::Intrinsic::maximum : llvm::Intrinsic::maxnum);
      return B.CreateBinaryIntrinsic(ID, A, Bv);
    }
    auto ID = Min ? (Uns ? llvm::Intrinsic::umin : llvm::Intrinsic::smin)
                  : (Uns ? llvm::Intrinsic::umax : llvm::Intrinsic::smax);
    return B.CreateBinaryIntrinsic(ID, A, Bv);
  }
  case K::Pow: {
    llvm::Type *T = A->getType();
    return B.CreateCall(C.libdevice(T->isDoubleTy() ? "__nv_pow" : "__nv_powf", T, {T, T}), {A, Bv});
  }
  case K::UMulHi: {
    bool Wide = A->getType()->getIntegerBitWidth() == 64;
    llvm::Type *T = A->getType();
    return B.CreateCall(C.libdevice(Wide ? "__nv_umul64hi" : "__nv_umulhi", T, {T, T}), {A, Bv});
  }
  default:
    return nullptr;
  }
}

static llvm::CmpInst::Predicate cmpPredicate(ir::CmpPredicate P, bool Fp, bool Uns) {
  using CP = llvm::CmpInst;
  switch (P) {
  case ir::CmpPredicate::EQ:
    return Fp ? CP::FCMP_OEQ : CP::ICMP_EQ;
  case ir::CmpPredicate::NE:
    return Fp ? CP::FCMP_UNE : CP::ICMP_NE;
  case ir::CmpPredicate::LT:
    return Fp ? CP::FCMP_OLT : Uns ? CP::ICMP_ULT : CP::ICMP_SLT;
  case ir::CmpPredicate::LE:
    return Fp ? CP::FCMP_OLE : Uns ? CP::ICMP_ULE : CP::ICMP_SLE;
  case ir::CmpPredicate::GT:
    return Fp ? CP::FCMP_OGT : Uns ? CP::ICMP_UGT : CP::ICMP_SGT;
  case ir::CmpPredicate::GE:
    return Fp ? CP::FCMP_OGE : Uns ? CP::ICMP_UGE : CP::ICMP_SGE;
  }
  return CP::ICMP_EQ;
}

bool lowerElementwise(LoweringContext &C, const ir::Op &O) {
  llvm::IRBuilderBase &B = C.B;
  using K = ir::OpKind;
  switch (O.kind()) {
  case K::Constant: {
    if (isFP8(O.result()->type().Elem.Scalar) && !fp8Format(O.result()->type().Elem.Scalar))
      return false;
    LinearLayout L = C.wanted(O.result());
    C.set(O.result(), Tile{L, std::vector<llvm::Value *>(L.numRegs(), constantOf(C, *ir::cast<ir::ConstantOp>(&O)))});
    return true;
  }
  case K::Splat: {
    LinearLayout L = C.wanted(O.result());
    llvm::Value *V = C.get(O.operand(0)).Regs[0];
    C.set(O.result(), Tile{L, std::vector<llvm::Value *>(L.numRegs(), V)});
    return true;
  }
  case K::Arange: {
    LinearLayout L = C.wanted(O.result());
    Tile T{L, {}};
    int64_t Start = ir::cast<ir::ArangeOp>(&O)->start();
    for (unsigned R = 0; R < L.numRegs(); ++R)
      T.Regs.push_back(B.CreateAdd(C.coord(L, R, 0), C.i32(Start)));
    C.set(O.result(), std::move(T));
    return true;
  }
  case K::ProgramId:
  case K::NumPrograms: {
    int64_t Axis = O.intAttr();
    if (Axis < 0 || Axis > 2)
      return false;
    auto A = static_cast<unsigned>(Axis);
    C.set(O.result(), C.scalarTile(O.kind() == K::NumPrograms ? C.numPrograms(A) : C.programId(A)));
    return true;
  }
  case K::Hint:
    C.set(O.result(), C.getAs(O.operand(0), C.wanted(O.result())));
    return true;
  case K::Neg:
  case K::Not:
  case K::Abs: {
    ScalarKind S = O.operand(0)->type().Elem.Scalar;
    mapRegs(C, O, [&](const std::vector<llvm::Value *> &A) -> llvm::Value * {
      if (O.kind() == K::Not)
        return B.CreateNot(A[0]);
      if (isFloat(S))
        return O.kind() == K::Neg ? B.CreateFNeg(A[0]) : B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, A[0]);
      if (O.kind() == K::Neg)
        return B.CreateNeg(A[0]);
      if (isUnsigned(S) || S == ScalarKind::I1)
        return A[0];
      return B.CreateBinaryIntrinsic(llvm::Intrinsic::abs, A[0], B.getFalse());
    });
    return true;
  }
  case K::Fma:
    mapRegs(C, O, [&](const std::vector<llvm::Value *> &A) {
      return B.CreateIntrinsic(llvm::Intrinsic::fma, {A[0]->getType()}, {A[0], A[1], A[2]});
    });
    return true;
  case K::Cmp: {
    ElemType E = O.operand(0)->type().Elem;
    bool Fp = !E.isPointer() && isFloat(E.Scalar);
    bool Uns = E.isPointer() || isUnsigned(E.Scalar) || E.Scalar == ScalarKind::I1;
    auto P = cmpPredicate(ir::cast<ir::CmpOp>(&O)->predicate(), Fp, Uns);
    mapRegs(C, O, [&](const std::vector<llvm::Value *> &A) {
      if (Fp)
        return B.CreateFCmp(P, A[0], A[1]);
      if (E.isPointer())
        return B.CreateICmp(P, B.CreatePtrToInt(A[0], B.getInt64Ty()), B.CreatePtrToInt(A[1], B.getInt64Ty()));
      return B.CreateICmp(P, A[0], A[1]);
    });
    return true;
  }
  case K::Select:
    mapRegs(C, O, [&](const std::vector<llvm::Value *> &A) { return B.CreateSelect(A[0], A[1], A[2]); });
    return true;
  case K::AddPtr: {
    ElemType Pointee = O.result()->type().Elem.pointee();
    llvm::Type *ElemTy = C.memType(Pointee);
    bool Uns = isUnsigned(O.operand(1)->type().Elem.Scalar) || O.operand(1)->type().Elem.Scalar == ScalarKind::I1;
    mapRegs(C, O, [&](const std::vector<llvm::Value *> &A) {
      llvm::Value *Off = A[1];
      if (Uns)
        Off = B.CreateZExt(Off, B.getInt64Ty());
      return B.CreateGEP(ElemTy, A[0], {Off});
    });
    return true;
  }
  default:
    break;
  }
  if (O.kind() >= ir::FirstBinary && O.kind() <= ir::LastBinary) {
    // d + dot(a, b, 0) that the dot accumulated into d already
    // (CombineDotAdd.h): the sum is the dot's tile.
    if (const ir::Op *Dot = C.Plan.Combine.foldedDot(O)) {
      C.set(O.result(), C.getAs(Dot->result(), C.wanted(O.result())));
      return true;
    }
    if (isFP8(O.operand(0)->type().Elem.Scalar))
      return false;
    bool Ok = true;
    mapRegs(C, O, [&](const std::vector<llvm::Value *> &A) {
      llvm::Value *V = binaryOp(C, O, A[0], A[1]);
      Ok &= V != nullptr;
      return V ? V : llvm::PoisonValue::get(A[0]->getType());
    });
    return Ok;
  }
  return false;
}

} // namespace tessel::codegen
