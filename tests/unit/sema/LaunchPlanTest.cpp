//===- LaunchPlanTest.cpp - deriving launches and lowering requests -------===//
/// \file
/// planLaunch on small files: a directive, a --spec that replaces it, the
/// derivation without a spec (autotune config, launch-site keywords,
/// defaults, what is assumed), spec problems at the spec's range, and
/// Triton's argument specialization rules in the LoweringRequest.
//===----------------------------------------------------------------------===//
#include "compiler/sema/LaunchPlan.h"

#include "LaunchPlanTestSupport.h"

#include "compiler/frontend/Discovery.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessel;
using namespace tessel::sema;

namespace {

using test::Planned;

Planned plan(const std::string &Body, const std::string &Kernel, LaunchPlanOptions Opts = {}) {
  return test::planSource("import triton\nimport triton.language as tl\n\n" + Body, Kernel, Opts);
}

bool assumed(const LaunchPlan &P, const std::string &Text) {
  return std::find(P.Assumptions.begin(), P.Assumptions.end(), Text) != P.Assumptions.end();
}

std::string assumptions(const LaunchPlan &P) {
  std::string S;
  for (const std::string &A : P.Assumptions)
    S += "  " + A + "\n";
  return S;
}

const char AddKernel[] = R"(
# tessel: launch n=[1000, 1] x=fp16[n] y_ptr=fp16[n] out=fp32[n]:out grid=(cdiv(n, BLOCK),) BLOCK=256 num_warps=8
@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
)";

TEST(LaunchPlan, DirectiveGivesOneLaunchPerInstanceWithTritonsSpecialization) {
  Planned P = plan(AddKernel, "add");
  ASSERT_TRUE(P.Plan.Error.empty()) << P.Plan.Error;
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::Directive);
  ASSERT_EQ(P.Plan.Launches.size(), 2u);
  const PlannedLaunch &First = P.Plan.Launches[0];
  EXPECT_EQ(First.Launch.Label, "n=1000");
  EXPECT_EQ(First.Launch.Grid[0], 4);
  // `x` and `out` bind the parameters x_ptr and out_ptr.
  ASSERT_EQ(First.Launch.Tensors.size(), 3u);
  EXPECT_EQ(First.Launch.Tensors[0].Name, "x_ptr");
  EXPECT_EQ(First.Launch.Tensors[2].Name, "out_ptr");
  const LoweringRequest &R = First.Request;
  EXPECT_EQ(R.Kernel, "add");
  EXPECT_EQ(R.NumWarps, 8);
  EXPECT_EQ(R.NumStages, 3);
  ASSERT_TRUE(R.Constexprs.count("BLOCK"));
  EXPECT_EQ(R.Constexprs.at("BLOCK").asInt(), 256);
  EXPECT_EQ(R.ArgTypes.at("x_ptr").str(), "pointer<fp16>");
  EXPECT_EQ(R.ArgTypes.at("out_ptr").str(), "pointer<fp32>");
  EXPECT_EQ(R.ArgTypes.at("n").str(), "int32");
  EXPECT_TRUE(R.EqualToOne.empty());
  EXPECT_TRUE(R.DivisibleBy16.empty()); // 1000 is no multiple of 16
  // n=1 is specialized to a constant, as Triton does (and is not "D").
  EXPECT_EQ(P.Plan.Launches[1].Request.EqualToOne, std::set<std::string>{"n"});
  EXPECT_TRUE(P.Plan.Launches[1].Request.DivisibleBy16.empty());
}

TEST(LaunchPlan, CommandLineSpecReplacesTheDirective) {
  LaunchPlanOptions O;
  O.SpecText = "n=5000000000 x_ptr=fp32[8] y_ptr=fp32[8] out_ptr=fp32[8]:out BLOCK=8";
  Planned P = plan(AddKernel, "add", O);
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::CommandLine);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  // Too large for int32: Triton passes it as i64.
  EXPECT_EQ(P.Plan.Launches[0].Request.ArgTypes.at("n").str(), "int64");
  EXPECT_EQ(P.Plan.Launches[0].Request.ArgTypes.at("x_ptr").str(), "pointer<fp32>");
}

