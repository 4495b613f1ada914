//===- HostLaunchPlanTest.cpp - launches taken from a file's host code ----===//
/// \file
/// planLaunch without a spec on files whose own host code launches the
/// kernel, in the shapes Triton's tutorials use: a wrapper that computes
/// BLOCK_SIZE with next_power_of_2 and allocates its output with
/// empty_like, called at module level on `torch.randn(1823, 781)`; a
/// torch.autograd.Function applied from a test function; an autotuned
/// matmul with a grid lambda over META; a string constexpr; values the host
/// code computes from device properties, which must be named, not guessed.
//===----------------------------------------------------------------------===//
#include "compiler/sema/LaunchPlan.h"

#include "LaunchPlanTestSupport.h"

#include "compiler/sema/Lowering.h"

#include "compiler/sema/Analysis.h"

#include "compiler/frontend/Discovery.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessel;
using namespace tessel::sema;

namespace {

using test::Planned;

Planned plan(const std::string &Body, const std::string &Kernel, LaunchPlanOptions Opts = {}) {
  return test::planSource("import torch\nimport triton\nimport triton.language as tl\n\n" + Body, Kernel, Opts);
}

std::string describe(const LaunchPlan &P) {
  std::string S = "error: " + P.Error + "\n";
  for (const Problem &Pr : P.Problems)
    S += "problem: " + Pr.Message + "\n";
  for (const std::string &A : P.Assumptions)
    S += "assumed: " + A + "\n";
  return S;
}

const launch::ConcreteTensor *tensor(const launch::ConcreteLaunch &L, const std::string &Name) {
  for (const launch::ConcreteTensor &T : L.Tensors)
    if (T.Name == Name)
      return &T;
  return nullptr;
}

const char Softmax[] = R"(
@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    x = tl.load(input_ptr + row * input_row_stride + offs, mask=offs < n_cols, other=-float('inf'))
    tl.store(output_ptr + row * output_row_stride + offs, x, mask=offs < n_cols)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    y = torch.empty_like(x)
    softmax_kernel[(n_rows, )](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE, 2,
                               num_warps=num_warps)
    return y


torch.manual_seed(0)
x = torch.randn(1823, 781, device='cuda')
y_triton = softmax(x)
assert torch.allclose(y_triton, torch.softmax(x, axis=1))
)";

TEST(HostLaunchPlan, TutorialSoftmaxWrapperCalledAtModuleLevel) {
  Planned P = plan(Softmax, "softmax_kernel");
  ASSERT_TRUE(P.Plan.Error.empty()) << describe(P.Plan);
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::HostCode);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const PlannedLaunch &L = P.Plan.Launches[0];
  EXPECT_EQ(L.Launch.Grid, (std::array<int64_t, 3>{1823, 1, 1}));
  EXPECT_EQ(L.Launch.NumWarps, 4);
  const launch::ConcreteTensor *In = tensor(L.Launch, "input_ptr");
  const launch::ConcreteTensor *Out = tensor(L.Launch, "output_ptr");
  ASSERT_TRUE(In && Out) << describe(P.Plan);
  EXPECT_EQ(In->Shape, (std::vector<int64_t>{1823, 781}));
  EXPECT_EQ(In->DType, "fp32");
  EXPECT_EQ(In->Init, launch::TensorInit::Randn);
  EXPECT_FALSE(In->IsOutput);
  EXPECT_TRUE(Out->IsOutput); // torch.empty_like: written by the kernel
  EXPECT_EQ(Out->StorageElements, 1823 * 781);
  EXPECT_EQ(L.Request.Constexprs.at("BLOCK_SIZE").asInt(), 1024);
  EXPECT_EQ(L.Request.Constexprs.at("num_stages").asInt(), 2);
  EXPECT_EQ(L.Request.ArgTypes.at("input_row_stride").Scalar, ScalarKind::I32);
  EXPECT_EQ(L.Request.ArgTypes.at("input_ptr"), (ElemType{ScalarKind::FP32, 1}));
}

