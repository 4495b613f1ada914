//===- KernelRunnerTest.cpp - Run actions as subprocesses -----------------===//
/// \file
/// Runs a stand-in for `tessel` (a shell script written by the test) to check
/// the command line, the captured output and exit code, and that a second
/// run kills the first, which then reports Cancelled.
//===----------------------------------------------------------------------===//
#include "lsp/KernelRunner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tessel::lsp;

namespace {

/// Writes an executable script that prints its arguments and exits 3, or
/// sleeps for a minute when the kernel is called "slow".
std::string writeStandIn() {
  char Dir[] = "/tmp/tessel-runner-XXXXXX";
  EXPECT_NE(::mkdtemp(Dir), nullptr);
  std::string Path = std::string(Dir) + "/tessel";
  std::ofstream(Path) << "#!/bin/sh\n"
                         "echo \"args: $*\"\n"
                         "echo oops >&2\n"
                         "if [ \"$4\" = slow ]; then exec sleep 60; fi\n"
                         "exit 3\n";
  ::chmod(Path.c_str(), 0755);
  return Path;
}

struct Results {
  std::mutex M;
  std::condition_variable CV;
  std::vector<RunResult> All;
  KernelRunner::DoneFn sink() {
    return [this](RunResult R) {
      std::lock_guard<std::mutex> L(M);
      All.push_back(std::move(R));
      CV.notify_all();
    };
  }
  bool waitFor(size_t N) {
    std::unique_lock<std::mutex> L(M);
    return CV.wait_for(L, std::chrono::seconds(20), [&] { return All.size() >= N; });
  }
};

TEST(KernelRunner, CommandLine) {
  KernelRunner K("/bin/tessel");
  RunRequest R{"file:///k.py", "/k.py", "add", "gpu", 2};
  EXPECT_EQ(K.commandLine(R),
            (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--gpu", "--config", "2"}));
}

TEST(KernelRunner, AGpuRunIsTimed) {
  KernelRunner K("/bin/tessel");
  RunRequest R{"file:///k.py", "/k.py", "add", "gpu", std::nullopt, 20};
  EXPECT_EQ(K.commandLine(R),
            (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--gpu", "--iters", "20"}));
  R.Device = "cpu"; // timing is the GPU's alone
  EXPECT_EQ(K.commandLine(R), (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--cpu"}));
}

/// A `tessel run --gpu --iters` report of two instances (trimmed to what the summary reads).
nlohmann::json gpuReport(int64_t Mismatches, bool Dot) {
  nlohmann::json Small = {{"label", "n=1000"},
                          {"gpu",
                           {{"error", nullptr},
                            {"outputs", {{{"mismatches", 0}}}},
                            {"time",
                             {{"medianMillis", 0.004},
                              {"gbPerSecond", 3.0},
                              {"tensorBytes", 12000},
                              {"fractionOfPeakBandwidth", 0.0007}}}}}};
  nlohmann::json Large = {{"label", "n=98432"},
                          {"gpu",
                           {{"error", nullptr},
                            {"outputs", {{{"mismatches", Mismatches}}}},
                            {"time",
                             {{"medianMillis", 0.0123},
                              {"gbPerSecond", 96.0},
                              {"tensorBytes", 1181184},
                              {"fractionOfPeakBandwidth", 0.0223}}}}}};
  if (Dot) {
    Large["gpu"]["time"]["tflopsPerSecond"] = 412.5;
    Large["gpu"]["time"]["fractionOfPeakTflops"] = 0.625;
  }
  return {{"device", "cpu+gpu"}, {"errors", Mismatches ? 1 : 0}, {"instances", {Small, Large}}};
}

TEST(RunSummary, GpuVerdictTimeAndPercentOfPeakOfTheLargestInstance) {
  nlohmann::json S = summarizeRunReport(gpuReport(0, false));
  EXPECT_EQ(S["text"], "GPU ✓ 2 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s (2% of peak)");
  EXPECT_EQ(S["ok"], true);
  EXPECT_DOUBLE_EQ(S["medianMillis"].get<double>(), 0.0123);
  S = summarizeRunReport(gpuReport(0, true));
  EXPECT_EQ(S["text"], "GPU ✓ 2 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s (2% of peak), "
                       "412 TFLOP/s (62% of peak)");
  S = summarizeRunReport(gpuReport(7, false));
  EXPECT_EQ(S["ok"], false);
  EXPECT_EQ(S["text"].get<std::string>().rfind("GPU ✗ 1 of 2 instances differ from the interpreter · ", 0), 0u)
      << S["text"];
}

TEST(RunSummary, TheCudaReferencesGapEndsTheLensLine) {
  nlohmann::json R = gpuReport(0, false);
  R["instances"][1]["cudaReference"] = {{"gap", 0.93}, {"error", nullptr}};
  nlohmann::json S = summarizeRunReport(R);
  EXPECT_EQ(S["text"], "GPU ✓ 2 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s (2% of peak) · "
                       "Triton kernel at 0.93× the CUDA reference");
  EXPECT_DOUBLE_EQ(S["referenceGap"].get<double>(), 0.93);
}

TEST(KernelRunner, AReferenceRunIsAGpuRun) {
  KernelRunner K("/bin/tessel");
  RunRequest R{"file:///k.py", "/k.py", "add", "gpu", std::nullopt, 20, false, true};
  EXPECT_EQ(K.commandLine(R), (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--gpu",
                                                        "--iters", "20", "--reference"}));
  R.Device = "cpu"; // the reference runs on the GPU only
  EXPECT_EQ(K.commandLine(R), (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--cpu"}));
}

TEST(RunSummary, AFaultIsTheVerdictAndNoReportIsNull) {
  nlohmann::json R = gpuReport(0, false);
  R["instances"][1]["gpu"]["error"] = "kernel execution: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access)";
  R["instances"][1]["gpu"].erase("time");
  R["errors"] = 1;
  EXPECT_EQ(summarizeRunReport(R)["text"],
            "GPU ✗ kernel execution: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access) · n=1000: 0.004 ms, 3 GB/s "
            "(0% of peak)");
  EXPECT_TRUE(summarizeRunReport(nullptr).is_null());
  EXPECT_TRUE(summarizeRunReport(nlohmann::json::object()).is_null());
  EXPECT_EQ(summarizeRunReport({{"device", "cpu"}, {"errors", 0}, {"instances", {{{"label", ""}}}}})["text"],
            "CPU ✓ 1 instance ran clean");
}

TEST(KernelRunner, TheTritonSettingAddsTheBridge) {
  KernelRunner K("/bin/tessel");
  RunRequest R{"file:///k.py", "/k.py", "add", "gpu", std::nullopt, 20, true};
  EXPECT_EQ(K.commandLine(R), (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--gpu",
                                                        "--iters", "20", "--triton"}));
}

TEST(RunSummary, TritonsVerdictFollowsTessels) {
  nlohmann::json R = gpuReport(0, false);
  R["triton"] = {
      {"version", "3.6.0"}, {"device", "NVIDIA H200"}, {"error", nullptr}, {"notes", nlohmann::json::array()}};
  R["instances"][0]["triton"] = {{"ran", true}, {"outputs", {{{"mismatches", 0}}}}, {"compareError", nullptr}};
  R["instances"][1]["triton"] = {{"ran", true},
                                 {"outputs", {{{"mismatches", 0}}}},
                                 {"compareError", nullptr},
                                 {"time", {{"medianMillis", 0.0125}, {"tesselSpeedVsTriton", 1.0162}}}};
  nlohmann::json S = summarizeRunReport(R);
  EXPECT_EQ(S["text"], "GPU ✓ 2 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s (2% of peak) · "
                       "Triton 3.6.0 ✓ 2 match, tessel at 1.02x its speed");
  EXPECT_EQ(S["triton"]["differ"], 0);
  R["instances"][0]["triton"] = {{"ran", false},
                                 {"error", "out of resource: shared memory, Required: 262144, Hardware limit: 232448"}};
  R["instances"][1]["triton"]["outputs"][0]["mismatches"] = 3;
  EXPECT_EQ(summarizeRunReport(R)["text"],
            "GPU ✓ 2 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s (2% of peak) · Triton 3.6.0 ✗ 1 "
            "differ, 1 not run (out of resource: shared memory, Required: 262144, Hardware limit: 232448), tessel at "
            "1.02x its speed");
  R["triton"]["error"] = "/usr/bin/python3 cannot import torch: No module named 'torch'";
  R["triton"]["version"] = nullptr;
  EXPECT_EQ(summarizeRunReport(R)["text"], "GPU ✓ 2 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s "
                                           "(2% of peak) · Triton ✗ /usr/bin/python3 cannot import torch: No module "
                                           "named 'torch'");
}

TEST(KernelRunner, CapturesOutputAndExitCode) {
  KernelRunner K(writeStandIn());
  Results Res;
  std::string Error;
  ASSERT_TRUE(K.start({"file:///k.py", "/k.py", "add", "cpu", std::nullopt}, Res.sink(), Error)) << Error;
  ASSERT_TRUE(Res.waitFor(1));
  K.wait();
  EXPECT_EQ(Res.All[0].ExitCode, 3);
  EXPECT_FALSE(Res.All[0].Cancelled);
  EXPECT_NE(Res.All[0].Output.find("args: run /k.py --kernel add --cpu"), std::string::npos);
  EXPECT_NE(Res.All[0].Output.find("oops"), std::string::npos);
}

TEST(KernelRunner, ASecondRunKillsTheFirst) {
  KernelRunner K(writeStandIn());
  Results Res;
  std::string Error;
  auto Start = std::chrono::steady_clock::now();
  ASSERT_TRUE(K.start({"file:///k.py", "/k.py", "slow", "cpu", std::nullopt}, Res.sink(), Error));
  ASSERT_TRUE(K.start({"file:///k.py", "/k.py", "fast", "cpu", std::nullopt}, Res.sink(), Error));
  ASSERT_TRUE(Res.waitFor(2));
  K.wait();
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(30));
  EXPECT_EQ(Res.All[0].Request.Kernel, "slow");
  EXPECT_TRUE(Res.All[0].Cancelled);
  EXPECT_EQ(Res.All[1].Request.Kernel, "fast");
  EXPECT_FALSE(Res.All[1].Cancelled);
  EXPECT_EQ(Res.All[1].ExitCode, 3);
}

TEST(KernelRunner, MissingExecutableIsAnExitCodeNotACrash) {
  KernelRunner K("/nonexistent/tessel");
  Results Res;
  std::string Error;
  bool Started = K.start({"file:///k.py", "/k.py", "add", "cpu", std::nullopt}, Res.sink(), Error);
  if (!Started) {
    EXPECT_NE(Error.find("cannot start"), std::string::npos);
    return;
  }
  ASSERT_TRUE(Res.waitFor(1));
  EXPECT_NE(Res.All[0].ExitCode, 0);
}

} // namespace
