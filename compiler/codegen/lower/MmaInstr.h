//===- MmaInstr.h - which mma.sync a tl.dot runs on -------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Instruction selection for the tensor-core dot (DotMma.cpp), per operand
/// type, as Triton's MMAv2 lowering (DotOpToLLVM/MMAv2.cpp) picks them on
/// sm_80+:
///
///   operands            input_precision  instruction (m16n8kK)             staged as
///   fp16 / bf16         -                m16n8k16 .f32.{f16,bf16}.f32        2 bytes, ldmatrix
///   fp32                tf32             m16n8k8  .f32.tf32.tf32.f32         4 bytes, ld.shared
///   fp32                tf32x3           three m16n8k8 tf32 passes           4 bytes, ld.shared
///   fp32                ieee, bf16x3/x6  none: FMA units (Dot.cpp)
///   int8                -                m16n8k32 .s32.s8.s8.s32             1 byte, b^T, ld.shared.b32
///   fp8e4nv / fp8e5     - (sm_89, sm_120) m16n8k32 .f32.{e4m3,e5m2}x2.f32    1 byte, b^T, ld.shared.b32
///   fp8e4nv / fp8e5     - (sm_90)        two m16n8k16 f16, widened in regs   1 byte, b^T, ld.shared.b32
///   other fp8, or sm_80 -                widened to fp16 (exact), m16n8k16   2 bytes, ldmatrix
///
/// tf32 operands are rounded to nearest (ties away, `cvt.rna.tf32.f32`), the
/// rounding Triton's tf32x3 split uses and the CPU interpreter models
/// (numerics::roundToTF32). tf32x3 is Triton's F32DotTC rewrite: with
/// big = tf32(x) and small = tf32(x - big), acc += a_small·b_big, then
/// a_big·b_small, then a_big·b_big, each a whole pass over K.
///
/// Every flavour accumulates in the registers of one accumulator layout
/// (the m16n8 C fragment is the same for k8, k16 and k32), in fp32 (int32
/// for int8). A dot whose out_dtype is fp16 accumulates in fp32 and rounds
/// once at the end, as the interpreter does (Triton would use fp16
/// accumulators there). max_num_imprecise_acc only changes Hopper's wgmma
/// fp8 accumulation; mma.sync accumulates fully in fp32, which is what the
/// option bounds, so it needs nothing here.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LOWER_MMAINSTR_H
#define TESSEL_COMPILER_CODEGEN_LOWER_MMAINSTR_H

#include "compiler/types/Types.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::ir {
class DotOp;
} // namespace tessel::ir

namespace tessel::codegen {

enum class MmaFlavor {
  F16,    ///< fp16 / bf16 (or fp8 widened to fp16): ldmatrix, k16
  TF32,   ///< fp32 rounded to tf32: plain shared loads, k8
  TF32x3, ///< fp32 as three tf32 passes (big/small split)
  Byte,   ///< int8 or fp8: 32-bit shared loads of four elements, k32
};

struct MmaInstr {
  MmaFlavor Flavor = MmaFlavor::F16;
  int64_t K = 16;                                                  ///< k of one instruction
  ScalarKind StageA = ScalarKind::FP16, StageB = ScalarKind::FP16; ///< element types in shared memory
  std::string AType, BType; ///< PTX operand types: f16, bf16, tf32, s8, e4m3, e5m2
  bool IntAcc = false;      ///< s32 accumulators (int8)
  /// fp8 read as bytes (Byte's staging and fragments, k32 a step) and
  /// widened to fp16 in registers, each step two m16n8k16 f16 instructions:
  /// Triton's mma.sync on sm_90, which multiplies fp8 only as fp16.
  bool WidenBytes = false;
  /// `mma.sync.aligned.m16n8kK.row.col.D.A.B.C` with its operand list.
  std::string mnemonic() const;
  unsigned aRegs() const { return 4; }
  unsigned bRegs() const { return 2; }
};

/// The tensor-core instruction for dot O on sm_Arch, or nullopt when it
/// runs on FMA units (rank 3, a shape below one instruction, ieee fp32,
/// fp64, an accumulator type mma.sync cannot produce).
std::optional<MmaInstr> selectMma(const ir::DotOp &O, int Arch);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LOWER_MMAINSTR_H
