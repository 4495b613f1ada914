//===- LaunchSpecTest.cpp - launch-spec parser and instantiation ----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Good specs parse into the expected entries and instantiate into the
/// expected concrete launches; every kind of malformed spec yields one
/// LaunchSpec problem at the exact range of the offending text, and parsing
/// carries on with the next entry.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/LaunchSpec.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::launch;

namespace {

/// The range of the Nth occurrence of Needle in Text (offset by Base).
SourceRange rangeOf(std::string_view Text, std::string_view Needle, int Nth = 0, uint32_t Base = 0) {
  size_t P = Text.find(Needle);
  for (int I = 0; I < Nth && P != std::string_view::npos; ++I)
    P = Text.find(Needle, P + 1);
  EXPECT_NE(P, std::string_view::npos) << Needle;
  return {Base + static_cast<uint32_t>(P), Base + static_cast<uint32_t>(P + Needle.size())};
}

struct OneProblem {
  std::string Message;
  SourceRange Range;
};

/// Parses and instantiates Text, expecting exactly one problem.
OneProblem problemOf(std::string_view Text) {
  ParsedLaunchSpec P = parseLaunchSpec(Text);
  ProblemSink Sink;
  if (P.Problems.empty())
    instantiate(P.Spec, Sink);
  std::vector<Problem> All = P.Problems;
  for (const Problem &Q : Sink.problems())
    All.push_back(Q);
  EXPECT_EQ(All.size(), 1u) << Text;
  if (All.empty())
    return {};
  EXPECT_EQ(All[0].Kind, ProblemKind::LaunchSpec);
  return {All[0].Message, All[0].Range};
}

TEST(LaunchSpec, VectorAddSpecWithTwoSizes) {
  std::string_view Text = "n=[1000, 4096] x=f32[n] y=fp32[n] out=float32[n]:out grid=(cdiv(n, BLOCK_SIZE),) "
                          "BLOCK_SIZE=1024 num_warps=4";
  ParsedLaunchSpec P = parseLaunchSpec(Text);
  ASSERT_TRUE(P.Problems.empty()) << P.Problems[0].Message;
  ASSERT_EQ(P.Spec.Values.size(), 2u);
  EXPECT_TRUE(P.Spec.Values[0].IsList);
  EXPECT_EQ(P.Spec.Values[0].Range, rangeOf(Text, "n=[1000, 4096]"));
  ASSERT_EQ(P.Spec.Tensors.size(), 3u);
  EXPECT_EQ(P.Spec.Tensors[0].DType, "fp32");
  EXPECT_EQ(P.Spec.Tensors[2].DType, "fp32");
  EXPECT_TRUE(P.Spec.Tensors[2].IsOutput);
  EXPECT_EQ(P.Spec.Tensors[2].Range, rangeOf(Text, "out=float32[n]:out"));
  ASSERT_EQ(P.Spec.Grid.size(), 1u);

  ProblemSink Sink;
  std::vector<ConcreteLaunch> L = instantiate(P.Spec, Sink);
  ASSERT_TRUE(Sink.problems().empty()) << Sink.problems()[0].Message;
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].Label, "n=1000");
  EXPECT_EQ(L[0].Grid, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(L[1].Label, "n=4096");
  EXPECT_EQ(L[1].Grid, (std::array<int64_t, 3>{4, 1, 1}));
  EXPECT_EQ(L[1].Tensors[0].Shape, (std::vector<int64_t>{4096}));
  EXPECT_EQ(L[1].Tensors[0].StorageElements, 4096);
  EXPECT_EQ(L[1].value("BLOCK_SIZE")->Int, 1024);
  EXPECT_EQ(L[0].NumWarps, 4);
  EXPECT_EQ(L[0].NumStages, 3) << "Triton's default";
}

