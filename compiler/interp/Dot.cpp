//===- Dot.cpp - tl.dot ---------------------------------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Matrix products as tensor cores compute them: float operands are widened
/// to fp32 (exact for fp8/fp16/bf16; fp32 operands are first rounded to TF32
/// when input_precision is tf32, the default, or truncated where the target's
/// instruction drops the low bits: RunOptions::Tf32Truncates), products are
/// exact in fp32,
/// and the sum accumulates in fp32 starting from the accumulator, rounding
/// after each addition in k order. The result is rounded to the result
/// dtype at the end (fp16 when out_dtype asks for it). int8 products
/// accumulate exactly in int32 with wraparound; fp64 in double.
///
/// tf32x3 and bf16x3/bf16x6 emulate IEEE fp32 on the GPU and are computed
/// here as ieee. FIXME: max_num_imprecise_acc (reduced-precision fp8
/// accumulation on Hopper) is not modelled; accumulation is always full fp32.
///
/// The loop order (i, k, j) keeps the innermost loop contiguous in B and C so
/// the compiler vectorises it: this is what makes a 512^3 matmul take tens
/// of milliseconds instead of seconds.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Kernels.h"

namespace tessel::interp {

/// C[0..N) += A * B[0..N): the innermost loop, in its own function so that
/// the restrict qualifiers let the compiler vectorise it without alias checks.
static void axpy(float *__restrict C, const float *__restrict B, float A, int64_t N) {
  int64_t J = 0;
  for (; J + 8 <= N; J += 8)
    for (int64_t L = 0; L < 8; ++L)
      C[J + L] += A * B[J + L];
  for (; J < N; ++J)
    C[J] += A * B[J];
}

void evalDot(const ir::DotOp &O, const Tile &A, const Tile &B, const Tile &Acc, Tile &Out, bool Truncate) {
  Out.reset(Acc.Elem, Acc.Shape);
  const size_t R = A.Shape.size();
  const int64_t M = A.Shape[R - 2], K = A.Shape[R - 1], N = B.Shape[R - 1];
  int64_t Batch = 1;
  for (size_t D = 0; D + 2 < R; ++D)
    Batch *= A.Shape[D];

  if (!A.isFloat()) {
    // An integer product summed into a float accumulator (an int8 dot with
    // a float32 `acc`, which Triton's front end lets through) adds the exact
    // integer sum to it.
    const bool FloatAcc = Acc.isFloat();
    for (int64_t Bt = 0; Bt < Batch; ++Bt)
      for (int64_t I = 0; I < M; ++I)
        for (int64_t J = 0; J < N; ++J) {
          const int64_t At = (Bt * M + I) * N + J;
          int64_t S = FloatAcc ? 0 : Acc.Ints[At];
          for (int64_t Kk = 0; Kk < K; ++Kk)
            S += A.Ints[(Bt * M + I) * K + Kk] * B.Ints[(Bt * K + Kk) * N + J];
          if (FloatAcc) {
            double V = Acc.Floats[At] + static_cast<double>(S);
            Out.Floats[At] = Out.Elem.Scalar == ScalarKind::FP32 ? static_cast<double>(static_cast<float>(V)) : V;
          } else
            Out.Ints[At] = wrapInt(S, Out.Elem.Scalar);
        }
    return;
  }

  if (A.Elem.Scalar == ScalarKind::FP64) {
    for (int64_t Bt = 0; Bt < Batch; ++Bt)
      for (int64_t I = 0; I < M; ++I) {
        double *C = Out.Floats.data() + (Bt * M + I) * N;
        for (int64_t J = 0; J < N; ++J)
          C[J] = Acc.Floats[(Bt * M + I) * N + J];
        for (int64_t Kk = 0; Kk < K; ++Kk) {
          double Aik = A.Floats[(Bt * M + I) * K + Kk];
          const double *Bk = B.Floats.data() + (Bt * K + Kk) * N;
          for (int64_t J = 0; J < N; ++J)
            C[J] += Aik * Bk[J];
        }
      }
    return;
  }

  const bool TF32 = O.inputPrecision() == ir::InputPrecision::TF32;
  thread_local std::vector<float> FA, FB, FC;
  FA.resize(static_cast<size_t>(M * K));
  FB.resize(static_cast<size_t>(K * N));
  FC.resize(static_cast<size_t>(M * N));
  auto widen = [TF32, Truncate](const Tile &T, int64_t From, size_t Count, std::vector<float> &Dst) {
    bool Round = TF32 && T.Elem.Scalar == ScalarKind::FP32;
    for (size_t I = 0; I < Count; ++I) {
      float F = static_cast<float>(T.Floats[From + static_cast<int64_t>(I)]);
      Dst[I] = !Round ? F : Truncate ? numerics::truncateToTF32(F) : numerics::roundToTF32(F);
    }
  };
  const ScalarKind OutK = Out.Elem.Scalar;
  for (int64_t Bt = 0; Bt < Batch; ++Bt) {
    widen(A, Bt * M * K, FA.size(), FA);
    widen(B, Bt * K * N, FB.size(), FB);
    for (int64_t I = 0; I < M * N; ++I)
      FC[I] = static_cast<float>(Acc.Floats[Bt * M * N + I]);
    for (int64_t I = 0; I < M; ++I) {
      float *C = FC.data() + I * N;
      for (int64_t Kk = 0; Kk < K; ++Kk)
        axpy(C, FB.data() + Kk * N, FA[I * K + Kk], N);
    }
    for (int64_t I = 0; I < M * N; ++I)
      Out.Floats[Bt * M * N + I] = OutK == ScalarKind::FP32 ? FC[I] : roundFloat(FC[I], OutK);
  }
}

} // namespace tessel::interp