TEST(HostLaunchPlan, DevicePropertiesAreTheTargetGpusAndTheRestIsAssumed) {
  // The 3.x tutorial picks num_stages from the device's shared memory (the
  // target's reference GPU answers: an sm_90 part has 232448 bytes a block)
  // and the grid from the compiled kernel's registers, which the host model
  // does not know: the grid is assumed, and the plan says so.
  Planned P = plan(R"(
from triton.runtime import driver

@triton.jit
def k(out_ptr, in_ptr, n, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(in_ptr + offs, mask=offs < n), mask=offs < n)

properties = driver.active.utils.get_device_properties(0)
SIZE_SMEM = properties["max_shared_mem"]

def run(x):
    n = x.numel()
    num_stages = 4 if SIZE_SMEM > 200000 else 2
    y = torch.empty_like(x)
    compiled = k.warmup(y, x, n, BLOCK=1024, num_stages=num_stages, grid=(1, ))
    programs = 132 * (65536 // (compiled.n_regs * 32 * 8))
    k[(programs, 1, 1)](y, x, n, 1024, num_stages)

run(torch.randn(4000))
)",
                   "k");
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const PlannedLaunch &L = P.Plan.Launches[0];
  EXPECT_EQ(L.Request.Constexprs.at("num_stages").asInt(), 4);
  EXPECT_EQ(L.Launch.Grid[0], 1);
  const auto &A = P.Plan.Assumptions;
  EXPECT_NE(std::find(A.begin(), A.end(),
                      "grid=(1, 1, 1) assumed (the host code computes it from values tessel cannot know)"),
            A.end())
      << describe(P.Plan);
  EXPECT_FALSE(P.Plan.Representative);
  // The made-up grid is recorded: the prover's findings under it are not certain.
  EXPECT_EQ(P.Plan.MadeUp, (std::set<std::string>{"grid"}));
}

TEST(HostLaunchPlan, AutogradFunctionAppliedFromATestFunction) {
  Planned P = plan(R"(
@triton.jit
def ln_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=0.).to(tl.float32)
    tl.store(Y + row * stride + cols, x + eps, mask=cols < N)


class LayerNorm(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps):
        y = torch.empty_like(x)
        x_arg = x.reshape(-1, x.shape[-1])
        M, N = x_arg.shape
        mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
        rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
        MAX_FUSED_SIZE = 65536 // x.element_size()
        BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
        if N > BLOCK_SIZE:
            raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
        num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
        ln_fwd[(M, )](x_arg, y, weight, bias, mean, rstd, x_arg.stride(0), N, eps,
                      BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1)
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        return y


layer_norm = LayerNorm.apply


def test_layer_norm(M, N, dtype, eps=1e-5, device='cuda'):
    x_shape = (M, N)
    w_shape = (x_shape[-1], )
    weight = torch.rand(w_shape, dtype=dtype, device=device, requires_grad=True)
    bias = torch.rand(w_shape, dtype=dtype, device=device, requires_grad=True)
    x = -2.3 + 0.5 * torch.randn(x_shape, dtype=dtype, device=device)
    x = torch.randn(x_shape, dtype=dtype, device=device)
    y_tri = layer_norm(x, w_shape, weight, bias, eps)


test_layer_norm(1151, 8192, torch.float16)
)",
                   "ln_fwd");
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const PlannedLaunch &L = P.Plan.Launches[0];
  EXPECT_EQ(L.Launch.Grid[0], 1151);
  EXPECT_EQ(L.Launch.NumWarps, 8);
  ASSERT_TRUE(tensor(L.Launch, "X"));
  EXPECT_EQ(tensor(L.Launch, "X")->DType, "fp16");
  EXPECT_EQ(tensor(L.Launch, "X")->Shape, (std::vector<int64_t>{1151, 8192}));
  EXPECT_EQ(tensor(L.Launch, "Mean")->DType, "fp32");
  EXPECT_EQ(tensor(L.Launch, "W")->Shape, (std::vector<int64_t>{8192}));
  EXPECT_EQ(L.Request.Constexprs.at("BLOCK_SIZE").asInt(), 8192);
  // eps is the float the test passes, not a size.
  EXPECT_EQ(L.Request.ArgTypes.at("eps").Scalar, ScalarKind::FP32);
}

const char Matmul[] = R"(
def get_autotune_config():
    return [
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8}, num_stages=3,
                      num_warps=8),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}, num_stages=5,
                      num_warps=2),
    ]


@triton.autotune(configs=get_autotune_config(), key=['M', 'N', 'K'])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK_SIZE_M)
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=offs < M), mask=offs < M)


