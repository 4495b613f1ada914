//===- LoweringRunTest.cpp - lowered samples compute the right numbers ----===//
/// \file
/// A semantic check of the lowering, not of the interpreter: the tutorial
/// vector add and fused softmax, lowered from their sample files, run in the
/// CPU interpreter and agree with plain loops in double precision; the
/// masked lanes raise no out-of-bounds report.
//===----------------------------------------------------------------------===//
#include "LaunchPlanTestSupport.h"
#include "LoweringTestSupport.h"
#include "unit/References.h"

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/Launch.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace tessel::sema::test {
namespace {

std::string readSample(const std::string &Name) {
  std::ifstream In(std::string(TESSEL_SOURCE_DIR) + "/samples/" + Name);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

TEST(LoweringRun, VectorAddMatchesTheReference) {
  LoweringRequest R;
  R.Kernel = "vector_add_kernel";
  R.Constexprs["BLOCK_SIZE"] = PyValue::integer(256);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"y_ptr", ptrTo(ScalarKind::FP32)},
                {"out_ptr", ptrTo(ScalarKind::FP32)},
                {"n_elements", scalar(ScalarKind::I32)}};
  auto L = lowerSource(readSample("vector_add.py"), R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  const int64_t N = 1000;
  interp::Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, N), Y = Mem.addBuffer("y", ScalarKind::FP32, N);
  uint32_t Out = Mem.addBuffer("out", ScalarKind::FP32, N, /*IsOutput=*/true);
  for (int64_t I = 0; I < N; ++I) {
    Mem.writeFloat(X, I, 0.25 * I);
    Mem.writeFloat(Y, I, 3.0 - I);
  }
  interp::RunOptions Opts;
  Opts.Grid = {(N + 255) / 256, 1, 1};
  interp::RunResult Run = interp::run(*L->Result.Function, Mem,
                                      {interp::ArgValue::pointer(X), interp::ArgValue::pointer(Y),
                                       interp::ArgValue::pointer(Out), interp::ArgValue::integer(N)},
                                      Opts);
  ASSERT_TRUE(Run.Completed) << Run.Error;
  EXPECT_EQ(Run.TotalViolations, 0u);
  for (int64_t I = 0; I < N; ++I)
    ASSERT_EQ(Mem.readFloat(Out, I), static_cast<double>(static_cast<float>(0.25 * I + 3.0 - I))) << I;
}

TEST(LoweringRun, LibdeviceFunctionsComputeWhatTheirNamesSay) {
  // Liger's dyt and geglu call libdevice.tanh; fla rounds with libdevice.round.
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"o_ptr", ptrTo(ScalarKind::FP32)}};
  auto L = lowerSource(R"(
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr, o_ptr):
    i = tl.arange(0, 16)
    x = tl.load(x_ptr + i)
    tl.store(o_ptr + i, libdevice.tanh(x))
    tl.store(o_ptr + 16 + i, libdevice.round(x))
    tl.store(o_ptr + 32 + i, libdevice.rint(x) + libdevice.log1p(tl.abs(x)))
)",
                       R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  interp::Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, 16), Out = Mem.addBuffer("o", ScalarKind::FP32, 48, true);
  for (int64_t I = 0; I < 16; ++I)
    Mem.writeFloat(X, I, 0.5 * (I - 8)); // halves: round goes away from zero, rint to even
  interp::RunResult Run =
      interp::run(*L->Result.Function, Mem, {interp::ArgValue::pointer(X), interp::ArgValue::pointer(Out)}, {});
  ASSERT_TRUE(Run.Completed) << Run.Error;
  for (int64_t I = 0; I < 16; ++I) {
    float V = static_cast<float>(0.5 * (I - 8));
    EXPECT_FLOAT_EQ(Mem.readFloat(Out, I), std::tanh(V)) << V;
    EXPECT_EQ(Mem.readFloat(Out, 16 + I), std::round(V)) << V;
    EXPECT_FLOAT_EQ(Mem.readFloat(Out, 32 + I), std::nearbyint(V) + std::log1p(std::fabs(V))) << V;
  }
}

