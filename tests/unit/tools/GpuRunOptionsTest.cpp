//===- GpuRunOptionsTest.cpp - --all-configs, --sanitize, % of peak -------===//
/// \file
/// What of `tessel run`'s GPU options can be shown without a GPU: the
/// choice of the fastest config from timed instances (Triton's rule: the
/// smallest median, the first on a tie, never a wrong result), every config
/// run on the interpreter with --all-configs (text and JSON), --instance,
/// compute-sanitizer's output read into reports at source lines (both of
/// its location spellings, and the device refusing it), the per-device peak
/// cache, the interpreter's count of tl.dot flops, and the usage errors.
//===----------------------------------------------------------------------===//
#include "RunCommandSupport.h"
#include "RunSupport.h"
#include "tools/GpuPeak.h"
#include "tools/RunReport.h"
#include "tools/Sanitize.h"
#include "tools/Subcommands.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace tessel;

namespace {

using test::Ran;
using test::sample;
using test::tesselRun;

tools::InstanceReport timed(const std::string &Label, size_t Config, double Ms, int64_t Mismatches = 0) {
  tools::InstanceReport I;
  I.Label = Label;
  I.Config = Config;
  I.ConfigText = "BLOCK=" + std::to_string(32 << Config);
  I.Gpu.emplace();
  I.Gpu->Ran = true;
  I.Gpu->TimedRuns = 20;
  I.Gpu->MedianMs = Ms;
  tools::GpuComparison C;
  C.Compared = 100;
  C.Mismatches = Mismatches;
  I.Gpu->Outputs.push_back(C);
  return I;
}

TEST(FastestConfig, SmallestMedianPerLabelFirstOnATieWrongResultsExcluded) {
  tools::RunReport R;
  R.Instances = {timed("n=1000", 0, 0.5), timed("n=4096", 0, 2.0), timed("n=1000", 1, 0.25), timed("n=4096", 1, 2.0),
                 timed("n=1000", 2, 0.1, /*Mismatches=*/3)};
  tools::chooseFastest(R);
  ASSERT_EQ(R.Fastest.size(), 2u);
  EXPECT_EQ(R.Fastest[0].Label, "n=1000");
  EXPECT_EQ(R.Fastest[0].Config, 1u); // config 2 is faster but wrong
  EXPECT_EQ(R.Fastest[0].ConfigText, "BLOCK=64");
  EXPECT_EQ(R.Fastest[0].Timed, 2u);
  EXPECT_EQ(R.Fastest[1].Label, "n=4096");
  EXPECT_EQ(R.Fastest[1].Config, 0u); // a tie keeps the earlier config, as Python's min does
}

TEST(FastestConfig, UntimedOrFailedInstancesAreNeverChosen) {
  tools::RunReport R;
  tools::InstanceReport Failed = timed("", 0, 0.01);
  Failed.Gpu->Error = "kernel execution: CUDA_ERROR_ILLEGAL_ADDRESS";
  tools::InstanceReport Untimed = timed("", 1, 0.02);
  Untimed.Gpu->TimedRuns = 0;
  R.Instances = {Failed, Untimed, timed("", 2, 3.0)};
  tools::chooseFastest(R);
  ASSERT_EQ(R.Fastest.size(), 1u);
  EXPECT_EQ(R.Fastest[0].Config, 2u);
}

TEST(AllConfigs, EveryConfigRunsOnTheInterpreterAndIsNamed) {
  Ran R = tesselRun({sample("matmul.py"), "--kernel", "matmul_kernel", "--all-configs", "--format=json"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  EXPECT_EQ(J["configsRun"], 5);
  EXPECT_TRUE(J["fastest"].empty()); // nothing was timed on the CPU
  std::set<int> Configs;
  for (const nlohmann::json &I : J["instances"]) {
    Configs.insert(I["config"].get<int>());
    EXPECT_TRUE(I["ran"].get<bool>());
  }
  EXPECT_EQ(Configs, (std::set<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(J["instances"].size(), 40u); // 8 instances of the directive under each of 5 configs
  for (const nlohmann::json &A : J["assumptions"])
    EXPECT_EQ(A.get<std::string>().find("from autotune config 0"), std::string::npos) << A;

  R = tesselRun({sample("matmul.py"), "--kernel", "matmul_kernel", "--all-configs"});
  EXPECT_NE(R.Out.find(", config 4 [BLOCK_M=32, BLOCK_N=64, BLOCK_K=32, GROUP_M=8, num_warps=2, num_stages=5]"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("\n5 autotune configs run; none timed"), std::string::npos) << R.Out;
}

TEST(AllConfigs, AKernelWithoutAutotuneRunsOnce) {
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--all-configs", "--format=json"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  EXPECT_FALSE(J.contains("configsRun"));
  EXPECT_EQ(J["instances"].size(), 3u);
}

TEST(Instance, RunsOnlyThatInstanceAndRefusesOneOutOfRange) {
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--instance", "2", "--format=json"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["instances"].size(), 1u);
  EXPECT_EQ(J["instances"][0]["label"], "n_elements=4096");
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--instance", "3"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("--instance 3: the launch has 3 instances"), std::string::npos) << R.Err;
}

TEST(GpuOptions, UsageErrors) {
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--sanitize"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("--sanitize checks the GPU's run: add --gpu"), std::string::npos) << R.Err;
  R = tesselRun({sample("matmul.py"), "--kernel", "matmul_kernel", "--all-configs", "--config", "1"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("--config and --all-configs exclude each other"), std::string::npos) << R.Err;
  R = tesselRun({sample("matmul.py"), "--kernel", "matmul_kernel", "--all-configs", "--save", "/tmp"});
  EXPECT_EQ(R.Status, 2);
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--instance", "x"});
  EXPECT_EQ(R.Status, 2);
}

// compute-sanitizer 2023+ (CUDA 12.x, 13.0): `at KERNEL+0xOFF in FILE:LINE`.
const char NewFormat[] = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at add_kernel+0x90 in /work/samples/bugs/ts301_out_of_bounds_access.py:19
=========     by thread (96,0,0) in block (3,0,0)
=========     Address 0x7f3a2c000fa0 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f3a2c000000 of size 4000 bytes
=========
========= Invalid __global__ read of size 4 bytes
=========     at add_kernel+0x90 in /work/samples/bugs/ts301_out_of_bounds_access.py:19
=========     by thread (97,0,0) in block (3,0,0)
=========     Address 0x7f3a2c000fa4 is out of bounds
=========
========= Invalid __global__ write of size 4 bytes
=========     at add_kernel+0x120 in /work/samples/bugs/ts301_out_of_bounds_access.py:20
=========     by thread (96,0,0) in block (3,0,0)
=========     Address 0x7f3a2c002fa0 is out of bounds
=========
========= Program hit CUDA_ERROR_LAUNCH_FAILED (error 719) due to "unspecified launch failure" on CUDA API call to cuEventQuery.
=========     Saved host backtrace up to driver entry point at error
=========
========= ERROR SUMMARY: 4 errors
)";

TEST(SanitizerOutput, ReportsAreGroupedByKindKernelAndLine) {
  tools::SanitizerReport R = tools::parseSanitizerOutput(NewFormat);
  ASSERT_TRUE(R.Ran) << R.Error;
  EXPECT_EQ(R.Total, 4u);
  ASSERT_EQ(R.Errors.size(), 2u);
  EXPECT_EQ(R.Errors[0].What, "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(R.Errors[0].Kernel, "add_kernel");
  EXPECT_EQ(R.Errors[0].Line, 19);
  EXPECT_EQ(R.Errors[0].Count, 2u);
  EXPECT_EQ(R.Errors[0].Thread, "(96,0,0)");
  EXPECT_EQ(R.Errors[0].Block, "(3,0,0)");
  EXPECT_EQ(R.Errors[1].What, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(R.Errors[1].Line, 20);
}

TEST(SanitizerOutput, TheOlderLocationSpellingAndACleanRun) {
  tools::SanitizerReport R = tools::parseSanitizerOutput("========= Invalid __global__ write of size 2 bytes\n"
                                                         "=========     at 0x1d0 in /tmp/k.py:33:store_kernel\n"
                                                         "=========     by thread (1,0,0) in block (0,2,0)\n"
                                                         "========= ERROR SUMMARY: 1 error\n");
  ASSERT_TRUE(R.Ran);
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_EQ(R.Errors[0].Kernel, "store_kernel");
  EXPECT_EQ(R.Errors[0].Line, 33);
  EXPECT_EQ(R.Errors[0].Block, "(0,2,0)");
  R = tools::parseSanitizerOutput("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n");
  EXPECT_TRUE(R.Ran);
  EXPECT_TRUE(R.Errors.empty());
  EXPECT_EQ(R.Total, 0u);
}

TEST(SanitizerOutput, ADeviceTheSanitizerRefusesIsNotACleanRun) {
  // What compute-sanitizer said under gVisor on the GPU machine.
  tools::SanitizerReport R = tools::parseSanitizerOutput("========= COMPUTE-SANITIZER\n"
                                                         "========= Error: Device not supported\n"
                                                         "tessel run: error: --gpu: no usable GPU: cuInit ...\n");
  EXPECT_FALSE(R.Ran);
  EXPECT_EQ(R.Error, "compute-sanitizer could not run: Error: Device not supported");
  EXPECT_TRUE(R.Errors.empty());
  // Refused, then a summary of nothing checked: still not a clean run.
  R = tools::parseSanitizerOutput("========= Error: Device not supported\n========= ERROR SUMMARY: 0 errors\n");
  EXPECT_FALSE(R.Ran);
}

TEST(GpuText, TimingLinesCarryThePercentOfPeakAndAFaultKeepsTheSanitizersLines) {
  tools::RunReport R;
  R.Path = "k.py";
  R.Kernel = "k";
  R.Planned = 2;
  tools::InstanceReport Timed = timed("n=1000", 0, 0.5);
  Timed.Config.reset();
  tools::GpuInstanceReport &G = *Timed.Gpu;
  G.TensorBytes = 2155872256;
  G.GBps = 4310.0 * 0.99;
  G.MinMs = 0.49;
  G.MaxMs = 0.52;
  G.PeakGBps = 4310;
  G.DotFlops = 137438953472;
  G.Tflops = 412.5;
  G.PeakTflops = 660;
  tools::InstanceReport Faulted;
  Faulted.Label = "n=4096";
  Faulted.Gpu.emplace();
  Faulted.Gpu->Error = "kernel execution: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)";
  Faulted.Gpu->Sanitizer = tools::parseSanitizerOutput(NewFormat);
  R.Instances = {Timed, Faulted};
  lsp::LineIndex Index("");
  std::ostringstream OS;
  tools::renderRunText(OS, R, tools::RunSources{Index, nullptr}, tools::TextStyle{false});
  std::string T = OS.str();
  EXPECT_NE(T.find("    time: median 0.5 ms (min 0.49, max 0.52) over 20 runs, 4266.9 GB/s for 2155872256 tensor "
                   "bytes (99% of the device's 4310 GB/s)\n"
                   "    dot: 412.5 TFLOP/s for 137438953472 flops (62% of the device's 660 TFLOP/s mma.sync fp16)\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("  gpu: error: kernel execution: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was "
                   "encountered)\n"
                   "    sanitizer: compute-sanitizer memcheck found 4 errors\n"
                   "      k.py:19: Invalid __global__ read of size 4 bytes in add_kernel (2 reports, first by thread "
                   "(96,0,0) in block (3,0,0))\n"
                   "      k.py:20: Invalid __global__ write of size 4 bytes in add_kernel (1 report, first by thread "
                   "(96,0,0) in block (3,0,0))\n"),
            std::string::npos)
      << T;
}

TEST(PeakCache, OneLinePerDeviceReplacedOnRemeasureDamagedLinesDropped) {
  tools::PeakFigures H200{4310.5, 655.25, "", 890.5, 1702};
  std::string Text = tools::withPeak("garbage line\nA100|sm_80\t1500\t250\t0\t0\n", "H200|sm_90", H200);
  EXPECT_EQ(Text, "A100|sm_80\t1500\t250\t0\t0\nH200|sm_90\t4310.5\t655.25\t890.5\t1702\n");
  std::optional<tools::PeakFigures> P = tools::findPeak(Text, "H200|sm_90");
  ASSERT_TRUE(P);
  EXPECT_DOUBLE_EQ(P->CopyGBps, 4310.5);
  EXPECT_DOUBLE_EQ(P->MmaTflops, 655.25);
  EXPECT_DOUBLE_EQ(P->WgmmaF16Tflops, 890.5);
  EXPECT_DOUBLE_EQ(P->WgmmaFp8Tflops, 1702);
  EXPECT_FALSE(tools::findPeak(Text, "H100|sm_90"));
  Text = tools::withPeak(Text, "A100|sm_80", tools::PeakFigures{1600, 260, ""});
  EXPECT_EQ(Text, "H200|sm_90\t4310.5\t655.25\t890.5\t1702\nA100|sm_80\t1600\t260\t0\t0\n");
  EXPECT_FALSE(tools::findPeak("H200|sm_90\t-1\t3\t0\t0\n", "H200|sm_90")); // not a bandwidth
  // A line of the format before the wgmma figures is measured again.
  EXPECT_FALSE(tools::findPeak("H200|sm_90\t4310.5\t655.25\n", "H200|sm_90"));
}

TEST(PeakCache, TheTensorCeilingIsTheInstructionTritonsDotsUse) {
  tools::PeakFigures Hopper{4310, 655, "", 890, 1700}, Ampere{1500, 250, ""};
  EXPECT_EQ(tools::tensorCeiling(Hopper, false), std::make_pair(890.0, std::string("wgmma fp16")));
  EXPECT_EQ(tools::tensorCeiling(Hopper, true), std::make_pair(1700.0, std::string("wgmma fp8")));
  EXPECT_EQ(tools::tensorCeiling(Ampere, true), std::make_pair(250.0, std::string("mma.sync fp16")));
}

TEST(DotFlops, TheInterpreterCountsTwoMnkPerDot) {
  test::SampleRun S = test::runSample("samples/matmul.py", "matmul_kernel");
  ASSERT_FALSE(S.Instances.empty());
  for (const test::InstanceRun &I : S.Instances) {
    // Config 0: BLOCK 128x128x64 tiles, K rounded up to BLOCK_K, every program of the grid.
    int64_t M = I.value("M"), N = I.value("N"), K = I.value("K");
    int64_t Programs = I.Launch.Grid[0];
    int64_t Steps = (K + 63) / 64;
    EXPECT_EQ(I.Result.DotFlops, static_cast<uint64_t>(Programs * Steps * 2 * 128 * 128 * 64))
        << I.Launch.Label << " M=" << M << " N=" << N;
  }
}

} // namespace

namespace {
/// A stand-in for compute-sanitizer that records its arguments in Log and
/// refuses `--padding` when Refuse is set, as an older one would.
std::string fakeSanitizer(const std::string &Dir, bool Refuse) {
  std::string Path = Dir + (Refuse ? "/old-sanitizer" : "/new-sanitizer");
  std::ofstream S(Path);
  S << "#!/bin/sh\necho \"$@\" >> " << Dir << "/args.log\n";
  if (Refuse)
    S << "for a in \"$@\"; do [ \"$a\" = --padding ] && { echo \"Error: unrecognized option '--padding'\"; exit 1; }; "
         "done\n";
  S << "echo '========= COMPUTE-SANITIZER'\necho '========= ERROR SUMMARY: 0 errors'\n";
  S.close();
  std::filesystem::permissions(Path, std::filesystem::perms::owner_all);
  return Path;
}
} // namespace

TEST(SanitizerRun, PadsEveryAllocationAndRunsAgainWithoutWhereTheOptionIsUnknown) {
  std::string Dir = ::testing::TempDir() + "/sanitizer-run-" + std::to_string(::getpid());
  std::filesystem::create_directories(Dir);
  tools::SanitizerReport New = tools::runUnderSanitizer(fakeSanitizer(Dir, false), {"tessel", "run"}, 30);
  EXPECT_TRUE(New.Ran) << New.Error;
  tools::SanitizerReport Old = tools::runUnderSanitizer(fakeSanitizer(Dir, true), {"tessel", "run"}, 30);
  EXPECT_TRUE(Old.Ran) << Old.Error;
  std::ifstream Log(Dir + "/args.log");
  std::vector<std::string> Lines;
  for (std::string L; std::getline(Log, L);)
    Lines.push_back(L);
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[0], "--tool memcheck --print-limit 200 --padding 4096 tessel run");
  EXPECT_EQ(Lines[1], Lines[0]);
  EXPECT_EQ(Lines[2], "--tool memcheck --print-limit 200 tessel run");
  std::filesystem::remove_all(Dir);
}