TEST(LaunchPlan, SpecProblemsAreAtTheSpecText) {
  LaunchPlanOptions O;
  O.SpecText = "n=4 x_ptr=f33[n]";
  Planned P = plan(AddKernel, "add", O);
  ASSERT_EQ(P.Plan.Problems.size(), 1u);
  EXPECT_EQ(P.Plan.Problems[0].Kind, ProblemKind::LaunchSpec);
  EXPECT_EQ(
      O.SpecText->substr(P.Plan.Problems[0].Range.Begin, P.Plan.Problems[0].Range.End - P.Plan.Problems[0].Range.Begin),
      "f33");
  EXPECT_TRUE(P.Plan.Launches.empty());

  Planned Eval = plan(R"(
# tessel: launch n=4 x=fp32[m] BLOCK=4
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)
)",
                      "k");
  ASSERT_EQ(Eval.Plan.Problems.size(), 1u);
  EXPECT_EQ(Eval.File->text().slice(Eval.Plan.Problems[0].Range), "m");
  EXPECT_EQ(Eval.Plan.Problems[0].Message, "name 'm' is not defined in the launch spec");
}

const char Autotuned[] = R"(
@triton.autotune(configs=[triton.Config({'BLOCK_M': 64}, num_warps=4, num_stages=2),
                          triton.Config({'BLOCK_M': 128}, num_warps=8, num_stages=3)], key=['M'])
@triton.jit
def rows(x_ptr: "*fp16", out_ptr, M, stride_m, scale: tl.float32, BLOCK_M: tl.constexpr):
    offs = tl.arange(0, BLOCK_M)
    x = tl.load(x_ptr + offs * stride_m, mask=offs < M)
    tl.store(out_ptr + offs, x * scale, mask=offs < M)
)";

TEST(LaunchPlan, WithoutASpecTheFileAndDefaultsAreUsedAndSaid) {
  Planned P = plan(Autotuned, "rows");
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::Derived);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_EQ(R.Constexprs.at("BLOCK_M").asInt(), 64);
  EXPECT_EQ(R.NumWarps, 4);
  EXPECT_EQ(R.NumStages, 2);
  EXPECT_EQ(R.ArgTypes.at("x_ptr").str(), "pointer<fp16>");
  EXPECT_EQ(R.ArgTypes.at("out_ptr").str(), "pointer<fp32>");
  EXPECT_EQ(R.ArgTypes.at("M").str(), "int32");
  EXPECT_EQ(R.ArgTypes.at("scale").str(), "fp32");
  EXPECT_EQ(R.EqualToOne, std::set<std::string>{"stride_m"});
  // Triton's "D" key: the assumed M=1024 is a multiple of 16.
  EXPECT_EQ(R.DivisibleBy16, std::set<std::string>{"M"});
  EXPECT_TRUE(assumed(P.Plan, "BLOCK_M=64 from autotune config 0")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "num_warps=4 from autotune config 0")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "M=1024 (no launch spec)")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "x_ptr=fp16[1024] (no launch spec)")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "grid=(1,) (no launch spec)")) << assumptions(P.Plan);

  LaunchPlanOptions Second;
  Second.Config = 1;
  Planned Q = plan(Autotuned, "rows", Second);
  ASSERT_EQ(Q.Plan.Launches.size(), 1u);
  EXPECT_EQ(Q.Plan.Launches[0].Request.Constexprs.at("BLOCK_M").asInt(), 128);
  EXPECT_EQ(Q.Plan.Launches[0].Request.NumWarps, 8);
}

TEST(LaunchPlan, ASpecMayLeaveTheAutotunedConstexprsOut) {
  LaunchPlanOptions O;
  O.SpecText = "M=300 x_ptr=fp16[M] out_ptr=fp32[M]:out stride_m=1 scale=2.0 grid=(cdiv(M, BLOCK_M),)";
  O.Config = 1;
  Planned P = plan(Autotuned, "rows", O);
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(P.Plan.Launches[0].Launch.Grid[0], 3);
  EXPECT_EQ(P.Plan.Launches[0].Request.Constexprs.at("BLOCK_M").asInt(), 128);
  EXPECT_TRUE(assumed(P.Plan, "BLOCK_M=128 from autotune config 1")) << assumptions(P.Plan);
}

TEST(LaunchPlan, LaunchSiteKeywordsAndDefaultsFixConstexprs) {
  // The derivation (the wrapper not called: FromWrappers off, as the prover plans).
  LaunchPlanOptions Opts;
  Opts.FromWrappers = false;
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr, MODE: tl.constexpr, EVEN: tl.constexpr = True):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)

def host(x):
    k[(1,)](x, x.numel(), BLOCK=512, MODE="fast", num_warps=2)
)",
                   "k", Opts);
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_EQ(R.Constexprs.at("BLOCK").asInt(), 512);
  EXPECT_TRUE(R.Constexprs.at("EVEN").asBool());
  // A string constexpr cannot be spelled in a spec: it goes straight into the request.
  EXPECT_EQ(R.Constexprs.at("MODE").asStr(), "fast");
  EXPECT_EQ(R.NumWarps, 2);
  EXPECT_TRUE(assumed(P.Plan, "BLOCK=512 from the launch site")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "EVEN=True from its default")) << assumptions(P.Plan);
}