TEST(LoweringRun, HostChosenMathAliasesAreLibdevicesFunctions) {
  // xformers' `rsqrt = libdevice_find("rsqrt")` and FlagGems' `pow =
  // tl_extra_shim.pow` are chosen by host code at import (importlib): taken
  // as libdevice's functions of their names, and said so. lmdeploy's
  // `fast_expf = tl.math.exp` is tl.exp.
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"o_ptr", ptrTo(ScalarKind::FP32)}};
  auto L = lowerSource(R"(
import importlib
import triton
import triton.language as tl

shim = importlib.import_module(some_vendor_module())
rsqrt = shim.rsqrt
pow = shim.pow
fast_expf = tl.math.exp

@triton.jit
def k(x_ptr, o_ptr):
    i = tl.arange(0, 16)
    x = tl.load(x_ptr + i)
    tl.store(o_ptr + i, rsqrt(x))
    tl.store(o_ptr + 16 + i, pow(x, 3))
    tl.store(o_ptr + 32 + i, shim.pow(x, 0.5) + fast_expf(-x))
)",
                       R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  EXPECT_EQ(
      L->Result.Assumptions,
      (std::vector<std::string>{"`rsqrt` is libdevice's rsqrt (the host code that chooses it is not run by tessel)",
                                "`pow` is libdevice's pow (the host code that chooses it is not run by tessel)",
                                "`shim.pow` is libdevice's pow (the host code that chooses it is not run by tessel)"}));
  interp::Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, 16), Out = Mem.addBuffer("o", ScalarKind::FP32, 48, true);
  for (int64_t I = 0; I < 16; ++I)
    Mem.writeFloat(X, I, 0.25 * (I + 1));
  interp::RunResult Run =
      interp::run(*L->Result.Function, Mem, {interp::ArgValue::pointer(X), interp::ArgValue::pointer(Out)}, {});
  ASSERT_TRUE(Run.Completed) << Run.Error;
  for (int64_t I = 0; I < 16; ++I) {
    float V = static_cast<float>(0.25 * (I + 1));
    EXPECT_FLOAT_EQ(Mem.readFloat(Out, I), 1.0f / std::sqrt(V)) << V;
    EXPECT_FLOAT_EQ(Mem.readFloat(Out, 16 + I), std::pow(V, 3.0f)) << V;
    EXPECT_FLOAT_EQ(Mem.readFloat(Out, 32 + I), std::pow(V, 0.5f) + std::exp(-V)) << V;
  }
}

TEST(LoweringRun, ReturnsInNestedRuntimeIfsEndTheirPaths) {
  // lmdeploy's flatten_kv_cache: an early `return` inside a runtime `if`
  // nested in another, whose branch ends in a return (visit_if_top_level's
  // CFG in Triton).
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {
      {"o_ptr", ptrTo(ScalarKind::I32)}, {"tail", scalar(ScalarKind::I32)}, {"limit", scalar(ScalarKind::I32)}};
  auto L = lowerSource(R"(
import triton
import triton.language as tl

@triton.jit
def k(o_ptr, tail, limit):
    pid = tl.program_id(0)
    if pid == tail:
        if pid * 2 >= limit:
            return
        tl.store(o_ptr + pid, 100 + pid)
        return
    if pid * 2 >= limit:
        return
    tl.store(o_ptr + pid, pid)
)",
                       R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  for (int64_t Tail : {3, 6}) {
    interp::Memory Mem;
    uint32_t Out = Mem.addBuffer("o", ScalarKind::I32, 8, true);
    for (int64_t I = 0; I < 8; ++I)
      Mem.writeInt(Out, I, -1);
    interp::RunOptions Opts;
    Opts.Grid = {8, 1, 1};
    interp::RunResult Run = interp::run(
        *L->Result.Function, Mem,
        {interp::ArgValue::pointer(Out), interp::ArgValue::integer(Tail), interp::ArgValue::integer(10)}, Opts);
    ASSERT_TRUE(Run.Completed) << Run.Error;
    for (int64_t I = 0; I < 8; ++I)
      EXPECT_EQ(Mem.readInt(Out, I), I * 2 >= 10 ? -1 : I == Tail ? 100 + I : I) << "tail " << Tail << ", " << I;
  }
}