def matmul(a, b, activation=""):
    assert a.shape[1] == b.shape[0], "Incompatible dimensions"
    assert a.is_contiguous(), "Matrix A must be contiguous"
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']), )
    matmul_kernel[grid](
        a, b, c,
        M, N, K,
        a.stride(0), a.stride(1),
        b.stride(0), b.stride(1),
        c.stride(0), c.stride(1),
        ACTIVATION=activation
    )
    return c


torch.manual_seed(0)
a = torch.rand((512, 512), device='cuda', dtype=torch.float16) - 0.5
a = torch.randn((512, 512), device='cuda', dtype=torch.float16)
b = torch.randn((512, 512), device='cuda', dtype=torch.float16)
triton_output = matmul(a, b)
)";

TEST(HostLaunchPlan, AutotunedMatmulGridLambdaSeesTheChosenConfig) {
  for (size_t Config : {0u, 1u}) {
    LaunchPlanOptions Opts;
    Opts.Config = Config;
    Planned P = plan(Matmul, "matmul_kernel", Opts);
    ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
    ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
    const PlannedLaunch &L = P.Plan.Launches[0];
    int64_t Programs = Config == 0 ? (512 / 128) * (512 / 256) : (512 / 64) * (512 / 32);
    EXPECT_EQ(L.Launch.Grid[0], Programs);
    EXPECT_EQ(L.Launch.NumWarps, Config == 0 ? 8 : 2);
    EXPECT_EQ(L.Launch.NumStages, Config == 0 ? 3 : 5);
    EXPECT_EQ(L.Request.Constexprs.at("ACTIVATION").asStr(), "");
    EXPECT_EQ(L.Request.Constexprs.at("BLOCK_SIZE_M").asInt(), Config == 0 ? 128 : 64);
    EXPECT_EQ(tensor(L.Launch, "c_ptr")->DType, "fp16");
    EXPECT_TRUE(tensor(L.Launch, "c_ptr")->IsOutput);
    EXPECT_EQ(L.Request.ArgTypes.at("stride_ak").Scalar, ScalarKind::I32);
    EXPECT_TRUE(L.Request.EqualToOne.count("stride_ak")); // a contiguous row: stride 1 is specialized
  }
}

TEST(HostLaunchPlan, AnUncalledWrapperIsCalledWithMadeUpTensors) {
  // A library's wrapper: nothing in the file calls it. Called with tensors
  // of one made-up shape, it computes the launch as Python would: the
  // block from the row length, the grid from the rows, the output's shape.
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, out_ptr, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * stride + offs, x * eps, mask=offs < n)

def norm(x, eps, mode):
    rows, cols = x.shape
    out = torch.empty_like(x)
    BLOCK = triton.next_power_of_2(cols)
    k[(rows,)](x, out, x.stride(0), cols, eps, BLOCK=BLOCK, num_warps=8 if BLOCK > 512 else 4)
    return out
)",
                   "k");
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::HostCode) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const PlannedLaunch &L = P.Plan.Launches[0];
  EXPECT_EQ(L.Launch.Grid[0], 1024);
  EXPECT_EQ(L.Launch.NumWarps, 8);
  EXPECT_EQ(L.Request.Constexprs.at("BLOCK").asInt(), 1024);
  ASSERT_NE(tensor(L.Launch, "x_ptr"), nullptr) << describe(P.Plan);
  EXPECT_EQ(tensor(L.Launch, "x_ptr")->Shape, (std::vector<int64_t>{1024, 1024}));
  // The dtype the wrapper leaves unknown comes from the kernel's own evidence.
  EXPECT_EQ(tensor(L.Launch, "x_ptr")->DType, "fp16");
  EXPECT_TRUE(P.Plan.Representative);
  EXPECT_NE(describe(P.Plan).find("assumed: launch of the host wrapper `norm` (nothing in the file calls it) called "
                                  "with tensors of shape [1024, 1024] and unknown dtype"),
            std::string::npos)
      << describe(P.Plan);
  // `eps` and `mode` are never used as tensors: they stay unknown, and the
  // kernel's float takes a representative value.
  EXPECT_NE(describe(P.Plan).find("eps=1e-06 assumed"), std::string::npos) << describe(P.Plan);
}