TEST(LaunchPlan, AnUnfixedConstexprIsAssumedFromItsUse) {
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, idx_ptr, stride_m, stride_n, BLOCK: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    row = tl.load(idx_ptr + tl.program_id(0))
    v = tl.load(x_ptr + row * stride_m + offs * stride_n).to(tl.float32)
    if MODE == "square":
        v = v * v
    tl.store(x_ptr + offs, v)
)",
                   "k");
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_EQ(R.Constexprs.at("BLOCK").asInt(), 1024);
  EXPECT_EQ(R.Constexprs.at("MODE").asStr(), "square");
  EXPECT_TRUE(P.Plan.Representative);
  EXPECT_TRUE(P.Plan.AssumedDtypes);
  EXPECT_TRUE(assumed(P.Plan, "BLOCK=1024 assumed: sizes a block of a 1-D tile")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "MODE='square' assumed: the first value it is compared with")) << assumptions(P.Plan);
  // Values loaded as offsets make an index tensor; values widened to float32 a half one.
  EXPECT_EQ(R.ArgTypes.at("idx_ptr"), (ElemType{ScalarKind::I64, 1}));
  EXPECT_EQ(R.ArgTypes.at("x_ptr"), (ElemType{ScalarKind::FP16, 1}));
  // The stride of the axis tl.arange walks is the innermost one: 1, specialized as Triton does.
  EXPECT_TRUE(R.EqualToOne.count("stride_n"));
  EXPECT_TRUE(R.DivisibleBy16.count("stride_m"));
}

TEST(LaunchPlan, AStrideNamedConstexprTestedAsAConditionIsAFlag) {
  // vllm's LoRA kernels: `SAME_STRIDE: tl.constexpr` chooses between scalar
  // strides and tables of them; named like a stride, used as a flag.
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, ls_ptr, STRIDE_K: tl.constexpr, SAME_STRIDE: tl.constexpr):
    offs = tl.arange(0, 16)
    if SAME_STRIDE:
        s = 1
    else:
        s = tl.load(ls_ptr)
    tl.store(x_ptr + offs * STRIDE_K + s, tl.load(x_ptr + offs))
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_TRUE(assumed(P.Plan, "SAME_STRIDE=False assumed: used as a condition")) << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "STRIDE_K=1 assumed: an innermost stride")) << assumptions(P.Plan);
}

TEST(LaunchPlan, AnArgumentThatDefaultsToNoneIsOmitted) {
  // gemlite's atomic_add_cas(ptr, value, Lock, mask=None): a call that omits
  // `mask` passes None, a constexpr to Triton; before, it was assumed 1024.
  Planned P = plan(R"(
@triton.jit
def k(ptr, value, mask=None):
    tl.store(ptr, tl.load(ptr, mask=mask) + value, mask=mask)
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_TRUE(P.Plan.Launches[0].Request.Constexprs.at("mask").isNone());
  EXPECT_TRUE(assumed(P.Plan, "mask=None from its default")) << assumptions(P.Plan);
  AnalyzeOptions Lowering;
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, AConstexprThatIsCalledHasNoAssumedValue) {
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, ACT: tl.constexpr):
    tl.store(x_ptr, ACT(tl.load(x_ptr)))
)",
                   "k");
  ASSERT_EQ(P.Plan.Problems.size(), 1u);
  EXPECT_EQ(P.File->text().slice(P.Plan.Problems[0].Range), "ACT");
  EXPECT_NE(P.Plan.Problems[0].Message.find("no value can be assumed for constexpr parameter 'ACT'"),
            std::string::npos);
  EXPECT_TRUE(P.Plan.Launches.empty());
}

TEST(LaunchPlan, ADescriptorNoLaunchSizesIsNamedWithTheSpecThatWould) {
  Planned P = plan(R"(
@triton.jit
def k(desc_a, out_ptr, BLOCK: tl.constexpr):
    a = desc_a.load([0, 0])
    tl.store(out_ptr + tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :], a)
)",
                   "k");
  EXPECT_TRUE(P.Plan.Launches.empty());
  EXPECT_EQ(P.Plan.Error, "kernel 'k' uses `desc_a` as tensor descriptors, but no launch tessel can see passes one "
                          "with a known block shape: give the kernel a `# tessel: launch` directive that declares "
                          "each, as in `desc_a=fp16[M, K]:desc(BLOCK_M, BLOCK_K)`");
}

