//===- MmaInstr.cpp - which mma.sync a tl.dot runs on ---------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// selectMma: the table of MmaInstr.h, with the shape and result-type
/// conditions under which each row applies.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/MmaInstr.h"

#include "compiler/ir/Ops.h"

namespace tessel::codegen {

std::string MmaInstr::mnemonic() const {
  std::string Acc = IntAcc ? "s32" : "f32";
  if (WidenBytes)
    return "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, "
           "$12, $13};";
  return "mma.sync.aligned.m16n8k" + std::to_string(K) + ".row.col." + Acc + "." + AType + "." + BType + "." + Acc +
         " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};";
}

/// PTX's name of a native fp8 mma operand; empty for the formats mma.sync
/// does not take.
static std::string fp8Name(ScalarKind K) {
  if (K == ScalarKind::FP8E4NV)
    return "e4m3";
  if (K == ScalarKind::FP8E5)
    return "e5m2";
  return "";
}

std::optional<MmaInstr> selectMma(const ir::DotOp &O, int Arch) {
  if (Arch < 80)
    return std::nullopt;
  const auto &AS = O.a()->type().Shape, &BS = O.b()->type().Shape;
  if (AS.size() != 2 || BS.size() != 2)
    return std::nullopt;
  ScalarKind A = O.a()->type().Elem.Scalar, B = O.b()->type().Elem.Scalar;
  ScalarKind Out = O.result()->type().Elem.Scalar;
  MmaInstr I;
  if (isFP8(A) && isFP8(B)) {
    if (Out != ScalarKind::FP32 && Out != ScalarKind::FP16)
      return std::nullopt;
    std::string AN = fp8Name(A), BN = fp8Name(B);
    // Triton's mmav2SupportsFp8Operands (AccelerateMatmul.cpp): fp8
    // mma.sync where the hardware multiplies fp8 (sm_89, sm_120). On sm_90
    // the PTX exists but runs as fp16 upcasts and HMMA, and Triton widens
    // the operands in registers after reading them as bytes from its rings
    // (its PTX on the H100: cvt.rn.f16x2.e5m2x2, then m16n8k16 f16).
    if (Arch >= 89 && !AN.empty() && !BN.empty()) {
      I.Flavor = MmaFlavor::Byte;
      I.K = 32;
      I.StageA = A;
      I.StageB = B;
      I.AType = AN;
      I.BType = BN;
      I.WidenBytes = Arch != 89 && Arch != 120;
    } else {
      // Triton upcasts fp8 operands the arch cannot multiply to fp16.
      I.AType = I.BType = "f16";
    }
  } else if (A != B) {
    return std::nullopt;
  } else if (A == ScalarKind::FP16 || A == ScalarKind::BF16) {
    if (Out != ScalarKind::FP32 && !(A == ScalarKind::FP16 && Out == ScalarKind::FP16))
      return std::nullopt;
    I.StageA = I.StageB = A;
    I.AType = I.BType = A == ScalarKind::FP16 ? "f16" : "bf16";
  } else if (A == ScalarKind::FP32) {
    ir::InputPrecision P = O.inputPrecision();
    if (Out != ScalarKind::FP32 || (P != ir::InputPrecision::TF32 && P != ir::InputPrecision::TF32x3))
      return std::nullopt;
    I.Flavor = P == ir::InputPrecision::TF32 ? MmaFlavor::TF32 : MmaFlavor::TF32x3;
    I.K = 8;
    I.StageA = I.StageB = ScalarKind::FP32;
    I.AType = I.BType = "tf32";
  } else if (A == ScalarKind::I8) {
    if (Out != ScalarKind::I32)
      return std::nullopt;
    I.Flavor = MmaFlavor::Byte;
    I.K = 32;
    I.StageA = I.StageB = ScalarKind::I8;
    I.AType = I.BType = "s8";
    I.IntAcc = true;
  } else {
    return std::nullopt;
  }
  int64_t M = AS[0], K = AS[1], N = BS[1];
  if (M < 16 || N < 16 || K < I.K || K % I.K != 0)
    return std::nullopt;
  return I;
}

} // namespace tessel::codegen
