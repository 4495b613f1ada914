//===- GpuRunTest.cpp - tessel run --gpu against the interpreter ----------===//
/// \file
/// Without a GPU: the output comparison and its tolerances, on buffers
/// built here, and `--gpu` refusing in one line. With one (the tests skip
/// with one line otherwise): every tutorial sample's kernel, compiled by
/// tessel for that GPU, must produce what the interpreter produces on the
/// same inputs, instance by instance; the TS304 sample's racing kernel is
/// caught and its owning twin is not; --all-configs times every matmul
/// config and names the fastest per instance, with TFLOP/s and the device's
/// measured peak; a launch over the device's shared memory is refused in
/// Triton's words before the driver sees it.
//===----------------------------------------------------------------------===//
#include "tools/GpuRun.h"
#include "RunSupport.h"
#include "tools/KernelRun.h"

#include <algorithm>
#include <cstring>

using namespace tessel;
using namespace tessel::test;

namespace {

TEST(GpuCompare, ToleranceIsPerDtypeAndUnwrittenElementsAreSkipped) {
  interp::Memory Ref;
  uint32_t Id = Ref.addBuffer("out_ptr", ScalarKind::FP32, 4, /*IsOutput=*/true);
  for (int I = 0; I < 4; ++I)
    Ref.writeFloat(Id, I, 1.0 + I);
  interp::Buffer &B = Ref.buffer(Id);
  std::fill(B.Written.begin(), B.Written.begin() + 12, 1); // elements 0..2 written, 3 not
  std::vector<float> Gpu = {1.0f, 2.00001f, 3.5f, 123.0f};
  std::vector<uint8_t> Bytes(16);
  std::memcpy(Bytes.data(), Gpu.data(), 16);
  tools::GpuComparison C = tools::compareOutput(B, Ref, Id, Bytes);
  EXPECT_EQ(C.Compared, 3);
  EXPECT_EQ(C.Mismatches, 1); // 2.00001 is within 1e-4 relative; 3.5 is not; element 3 was never written
  EXPECT_EQ(C.FirstMismatch, 2);
  EXPECT_DOUBLE_EQ(C.Expected, 3.0);
  EXPECT_DOUBLE_EQ(C.Got, 3.5);
  EXPECT_EQ(tools::gpuTolerance(ScalarKind::I32), 0);
  EXPECT_GT(tools::gpuTolerance(ScalarKind::BF16), tools::gpuTolerance(ScalarKind::FP16));
}

TEST(GpuCompare, ANaNWhereANumberBelongsIsAMismatch) {
  interp::Memory Ref;
  uint32_t Id = Ref.addBuffer("y", ScalarKind::FP16, 2, true);
  Ref.writeFloat(Id, 0, 0.5);
  Ref.writeFloat(Id, 1, 0.25);
  std::fill(Ref.buffer(Id).Written.begin(), Ref.buffer(Id).Written.end(), 1);
  std::vector<uint8_t> Poisoned(4, 0xff); // what an unwritten GPU output holds
  tools::GpuComparison C = tools::compareOutput(Ref.buffer(Id), Ref, Id, Poisoned);
  EXPECT_EQ(C.Mismatches, 2);
}

TEST(GpuCompare, NearZeroElementsOfALargeOutputAllowItsRoundingNotTheirOwn) {
  // vllm's persistent matmul (fp32, K = 1024, values about 30): a sum that
  // cancels to 0.002 differs by 0.0008 when the GPU adds its terms in
  // another order. An element off by 1 % of the output's scale is still caught.
  interp::Memory Ref;
  const int N = 1000;
  uint32_t Id = Ref.addBuffer("c_ptr", ScalarKind::FP32, N, /*IsOutput=*/true);
  std::vector<float> Gpu(N);
  for (int I = 0; I < N; ++I) {
    double X = I % 2 ? 30.0 : -30.0;
    Ref.writeFloat(Id, I, X);
    Gpu[static_cast<size_t>(I)] = static_cast<float>(X);
  }
  Ref.writeFloat(Id, 7, 0.002);
  Gpu[7] = 0.0028f;
  Ref.writeFloat(Id, 8, 0.5);
  Gpu[8] = 0.8f;
  std::fill(Ref.buffer(Id).Written.begin(), Ref.buffer(Id).Written.end(), 1);
  std::vector<uint8_t> Bytes(4 * N);
  std::memcpy(Bytes.data(), Gpu.data(), Bytes.size());
  tools::GpuComparison C = tools::compareOutput(Ref.buffer(Id), Ref, Id, Bytes);
  EXPECT_EQ(C.Mismatches, 1);
  EXPECT_EQ(C.FirstMismatch, 8);
}

/// Runs every directive kernel of a sample, under every autotune config, on the GPU.
std::vector<std::pair<std::string, tools::RunReport>> runSampleOnGpu(const std::string &Rel, tools::GpuRunner &G) {
  std::string Text = readSource(Rel);
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text, Rel));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  std::vector<std::pair<std::string, tools::RunReport>> Out;
  for (const std::string &Kernel : Info.Order) {
    const JitFunction &Fn = Info.Jit.at(Kernel);
    if (!Fn.IsKernel || !Fn.Def || sema::planLaunch(*File, Info, Kernel).Origin != sema::SpecOrigin::Directive)
      continue;
    // Every autotune config: each is its own compiled kernel.
    for (size_t Config = 0; Config < std::max<size_t>(Fn.Configs.size(), 1); ++Config) {
      tools::KernelRunOptions Opts;
      Opts.Gpu = &G;
      if (!Fn.Configs.empty())
        Opts.Config = Config;
      tools::RunReport R;
      std::string Error;
      EXPECT_TRUE(tools::runKernel(*File, Rel, Kernel, Opts, R, Error)) << Error;
      Out.emplace_back(Kernel + (Fn.Configs.empty() ? "" : " config " + std::to_string(Config)), std::move(R));
    }
  }
  return Out;
}