TEST(HostLaunchPlan, MadeUpSizesThatBuildHugeTilesGiveWayToTheDerivation) {
  // A block of the whole tensor: at 1024 x 1024 made-up elements, a tile of
  // 2^20. That is tessel's size, not the kernel's: the derivation stands in.
  const char *Src = R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

def bump(x):
    n = x.numel()
    k[(1,)](x, n, BLOCK=triton.next_power_of_2(n))
)";
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(Src, "k", Opts);
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::Derived) << describe(P.Plan);
  EXPECT_FALSE(P.Plan.FromMadeUpCall);
  ASSERT_FALSE(P.Plan.Assumptions.empty());
  EXPECT_EQ(P.Plan.Assumptions.front(), "not the launch of the host wrapper at tessel's made-up sizes (it builds a "
                                        "tile of 1048576 elements there): the file's own values and representative "
                                        "ones");
  // Planned for reading alone (no lowering asked), the made-up launch stays.
  EXPECT_TRUE(plan(Src, "k").Plan.FromMadeUpCall);
}

TEST(HostLaunchPlan, ANoneArgumentIsAConstexprOfTheSignature) {
  // `weight=None` reaches the kernel: Triton specializes it as a constexpr
  // None, so `if w_ptr is None:` is decided and w_ptr takes no argument.
  AnalyzeOptions Lowering;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, w_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if w_ptr is None:
        w = 1.0
    else:
        w = tl.load(w_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x * w, mask=offs < n)

def scale(x, weight=None):
    n = x.shape[-1]
    k[(1,)](x, weight, n, BLOCK=triton.next_power_of_2(n))
)",
                   "k", Opts);
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::HostCode) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  ASSERT_TRUE(R.Constexprs.count("w_ptr")) << describe(P.Plan);
  EXPECT_TRUE(R.Constexprs.at("w_ptr").isNone());
  LoweredKernel L = lowerKernel(*P.File, P.Info, R, Lowering);
  ASSERT_TRUE(L.Function) << (L.Problems.empty() ? std::string() : L.Problems.front().Message);
  EXPECT_EQ(L.Function->params().size(), 2u); // x_ptr and n
}

TEST(HostLaunchPlan, WithoutAnyHostCodeTheDerivationStays) {
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr = 128):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
)",
                   "k");
  EXPECT_EQ(P.Plan.Origin, SpecOrigin::Derived) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  LaunchPlanOptions NoWrappers;
  NoWrappers.FromWrappers = false;
  Planned Q = plan(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr = 128):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)

def wrapper(x):
    k[(1, )](x, x.numel())
)",
                   "k", NoWrappers);
  EXPECT_EQ(Q.Plan.Origin, SpecOrigin::Derived) << describe(Q.Plan);
}

TEST(HostLaunchPlan, SpecSetsAStringConstexprAndAParameterNamedLikeAnOption) {
  LaunchPlanOptions Opts;
  Opts.SpecText = "n=100 x=fp32[n] ACT=\"leaky_relu\" num_stages=4 BLOCK=128";
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr, ACT: tl.constexpr, num_stages: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
)",
                   "k", Opts);
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const LoweringRequest &R = P.Plan.Launches[0].Request;
  EXPECT_EQ(R.Constexprs.at("ACT").asStr(), "leaky_relu");
  EXPECT_EQ(R.Constexprs.at("num_stages").asInt(), 4);
  EXPECT_EQ(R.NumStages, 4);
}

TEST(HostLaunchPlan, StringInArithmeticIsASpecProblem) {
  LaunchPlanOptions Opts;
  Opts.SpecText = "n='a'+1 x=fp32[8]";
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, n):
    tl.store(x_ptr, 1.0)
)",
                   "k", Opts);
  ASSERT_EQ(P.Plan.Problems.size(), 1u) << describe(P.Plan);
  EXPECT_EQ(P.Plan.Problems[0].Message, "a string can only stand alone as a value");
}

} // namespace

