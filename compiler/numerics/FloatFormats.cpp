//===- FloatFormats.cpp - narrow floating-point formats -------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// One generic encoder and decoder driven by FormatInfo, rather than one hand
/// written routine per format: the seven formats differ only in field widths,
/// bias and how they spend their special encodings, and a single algorithm is
/// easier to test exhaustively than seven.
//===----------------------------------------------------------------------===//
#include "compiler/numerics/FloatFormats.h"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace tessel::numerics {

static constexpr std::array<FormatInfo, 7> Infos = {{
    {"fp16", 16, 5, 10, 15, true, true, false, false},
    {"bf16", 16, 8, 7, 127, true, true, false, false},
    {"fp8e4nv", 8, 4, 3, 7, false, false, true, false},
    {"fp8e5", 8, 5, 2, 15, true, true, false, false},
    {"fp8e4b15", 8, 4, 3, 15, false, false, false, false},
    {"fp8e5b16", 8, 5, 2, 16, false, false, false, true},
    {"fp8e4b8", 8, 4, 3, 8, false, false, false, true},
}};

const FormatInfo &formatInfo(FloatFormat F) { return Infos[static_cast<size_t>(F)]; }

/// Only fp16 and bf16 keep IEEE overflow to infinity; every fp8 conversion
/// Triton emits saturates.
static bool overflowsToInf(FloatFormat F) { return F == FloatFormat::FP16 || F == FloatFormat::BF16; }

double decode(FloatFormat F, uint32_t Bits) {
  const FormatInfo &I = formatInfo(F);
  Bits &= (1u << I.Bits) - 1;
  const uint32_t ExpMax = (1u << I.ExpBits) - 1;
  const uint32_t MantMax = (1u << I.MantBits) - 1;
  const bool Neg = (Bits >> (I.Bits - 1)) & 1;
  const uint32_t Exp = (Bits >> I.MantBits) & ExpMax;
  const uint32_t Mant = Bits & MantMax;
  const double NaN = std::numeric_limits<double>::quiet_NaN();
  if (I.NegZeroIsNaN && Bits == (1u << (I.Bits - 1)))
    return NaN;
  if (I.IeeeNaN && Exp == ExpMax)
    return Mant ? NaN : (Neg ? -INFINITY : INFINITY);
  if (I.AllOnesNaN && Exp == ExpMax && Mant == MantMax)
    return NaN;
  double Mag = Exp == 0 ? std::ldexp(static_cast<double>(Mant), 1 - I.Bias - I.MantBits)
                        : std::ldexp(static_cast<double>(Mant | (1u << I.MantBits)),
                                     static_cast<int>(Exp) - I.Bias - I.MantBits);
  return Neg ? -Mag : Mag;
}

/// The largest finite encoding's exponent field and mantissa.
static void maxFinite(const FormatInfo &I, uint32_t &Exp, uint32_t &Mant) {
  const uint32_t ExpMax = (1u << I.ExpBits) - 1;
  const uint32_t MantMax = (1u << I.MantBits) - 1;
  Exp = I.IeeeNaN ? ExpMax - 1 : ExpMax;
  Mant = I.AllOnesNaN ? MantMax - 1 : MantMax;
}

static uint32_t nanBits(FloatFormat F, bool Neg) {
  const FormatInfo &I = formatInfo(F);
  const uint32_t Sign = Neg ? 1u << (I.Bits - 1) : 0;
  switch (F) {
  case FloatFormat::FP16:
  case FloatFormat::BF16:
    return 0x7FFF;
  case FloatFormat::FP8E4NV:
  case FloatFormat::FP8E5:
    return Sign | 0x7F;
  case FloatFormat::FP8E4B15:
    return 0x7F;
  case FloatFormat::FP8E5B16:
  case FloatFormat::FP8E4B8:
    return 0x80;
  }
  return 0;
}