TEST(LoweringRun, FusedSoftmaxMatchesTheReference) {
  LoweringRequest R;
  R.Kernel = "fused_softmax_kernel";
  R.Constexprs = {{"BLOCK_SIZE", PyValue::integer(128)}, {"NUM_STAGES", PyValue::integer(2)}};
  R.ArgTypes = {{"out_ptr", ptrTo(ScalarKind::FP32)},       {"in_ptr", ptrTo(ScalarKind::FP32)},
                {"in_row_stride", scalar(ScalarKind::I32)}, {"out_row_stride", scalar(ScalarKind::I32)},
                {"n_rows", scalar(ScalarKind::I32)},        {"n_cols", scalar(ScalarKind::I32)}};
  auto L = lowerSource(readSample("fused_softmax.py"), R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  const int64_t Rows = 7, Cols = 100;
  interp::Memory Mem;
  uint32_t In = Mem.addBuffer("x", ScalarKind::FP32, Rows * Cols);
  uint32_t Out = Mem.addBuffer("y", ScalarKind::FP32, Rows * Cols, /*IsOutput=*/true);
  for (int64_t I = 0; I < Rows * Cols; ++I)
    Mem.writeFloat(In, I, static_cast<float>(std::sin(0.37 * I) * 4));
  interp::RunOptions Opts;
  Opts.Grid = {3, 1, 1}; // fewer programs than rows: the row loop strides by the grid
  interp::RunResult Run =
      interp::run(*L->Result.Function, Mem,
                  {interp::ArgValue::pointer(Out), interp::ArgValue::pointer(In), interp::ArgValue::integer(Cols),
                   interp::ArgValue::integer(Cols), interp::ArgValue::integer(Rows), interp::ArgValue::integer(Cols)},
                  Opts);
  ASSERT_TRUE(Run.Completed) << Run.Error;
  EXPECT_EQ(Run.TotalViolations, 0u);
  std::vector<double> X(static_cast<size_t>(Rows * Cols));
  for (int64_t I = 0; I < Rows * Cols; ++I)
    X[static_cast<size_t>(I)] = Mem.readFloat(In, I);
  std::vector<double> Want = testref::softmaxRows(X, Rows, Cols);
  for (int64_t Row = 0; Row < Rows; ++Row)
    for (int64_t C = 0; C < Cols; ++C)
      ASSERT_NEAR(Mem.readFloat(Out, Row * Cols + C), Want[static_cast<size_t>(Row * Cols + C)], 1e-6)
          << Row << ", " << C;
}

TEST(LoweringRun, BlockPointersAdvanceAndCheckBoundaries) {
  // y[m, j] = sum over column blocks b of x[m, b * BN + j], padding with 0.
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs = {{"BM", PyValue::integer(8)}, {"BN", PyValue::integer(4)}};
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"y_ptr", ptrTo(ScalarKind::FP32)},
                {"M", scalar(ScalarKind::I32)},
                {"N", scalar(ScalarKind::I32)},
                {"stride_m", scalar(ScalarKind::I32)}};
  auto L = lowerSnippet(R"(
@triton.jit
def k(x_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x_ptr, (M, N), (stride_m, 1), (pid * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(0, tl.cdiv(N, BN)):
        acc += tl.load(src, boundary_check=(0, 1), padding_option="zero")
        src = tl.advance(src, (0, BN))
    dst = tl.make_block_ptr(y_ptr, (M, BN), (BN, 1), (pid * BM, 0), (BM, BN), (1, 0))
    tl.store(dst, acc, boundary_check=(0,))
)",
                        R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  const int64_t M = 10, N = 13, BN = 4;
  interp::Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, M * N);
  uint32_t Y = Mem.addBuffer("y", ScalarKind::FP32, M * BN, /*IsOutput=*/true);
  for (int64_t I = 0; I < M * N; ++I)
    Mem.writeFloat(X, I, static_cast<double>(I % 17));
  interp::RunOptions Opts;
  Opts.Grid = {2, 1, 1};
  interp::RunResult Run =
      interp::run(*L->Result.Function, Mem,
                  {interp::ArgValue::pointer(X), interp::ArgValue::pointer(Y), interp::ArgValue::integer(M),
                   interp::ArgValue::integer(N), interp::ArgValue::integer(N)},
                  Opts);
  ASSERT_TRUE(Run.Completed) << Run.Error;
  EXPECT_EQ(Run.TotalViolations, 0u);
  for (int64_t Row = 0; Row < M; ++Row)
    for (int64_t J = 0; J < BN; ++J) {
      double Sum = 0;
      for (int64_t C = J; C < N; C += BN)
        Sum += static_cast<double>((Row * N + C) % 17);
      ASSERT_EQ(Mem.readFloat(Y, Row * BN + J), Sum) << Row << ", " << J;
    }
}