TEST(LaunchSpec, MatmulSpecWithStridesFlagsAndTwoDimensionalGrid) {
  std::string_view Text = "kernel=matmul_kernel a=fp16[M, K; 1, M]:randn b=fp16[K, N] c=fp32[M, N]:out "
                          "M=64 K=32 N=[16, 48] grid=(triton.cdiv(M, 32), cdiv(N, 16)) num_stages=4";
  ParsedLaunchSpec P = parseLaunchSpec(Text);
  ASSERT_TRUE(P.Problems.empty()) << P.Problems[0].Message;
  EXPECT_EQ(P.Spec.Kernel, "matmul_kernel");
  EXPECT_EQ(P.Spec.Tensors[0].Init, TensorInit::Randn);
  ProblemSink Sink;
  std::vector<ConcreteLaunch> L = instantiate(P.Spec, Sink);
  ASSERT_EQ(L.size(), 2u);
  const ConcreteTensor &A = L[1].Tensors[0];
  EXPECT_EQ(A.Shape, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(A.Strides, (std::vector<int64_t>{1, 64})) << "column-major as written";
  EXPECT_EQ(A.StorageElements, 64 * 32);
  EXPECT_EQ(L[1].Tensors[1].Strides, (std::vector<int64_t>{48, 1})) << "row-major by default";
  EXPECT_EQ(L[1].Grid, (std::array<int64_t, 3>{2, 3, 1}));
  EXPECT_EQ(L[1].NumStages, 4);
}

TEST(LaunchSpec, ScalarsExpressionsAndForwardReferences) {
  std::string_view Text = "eps=1e-5 causal=True seed=0x10 shift=-3 ld=2*K+1 K=8 q=K//3 r=-7%3 f=K/2 "
                          "m=max(K, 3, 12) p=next_power_of_2(100)";
  ParsedLaunchSpec P = parseLaunchSpec(Text);
  ASSERT_TRUE(P.Problems.empty()) << P.Problems[0].Message;
  ProblemSink Sink;
  std::vector<ConcreteLaunch> L = instantiate(P.Spec, Sink);
  ASSERT_EQ(L.size(), 1u);
  const ConcreteLaunch &C = L[0];
  EXPECT_TRUE(C.value("eps")->IsFloat);
  EXPECT_DOUBLE_EQ(C.value("eps")->Float, 1e-5);
  EXPECT_TRUE(C.value("causal")->IsBool);
  EXPECT_EQ(C.value("seed")->Int, 16);
  EXPECT_EQ(C.value("shift")->Int, -3);
  EXPECT_EQ(C.value("ld")->Int, 17);
  EXPECT_EQ(C.value("q")->Int, 2);
  EXPECT_EQ(C.value("r")->Int, 2) << "Python modulo";
  EXPECT_DOUBLE_EQ(C.value("f")->Float, 4.0);
  EXPECT_EQ(C.value("m")->Int, 12);
  EXPECT_EQ(C.value("p")->Int, 128);
  EXPECT_EQ(C.Label, "");
}

TEST(LaunchSpec, InstancesAreTheProductOfLists) {
  ParsedLaunchSpec P = parseLaunchSpec("M=[1, 2] N=[10, 20, 30] grid=(M, N)");
  ProblemSink Sink;
  std::vector<ConcreteLaunch> L = instantiate(P.Spec, Sink);
  ASSERT_EQ(L.size(), 6u);
  EXPECT_EQ(L[0].Label, "M=1, N=10");
  EXPECT_EQ(L[1].Label, "M=1, N=20");
  EXPECT_EQ(L[5].Label, "M=2, N=30");
  EXPECT_EQ(L[5].Grid, (std::array<int64_t, 3>{2, 30, 1}));
  EXPECT_EQ(instantiate(P.Spec, Sink, 4).size(), 4u);
}

TEST(LaunchSpec, DirectivesInAFileWithContinuations) {
  std::string Source = "import triton\n"
                       "# tessel: launch n=[1000, 4096] x=fp32[n] \\\n"
                       "#   out=fp32[n]:out grid=(cdiv(n, B),) B=256\n"
                       "@triton.jit\n"
                       "def k(x, out, n, B: tl.constexpr):\n"
                       "    pass  # tessel: launchpad is not a directive\n"
                       "  #tessel:launch kernel=k n=1 x=fp32[n] out=fp32[n] B=bad(\n";
  std::vector<LaunchDirective> D = findLaunchDirectives(Source);
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(D[0].Range.Begin, Source.find("# tessel"));
  EXPECT_EQ(D[0].Range.End, Source.find("\n@triton"));
  ParsedLaunchSpec P = parseLaunchSpec(
      std::string_view(Source).substr(D[0].Body.Begin, D[0].Body.End - D[0].Body.Begin), D[0].Body.Begin);
  ASSERT_TRUE(P.Problems.empty()) << P.Problems[0].Message;
  ASSERT_EQ(P.Spec.Tensors.size(), 2u);
  EXPECT_EQ(P.Spec.Tensors[1].Range, rangeOf(Source, "out=fp32[n]:out"));
  // The second directive's error points into the file.
  ParsedLaunchSpec Bad = parseLaunchSpec(
      std::string_view(Source).substr(D[1].Body.Begin, D[1].Body.End - D[1].Body.Begin), D[1].Body.Begin);
  ASSERT_EQ(Bad.Problems.size(), 1u);
  EXPECT_EQ(Bad.Problems[0].Range, rangeOf(Source, "bad"));
  EXPECT_EQ(Bad.Spec.Kernel, "k");
}

TEST(LaunchSpec, CanonicalDTypes) {
  EXPECT_EQ(canonicalDType("bfloat16"), "bf16");
  EXPECT_EQ(canonicalDType("bool"), "i1");
  EXPECT_EQ(canonicalDType("uint8"), "u8");
  EXPECT_EQ(canonicalDType("float8e4nv"), "fp8e4nv");
  EXPECT_EQ(canonicalDType("f33"), "");
}

// Every error, at its range.

TEST(LaunchSpecErrors, MissingValue) {
  std::string_view T = "n x=fp32[4]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "expected `name=value`, got 'n'");
  EXPECT_EQ(P.Range, rangeOf(T, "n"));
}

TEST(LaunchSpecErrors, UnknownDType) {
  std::string_view T = "n=4 x=f33[n]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message,
            "unknown dtype 'f33'; expected a Triton dtype such as fp32, fp16, bf16, i32, i64, u8 or fp8e4nv");
  EXPECT_EQ(P.Range, rangeOf(T, "f33"));
}