uint32_t encode(FloatFormat F, double Value, Rounding R) {
  const FormatInfo &I = formatInfo(F);
  const bool Neg = std::signbit(Value);
  if (std::isnan(Value))
    return nanBits(F, Neg);
  const uint32_t SignBit = (Neg && !I.NegZeroIsNaN) ? 1u << (I.Bits - 1) : 0;
  // The fnuz formats have no -0, but a negative nonzero value keeps its sign.
  const uint32_t NonzeroSign = Neg ? 1u << (I.Bits - 1) : 0;
  uint32_t MaxExp, MaxMant;
  maxFinite(I, MaxExp, MaxMant);
  const uint32_t MaxBits = NonzeroSign | (MaxExp << I.MantBits) | MaxMant;
  const uint32_t InfBits = NonzeroSign | (((1u << I.ExpBits) - 1) << I.MantBits);
  double A = std::fabs(Value);
  if (std::isinf(A))
    return overflowsToInf(F) ? InfBits : MaxBits;
  if (A == 0)
    return SignBit;

  int E2;
  (void)std::frexp(A, &E2);
  const int E = E2 - 1; // A in [2^E, 2^(E+1))
  const int EMin = 1 - I.Bias;
  const int Q = (E < EMin ? EMin : E) - I.MantBits; // exponent of one unit in the last place
  const double Scaled = std::ldexp(A, -Q);          // exact: a power-of-two scale
  double N = std::floor(Scaled);
  if (R == Rounding::NearestEven) {
    double Frac = Scaled - N;
    if (Frac > 0.5 || (Frac == 0.5 && std::fmod(N, 2.0) != 0))
      N += 1;
  }
  if (N == 0)
    return SignBit;
  uint64_t Mant = static_cast<uint64_t>(N);
  uint32_t Exp = 0;
  if (Mant >= (1ull << I.MantBits)) {
    int EE = Q + I.MantBits;
    if (Mant >= (2ull << I.MantBits)) {
      Mant >>= 1;
      ++EE;
    }
    // Exponents far beyond the format only matter as "overflow".
    if (EE + I.Bias > static_cast<int>(MaxExp) + 1)
      EE = static_cast<int>(MaxExp) + 1 - I.Bias;
    Exp = static_cast<uint32_t>(EE + I.Bias);
    Mant -= 1ull << I.MantBits;
  }
  if (Exp > MaxExp || (Exp == MaxExp && Mant > MaxMant))
    return (overflowsToInf(F) && R == Rounding::NearestEven) ? InfBits : MaxBits;
  return NonzeroSign | (Exp << I.MantBits) | static_cast<uint32_t>(Mant);
}

double roundTo(FloatFormat F, double Value, Rounding R) { return decode(F, encode(F, Value, R)); }

const float *decodeTable(FloatFormat F) {
  // Built once, on first use, for all formats (thread-safe static init).
  static const std::array<std::vector<float>, 7> Tables = [] {
    std::array<std::vector<float>, 7> T;
    for (size_t K = 0; K < T.size(); ++K) {
      auto Fmt = static_cast<FloatFormat>(K);
      uint32_t Count = 1u << formatInfo(Fmt).Bits;
      T[K].resize(Count);
      for (uint32_t B = 0; B < Count; ++B)
        T[K][B] = static_cast<float>(decode(Fmt, B));
    }
    return T;
  }();
  return Tables[static_cast<size_t>(F)].data();
}

float roundToFP32(double Value, Rounding R) {
  float F = static_cast<float>(Value);
  if (R == Rounding::TowardZero && std::isfinite(Value) && std::fabs(static_cast<double>(F)) > std::fabs(Value))
    F = std::nextafter(F, 0.0f);
  return F;
}

float truncateToTF32(float Value) {
  if (!std::isfinite(Value))
    return Value;
  uint32_t U;
  std::memcpy(&U, &Value, 4);
  U &= ~0x1FFFu;
  float Out;
  std::memcpy(&Out, &U, 4);
  return Out;
}

float roundToTF32(float Value) {
  if (!std::isfinite(Value))
    return Value;
  uint32_t U;
  std::memcpy(&U, &Value, 4);
  U += 0x1000u; // half of the 13 dropped bits: ties round away from zero
  U &= ~0x1FFFu;
  float Out;
  std::memcpy(&Out, &U, 4);
  return Out;
}

} // namespace tessel::numerics
