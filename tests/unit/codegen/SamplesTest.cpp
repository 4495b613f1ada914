//===- SamplesTest.cpp - every sample kernel and config to a cubin --------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every kernel of samples/*.py, under every autotune config (or its one
/// launch), is lowered, generated, verified by LLVM and assembled by ptxas
/// for sm_80 and sm_90; the PTX entry's parameters match the ABI codegen
/// reports (Triton's list: non-constexpr parameters, then two scratch
/// pointers) and `.reqntid` is 32 x num_warps.
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessel::codegen::test {
namespace {

struct SampleCase {
  std::string File, Kernel;
  size_t Config;
  unsigned Arch;
};

std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

std::vector<SampleCase> sampleCases() {
  std::vector<SampleCase> Cases;
  std::vector<std::filesystem::path> Files;
  for (const auto &E : std::filesystem::directory_iterator(std::string(TESSEL_SOURCE_DIR) + "/samples"))
    if (E.path().extension() == ".py")
      Files.push_back(E.path());
  std::sort(Files.begin(), Files.end());
  for (const auto &P : Files) {
    auto File = ParsedFile::parse(std::make_shared<SourceText>(readFile(P), P.string()));
    ProblemSink Sink;
    ModuleInfo Info = discover(File->module(), Sink);
    for (const std::string &Name : Info.Order) {
      const JitFunction &F = Info.Jit.at(Name);
      if (!F.IsKernel)
        continue;
      size_t Configs = std::max<size_t>(1, F.Configs.size());
      for (size_t C = 0; C < Configs; ++C)
        for (unsigned Arch : {80u, 90u})
          Cases.push_back({P.filename().string(), Name, C, Arch});
    }
  }
  return Cases;
}

class Samples : public ::testing::TestWithParam<SampleCase> {};

TEST_P(Samples, CompileToCubin) {
  const SampleCase &SC = GetParam();
  std::string Path = std::string(TESSEL_SOURCE_DIR) + "/samples/" + SC.File;
  auto File = ParsedFile::parse(std::make_shared<SourceText>(readFile(Path), Path));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  sema::LaunchPlanOptions PO;
  const JitFunction &Fn = Info.Jit.at(SC.Kernel);
  if (!Fn.Configs.empty())
    PO.Config = SC.Config;
  sema::LaunchPlan Plan = sema::planLaunch(*File, Info, SC.Kernel, PO);
  ASSERT_EQ(Plan.Error, "");
  ASSERT_FALSE(Plan.Launches.empty());
  const sema::PlannedLaunch &PL = Plan.Launches.front();
  const JitFunction &F = Info.Jit.at(SC.Kernel);
  std::optional<int> MaxNReg;
  if (SC.Config < F.Configs.size() && F.Configs[SC.Config].Config.MaxNReg)
    MaxNReg = static_cast<int>(*F.Configs[SC.Config].Config.MaxNReg);
  Compiled C = compileRequest(*File, Info, PL.Request, SC.Arch, /*Assemble=*/true, MaxNReg);
  ASSERT_EQ(C.Error, "") << SC.File << " " << SC.Kernel;
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(C.Kernel.Entry, SC.Kernel);
  ASSERT_EQ(C.Kernel.Params.size(), C.ABI.ParamTypes.size()) << C.Ptx.substr(0, 2000);
  for (size_t I = 0; I < C.ABI.ParamTypes.size(); ++I)
    EXPECT_EQ(C.Kernel.Params[I].Type.rfind(C.ABI.ParamTypes[I], 0), 0u)
        << "param " << I << ": " << C.Kernel.Params[I].Type << " vs " << C.ABI.ParamTypes[I];
  EXPECT_EQ(C.Kernel.ReqNtid, 32u * PL.Request.NumWarps);
  if (MaxNReg)
    EXPECT_EQ(C.Kernel.MaxNReg, static_cast<unsigned>(*MaxNReg));
  // The fp16 dots run on tensor cores on both archs: mma.sync fed by
  // ldmatrix (x4 for a, x4/x2 .trans for b); matmul has no FMA loop over k.
  if (SC.File == "matmul.py" || SC.File == "attention.py") {
    EXPECT_GE(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 16)
        << SC.File << " config " << SC.Config;
    EXPECT_GE(countMatches(C.Ptx, R"(ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16)"), 1);
    EXPECT_GE(countMatches(C.Ptx, R"(ldmatrix\.sync\.aligned\.m8n8\.x[24]\.trans\.shared\.b16)"), 1);
    if (SC.File == "matmul.py") // attention's softmax has fmas of its own
      EXPECT_EQ(countMatches(C.Ptx, R"(fma\.rn\.f32)"), 0) << "config " << SC.Config;
    // The operand loads are 16 bytes wide as Triton's: the strides are
    // multiples of 16 ("D"), stride_ak = stride_bn = 1 is specialized away
    // (`ks * 1` keeps its contiguity), and the K loop's `k0` is a multiple
    // of BLOCK_K (the induction variable's divisibility is gcd(lb, step)).
    // Pipelined (num_stages > 1) they are 16-byte cp.async copies, else
    // 16-byte loads.
    if (SC.File == "matmul.py") {
      EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global\S*\.b16)"), 0) << "config " << SC.Config;
      EXPECT_GE(countMatches(C.Ptx, R"(ld\.global\S*\.v4\.b32)") +
                    countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[[^\]]+\], \[[^\]]+\], 16)"),
                2)
          << "config " << SC.Config;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, Samples, ::testing::ValuesIn(sampleCases()),
                         [](const ::testing::TestParamInfo<SampleCase> &I) {
                           std::string N = I.param.File.substr(0, I.param.File.size() - 3) + "_" + I.param.Kernel +
                                           "_c" + std::to_string(I.param.Config) + "_sm" + std::to_string(I.param.Arch);
                           for (char &Ch : N)
                             if (!isalnum(static_cast<unsigned char>(Ch)))
                               Ch = '_';
                           return N;
                         });

} // namespace
} // namespace tessel::codegen::test