// Triton's persistent-matmul pattern: the wrapper builds descriptors with a
// dummy block, the autotune config's pre_hook sets the real one.
const char DescriptorKernel[] = R"(
import torch
from triton.tools.tensor_descriptor import TensorDescriptor

def set_block(nargs):
    nargs["a_desc"].block_shape = [nargs["BLOCK_M"], nargs["BLOCK_K"]]
    nargs["c_desc"].block_shape = [nargs["BLOCK_M"], nargs["BLOCK_K"]]

@triton.autotune(configs=[triton.Config({"BLOCK_M": 64, "BLOCK_K": 32}, num_warps=4, pre_hook=set_block)], key=[])
@triton.jit
def copy(a_desc, c_desc, M, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        c_desc.store([m, k * BLOCK_K], a_desc.load([m, k * BLOCK_K]) * 2)

def run(a):
    c = torch.empty_like(a)
    a_desc = TensorDescriptor.from_tensor(a, [1, 1])
    c_desc = TensorDescriptor(c, c.shape, c.stride(), [1, 1], padding="nan")
    copy[(triton.cdiv(a.shape[0], 64),)](a_desc, c_desc, a.shape[0], a.shape[1])

run(torch.randn(200, 96, dtype=torch.float16))
)";

TEST(LaunchPlan, HostDescriptorsTakeTheBlockShapeTheConfigsPreHookSets) {
  Planned P = plan(DescriptorKernel, "copy");
  ASSERT_TRUE(P.Plan.Error.empty()) << P.Plan.Error;
  ASSERT_EQ(P.Plan.Origin, SpecOrigin::HostCode);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const PlannedLaunch &L = P.Plan.Launches[0];
  EXPECT_EQ(L.Request.DescriptorBlocks.at("a_desc"), (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(L.Request.DescriptorBlocks.at("c_desc"), (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(L.Request.ArgTypes.at("a_desc").str(), "pointer<fp16>");
  // Triton's parameters of a descriptor not lowered to TMA, with its values.
  ASSERT_TRUE(L.Launch.value("a_desc.shape.0") && L.Launch.value("a_desc.stride.0"));
  EXPECT_EQ(L.Launch.value("a_desc.shape.0")->Int, 200);
  EXPECT_EQ(L.Launch.value("a_desc.stride.0")->Int, 96);
  EXPECT_EQ(L.Launch.value("a_desc.shape_i32.1")->Int, 96);
  EXPECT_FALSE(L.Launch.value("a_desc.padding")->Int);
  EXPECT_TRUE(L.Launch.value("c_desc.padding")->Int);
  EXPECT_TRUE(assumed(P.Plan, "a_desc=TensorDescriptor(fp16[200, 96], block_shape=[64, 32]) from torch.randn(200, "
                              "96) in the launch at line 23 (reached through run())"))
      << assumptions(P.Plan);
}

TEST(LaunchPlan, ABlockShapeTritonRejectsIsNamedNotCompiled) {
  Planned P = plan(R"(
import torch
from triton.tools.tensor_descriptor import TensorDescriptor

@triton.jit
def copy(a_desc):
    a_desc.store([0, 0], a_desc.load([0, 0]) + 1)

a = torch.randn(64, 64, dtype=torch.float16)
d = TensorDescriptor.from_tensor(a, [1, 1])
d.block_shape = [4096, 4096]
copy[(1,)](d)
)",
                   "copy");
  EXPECT_TRUE(P.Plan.Launches.empty());
  ASSERT_EQ(P.Plan.Problems.size(), 1u);
  EXPECT_NE(P.Plan.Problems[0].Message.find(
                "the block shape of the TensorDescriptor the launch at line 15 passes is "
                "not one Triton accepts (numel (16777216) exceeds triton maximum tensor numel (1048576))"),
            std::string::npos)
      << P.Plan.Problems[0].Message;
}

TEST(LaunchPlan, WithoutALaunchADescriptorTakesThePreHooksBlockAndNoneWhereComparedWithNone) {
  Planned P = plan(R"(
def set_block(nargs):
    nargs["a_desc"].block_shape = (nargs["BLOCK_M"], nargs["BLOCK_K"])

@triton.autotune(configs=[triton.Config({"BLOCK_M": 128}, num_warps=8, pre_hook=set_block)], key=[])
@triton.jit
def k(a_desc, b_desc, out_ptr, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for i in range(tl.cdiv(K, BLOCK_K)):
        acc += a_desc.load([0, i * BLOCK_K])
    if b_desc is not None:
        acc += b_desc.load([0, 0])
    tl.store(out_ptr + tl.arange(0, BLOCK_M)[:, None] * BLOCK_K + tl.arange(0, BLOCK_K)[None, :], acc)
)",
                   "k");
  ASSERT_TRUE(P.Plan.Error.empty()) << P.Plan.Error;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const PlannedLaunch &L = P.Plan.Launches[0];
  // BLOCK_K divides K into blocks (`tl.cdiv`): a block size of the 2-D tile.
  EXPECT_EQ(L.Request.Constexprs.at("BLOCK_K").repr(), "64");
  EXPECT_EQ(L.Request.DescriptorBlocks.at("a_desc"), (std::vector<int64_t>{128, 64}));
  EXPECT_TRUE(L.Request.Constexprs.at("b_desc").isNone());
  EXPECT_FALSE(L.Request.DescriptorBlocks.count("b_desc"));
}

TEST(LaunchPlan, UnknownKernelsAndConfigsAreUsageErrors) {
  Planned P = plan(AddKernel, "sub");
  EXPECT_EQ(P.Plan.Error, "no @triton.jit kernel named 'sub'; the file defines add");
  LaunchPlanOptions O;
  O.Config = 2;
  EXPECT_EQ(plan(Autotuned, "rows", O).Plan.Error, "kernel 'rows' has 2 autotune configs (0 to 1), not 2");
  EXPECT_EQ(plan(AddKernel, "add", O).Plan.Error, "kernel 'add' has no autotune configs, so --config 2 names none");
}

TEST(LaunchPlan, AHelperWithoutASpecIsNotAKernel) {
  Planned P = plan(R"(
@triton.jit
def helper(x):
    return x * 2

@triton.jit
def k(x_ptr):
    tl.store(x_ptr, helper(tl.load(x_ptr)))
)",
                   "helper");
  EXPECT_EQ(P.Plan.Error, "'helper' is a @triton.jit helper called from other @jit functions, not a kernel launched "
                          "from the host; run the kernel that calls it, or give it a launch spec");
}

TEST(LaunchPlan, DirectivesApplyToTheNextKernelOrTheNamedOne) {
  Planned P = plan(R"(
# tessel: launch x=fp32[4] n=4
# tessel: launch kernel=b x=fp32[8] n=8
@triton.jit
def a(x_ptr, n):
    tl.store(x_ptr, 1.0)

@triton.jit
def b(x_ptr, n):
    tl.store(x_ptr, 2.0)
)",
                   "b");
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(P.Plan.Launches[0].Launch.value("n")->Int, 8);
}

// idx's values reach the pointer through `+=`, which the evidence rules do
// not read: the guess fp32 does not type-check (`pointer<fp32> += fp32`),
// and lowering under the guesses settles idx as an integer.
const char GatherKernel[] = R"(
@triton.jit
def gather(src, idx, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = src + offs * 0
    p += tl.load(idx + offs)
    tl.store(out + offs, tl.load(p))
)";

const std::string &guessedDtype(const LaunchPlan &P, const std::string &Name) {
  for (const launch::ConcreteTensor &T : P.Launches.front().Launch.Tensors)
    if (T.Name == Name)
      return T.DType;
  static const std::string None;
  return None;
}

TEST(LaunchPlan, AGuessedPointerTypeThatDoesNotTypeCheckIsSettledByLowering) {
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(GatherKernel, "gather", Opts);
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_TRUE(P.Plan.GuessedTypes.count("idx"));
  EXPECT_EQ(guessedDtype(P.Plan, "idx"), "i32");
  EXPECT_EQ(P.Plan.Launches[0].Request.ArgTypes.at("idx").str(), "pointer<int32>");
  EXPECT_EQ(guessedDtype(P.Plan, "src"), "fp32"); // a guess that type-checks stays
  EXPECT_TRUE(assumed(P.Plan, "idx=i32[1024] assumed: the kernel type-checks with i32 here and not with fp32 (no "
                              "launch spec)"))
      << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, AssumedSizesTheKernelsOwnChecksRejectAreSettledByLowering) {
  // gemlite's GEMV reshapes its [BLOCK_M, BLOCK_K] tile to (BLOCK_K, 1):
  // BLOCK_M is 1. DeepSeek's compressor takes (1 + OVERLAP) * RATIO lanes,
  // and asserts a head's relation to its blocks: one value at a time.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def gemv(a_ptr, o_ptr, OVERLAP: tl.constexpr, RATIO: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
         HEAD: tl.constexpr, BLOCK: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, BLOCK_M)[:, None] * BLOCK_K + tl.arange(0, BLOCK_K)[None, :])
    col = a.reshape((BLOCK_K, 1))
    lanes = tl.arange(0, (1 + OVERLAP) * RATIO)
    tl.static_assert(BLOCK == HEAD)
    tl.store(o_ptr + tl.arange(0, BLOCK_K)[:, None], col + tl.sum(lanes) + HEAD)
)",
                   "gemv", Opts);
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_EQ(R.Constexprs.at("BLOCK_M").asInt(), 1);
  EXPECT_EQ(R.Constexprs.at("OVERLAP").asInt(), 1);
  EXPECT_EQ(R.Constexprs.at("BLOCK").asInt(), R.Constexprs.at("HEAD").asInt());
  EXPECT_TRUE(assumed(P.Plan, "BLOCK_M=1 assumed: sizes a block of a 2-D tile; the kernel does not compile with 64 "
                              "(reshape() cannot change total number of elements in tensor)"))
      << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, R, Lowering).Function);
  // A kernel whose error no value fixes keeps the values the rules chose.
  Planned Q = plan(R"(
@triton.jit
def bad(a_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK < 0)
    tl.store(a_ptr + tl.arange(0, BLOCK), 1.0)
)",
                   "bad", Opts);
  ASSERT_EQ(Q.Plan.Launches.size(), 1u);
  EXPECT_EQ(Q.Plan.Launches[0].Request.Constexprs.at("BLOCK").asInt(), 1024);
}