TEST(LoweringRun, DeviceTensorDescriptorsPadLoadsAndClipStores) {
  // y[m, j] = sum over column blocks b of x[m, b * BN + j] (zero padding past
  // N), through descriptors made in the kernel; the last row block of y is
  // partial, so its store must drop the rows past M.
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs = {{"BM", PyValue::integer(8)}, {"BN", PyValue::integer(4)}};
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"y_ptr", ptrTo(ScalarKind::FP32)},
                {"M", scalar(ScalarKind::I32)},
                {"N", scalar(ScalarKind::I32)},
                {"stride_m", scalar(ScalarKind::I32)}};
  auto L = lowerSnippet(R"(
@triton.jit
def k(x_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(y_ptr, [M, BN], [BN, 1], [BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(0, tl.cdiv(N, BN)):
        acc += src.load([pid * BM, i * BN])
    tl.store_tensor_descriptor(dst, [pid * BM, 0], acc + tl.load_tensor_descriptor(dst, [pid * BM, 0]))
)",
                        R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  const int64_t M = 10, N = 13, BN = 4;
  interp::Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, M * N);
  uint32_t Y = Mem.addBuffer("y", ScalarKind::FP32, M * BN); // read, then written
  for (int64_t I = 0; I < M * N; ++I)
    Mem.writeFloat(X, I, static_cast<double>(I % 17));
  for (int64_t I = 0; I < M * BN; ++I)
    Mem.writeFloat(Y, I, 1.0);
  interp::RunOptions Opts;
  Opts.Grid = {2, 1, 1};
  interp::RunResult Run =
      interp::run(*L->Result.Function, Mem,
                  {interp::ArgValue::pointer(X), interp::ArgValue::pointer(Y), interp::ArgValue::integer(M),
                   interp::ArgValue::integer(N), interp::ArgValue::integer(N)},
                  Opts);
  ASSERT_TRUE(Run.Completed) << Run.Error;
  EXPECT_EQ(Run.TotalViolations, 0u);
  for (int64_t Row = 0; Row < M; ++Row)
    for (int64_t J = 0; J < BN; ++J) {
      double Sum = 1.0;
      for (int64_t C = J; C < N; C += BN)
        Sum += static_cast<double>((Row * N + C) % 17);
      ASSERT_EQ(Mem.readFloat(Y, Row * BN + J), Sum) << Row << ", " << J;
    }
}

TEST(LoweringRun, Swizzle2dGroupsRowsAsTritonsStandardLibrary) {
  // o[i * SJ + j] = new_i * 100 + new_j for a 5 x 3 grid in groups of 2 rows:
  // standard.swizzle2d's numbering, the last group one row high.
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"o_ptr", ptrTo(ScalarKind::I32)}};
  auto L = lowerSnippet(R"(
@triton.jit
def k(o_ptr):
    i = tl.program_id(0)
    j = tl.program_id(1)
    ni, nj = tl.swizzle2d(i, j, 5, 3, 2)
    tl.store(o_ptr + i * 3 + j, ni * 100 + nj)
)",
                        R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  interp::Memory Mem;
  uint32_t O = Mem.addBuffer("o", ScalarKind::I32, 15, /*IsOutput=*/true);
  interp::RunOptions Opts;
  Opts.Grid = {5, 3, 1};
  interp::RunResult Run = interp::run(*L->Result.Function, Mem, {interp::ArgValue::pointer(O)}, Opts);
  ASSERT_TRUE(Run.Completed) << Run.Error;
  for (int64_t I = 0; I < 5; ++I)
    for (int64_t J = 0; J < 3; ++J) {
      // The reference, as standard.py computes it.
      int64_t IJ = I * 3 + J, SizeGJ = 2 * 3, OffI = IJ / SizeGJ * 2, G = std::min<int64_t>(5 - OffI, 2);
      IJ %= SizeGJ;
      ASSERT_EQ(Mem.readInt(O, I * 3 + J), (OffI + IJ % G) * 100 + IJ / G) << I << ", " << J;
    }
}