TEST(LaunchSpecErrors, DuplicateEntry) {
  std::string_view T = "n=1 m=2 n=3";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "duplicate entry 'n' in launch spec");
  EXPECT_EQ(P.Range, rangeOf(T, "n", 1));
}

TEST(LaunchSpecErrors, UnterminatedBracket) {
  std::string_view T = "x=fp32[4, 4";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "unterminated '[': expected ']'");
  EXPECT_EQ(P.Range, rangeOf(T, "["));
}

TEST(LaunchSpecErrors, MissingComma) {
  std::string_view T = "x=fp32[4 4]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "expected ',' between dimensions, got '4'");
  EXPECT_EQ(P.Range, rangeOf(T, "4", 1));
}

TEST(LaunchSpecErrors, EmptyList) {
  std::string_view T = "n=[]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "'n' lists no instances");
  EXPECT_EQ(P.Range, rangeOf(T, "[]"));
}

TEST(LaunchSpecErrors, GridRank) {
  std::string_view T = "grid=(1, 2, 3, 4)";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "grid must have 1, 2 or 3 dimensions, got 4");
  EXPECT_EQ(P.Range, rangeOf(T, "(1, 2, 3, 4)"));
}

TEST(LaunchSpecErrors, UnknownFlag) {
  std::string_view T = "x=fp32[4]:output";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message,
            "unknown tensor flag ':output'; expected out, rand, randn, zeros, ones, arange, randint(LOW, HIGH), "
            "desc(BLOCK, ...) or nan");
  EXPECT_EQ(P.Range, rangeOf(T, "output"));
}

TEST(LaunchSpecErrors, UnexpectedCharacterAndRecovery) {
  std::string_view T = "n=$ m=4 k=é";
  ParsedLaunchSpec P = parseLaunchSpec(T);
  ASSERT_EQ(P.Problems.size(), 2u);
  EXPECT_EQ(P.Problems[0].Message, "unexpected character '$' in launch spec");
  EXPECT_EQ(P.Problems[0].Range, rangeOf(T, "$"));
  EXPECT_EQ(P.Problems[1].Range, rangeOf(T, "é")) << "a whole UTF-8 character";
  ASSERT_NE(P.Spec.value("m"), nullptr) << "parsing goes on after an error";
}

TEST(LaunchSpecErrors, StrideCount) {
  std::string_view T = "x=fp32[4, 4; 1]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "'x' has 2 dimensions but 1 strides");
  EXPECT_EQ(P.Range, rangeOf(T, "; 1"));
}

TEST(LaunchSpecErrors, TupleOutsideGrid) {
  std::string_view T = "n=(1, 2)";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "a tuple is only allowed as the value of 'grid'");
  EXPECT_EQ(P.Range, rangeOf(T, "(1, 2)"));
}