TEST(LaunchPlan, GuessedPointersWhoseValuesMeetSettleTogether) {
  // lightllm's decode stage 2: two loaded values meet in tl.cdiv; either
  // one alone as int32 leaves the same error, both together type-check.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def k(seq_ptr, block_ptr, out, BLOCK: tl.constexpr):
    n = tl.cdiv(tl.load(seq_ptr), tl.load(block_ptr))
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n):
        acc += 1.0
    tl.store(out + tl.arange(0, BLOCK), acc)
)",
                   "k", Opts);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "seq_ptr"), "i32") << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "block_ptr"), "i32") << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "out"), "fp32") << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, GuessedPointersOfABf16ModelSettleTogether) {
  // applied-ai's flash-attention backward: probabilities cast to bf16 meet
  // two loaded tiles in dots; fp16 for both (a half-precision model) still
  // mismatches, bf16 for both type-checks.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def k(q_ptr, do_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tile = offs[:, None] * BLOCK + offs[None, :]
    q = tl.load(q_ptr + tile)
    do = tl.load(do_ptr + tile)
    p = tl.dot(q, tl.trans(do)).to(tl.bfloat16)
    dv = tl.dot(p, do)
    dq = tl.dot(p.to(tl.bfloat16), q)
    tl.store(out + tile, dv + dq)
)",
                   "k", Opts);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "q_ptr"), "bf16") << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "do_ptr"), "bf16") << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, ErrorsInAHelperAboveTheKernelCountAtTheirCallSite) {
  // Triton's attention tutorial: the type error is in a helper defined above
  // the kernel. Making the scalar H a float moves the first error into the
  // kernel body, later in the file but earlier in the lowering: no progress.
  // V as fp16 is.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def inner(acc, p, V, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(V + offs[:, None] * BLOCK + offs[None, :])
    return tl.dot(p.to(tl.float16), v, acc)

@triton.jit
def k(V, Out, H, BLOCK: tl.constexpr):
    off_h = tl.program_id(0) & H
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    p = tl.zeros((BLOCK, BLOCK), dtype=tl.float32) + off_h
    acc = inner(acc, p, V, BLOCK)
    tl.store(Out + offs[:, None] * BLOCK + offs[None, :], acc)
)",
                   "k", Opts);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "V"), "fp16") << assumptions(P.Plan);
  EXPECT_FALSE(P.Plan.Launches[0].Launch.value("H")->IsFloat) << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, HalfPrecisionOperandsThatMeetInADotSettleTogether) {
  // The attention tutorial's backward: q and k meet in one dot, and the
  // fp16 probabilities meet both v and q. Q alone as fp16 breaks the first
  // dot, so the one-at-a-time search cannot get there; every fp32 guess as
  // fp16 at once type-checks, and Out goes back to the fp32 of the evidence.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def k(Q, K, V, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = offs[:, None] * BLOCK + offs[None, :]
    q = tl.load(Q + idx)
    s = tl.dot(q, tl.load(K + idx))
    p = s.to(tl.float16)
    tl.store(Out + idx, tl.dot(p, tl.load(V + idx)) + tl.dot(p, q))
)",
                   "k", Opts);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  for (const char *Name : {"Q", "K", "V"})
    EXPECT_EQ(guessedDtype(P.Plan, Name), "fp16") << Name << ": " << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "Out"), "fp32") << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, GuessedTypesStayWithoutSettling) {
  // The prover plans without lowering: the evidence's guess stands.
  Planned P = plan(GatherKernel, "gather");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "idx"), "fp32");
}