namespace {

TEST(HostLaunchPlan, PytestTestFunctionRunsItsFirstParametrizedCase) {
  Planned P = plan(R"(
import pytest

DEVICE = triton.runtime.driver.active.get_active_torch_device()

@triton.jit
def attn_fwd(Q, Out, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(Out + offs, tl.load(Q + offs, mask=offs < N_CTX), mask=offs < N_CTX)


class _attention(torch.autograd.Function):

    @staticmethod
    def forward(ctx, q, causal, sm_scale):
        o = torch.empty_like(q)
        grid = lambda args: (triton.cdiv(q.shape[2], args["BLOCK_M"]), q.shape[0] * q.shape[1], 1)
        attn_fwd[grid](q, o, q.shape[2], HEAD_DIM=q.shape[-1], BLOCK_M=64)
        return o


attention = _attention.apply


@pytest.mark.parametrize("Z, H, N_CTX, HEAD_DIM", [(1, 2, 1024, 64), (4, 48, 4096, 128)])
@pytest.mark.parametrize("causal", [True])
def test_op(Z, H, N_CTX, HEAD_DIM, causal, dtype=torch.float16):
    q = torch.empty((Z, H, N_CTX, HEAD_DIM), dtype=dtype, device=DEVICE).normal_(mean=0.0, std=0.5).requires_grad_()
    tri_out = attention(q, causal, 0.5).half()
)",
                   "attn_fwd");
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const PlannedLaunch &L = P.Plan.Launches[0];
  EXPECT_EQ(L.Launch.Grid, (std::array<int64_t, 3>{16, 2, 1}));
  const launch::ConcreteTensor *Q = tensor(L.Launch, "Q");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->Shape, (std::vector<int64_t>{1, 2, 1024, 64}));
  EXPECT_EQ(Q->DType, "fp16");
  EXPECT_EQ(Q->Init, launch::TensorInit::Randn);
  EXPECT_EQ(L.Request.Constexprs.at("HEAD_DIM").asInt(), 64);
}

TEST(HostLaunchPlan, TensorArithmeticKeepsShapeAndDType) {
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

a = torch.rand((300, ), dtype=torch.float16) - 0.5
b = (a * 2).to(torch.float32)
k[(1, )](a, b, a.numel(), BLOCK=512)
)",
                   "k");
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  EXPECT_EQ(tensor(P.Plan.Launches[0].Launch, "x_ptr")->DType, "fp16");
  EXPECT_EQ(tensor(P.Plan.Launches[0].Launch, "y_ptr")->DType, "fp32");
  EXPECT_EQ(tensor(P.Plan.Launches[0].Launch, "y_ptr")->Shape, (std::vector<int64_t>{300}));
}

// Basic indexing makes a view: its shape and strides, and the allocation it
// still reaches past its own span (a sliced row ends where its base's row
// does, and the last row's columns run to the base's end).
TEST(HostLaunchPlan, ASlicedViewKeepsItsStridesAndReachesItsBasesEnd) {
  Planned P = plan(R"(
@triton.jit
def k(x_ptr, y_ptr, z_ptr, w_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

base = torch.randn(64, 128)
x = base[:, 28:]
y = base[:, :100]
z = base[3]
w = base[::2, None, ..., -4:]
k[(1, )](x, y, z, w, x.shape[1], BLOCK=128)
)",
                   "k");
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const launch::ConcreteLaunch &L = P.Plan.Launches[0].Launch;
  const launch::ConcreteTensor *X = tensor(L, "x_ptr"), *Y = tensor(L, "y_ptr"), *Z = tensor(L, "z_ptr"),
                               *W = tensor(L, "w_ptr");
  ASSERT_TRUE(X && Y && Z && W) << describe(P.Plan);
  EXPECT_EQ(X->Shape, (std::vector<int64_t>{64, 100}));
  EXPECT_EQ(X->Strides, (std::vector<int64_t>{128, 1}));
  EXPECT_EQ(X->StorageElements, 64 * 128 - 28);
  EXPECT_EQ(Y->Shape, (std::vector<int64_t>{64, 100}));
  EXPECT_EQ(Y->StorageElements, 64 * 128) << "the view's span is 8164, its base reaches 8192";
  EXPECT_EQ(Z->Shape, (std::vector<int64_t>{128}));
  EXPECT_EQ(Z->StorageElements, 64 * 128 - 3 * 128);
  EXPECT_EQ(W->Shape, (std::vector<int64_t>{32, 1, 4}));
  EXPECT_EQ(W->Strides, (std::vector<int64_t>{256, 128, 1}));
  EXPECT_EQ(W->StorageElements, 64 * 128 - 124);
  EXPECT_EQ(L.value("n")->Int, 100);
}

