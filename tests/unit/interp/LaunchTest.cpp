//===- LaunchTest.cpp - launch specs driving the interpreter --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A vector add run from a launch spec with two size instances, end to end
/// (parse, instantiate, prepare, run), and the errors a spec that does not
/// match the kernel produces.
//===----------------------------------------------------------------------===//
#include "TestKernels.h"

#include "compiler/interp/Launch.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::interp;
using namespace tessel::testkernels;

namespace {

std::vector<launch::ConcreteLaunch> launches(std::string_view Spec) {
  launch::ParsedLaunchSpec P = launch::parseLaunchSpec(Spec);
  EXPECT_TRUE(P.Problems.empty());
  ProblemSink Sink;
  std::vector<launch::ConcreteLaunch> L = launch::instantiate(P.Spec, Sink);
  EXPECT_EQ(Sink.size(), 0u);
  return L;
}

TEST(InterpLaunch, VectorAddFromASpec) {
  ir::Function F("add_kernel");
  vectorAdd(F, 1024);
  std::vector<launch::ConcreteLaunch> Ls =
      launches("n=[1000, 4096] x=fp32[n] y=fp32[n]:arange out=fp32[n]:out grid=(cdiv(n, 1024),)");
  ASSERT_EQ(Ls.size(), 2u);
  for (const launch::ConcreteLaunch &L : Ls) {
    PreparedLaunch P = prepareLaunch(F, L, /*Seed=*/7);
    ASSERT_TRUE(P.Errors.empty()) << P.Errors[0];
    RunResult R = run(F, P.Mem, P.Args, P.Opts);
    ASSERT_TRUE(R.Completed) << R.Error;
    EXPECT_EQ(R.TotalViolations, 0u) << L.Label;
    uint32_t X = P.buffer("x"), Y = P.buffer("y"), O = P.buffer("out");
    const int64_t N = L.value("n")->Int;
    EXPECT_EQ(P.Mem.buffer(O).numElements(), N);
    for (int64_t I = 0; I < N; ++I) {
      double Xv = P.Mem.readFloat(X, I);
      ASSERT_GE(Xv, 0.0);
      ASSERT_LT(Xv, 1.0);
      ASSERT_EQ(P.Mem.readFloat(Y, I), static_cast<double>(I));
      ASSERT_EQ(P.Mem.readFloat(O, I), static_cast<double>(static_cast<float>(Xv + I)));
    }
  }
  // The same seed gives the same inputs.
  PreparedLaunch A = prepareLaunch(F, Ls[0], 7), B = prepareLaunch(F, Ls[0], 7), C = prepareLaunch(F, Ls[0], 8);
  EXPECT_EQ(A.Mem.buffer(A.buffer("x")).Bytes, B.Mem.buffer(B.buffer("x")).Bytes);
  EXPECT_NE(A.Mem.buffer(A.buffer("x")).Bytes, C.Mem.buffer(C.buffer("x")).Bytes);
}

TEST(InterpLaunch, SpecThatDoesNotMatchTheKernel) {
  ir::Function F("add_kernel");
  vectorAdd(F, 1024);
  std::vector<launch::ConcreteLaunch> Ls = launches("m=8 x=fp16[m] out=fp32[m]:out");
  ASSERT_EQ(Ls.size(), 1u);
  PreparedLaunch P = prepareLaunch(F, Ls[0]);
  ASSERT_EQ(P.Errors.size(), 3u);
  EXPECT_EQ(P.Errors[0], "tensor 'x' is fp16 in the launch spec but the kernel was specialized for *fp32");
  EXPECT_EQ(P.Errors[1], "no tensor for pointer parameter 'y' in the launch spec");
  EXPECT_EQ(P.Errors[2], "no value for parameter 'n' in the launch spec");
}

TEST(InterpLaunch, UndersizedTensorIsCaughtAsOutOfBounds) {
  // The spec says out has 1000 elements while n says 1024: the unmasked
  // tail of the store runs past it.
  ir::Function F("add_kernel");
  vectorAdd(F, 256);
  std::vector<launch::ConcreteLaunch> Ls = launches("n=1024 x=fp32[n] y=fp32[n] out=fp32[1000]:out grid=(4,)");
  PreparedLaunch P = prepareLaunch(F, Ls[0]);
  ASSERT_TRUE(P.Errors.empty());
  RunResult R = run(F, P.Mem, P.Args, P.Opts);
  ASSERT_EQ(R.TotalViolations, 24u);
  EXPECT_EQ(R.Violations[0].Buffer, "out");
  EXPECT_EQ(R.Violations[0].ElementOffset, 1000);
  EXPECT_EQ(R.Violations[0].BufferElements, 1000);
  EXPECT_EQ(R.Violations[0].ProgramId[0], 3);
}

} // namespace