TEST(LaunchSpecErrors, UnknownFunctionAndArity) {
  std::string_view T = "g=ceil(3)";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "unknown function 'ceil'; a launch spec can call cdiv, min, max and next_power_of_2");
  EXPECT_EQ(P.Range, rangeOf(T, "ceil"));
  std::string_view T2 = "g=cdiv(3)";
  OneProblem P2 = problemOf(T2);
  EXPECT_EQ(P2.Message, "cdiv() takes 2 arguments, got 1");
  EXPECT_EQ(P2.Range, rangeOf(T2, "cdiv(3)"));
}

TEST(LaunchSpecErrors, BadNumberAndMissingValue) {
  OneProblem P = problemOf("n=12abc");
  EXPECT_EQ(P.Message, "invalid integer '12abc'");
  std::string_view T = "n=";
  OneProblem P2 = problemOf(T);
  EXPECT_EQ(P2.Message, "expected a value, got the end of the spec");
  EXPECT_EQ(P2.Range, (SourceRange{2, 2}));
}

TEST(LaunchSpecErrors, UndefinedName) {
  std::string_view T = "x=fp32[n]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "name 'n' is not defined in the launch spec");
  EXPECT_EQ(P.Range, rangeOf(T, "n"));
}

TEST(LaunchSpecErrors, Cycle) {
  std::string_view T = "a=b+1 b=a";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "'a' depends on itself");
  EXPECT_EQ(P.Range, rangeOf(T, "a", 1));
}

TEST(LaunchSpecErrors, DivisionByZero) {
  std::string_view T = "n=0 g=cdiv(8, n)";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "division by zero");
  EXPECT_EQ(P.Range, rangeOf(T, "cdiv(8, n)"));
}

TEST(LaunchSpecErrors, IntegerOverflowIsAProblemNotUndefinedBehaviour) {
  // Found by the launch fuzz target under UBSan: Python's integers do not
  // overflow, int64 arithmetic did (and INT64_MIN / -1 traps).
  for (std::string_view T : {"n=9223372036854775807 m=n + 1", "n=9223372036854775807 m=0 - n - 2",
                             "n=4294967296 m=n * n", "n=0 - 9223372036854775807 m=(n - 1) // (0 - 1)",
                             "n=0 - 9223372036854775807 m=-(n - 1)", "n=4611686018427387905 m=next_power_of_2(n)"}) {
    OneProblem P = problemOf(T);
    EXPECT_EQ(P.Message, "integer overflow: the value does not fit in 64 bits") << T;
  }
  std::string_view T = "n=2147483648 x=fp32[n, n, n]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "tensor 'x' is too large: its elements do not fit in 64-bit offsets");
  EXPECT_EQ(P.Range, rangeOf(T, "x=fp32[n, n, n]"));
  EXPECT_EQ(storageElements({2147483648, 2147483648, 2147483648}, {1, 2147483648, 4611686018427387904}), -1);
  EXPECT_EQ(storageElements({4, 8}, {8, 1}), 32);
}

TEST(LaunchSpecErrors, NegativeAndFractionalSizes) {
  std::string_view T = "x=fp32[4 - 7]";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "tensor dimension must not be negative, got -3");
  EXPECT_EQ(P.Range, rangeOf(T, "4 - 7"));
  std::string_view T2 = "x=fp32[1.5]";
  OneProblem P2 = problemOf(T2);
  EXPECT_EQ(P2.Message, "a tensor dimension must be an integer");
  EXPECT_EQ(P2.Range, rangeOf(T2, "1.5"));
}

TEST(LaunchSpecErrors, NumWarpsPowerOfTwo) {
  std::string_view T = "num_warps=6";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "num_warps must be a power of 2");
  EXPECT_EQ(P.Range, rangeOf(T, "6"));
}

TEST(LaunchSpecErrors, TensorUsedAsNumber) {
  std::string_view T = "x=fp32[4] grid=(x,)";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "'x' is a tensor, not a number");
  EXPECT_EQ(P.Range, rangeOf(T, "x", 1));
}

TEST(LaunchSpecErrors, KernelNeedsAName) {
  std::string_view T = "kernel=3";
  OneProblem P = problemOf(T);
  EXPECT_EQ(P.Message, "expected a kernel name after 'kernel=', got '3'");
  EXPECT_EQ(P.Range, rangeOf(T, "3"));
}

} // namespace

