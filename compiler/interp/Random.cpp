//===- Random.cpp - tl.rand, tl.randn, tl.randint -------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's counter-based generator (python/triton/language/random.py):
/// Philox 4x32 with n_rounds rounds (10 by default), counter
/// (offset, 0, 0, 0) and key (low, high 32 bits of the seed). randint is
/// the first output word; rand maps it to [0, 1) by reading it as int32,
/// folding negatives (x < 0 -> -x - 1) and multiplying in fp32 by
/// 4.6566127342e-10; randn applies Box-Muller to the first two words'
/// uniforms (u1 clamped below by 1e-7). randint and rand are bit-identical
/// to Triton's; randn uses the C library's logf/cosf/sqrtf where the GPU
/// uses its approximations, so it can differ in the last bits.
/// FIXME: 64-bit offsets (Triton's uint64 Philox variant) are not modelled;
/// the verifier requires 32-bit offsets.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tessel::interp {

namespace {

constexpr uint32_t PhiloxKeyA = 0x9E3779B9, PhiloxKeyB = 0xBB67AE85;
constexpr uint32_t PhiloxRoundA = 0xD2511F53, PhiloxRoundB = 0xCD9E8D57;

uint32_t mulhi(uint32_t A, uint32_t B) { return static_cast<uint32_t>((static_cast<uint64_t>(A) * B) >> 32); }

/// One Philox4x32 evaluation, in place.
void philox(uint32_t C[4], uint32_t K0, uint32_t K1, int Rounds) {
  for (int R = 0; R < Rounds; ++R) {
    uint32_t C0 = C[0], C2 = C[2];
    C[0] = mulhi(PhiloxRoundB, C2) ^ C[1] ^ K0;
    C[2] = mulhi(PhiloxRoundA, C0) ^ C[3] ^ K1;
    C[1] = PhiloxRoundB * C2;
    C[3] = PhiloxRoundA * C0;
    K0 += PhiloxKeyA;
    K1 += PhiloxKeyB;
  }
}

float uniform(uint32_t X) {
  int32_t S = static_cast<int32_t>(X);
  if (S < 0)
    S = -S - 1;
  return static_cast<float>(S) * 4.6566127342e-10f;
}

} // namespace

void evalRandom(ir::OpKind K, const Tile &Seed, const Tile &Offset, int NRounds, Tile &Out,
                const std::array<const Tile *, 3> &Counters, int Word) {
  const bool Int = K == ir::OpKind::Randint;
  Out.reset({Int ? ScalarKind::U32 : ScalarKind::FP32, 0, false}, Offset.Shape);
  const uint64_t S = static_cast<uint64_t>(Seed.Ints[0]);
  const uint32_t K0 = static_cast<uint32_t>(S), K1 = static_cast<uint32_t>(S >> 32);
  const size_t N = Offset.size();
  for (size_t I = 0; I < N; ++I) {
    uint32_t C[4] = {static_cast<uint32_t>(Offset.Ints[I]), 0, 0, 0};
    for (int W = 0; W < 3; ++W)
      if (Counters[W])
        C[W + 1] = static_cast<uint32_t>(Counters[W]->Ints[I]);
    philox(C, K0, K1, NRounds);
    if (Int) {
      Out.Ints[I] = C[Word];
      continue;
    }
    if (K == ir::OpKind::Rand) {
      Out.Floats[I] = uniform(C[0]);
      continue;
    }
    float U1 = std::max(1.0e-7f, uniform(C[0]));
    float U2 = uniform(C[1]);
    float Th = 6.283185307179586f * U2;
    float R = std::sqrt(-2.0f * std::log(U1));
    Out.Floats[I] = R * std::cos(Th);
  }
}

} // namespace tessel::interp
