//===- RunSamplesTest.cpp - the tutorial samples against references -------===//
/// \file
/// Every tutorial sample runs under the interpreter over every instance of
/// its `# tessel: launch` directive, and its outputs match a reference
/// computed here in plain double-precision loops over the very inputs the
/// interpreter read (from the prepared buffers), within tolerances that fit
/// each output's dtype. No run may report a violation.
//===----------------------------------------------------------------------===//
#include "RunSupport.h"
#include "unit/References.h"

#include <cmath>

using namespace tessel;
using namespace tessel::test;

namespace {

#define SKIP_IF_LOWERING_LIMIT(Run)                                                                                    \
  if (!(Run).LoweringLimit.empty())                                                                                    \
  GTEST_SKIP() << "lowering limit: " << (Run).LoweringLimit

void expectNoViolations(const InstanceRun &R) {
  EXPECT_EQ(R.Result.TotalViolations, 0u) << R.Launch.Label;
  for (const interp::ViolationSite &S : R.Result.Sites)
    ADD_FAILURE() << R.Launch.Label << ": " << interp::describe(S);
}

TEST(RunSamples, VectorAdd) {
  SampleRun Run = runSample("samples/vector_add.py", "vector_add_kernel");
  SKIP_IF_LOWERING_LIMIT(Run);
  ASSERT_EQ(Run.Instances.size(), 3u);
  for (const InstanceRun &R : Run.Instances) {
    expectNoViolations(R);
    std::vector<double> X = R.read("x_ptr"), Y = R.read("y_ptr"), Want(X.size());
    for (size_t I = 0; I < X.size(); ++I)
      Want[I] = X[I] + Y[I];
    expectClose(R.read("out_ptr"), Want, 0, 1e-7, "vector_add " + R.Launch.Label);
  }
}

// Philox values Triton 3.6.0 produced on an H200 for tl.rand(42, offset)
// (/work/prompts/philox-triton.txt, also tests/unit/interp/PhiloxTritonTest).
const std::pair<int64_t, double> TritonRand42[] = {
    {0, 0x1.8c543cp-1},    {1, 0x1.926f6ap-6},     {2, 0x1.649fecp-2},     {3, 0x1.14e3ecp-1},
    {4, 0x1.4e408cp-1},    {5, 0x1.42675ep-1},     {6, 0x1.cdc988p-2},     {7, 0x1.6ef60cp-1},
    {8, 0x1.ced6b4p-1},    {9, 0x1.10bca0p-1},     {10, 0x1.e6c886p-1},    {11, 0x1.4f29fap-1},
    {12, 0x1.85c8b8p-1},   {13, 0x1.c1e172p-2},    {14, 0x1.093828p-1},    {15, 0x1.0763d6p-1},
    {100, 0x1.f5078ep-1},  {1000, 0x1.c06352p-2},  {2024, 0x1.65b60cp-4},  {4095, 0x1.b3c656p-1},
    {4096, 0x1.f42558p-2}, {31337, 0x1.89c326p-5}, {65535, 0x1.978d14p-2}, {65536, 0x1.e5cfeap-1},
};

TEST(RunSamples, DropoutKeepsByPhiloxAndScales) {
  SampleRun Run = runSample("samples/dropout.py", "seeded_dropout_kernel");
  SKIP_IF_LOWERING_LIMIT(Run);
  ASSERT_EQ(Run.Instances.size(), 2u);
  for (const InstanceRun &R : Run.Instances) {
    expectNoViolations(R);
    const double P = R.floatValue("p");
    ASSERT_EQ(R.value("seed"), 42);
    std::vector<double> X = R.read("x_ptr"), Out = R.read("out_ptr"), Keep = R.read("keep_ptr");
    size_t Kept = 0;
    std::vector<double> Want(X.size());
    for (size_t I = 0; I < X.size(); ++I) {
      ASSERT_TRUE(Keep[I] == 0 || Keep[I] == 1) << I;
      Kept += Keep[I] == 1;
      // Kept elements are scaled by 1 / (1 - p) in fp32; dropped ones are 0.
      Want[I] = Keep[I] == 1 ? static_cast<double>(static_cast<float>(X[I]) * static_cast<float>(1.0 / (1.0 - P))) : 0;
    }
    expectClose(Out, Want, 0, 1e-6, "dropout " + R.Launch.Label);
    double Fraction = static_cast<double>(Kept) / static_cast<double>(X.size());
    EXPECT_NEAR(Fraction, 1 - P, X.size() > 10000 ? 0.01 : 0.05) << R.Launch.Label;
    for (const auto &[Offset, Rand] : TritonRand42)
      if (Offset < static_cast<int64_t>(X.size()))
        EXPECT_EQ(Keep[static_cast<size_t>(Offset)], Rand >= P ? 1 : 0)
            << "offset " << Offset << ": Triton's rand is " << Rand << " [" << R.Launch.Label << "]";
  }
}

TEST(RunSamples, FusedSoftmax) {
  SampleRun Run = runSample("samples/fused_softmax.py", "fused_softmax_kernel");
  SKIP_IF_LOWERING_LIMIT(Run);
  ASSERT_EQ(Run.Instances.size(), 4u);
  for (const InstanceRun &R : Run.Instances) {
    expectNoViolations(R);
    const int64_t Rows = R.value("n_rows"), Cols = R.value("n_cols");
    std::vector<double> Want = testref::softmaxRows(R.read("in_ptr"), Rows, Cols);
    // fp16 output: half an ulp is 2^-11 relative.
    expectClose(R.read("out_ptr"), Want, 1e-6, 1e-3, "softmax " + R.Launch.Label);
  }
}

TEST(RunSamples, LayerNorm) {
  SampleRun Run = runSample("samples/layer_norm.py", "layer_norm_fwd_kernel");
  SKIP_IF_LOWERING_LIMIT(Run);
  ASSERT_EQ(Run.Instances.size(), 4u);
  for (const InstanceRun &R : Run.Instances) {
    expectNoViolations(R);
    const int64_t Cols = R.value("n_cols"), Stride = R.value("row_stride");
    const double Eps = R.floatValue("eps");
    std::vector<double> X = R.read("x_ptr"), W = R.read("weight_ptr"), B = R.read("bias_ptr");
    const int64_t Rows = static_cast<int64_t>(R.read("mean_ptr").size());
    std::vector<double> WantY(X.size()), WantMean(static_cast<size_t>(Rows)), WantRstd(static_cast<size_t>(Rows));
    for (int64_t Row = 0; Row < Rows; ++Row) {
      const double *Xr = &X[static_cast<size_t>(Row * Stride)];
      double Mean = 0, Var = 0;
      for (int64_t C = 0; C < Cols; ++C)
        Mean += Xr[C];
      Mean /= static_cast<double>(Cols);
      for (int64_t C = 0; C < Cols; ++C)
        Var += (Xr[C] - Mean) * (Xr[C] - Mean);
      Var /= static_cast<double>(Cols);
      double Rstd = 1 / std::sqrt(Var + Eps);
      WantMean[static_cast<size_t>(Row)] = Mean;
      WantRstd[static_cast<size_t>(Row)] = Rstd;
      for (int64_t C = 0; C < Cols; ++C)
        WantY[static_cast<size_t>(Row * Stride + C)] =
            (Xr[C] - Mean) * Rstd * W[static_cast<size_t>(C)] + B[static_cast<size_t>(C)];
    }
    expectClose(R.read("mean_ptr"), WantMean, 1e-6, 1e-5, "layer_norm mean " + R.Launch.Label);
    expectClose(R.read("rstd_ptr"), WantRstd, 0, 1e-5, "layer_norm rstd " + R.Launch.Label);
    expectClose(R.read("y_ptr"), WantY, 1e-5, 1e-5, "layer_norm y " + R.Launch.Label);
  }
}

TEST(RunSamples, MatmulWithLeakyRelu) {
  SampleRun Run = runSample("samples/matmul.py", "matmul_kernel");
  SKIP_IF_LOWERING_LIMIT(Run);
  ASSERT_EQ(Run.Instances.size(), 8u);
  for (const InstanceRun &R : Run.Instances) {
    expectNoViolations(R);
    const int64_t M = R.value("M"), N = R.value("N"), K = R.value("K");
    std::vector<double> A = R.read("a_ptr"), B = R.read("b_ptr"), Want(static_cast<size_t>(M * N));
    for (int64_t I = 0; I < M; ++I)
      for (int64_t J = 0; J < N; ++J) {
        double Acc = 0;
        for (int64_t Kk = 0; Kk < K; ++Kk)
          Acc += A[static_cast<size_t>(I * K + Kk)] * B[static_cast<size_t>(Kk * N + J)];
        // ACTIVATION="leaky_relu" comes from the file's first launch site.
        Want[static_cast<size_t>(I * N + J)] = Acc >= 0 ? Acc : 0.01 * Acc;
      }
    // fp32 accumulation, fp16 output (half an ulp is 2^-11 relative).
    expectClose(R.read("c_ptr"), Want, 1e-3, 1e-3, "matmul " + R.Launch.Label);
  }
}

TEST(RunSamples, Attention) {
  SampleRun Run = runSample("samples/attention.py", "attn_fwd_kernel");
  SKIP_IF_LOWERING_LIMIT(Run);
  ASSERT_EQ(Run.Instances.size(), 4u);
  for (const InstanceRun &R : Run.Instances) {
    expectNoViolations(R);
    const int64_t Heads = R.value("heads"), Ctx = R.value("n_ctx"), D = R.value("HEAD_DIM");
    const bool Causal = R.value("CAUSAL") != 0;
    const double Scale = R.floatValue("sm_scale");
    std::vector<double> Q = R.read("q_ptr"), Kt = R.read("k_ptr"), V = R.read("v_ptr");
    std::vector<double> WantO(Q.size()), WantLse(static_cast<size_t>(Heads * Ctx));
    std::vector<double> S(static_cast<size_t>(Ctx));
    for (int64_t H = 0; H < Heads; ++H)
      for (int64_t Mi = 0; Mi < Ctx; ++Mi) {
        auto At = [&](int64_t Row, int64_t Col) { return static_cast<size_t>((H * Ctx + Row) * D + Col); };
        double Max = -INFINITY;
        int64_t Last = Causal ? Mi : Ctx - 1;
        for (int64_t Nj = 0; Nj <= Last; ++Nj) {
          double Dot = 0;
          for (int64_t C = 0; C < D; ++C)
            Dot += Q[At(Mi, C)] * Kt[At(Nj, C)];
          S[static_cast<size_t>(Nj)] = Dot * Scale;
          Max = std::max(Max, S[static_cast<size_t>(Nj)]);
        }
        double Sum = 0;
        for (int64_t Nj = 0; Nj <= Last; ++Nj)
          Sum += std::exp(S[static_cast<size_t>(Nj)] - Max);
        for (int64_t C = 0; C < D; ++C) {
          double O = 0;
          for (int64_t Nj = 0; Nj <= Last; ++Nj)
            O += std::exp(S[static_cast<size_t>(Nj)] - Max) / Sum * V[At(Nj, C)];
          WantO[At(Mi, C)] = O;
        }
        // The kernel stores the log-sum-exp in base 2.
        WantLse[static_cast<size_t>(H * Ctx + Mi)] = (Max + std::log(Sum)) / std::log(2.0);
      }
    // P is rounded to fp16 before the second dot and O is stored as fp16;
    // the sample's own check against PyTorch uses atol=2e-2.
    expectClose(R.read("o_ptr"), WantO, 2e-3, 1e-2, "attention o " + R.Launch.Label);
    expectClose(R.read("lse_ptr"), WantLse, 1e-4, 1e-5, "attention lse " + R.Launch.Label);
  }
}

} // namespace