class GpuSample : public ::testing::TestWithParam<const char *> {};

TEST_P(GpuSample, MatchesTheInterpreter) {
  static tools::GpuRunner G;
  if (!G.unavailable().empty())
    GTEST_SKIP() << "no GPU here: " << G.unavailable();
  for (auto &[Kernel, R] : runSampleOnGpu(GetParam(), G)) {
    ASSERT_FALSE(R.Instances.empty()) << Kernel;
    for (const tools::InstanceReport &I : R.Instances) {
      ASSERT_TRUE(I.Gpu) << Kernel << " " << I.Label << ": " << I.Error;
      EXPECT_TRUE(I.Gpu->Ran) << Kernel << " " << I.Label << ": " << I.Gpu->Error;
      for (const tools::GpuComparison &C : I.Gpu->Outputs)
        EXPECT_EQ(C.Mismatches, 0) << Kernel << " " << I.Label << " " << C.Name << "[" << C.FirstMismatch << "]: gpu "
                                   << C.Got << ", interpreter " << C.Expected;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, GpuSample,
                         ::testing::Values("samples/vector_add.py", "samples/fused_softmax.py", "samples/layer_norm.py",
                                           "samples/dropout.py", "samples/matmul.py", "samples/attention.py"),
                         [](const ::testing::TestParamInfo<const char *> &P) {
                           std::string N = std::strrchr(P.param, '/') + 1;
                           return N.substr(0, N.size() - 3);
                         });

TEST(GpuSample, TheRacingKernelIsCaughtAndItsTwinIsNot) {
  static tools::GpuRunner G;
  if (!G.unavailable().empty())
    GTEST_SKIP() << "no GPU here: " << G.unavailable();
  for (auto &[Kernel, R] : runSampleOnGpu("samples/bugs/ts304_gpu_result_mismatch.py", G)) {
    size_t Mismatch = 0;
    for (const tools::InstanceReport &I : R.Instances)
      for (const diag::Finding &F : I.Findings)
        Mismatch += F.Id == diag::DiagId::GpuMismatch;
    if (Kernel.rfind("own_block_kernel", 0) == 0)
      EXPECT_EQ(Mismatch, 0u);
    else // 4096 programs race for 256 elements: the interpreter's last program wins every one of them there
      EXPECT_EQ(Mismatch, 1u) << "the race went the interpreter's way on all 256 elements";
  }
}

TEST(GpuSample, AllConfigsAreTimedTheFastestIsNamedAndPeakIsMeasured) {
  static tools::GpuRunner G;
  if (!G.unavailable().empty())
    GTEST_SKIP() << "no GPU here: " << G.unavailable();
  std::string Rel = "samples/matmul.py";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(readSource(Rel), Rel));
  tools::KernelRunOptions Opts;
  Opts.Gpu = &G;
  Opts.AllConfigs = true;
  Opts.Iters = 5;
  tools::RunReport R;
  std::string Error;
  ASSERT_TRUE(tools::runKernel(*File, Rel, "matmul_kernel", Opts, R, Error)) << Error;
  EXPECT_EQ(R.ConfigsRun, 5u);
  ASSERT_EQ(R.Fastest.size(), 8u) << "one fastest config per instance of the directive";
  for (const tools::FastestConfig &F : R.Fastest) {
    EXPECT_EQ(F.Timed, 5u) << F.Label;
    EXPECT_GT(F.MedianMs, 0) << F.Label;
  }
  for (const tools::InstanceReport &I : R.Instances) {
    ASSERT_TRUE(I.Gpu && I.Gpu->TimedRuns) << I.Label << ": " << (I.Gpu ? I.Gpu->Error : I.Error);
    EXPECT_GT(I.Gpu->DotFlops, 0u);
    EXPECT_GT(I.Gpu->Tflops, 0);
    EXPECT_GT(I.Gpu->PeakGBps, 0) << I.Gpu->PeakSource;
    EXPECT_GT(I.Gpu->PeakTflops, 0) << I.Gpu->PeakSource;
  }
}

TEST(GpuSample, ALaunchOverTheDevicesSharedMemoryIsRefusedInTritonsWords) {
  static tools::GpuRunner G;
  if (!G.unavailable().empty())
    GTEST_SKIP() << "no GPU here: " << G.unavailable();
  // 256x256x128 over 3 stages: 393216 bytes, more than any GPU's opt-in limit (227 KiB on sm_90).
  std::string Rel = "samples/matmul.py";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(readSource(Rel), Rel));
  tools::KernelRunOptions Opts;
  Opts.Gpu = &G;
  Opts.Reference = false;
  Opts.Spec = "M=512 N=512 K=512 a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out stride_am=K stride_ak=1 stride_bk=N "
              "stride_bn=1 stride_cm=N stride_cn=1 BLOCK_M=256 BLOCK_N=256 BLOCK_K=128 GROUP_M=8 ACTIVATION=\"\" "
              "num_warps=8 num_stages=3 grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)";
  tools::RunReport R;
  std::string Error;
  ASSERT_TRUE(tools::runKernel(*File, Rel, "matmul_kernel", Opts, R, Error)) << Error;
  ASSERT_EQ(R.Instances.size(), 1u);
  const tools::InstanceReport &I = R.Instances[0];
  ASSERT_TRUE(I.Gpu) << I.Error;
  EXPECT_FALSE(I.Gpu->Ran);
  EXPECT_EQ(I.Gpu->Error.rfind("out of resource: shared memory, Required: 393216, Hardware limit: ", 0), 0u)
      << I.Gpu->Error;
  EXPECT_NE(I.Gpu->Error.find(". Reducing block sizes or `num_stages` may help."), std::string::npos) << I.Gpu->Error;
}

} // namespace