TEST(LaunchPlan, PointersPassedToHelpersArePointers) {
  // L reaches a load only inside the helper; `Q.dtype.element_ty` says Q is a pointer.
  Planned P = plan(R"(
@triton.jit
def row_max(L, off, BLOCK: tl.constexpr):
    return tl.max(tl.load(L + off + tl.arange(0, BLOCK)), axis=0)

@triton.jit
def k(Q, L, out, n, BLOCK: tl.constexpr):
    m = row_max(L, tl.program_id(0) * n, BLOCK)
    tl.store(out, m.to(Q.dtype.element_ty))
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_TRUE(R.ArgTypes.at("L").isPointer());
  EXPECT_TRUE(R.ArgTypes.at("Q").isPointer());
  EXPECT_FALSE(R.ArgTypes.at("n").isPointer());
}

TEST(LaunchPlan, PointersChosenByWhereArePointers) {
  // xformers' rope and tiled matmul pick a tensor per program or per tile
  // (`x_in = tl.where(is_v, xv, in_qk)`), after moving it with `+=`, and add
  // offsets computed from a loop variable.
  Planned P = plan(R"(
@triton.jit
def k(xq, xk, out, n, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    is_q = pid < 4
    xk += pid * stride
    in_qk = tl.where(is_q, xq, xk)
    x_in = in_qk if BLOCK > 16 else xq
    for offset in range(0, n, BLOCK):
        cols = offset + tl.arange(0, BLOCK)
        v = tl.load(x_in + cols, mask=cols < n)
        tl.store(out + cols, v, mask=cols < n)
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_TRUE(R.ArgTypes.at("xq").isPointer());
  EXPECT_TRUE(R.ArgTypes.at("xk").isPointer());
  EXPECT_FALSE(R.ArgTypes.at("n").isPointer());
  EXPECT_FALSE(R.ArgTypes.at("stride").isPointer());
}

TEST(LaunchPlan, APointerOrADescriptorAndADtypeChosenByAFlagLower) {
  // tritonbench's attention takes a tensor or a host TensorDescriptor for
  // each operand (`_maybe_make_tensor_desc`) and picks its output dtype with
  // `dtype = tl.float8e5 if FP8_OUTPUT else default_dtype`; lmdeploy wraps
  // core.get_int_dtype in triton.runtime.jit.constexpr_function.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
from triton.language import core

get_int_dtype = triton.runtime.jit.constexpr_function(core.get_int_dtype)

@triton.jit
def _maybe_make_tensor_desc(desc_or_ptr, shape, strides, block_shape):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)

@triton.jit
def k(desc_x, desc_o, N, FP8_OUTPUT: tl.constexpr, default_dtype: tl.constexpr, BLOCK: tl.constexpr):
    dtype = tl.float8e5 if FP8_OUTPUT else default_dtype
    x_desc = _maybe_make_tensor_desc(desc_x, [N, N], [N, 1], [BLOCK, BLOCK])
    o_desc = _maybe_make_tensor_desc(desc_o, [N, N], [N, 1], [BLOCK, BLOCK])
    x = x_desc.load([0, 0])
    bits = x.to(get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True), bitcast=True)
    o_desc.store([0, 0], (bits ^ 1).to(x.dtype, bitcast=True).to(dtype))
)",
                   "k", Opts);
  ASSERT_TRUE(P.Plan.Problems.empty()) << P.Plan.Problems[0].Message;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_TRUE(R.ArgTypes.at("desc_x").isPointer());
  EXPECT_TRUE(R.ArgTypes.at("desc_o").isPointer());
  EXPECT_EQ(R.Constexprs.at("default_dtype").repr(), "triton.language.float32") << assumptions(P.Plan);
  LoweredKernel L = lowerKernel(*P.File, P.Info, R, Lowering);
  EXPECT_TRUE(L.Function) << (L.Problems.empty() ? "" : L.Problems[0].Message);
}