TEST(LoweringRun, TupleReductionsAndScansCarryEveryOperand) {
  // FlagGems' var_mean reduces (mean, count, M2) with a Welford combine;
  // cummax-style scans carry (value, index). Row r of x holds 8 values; the
  // kernel writes the Welford mean and M2 of each row, the running maximum
  // and its first index, and the row's (max, argmax) from tl.reduce.
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {
      {"x_ptr", ptrTo(ScalarKind::FP32)}, {"o_ptr", ptrTo(ScalarKind::FP32)}, {"i_ptr", ptrTo(ScalarKind::I32)}};
  auto L = lowerSnippet(R"(
@triton.jit
def welford(mean_x, count_x, m_x, mean_y, count_y, m_y):
    count = count_x + count_y
    mean = (mean_x * count_x + mean_y * count_y) / tl.maximum(count, 1)
    m = m_x + m_y + (mean_y - mean_x) * (mean_y - mean_x) * count_x * count_y / tl.maximum(count, 1)
    return mean, count, m

@triton.jit
def running_max(a, ia, b, ib):
    pick = (a > b) | ((a == b) & (ia < ib))
    return tl.where(pick, a, b), tl.where(pick, ia, ib)

@triton.jit
def k(x_ptr, o_ptr, i_ptr):
    rows = tl.arange(0, 4)[:, None]
    cols = tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + rows * 8 + cols)
    ones = tl.full([4, 8], 1.0, tl.float32)
    mean, count, m2 = tl.reduce((x, ones, tl.zeros([4, 8], tl.float32)), 1, welford)
    r = tl.arange(0, 4)
    tl.store(o_ptr + r, mean)
    tl.store(o_ptr + 4 + r, m2)
    idx = cols + rows * 0
    v, i = tl.associative_scan((x, idx), 1, running_max)
    tl.store(o_ptr + 8 + rows * 8 + cols, v)
    tl.store(i_ptr + rows * 8 + cols, i)
    mx, mi = tl.reduce((x, idx), axis=1, combine_fn=running_max, keep_dims=True)
    tl.store(o_ptr + 40 + rows, mx)
    tl.store(i_ptr + 32 + rows, mi)
)",
                        R);
  ASSERT_TRUE(L->Result.Function) << L->text();
  interp::Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, 32);
  uint32_t O = Mem.addBuffer("o", ScalarKind::FP32, 44, /*IsOutput=*/true);
  uint32_t Ix = Mem.addBuffer("i", ScalarKind::I32, 36, /*IsOutput=*/true);
  double Xs[32];
  for (int64_t I = 0; I < 32; ++I)
    Mem.writeFloat(X, I, Xs[I] = static_cast<double>((I * 7) % 5)); // ties: the first index wins
  interp::RunResult Run =
      interp::run(*L->Result.Function, Mem,
                  {interp::ArgValue::pointer(X), interp::ArgValue::pointer(O), interp::ArgValue::pointer(Ix)},
                  interp::RunOptions{});
  ASSERT_TRUE(Run.Completed) << Run.Error;
  for (int64_t Row = 0; Row < 4; ++Row) {
    double Sum = 0, Sq = 0, Max = -1;
    int64_t Arg = -1;
    for (int64_t C = 0; C < 8; ++C) {
      double V = Xs[Row * 8 + C];
      Sum += V;
      if (V > Max) {
        Max = V;
        Arg = C;
      }
      ASSERT_EQ(Mem.readFloat(O, 8 + Row * 8 + C), Max) << Row << ", " << C;
      ASSERT_EQ(Mem.readInt(Ix, Row * 8 + C), Arg) << Row << ", " << C;
    }
    double Mean = Sum / 8;
    for (int64_t C = 0; C < 8; ++C)
      Sq += (Xs[Row * 8 + C] - Mean) * (Xs[Row * 8 + C] - Mean);
    EXPECT_NEAR(Mem.readFloat(O, Row), Mean, 1e-6) << Row;
    EXPECT_NEAR(Mem.readFloat(O, 4 + Row), Sq, 1e-5) << Row;
    EXPECT_EQ(Mem.readFloat(O, 40 + Row), Max) << Row;
    EXPECT_EQ(Mem.readInt(Ix, 32 + Row), Arg) << Row;
  }
}

