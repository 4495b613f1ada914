//===- CudaReferenceReportTest.cpp - `tessel run --reference`'s report, without a GPU ---===//
/// \file
/// What a GPU run with --reference prints, from figures set by hand (the runs themselves need a GPU:
/// tests/gpu/gpu_suite.py): the reference's resources, its outputs against the interpreter, its time
/// and fraction of peak, the gap to tessel's time, the PyTorch end, and the JSON beside it.
//===----------------------------------------------------------------------===//
#include "tools/CudaReferenceReport.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace tessel;
using namespace tessel::tools;

namespace {

InstanceReport timedInstance() {
  InstanceReport I;
  I.Label = "n=98432";
  I.Gpu.emplace();
  I.Gpu->Ran = true;
  I.Gpu->TimedRuns = 20;
  I.Gpu->MedianMs = 0.0125;
  CudaReferenceInstance &C = I.CudaRef.emplace();
  C.Grid = {97, 1, 1};
  C.Block = {256, 1, 1};
  C.Against = "the interpreter";
  GpuInstanceReport &G = C.Run;
  G.Ran = true;
  G.Registers = 28;
  G.SharedBytes = 0;
  G.Assembler = "nvJitLink 13.0";
  GpuComparison Out;
  Out.Name = "out_ptr";
  Out.Compared = 98432;
  G.Outputs = {Out};
  G.TimedRuns = 20;
  G.MedianMs = 0.0116;
  G.MinMs = 0.0112;
  G.MaxMs = 0.013;
  G.GBps = 101.8;
  G.PeakGBps = 4000;
  TorchInstanceReport &T = C.Torch.emplace();
  T.Ran = true;
  T.Against = "the interpreter";
  T.Outputs = {Out};
  T.TimedRuns = 20;
  T.MedianMs = 0.015;
  return I;
}

TEST(CudaReferenceReport, TextGivesFiguresOutputsTimeGapAndPyTorch) {
  RunReport R;
  R.CudaReference = "reference/vector_add_ref.cu::vector_add";
  R.Torch = "x + y";
  InstanceReport I = timedInstance();
  std::ostringstream OS;
  renderCudaReferenceText(OS, R, I);
  EXPECT_EQ(OS.str(),
            "  cuda reference reference/vector_add_ref.cu::vector_add: grid (97, 1, 1), block (256, 1, 1), 28 "
            "registers, 0 local bytes, 0 B shared, nvJitLink 13.0\n"
            "    out_ptr: 98432 elements match the interpreter (max abs error 0, max rel error 0)\n"
            "    time: median 0.0116 ms (min 0.0112, max 0.013) over 20 runs, 101.8 GB/s (3% of the device's 4000 "
            "GB/s)\n"
            "    gap: Triton kernel at 0.928x the CUDA reference (tessel 0.0125 ms, reference 0.0116 ms)\n"
            "    torch: x + y\n"
            "      out_ptr: 98432 elements match the interpreter (max abs error 0, max rel error 0)\n"
            "      time: median 0.015 ms over 20 runs; Triton kernel at 1.2x PyTorch\n");
  EXPECT_FALSE(cudaReferenceFailed(*I.CudaRef));
  ASSERT_TRUE(cudaReferenceGap(I));
  EXPECT_NEAR(*cudaReferenceGap(I), 0.928, 1e-9);
}

TEST(CudaReferenceReport, AnUnmappedParameterOrAMismatchIsAnError) {
  RunReport R;
  R.CudaReference = "copy.cu::copy";
  InstanceReport I = timedInstance();
  I.CudaRef->Error = "reference parameter 'scale' (float) of copy has no size or scalar named 'scale' in the launch "
                     "(name it in the directive: scale=NAME)";
  std::ostringstream OS;
  renderCudaReferenceText(OS, R, I);
  EXPECT_EQ(OS.str(), "  cuda reference copy.cu::copy: error: " + I.CudaRef->Error + "\n");
  EXPECT_TRUE(cudaReferenceFailed(*I.CudaRef));
  I = timedInstance();
  I.CudaRef->Run.Outputs[0].Mismatches = 3;
  EXPECT_TRUE(cudaReferenceFailed(*I.CudaRef));
  R.Instances = {I};
  EXPECT_EQ(R.errors(), 1u);
}

TEST(CudaReferenceReport, JsonCarriesTheGapsAndTheRunsLine) {
  InstanceReport I = timedInstance();
  nlohmann::json J = cudaReferenceInstanceJson(I);
  EXPECT_EQ(J["grid"], nlohmann::json({97, 1, 1}));
  EXPECT_NEAR(J["gap"].get<double>(), 0.928, 1e-9);
  EXPECT_EQ(J["gpu"]["registers"], 28);
  EXPECT_NEAR(J["torch"]["gap"].get<double>(), 1.2, 1e-9);
  RunReport R;
  R.CudaReference = "a.cu::k";
  R.TorchError = "python3 cannot import torch";
  std::ostringstream OS;
  renderCudaReferenceSummaryText(OS, R);
  EXPECT_EQ(OS.str(), "torch: not run: python3 cannot import torch\n");
  EXPECT_EQ(cudaReferenceRunJson(R)["torchError"], "python3 cannot import torch");
}

} // namespace