TEST(LaunchPlan, StaticAssertsOnLoadedDtypesSettleTheGuesses) {
  // tritonbench's bf16 x int16 matmul: nothing but the static asserts says
  // that a is bf16 and b int16; a guess they reject is tessel's, so the
  // search tries the narrow integer types too.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def k(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = offs[:, None] * BLOCK + offs[None, :]
    a = tl.load(a_ptr + idx)
    b = tl.load(b_ptr + idx)
    tl.static_assert(a.dtype == tl.bfloat16)
    tl.static_assert(b.dtype == tl.int16)
    c = tl.dot(a, b.to(tl.bfloat16))
    tl.store(c_ptr + idx, c)
)",
                   "k", Opts);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "a_ptr"), "bf16") << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "b_ptr"), "i16") << assumptions(P.Plan);
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function);
}

TEST(LaunchPlan, WhatAHelperLoadsThroughAPointerTypesIt) {
  // gdpa's forward: the offsets are loaded inside the helper the kernel calls
  // and added to another pointer there. Without settling (the prover's
  // plans), the evidence alone must say so.
  Planned P = plan(R"(
@triton.jit
def fwd_compute(Q, Q_offsets, Out, off_z, BLOCK: tl.constexpr):
    begin = tl.load(Q_offsets + off_z)
    offs = tl.arange(0, BLOCK)
    tl.store(Out + begin + offs, tl.load(Q + begin + offs))

@triton.jit
def k(Q, Q_offsets, Out, BLOCK: tl.constexpr):
    fwd_compute(Q, Q_offsets, Out, tl.program_id(0), BLOCK)
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "Q_offsets"), "i64") << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "Q"), "fp32") << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "Q_offsets=i64[1024]: its values are offsets of other pointers (in fwd_compute()) (no "
                              "launch spec)"))
      << assumptions(P.Plan);
}