TEST(LoweringRun, GridDependencyControlRunsAndOtherPtxIsTheGpusToRun) {
  // gdc_wait orders this launch after the previous one: alone, it changes
  // nothing. Other inline PTX cannot run in the interpreter, which says so.
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs = {{"ASM", PyValue::boolean(false)}};
  R.ArgTypes = {{"o_ptr", ptrTo(ScalarKind::FP32)}};
  const char *Src = R"(
@triton.jit
def k(o_ptr, ASM: tl.constexpr):
    tl.extra.cuda.gdc_wait()
    x = tl.full((16,), 2.0, tl.float32)
    if ASM:
        x = tl.inline_asm_elementwise("mov.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(o_ptr + tl.arange(0, 16), x)
)";
  for (bool Asm : {false, true}) {
    R.Constexprs["ASM"] = PyValue::boolean(Asm);
    auto L = lowerSnippet(Src, R);
    ASSERT_TRUE(L->Result.Function) << L->text();
    interp::Memory Mem;
    uint32_t O = Mem.addBuffer("o", ScalarKind::FP32, 16, /*IsOutput=*/true);
    interp::RunOptions Opts;
    interp::RunResult Run = interp::run(*L->Result.Function, Mem, {interp::ArgValue::pointer(O)}, Opts);
    if (Asm) {
      EXPECT_FALSE(Run.Completed);
      EXPECT_NE(Run.Error.find("tessel run --gpu"), std::string::npos) << Run.Error;
      continue;
    }
    ASSERT_TRUE(Run.Completed) << Run.Error;
    for (int64_t I = 0; I < 16; ++I)
      EXPECT_EQ(Mem.readFloat(O, I), 2.0);
  }
}

TEST(LoweringRun, HostTensorDescriptorsPadWithTheLaunchsPaddingAndReadTheirShape) {
  // Blocks of 8 x 8 over a 10 x 6 x (NaN padding past column 6, rows past
  // 10 dropped on store), the launch's shape and stride read back through
  // `x_desc.shape` / `x_desc.strides`.
  Planned P = planSource(R"(import triton
import triton.language as tl

# tessel: launch x_desc=fp32[10, 6]:desc(8, 8):nan y_desc=fp32[10, 8]:desc(8, 8):out s_ptr=i64[2]:out grid=(2,)
@triton.jit
def k(x_desc, y_desc, s_ptr):
    m = tl.program_id(0) * 8
    y_desc.store([m, 0], x_desc.load([m, 0]) * 2)
    tl.store(s_ptr, x_desc.shape[0])
    tl.store(s_ptr + 1, x_desc.strides[0])
)",
                         "k", {});
  ASSERT_TRUE(P.Plan.Error.empty()) << P.Plan.Error;
  ASSERT_EQ(P.Plan.Launches.size(), 1u);
  const PlannedLaunch &PL = P.Plan.Launches[0];
  LoweredKernel L = lowerKernel(*P.File, P.Info, PL.Request);
  ASSERT_TRUE(L.Function) << (L.Problems.empty() ? "" : L.Problems[0].Message);
  // Triton's parameters for a rank-2 descriptor not lowered to TMA, twice.
  std::vector<std::string> Params;
  for (const ir::Value *V : L.Function->params())
    Params.push_back(V->name() + ":" + V->type().str());
  EXPECT_EQ(Params[0], "x_desc:pointer<fp32>");
  EXPECT_EQ(Params[1], "x_desc.shape.0:int64");
  EXPECT_EQ(Params[5], "x_desc.padding:int1");
  EXPECT_EQ(Params[7], "x_desc.shape_i32.0:int32");
  EXPECT_EQ(Params.size(), 23u);
  interp::PreparedLaunch Run = interp::prepareLaunch(*L.Function, PL.Launch, 7);
  ASSERT_TRUE(Run.Errors.empty()) << Run.Errors[0];
  interp::RunResult R = interp::run(*L.Function, Run.Mem, Run.Args, Run.Opts);
  ASSERT_TRUE(R.Completed) << R.Error;
  EXPECT_EQ(R.TotalViolations, 0u);
  uint32_t X = Run.buffer("x_desc"), Y = Run.buffer("y_desc"), S = Run.buffer("s_ptr");
  for (int64_t Row = 0; Row < 10; ++Row)
    for (int64_t C = 0; C < 8; ++C) {
      double Got = Run.Mem.readFloat(Y, Row * 8 + C);
      if (C < 6)
        ASSERT_EQ(Got, 2 * Run.Mem.readFloat(X, Row * 6 + C)) << Row << ", " << C;
      else
        ASSERT_TRUE(std::isnan(Got)) << "padding='nan' past the shape: " << Row << ", " << C;
    }
  EXPECT_EQ(Run.Mem.readInt(S, 0), 10);
  EXPECT_EQ(Run.Mem.readInt(S, 1), 6);
}