// torch.randint's bounds reach the launch (the prover may use them for
// indices loaded from the tensor); an in-place change or an indexed
// assignment leaves the tensor but forgets what fills it.
TEST(HostLaunchPlan, RandintBoundsReachTheLaunchUntilTheContentsChange) {
  Planned P = plan(R"(
@triton.jit
def k(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(d_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs) + tl.load(c_ptr + offs))

a = torch.randint(0, 8, (16,), dtype=torch.int32)
b = torch.randint(5, size=(16,))
b.clamp_(0, 2)
c = torch.randint(3, 9, (16,))
c[c > 5] = 0
d = torch.empty(16, dtype=torch.int64)
k[(1, )](a, b, c, d, BLOCK=16)
)",
                   "k");
  ASSERT_TRUE(P.Plan.Problems.empty()) << describe(P.Plan);
  ASSERT_EQ(P.Plan.Launches.size(), 1u) << describe(P.Plan);
  const launch::ConcreteLaunch &L = P.Plan.Launches[0].Launch;
  const launch::ConcreteTensor *A = tensor(L, "a_ptr"), *B = tensor(L, "b_ptr"), *C = tensor(L, "c_ptr");
  ASSERT_TRUE(A && B && C) << describe(P.Plan);
  EXPECT_EQ(A->Init, launch::TensorInit::Randint);
  EXPECT_EQ(A->Low, 0);
  EXPECT_EQ(A->High, 8);
  EXPECT_EQ(A->DType, "i32");
  EXPECT_NE(B->Init, launch::TensorInit::Randint) << "clamp_ changed it";
  EXPECT_EQ(B->Shape, (std::vector<int64_t>{16}));
  EXPECT_NE(C->Init, launch::TensorInit::Randint) << "an indexed assignment changed it";
  EXPECT_EQ(C->DType, "i64");
  EXPECT_TRUE(P.Plan.MadeUp.empty()) << "every value is the host code's";
}

} // namespace

namespace {

/// The element type sema gives the value named Name in the file's analysis.
std::string factType(const std::string &Body, const std::string &Name) {
  std::string Src = "import torch\nimport triton\nimport triton.language as tl\n\n" + Body;
  auto FA = analyzeFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "test.py")));
  for (const KernelAnalysis &K : FA->Kernels)
    for (const ValueFact &V : K.Values)
      if (V.Name == Name)
        return V.Type.str();
  return "(none)";
}

TEST(LaunchArgTypes, DirectiveDTypesReachTheCheck) {
  EXPECT_EQ(factType(R"(
# tessel: launch n=1000 x=fp16[n] y=fp16[n]:out BLOCK=256 grid=(cdiv(n, BLOCK),)
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x, mask=offs < n)
)",
                     "x"),
            "[?] fp16"); // the check's specializations take the directive's dtypes, not its sizes
}

TEST(LaunchArgTypes, HostCodeDTypesReachTheCheck) {
  EXPECT_EQ(factType(R"(
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x, mask=offs < n)

def copy(x):
    y = torch.empty_like(x)
    k[(triton.cdiv(x.numel(), 256), )](x, y, x.numel(), BLOCK=256)
    return y

copy(torch.randn(1000, dtype=torch.bfloat16))
)",
                     "x"),
            "[256] bf16");
}

TEST(LaunchArgTypes, DisagreeingLaunchesLeaveTheTypeUnknown) {
  EXPECT_EQ(factType(R"(
# tessel: launch n=1000 x=fp16[n] y=fp16[n]:out BLOCK=256
# tessel: launch n=1000 x=fp32[n] y=fp32[n]:out BLOCK=256
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x, mask=offs < n)
)",
                     "x"),
            "[?] ?");
}

} // namespace

namespace {

TEST(LaunchArgTypes, HostConstexprsFillWhatTheSpecializationLeavesUnknown) {
  // kernl's pattern: the branch for int8 inputs bitcasts to fp8, and the host
  // passes USE_FP8 computed from the dtype. With the host's fp16 type but
  // not its USE_FP8, the int8 branch would be checked on fp16 data.
  std::string Src = R"(import torch
import triton
import triton.language as tl

@triton.jit
def k(k_ptr, out_ptr, n, USE_FP8: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(k_ptr + offs, mask=offs < n, other=0.)
    if USE_FP8:
        x = x.to(tl.float8e5, bitcast=True)
        x = x.to(tl.float16)
    tl.store(out_ptr + offs, x, mask=offs < n)

def run(keys):
    out = torch.empty_like(keys)
    k[(1, )](keys, out, keys.numel(), USE_FP8=keys.dtype == torch.int8, BLOCK=128)

run(torch.randn([100], dtype=torch.float16, device="cuda"))
)";
  auto FA = analyzeFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "test.py")));
  EXPECT_TRUE(FA->Problems.empty()) << FA->Problems[0].Message;
}

} // namespace
