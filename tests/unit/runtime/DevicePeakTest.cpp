//===- DevicePeakTest.cpp - the copy and mma.sync ceiling kernels ---------===//
/// \file
/// The PTX kernels the device's ceilings are measured with must assemble
/// for sm_80 and sm_90 (the wgmma ones for sm_90a) (checked with the toolkit's ptxas where one
/// is installed, no GPU needed), and, on a GPU, give figures a GPU of that
/// class can have: a copy slower than PCIe or an mma rate below 10 TFLOP/s
/// means a kernel that does not do what it claims. The test skips with one
/// line without a GPU (and without ptxas for the assembly check).
//===----------------------------------------------------------------------===//
#include "compiler/runtime/DevicePeak.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace tessel::runtime;

namespace {

std::string findPtxas() {
  std::vector<std::string> Dirs;
  if (const char *H = std::getenv("CUDA_HOME"); H && *H)
    Dirs.push_back(std::string(H) + "/bin");
  Dirs.push_back("/usr/local/cuda/bin");
  for (const std::string &D : Dirs)
    if (std::filesystem::exists(D + "/ptxas"))
      return D + "/ptxas";
  return "";
}

TEST(DevicePeak, KernelsAssembleWithTritonsTrailingScratchPointers) {
  std::string Ptxas = findPtxas();
  if (Ptxas.empty())
    GTEST_SKIP() << "no ptxas here (CUDA_HOME, /usr/local/cuda)";
  auto Dir = std::filesystem::temp_directory_path() / "tessel-device-peak-test";
  std::filesystem::create_directories(Dir);
  struct K {
    const char *Name;
    std::string Ptx;
    int Params;
    std::vector<const char *> Archs = {"sm_80", "sm_90"};
  };
  for (const K &Kernel : {K{"copy", copyKernelPtx(), 5}, K{"mma", mmaKernelPtx(8), 4},
                          K{"wgmma-fp16", wgmmaKernelPtx(false), 4, {"sm_90a"}},
                          K{"wgmma-fp8", wgmmaKernelPtx(true), 4, {"sm_90a"}}}) {
    // The kernel's own parameters, then the global and profile scratch pointers GpuSession appends.
    size_t Count = 0;
    for (size_t P = Kernel.Ptx.find(".param "); P != std::string::npos; P = Kernel.Ptx.find(".param ", P + 1))
      ++Count;
    EXPECT_EQ(Count, static_cast<size_t>(Kernel.Params)) << Kernel.Name;
    std::string In = (Dir / (std::string(Kernel.Name) + ".ptx")).string();
    std::ofstream(In) << Kernel.Ptx;
    for (const char *Arch : Kernel.Archs) {
      std::string Cmd = Ptxas + " --gpu-name=" + Arch + " -o " + (Dir / "out.cubin").string() + " " + In + " 2>&1";
      FILE *P = ::popen(Cmd.c_str(), "r");
      ASSERT_TRUE(P);
      std::string Out;
      char Buf[512];
      while (std::fgets(Buf, sizeof Buf, P))
        Out += Buf;
      EXPECT_EQ(::pclose(P), 0) << Kernel.Name << " for " << Arch << ": " << Out;
    }
  }
  std::filesystem::remove_all(Dir);
}

TEST(DevicePeak, MeasuredFiguresAreThoseOfARealGpu) {
  auto Opened = GpuSession::open(0);
  if (auto *Err = std::get_if<DriverError>(&Opened))
    GTEST_SKIP() << "no GPU here: " << Err->str();
  GpuSession &S = *std::get<std::unique_ptr<GpuSession>>(Opened);
  Result<DevicePeak> P = measurePeak(S);
  if (auto *E = std::get_if<DriverError>(&P))
    FAIL() << E->str();
  const DevicePeak &D = std::get<DevicePeak>(P);
  std::printf("%s: copy %.0f GB/s, mma.sync fp16 %.1f TFLOP/s, wgmma fp16 %.1f, fp8 %.1f TFLOP/s\n",
              S.device().str().c_str(), D.CopyGBps, D.MmaTflops, D.WgmmaF16Tflops, D.WgmmaFp8Tflops);
  EXPECT_GT(D.CopyGBps, 50.0);
  EXPECT_LT(D.CopyGBps, 20000.0);
  if (S.device().Major >= 8) {
    EXPECT_GT(D.MmaTflops, 10.0);
    EXPECT_LT(D.MmaTflops, 3000.0);
  }
  if (S.device().Major == 9) {
    // wgmma is the instruction Hopper's peak needs: faster than mma.sync,
    // and fp8 at about twice fp16's rate.
    EXPECT_GT(D.WgmmaF16Tflops, D.MmaTflops);
    EXPECT_LT(D.WgmmaF16Tflops, 3000.0);
    EXPECT_GT(D.WgmmaFp8Tflops, 1.5 * D.WgmmaF16Tflops);
  }
}

} // namespace
