//===- RunRobustnessTest.cpp - tessel run on broken kernels ---------------===//
/// \file
/// Bad input never crashes or hangs `tessel run`: every kernel with a launch
/// directive in the cheap-to-run samples is run with each line of the file
/// deleted in turn (a half-edited kernel, as the editor's Run action may
/// see), and with a few corrupted spec texts. Each run must come back as a
/// report (findings, instance errors, or a clean run) or a usage error,
/// never an exception, and within the step budget.
//===----------------------------------------------------------------------===//
#include "RunSupport.h"

#include "tools/KernelRun.h"

using namespace tessel;
using namespace tessel::test;

namespace {

/// The kernels of Src that have a launch directive.
std::vector<std::string> directiveKernels(const std::string &Src) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "k.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  std::vector<std::string> Out;
  for (const std::string &K : Info.Order)
    if (Info.Jit.at(K).IsKernel && sema::planLaunch(*File, Info, K).Origin == sema::SpecOrigin::Directive)
      Out.push_back(K);
  return Out;
}

/// Runs Kernel on Src; fails the test on an exception.
void runSurvives(const std::string &Src, const std::string &Kernel, const std::string &What,
                 const std::optional<std::string> &Spec = std::nullopt) {
  try {
    auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "k.py"));
    tools::KernelRunOptions Opts;
    Opts.Spec = Spec;
    Opts.MaxSteps = 2'000'000;
    tools::RunReport Report;
    std::string Error;
    if (!tools::runKernel(*File, "k.py", Kernel, Opts, Report, Error))
      EXPECT_FALSE(Error.empty()) << What;
  } catch (const std::exception &E) {
    ADD_FAILURE() << What << ": exception " << E.what();
  }
}

class RunRobustness : public ::testing::TestWithParam<std::string> {};

TEST_P(RunRobustness, EveryLineDeleted) {
  std::string Src = readSource(GetParam());
  std::vector<std::string> Kernels = directiveKernels(Src);
  ASSERT_FALSE(Kernels.empty()) << GetParam();
  std::vector<size_t> Starts{0};
  for (size_t I = 0; I < Src.size(); ++I)
    if (Src[I] == '\n')
      Starts.push_back(I + 1);
  for (size_t L = 0; L + 1 < Starts.size(); ++L) {
    std::string Mutated = Src.substr(0, Starts[L]) + Src.substr(Starts[L + 1]);
    for (const std::string &K : Kernels)
      runSurvives(Mutated, K, GetParam() + " without line " + std::to_string(L + 1) + ", kernel " + K);
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, RunRobustness,
                         ::testing::Values("samples/vector_add.py", "samples/dropout.py", "samples/fused_softmax.py",
                                           "samples/bugs/ts201_unmasked_axis.py",
                                           "samples/bugs/ts202_load_guarded_by_where.py",
                                           "samples/bugs/ts301_out_of_bounds_access.py",
                                           "samples/bugs/ts302_uninitialized_read.py",
                                           "samples/bugs/ts303_device_assert_failed.py"),
                         [](const ::testing::TestParamInfo<std::string> &Info) {
                           std::string Name = Info.param.substr(8, Info.param.size() - 11);
                           for (char &C : Name)
                             if (!std::isalnum(static_cast<unsigned char>(C)))
                               C = '_';
                           return Name;
                         });

TEST(RunRobustness, CorruptedSpecs) {
  std::string Src = readSource("samples/vector_add.py");
  for (const char *Spec : {"", "n_elements=", "x=fp32[", "grid=(1, 2, 3, 4)", "n_elements=-5 x=fp32[n_elements]",
                           "n_elements=10 x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out BLOCK_SIZE=3",
                           "n_elements=10 x=i8[n_elements] y=fp32[1] out=fp32[0]:out BLOCK_SIZE=16",
                           "n_elements=100000000000 x=fp32[1] y=fp32[1] out=fp32[1]:out BLOCK_SIZE=1024 grid=(1,)",
                           "n_elements=8 x=fp32[8] y=fp32[8] out=fp32[8]:out BLOCK_SIZE=8 grid=(0,)", "\xff\xfe",
                           "n_elements=[] x=fp32[4]", "kernel=other n_elements=4"})
    runSurvives(Src, "vector_add_kernel", std::string("spec '") + Spec + "'", std::string(Spec));
}

TEST(RunRobustness, HugeTensorsAreRefusedNotAllocated) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(readSource("samples/vector_add.py"), "k.py"));
  tools::KernelRunOptions Opts;
  Opts.Spec = "n_elements=4000000000000 x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out "
              "BLOCK_SIZE=1024";
  tools::RunReport Report;
  std::string Error;
  ASSERT_TRUE(tools::runKernel(*File, "k.py", "vector_add_kernel", Opts, Report, Error)) << Error;
  ASSERT_EQ(Report.Instances.size(), 1u);
  EXPECT_EQ(Report.Instances[0].Error,
            "the tensors of this instance take 64000.0 GB, over the 4.0 GB tessel run allocates");
}

} // namespace
