//===- FloatFormats.h - narrow floating-point formats -----------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Encoding and decoding of the narrow float formats Triton stores in memory:
/// fp16, bf16 and the five fp8 variants. The interpreter computes in fp32 or
/// fp64 and rounds every result to its dtype through these functions, so that
/// a kernel run on the CPU sees the values a GPU would produce.
///
/// Formats, with Triton's names:
///   FP16      IEEE binary16 (1-5-10, bias 15, inf, NaN)
///   BF16      bfloat16 (1-8-7, bias 127, inf, NaN)
///   FP8E4NV   e4m3fn (1-4-3, bias 7, no inf, NaN = S.1111.111, max 448)
///   FP8E5     e5m2 (1-5-2, bias 15, inf, NaN; IEEE-like)
///   FP8E4B15  Triton's e4m3 with bias 15 (no inf, no NaN, max 1.875)
///   FP8E5B16  e5m2fnuz (bias 16, no inf, no -0, NaN = 0x80, max 57344)
///   FP8E4B8   e4m3fnuz (bias 8, no inf, no -0, NaN = 0x80, max 240)
///
/// Rounding from a wider value is RTNE by default (PTX `cvt.rn`) or RTZ
/// (`cvt.rz`, Triton's `fp_downcast_rounding='rtz'`). Out-of-range values:
///   - FP16/BF16: RTNE overflows to +-inf; RTZ saturates to +-max finite (IEEE).
///   - fp8 formats: saturate to +-max finite, also for +-inf inputs, as PTX's
///     `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` does on sm_89+ (Triton's lowering);
///     the fnuz/b15 formats follow the same rule.
///   - NaN: FP16/BF16 give the canonical PTX NaN 0x7FFF; FP8E4NV gives 0x7F,
///     FP8E5 0x7F (both with the input's sign), the fnuz formats 0x80.
///     FP8E4B15 has no NaN encoding: NaN becomes +0x7F (Triton's b15 lowering
///     clamps through fp16 and never produces a NaN either).
/// Negative zero becomes +0 in the fnuz formats (they have no -0).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_NUMERICS_FLOATFORMATS_H
#define TESSEL_COMPILER_NUMERICS_FLOATFORMATS_H

#include <cstdint>
#include <string_view>

namespace tessel::numerics {

enum class FloatFormat { FP16, BF16, FP8E4NV, FP8E5, FP8E4B15, FP8E5B16, FP8E4B8 };

enum class Rounding {
  NearestEven, ///< `rtne`, the default of every cast
  TowardZero,  ///< `rtz`
};

/// The bit layout of a format and how it spends its special encodings.
struct FormatInfo {
  std::string_view Name; ///< Triton's short name: "fp16", "fp8e4nv"...
  int Bits;              ///< 8 or 16
  int ExpBits;
  int MantBits;
  int Bias;
  bool HasInf;       ///< the all-ones exponent with zero mantissa is inf (IEEE style)
  bool IeeeNaN;      ///< the all-ones exponent with nonzero mantissa is NaN
  bool AllOnesNaN;   ///< only S.1111.111 is NaN (e4m3fn)
  bool NegZeroIsNaN; ///< 0x80 is the only NaN and there is no -0 (fnuz)
};

const FormatInfo &formatInfo(FloatFormat F);

/// The exact value of an encoding (NaN for NaN encodings). Only the low
/// `Bits` bits of `Bits` are read.
double decode(FloatFormat F, uint32_t Bits);

/// The encoding of a value, rounded as asked, with the range rules above.
uint32_t encode(FloatFormat F, double Value, Rounding R = Rounding::NearestEven);

/// decode(encode(Value)): the value a store of Value would keep.
double roundTo(FloatFormat F, double Value, Rounding R = Rounding::NearestEven);

/// Fast table lookups for the interpreter's loads: decodeTable(F)[Bits] as
/// float (every value of these formats is exactly representable in fp32).
const float *decodeTable(FloatFormat F);

/// fp64 -> fp32 with the given rounding.
float roundToFP32(double Value, Rounding R = Rounding::NearestEven);

/// The TF32 value an fp32 input becomes inside a tensor-core dot
/// (`cvt.rna.tf32.f32`: 10 mantissa bits, round to nearest, ties away).
float roundToTF32(float Value);
/// The TF32 value an fp32 operand is read as where no conversion rounds it
/// first (Hopper's wgmma from shared memory): the low 13 bits dropped.
float truncateToTF32(float Value);

} // namespace tessel::numerics

#endif // TESSEL_COMPILER_NUMERICS_FLOATFORMATS_H