TEST(LoweringRun, AConstexprInAndOrDecidesTheWholeExpressionAsTritonsBoolOpDoes) {
  // Triton's visit_BoolOp: `i == n - 1 and FLAG` with FLAG False is the constexpr False (the `if` is
  // static, its body, which names `p` that only FLAG defines, is never compiled); `FLAG and ...` does not
  // evaluate what follows; a constexpr that does not decide drops out (`i == 0 or not FLAG` with FLAG True
  // is `i == 0`). mamba's mamba3_siso_fwd_kernel stores its final state this way.
  const char *Source = R"(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, FLAG: tl.constexpr):
    if FLAG:
        p = y_ptr + tl.arange(0, 16)
    x = tl.load(x_ptr + tl.arange(0, 16))
    for i in range(n):
        if i == n - 1 and FLAG:
            tl.store(p, x)
        if FLAG and i == 0:
            tl.store(p + 16, x + 1)
        if i == 0 or not FLAG:
            x = x * 2
    tl.store(x_ptr + tl.arange(0, 16), x)
)";
  for (int64_t Flag : {0, 1}) {
    LoweringRequest R;
    R.Kernel = "k";
    R.Constexprs["FLAG"] = PyValue::boolean(Flag != 0);
    R.ArgTypes = {
        {"x_ptr", ptrTo(ScalarKind::FP32)}, {"y_ptr", ptrTo(ScalarKind::FP32)}, {"n", scalar(ScalarKind::I32)}};
    auto L = lowerSource(Source, R);
    ASSERT_TRUE(L->Result.Function) << "FLAG=" << Flag << "\n" << L->text();
    interp::Memory Mem;
    uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, 16), Y = Mem.addBuffer("y", ScalarKind::FP32, 32, true);
    for (int64_t I = 0; I < 16; ++I)
      Mem.writeFloat(X, I, 1.0 + I);
    interp::RunOptions Opts;
    interp::RunResult Run =
        interp::run(*L->Result.Function, Mem,
                    {interp::ArgValue::pointer(X), interp::ArgValue::pointer(Y), interp::ArgValue::integer(4)}, Opts);
    ASSERT_TRUE(Run.Completed) << Run.Error;
    for (int64_t I = 0; I < 16; ++I) {
      // FLAG False: doubled in every iteration, nothing stored to y. FLAG True: doubled once (i == 0), y
      // gets x + 1 at i == 0 and the doubled x at the last iteration.
      EXPECT_EQ(Mem.readFloat(X, I), Flag ? 2.0 * (1 + I) : 16.0 * (1 + I)) << "FLAG=" << Flag << " " << I;
      if (Flag) {
        EXPECT_EQ(Mem.readFloat(Y, I), 2.0 * (1 + I)) << I;
        EXPECT_EQ(Mem.readFloat(Y, 16 + I), 2.0 + I) << I;
      }
    }
  }
}

} // namespace
} // namespace tessel::sema::test