// `:randint(LOW, HIGH)` fills an input as torch.randint does; the bounds
// prover's counterexamples write it when a violation needs those contents.
TEST(LaunchSpec, RandintFlagCarriesItsBounds) {
  ParsedLaunchSpec P = parseLaunchSpec("idx=int32[n]:randint(0, 8) t=fp32[8] n=1000 grid=(4,)");
  ASSERT_TRUE(P.Problems.empty()) << P.Problems[0].Message;
  EXPECT_EQ(P.Spec.Tensors[0].Init, TensorInit::Randint);
  ProblemSink Sink;
  std::vector<ConcreteLaunch> L = instantiate(P.Spec, Sink);
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Tensors[0].Low, 0);
  EXPECT_EQ(L[0].Tensors[0].High, 8);
  EXPECT_EQ(parseLaunchSpec("idx=int32[4]:randint(-3, -1)").Spec.Tensors[0].Low, -3);

  ParsedLaunchSpec Empty = parseLaunchSpec("idx=int32[4]:randint(8, 8)");
  ASSERT_EQ(Empty.Problems.size(), 1u);
  EXPECT_EQ(Empty.Problems[0].Message, "':randint(8, 8)' draws from an empty range: LOW must be below HIGH");
  ParsedLaunchSpec Open = parseLaunchSpec("idx=int32[4]:randint(0 8)");
  ASSERT_EQ(Open.Problems.size(), 1u);
  EXPECT_EQ(Open.Problems[0].Message, "expected ',' between the bounds of ':randint', got '8'");
}

TEST(LaunchSpec, DescriptorFlagGivesTheBlockAndTritonsExpandedParameters) {
  std::string_view Text = "M=200 K=96 a=fp16[M, K]:desc(BM, 32):nan BM=64";
  ParsedLaunchSpec P = parseLaunchSpec(Text);
  ASSERT_TRUE(P.Problems.empty()) << P.Problems[0].Message;
  EXPECT_EQ(P.Spec.Tensors[0].Range, rangeOf(Text, "a=fp16[M, K]:desc(BM, 32):nan"));
  ProblemSink Sink;
  std::vector<ConcreteLaunch> L = instantiate(P.Spec, Sink);
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Tensors[0].DescBlock, (std::vector<int64_t>{64, 32}));
  EXPECT_TRUE(L[0].Tensors[0].PadNan);
  // backends/driver.py `_expand_descriptor` without TMA metadata.
  std::vector<std::string> Names;
  for (const DescriptorParam &D : descriptorParams("a", 2))
    Names.push_back(D.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"a", "a.shape.0", "a.shape.1", "a.stride.0", "a.stride.1", "a.padding",
                                             "a.roundF32ToTF32", "a.shape_i32.0", "a.shape_i32.1", "a.stride_i64.0",
                                             "a.stride_i64.1"}));
  EXPECT_EQ(L[0].value("a.shape.0")->Int, 200);
  EXPECT_EQ(L[0].value("a.stride.0")->Int, 96);
  EXPECT_EQ(L[0].value("a.stride_i64.1")->Int, 1);
  EXPECT_TRUE(L[0].value("a.padding")->IsBool);
  EXPECT_EQ(L[0].value("a.padding")->Int, 1);
  EXPECT_EQ(L[0].value("a.roundF32ToTF32")->Int, 0);
}

TEST(LaunchSpecErrors, DescriptorBlocks) {
  OneProblem Rank = problemOf("a=fp16[8, 8]:desc(8)");
  EXPECT_EQ(Rank.Message, "'a' has 2 dimensions but its descriptor block has 1");
  OneProblem Nan = problemOf("a=fp16[8]:nan");
  EXPECT_EQ(Nan.Message, "':nan' is the padding of a tensor descriptor: give 'a' a ':desc(...)' first");
  std::string_view Text = "a=fp16[64, 64]:desc(16, 24)";
  OneProblem Pow = problemOf(Text);
  EXPECT_EQ(Pow.Message, "Shape element 1 must be a power of 2") << "TensorDescriptor's validate_block_shape";
  EXPECT_EQ(Pow.Range, rangeOf(Text, "24"));
  OneProblem Empty = problemOf("a=fp16[64]:desc()");
  EXPECT_EQ(Empty.Message, "':desc()' gives no block shape");
}