TEST(LaunchPlan, ValuesShiftedOrCombinedBitwiseAreIntegers) {
  // gemlite: packed weights are loaded and unpacked with shifts and masks,
  // here or in a helper; the values are converted to a dtype constexpr and
  // shifted. Triton has no bitwise operators on floats, so the pointers hold
  // integers and the dtype is an integer one (before: fp32, which does not
  // type-check).
  Planned P = plan(R"(
@triton.jit
def unpack(b, shift, mask):
    return (b >> shift) & mask

@triton.jit
def k(w_ptr, q_ptr, out_ptr, out_dtype: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    w = tl.load(w_ptr + offs)
    q = tl.load(q_ptr + offs)
    shifts = (offs * 4).to(out_dtype)
    values = q.to(out_dtype)
    tl.store(out_ptr + offs, (values << shifts) + unpack(w, 4, 15))
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << assumptions(P.Plan);
  EXPECT_EQ(guessedDtype(P.Plan, "w_ptr"), "i32") << assumptions(P.Plan);
  EXPECT_TRUE(assumed(P.Plan, "out_dtype=triton.language.int32 assumed: used as the dtype of values shifted or "
                              "combined bitwise"))
      << assumptions(P.Plan);
  AnalyzeOptions Lowering;
  EXPECT_TRUE(lowerKernel(*P.File, P.Info, P.Plan.Launches[0].Request, Lowering).Function) << assumptions(P.Plan);
}

TEST(LaunchPlan, AnOffsetLoadedIntoABlockPointersBaseIsAnIndex) {
  Planned P = plan(R"(
@triton.jit
def k(V, K_offsets, Out, stride, BLOCK: tl.constexpr):
    begin_k = tl.load(K_offsets + tl.program_id(0))
    v_ptr = tl.make_block_ptr(base=V + begin_k * stride, shape=(BLOCK, BLOCK), strides=(stride, 1),
                              offsets=(0, 0), block_shape=(BLOCK, BLOCK), order=(1, 0))
    offs = tl.arange(0, BLOCK)
    tl.store(Out + offs[:, None] * BLOCK + offs[None, :], tl.load(v_ptr))
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  EXPECT_EQ(guessedDtype(P.Plan, "K_offsets"), "i64") << assumptions(P.Plan);
}

TEST(LaunchPlan, AScalarNamedAsAnEpsilonIsASmallFloat) {
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, layer_norm_epsilon, rms_eps_value, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x / tl.sqrt(x * x + layer_norm_epsilon + rms_eps_value))
)",
                   "k");
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  for (const char *Name : {"layer_norm_epsilon", "rms_eps_value"}) {
    const launch::ConcreteValue *V = P.Plan.Launches[0].Launch.value(Name);
    ASSERT_TRUE(V) << Name;
    EXPECT_TRUE(V->IsFloat) << Name;
    EXPECT_DOUBLE_EQ(V->Float, 1e-6) << Name;
  }
}

} // namespace
