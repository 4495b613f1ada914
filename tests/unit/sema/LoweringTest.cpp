//===- LoweringTest.cpp - what the lowering emits for each construct ------===//
/// \file
/// Small kernels, each showing one rule of the lowering: implicit promotion
/// casts, broadcasting, loop-carried values, runtime `if` results, inlined
/// helpers with tuple returns, early exits, custom reductions, atomics and
/// random numbers; and the limits, which are Problems at the construct.
/// Every lowered function here has passed the verifier (lowerKernel returns
/// none otherwise).
//===----------------------------------------------------------------------===//
#include "LoweringTestSupport.h"

#include <regex>

namespace tessel::sema::test {
namespace {

LoweringRequest request(std::map<std::string, ElemType> Args, std::map<std::string, PyValue> Constexprs = {}) {
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = std::move(Args);
  R.Constexprs = std::move(Constexprs);
  return R;
}

const ElemType F32P = ptrTo(ScalarKind::FP32), F16P = ptrTo(ScalarKind::FP16), I32P = ptrTo(ScalarKind::I32);
const ElemType I32 = scalar(ScalarKind::I32);

/// Lowers, expecting a function; returns its text (fails the test otherwise).
std::string lowered(const std::string &Body, const LoweringRequest &R) {
  auto L = lowerSnippet(Body, R);
  EXPECT_TRUE(L->Result.Function) << L->text();
  return L->Result.Function ? L->text() : std::string();
}

// FlagGems' scans pick their accumulator with a `@tl.constexpr` function and
// branch on `tl.constexpr(x.dtype.is_int())`: Triton runs both as Python at
// compile time, on the dtypes of the specialization.
const char ConstexprFunctionKernel[] = R"(
@tl.constexpr
def accum_type(d):
    if d.is_fp16() or d.is_bf16():
        return tl.float32
    if d.is_int():
        return tl.int64
    return d

@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 16)
    acc_t: tl.constexpr = accum_type(x_ptr.dtype.element_ty)
    x = tl.load(x_ptr + offs)
    if tl.constexpr(x.dtype.is_int8()) and x.dtype.primitive_bitwidth == 8:
        x = x * 3
    tl.store(o_ptr + offs, tl.cumsum(x.to(acc_t), axis=0))
)";

TEST(Lowering, CompileTimePythonInKernels) {
  // next_power_of_2 of a constexpr, float() of a decimal string, `dtype is
  // tl.float32`, standard._log2: all values at compile time, as in Triton.
  std::string T = lowered(R"(
@triton.jit
def pick(dtype):
    if dtype is tl.float32:
        return -1.0
    else:
        return 0.0

@triton.jit
def k(x_ptr, o_ptr, n: tl.constexpr):
    i = tl.arange(0, triton.next_power_of_2(n))
    LOG: tl.constexpr = tl.standard._log2(n)
    x = tl.load(x_ptr + i, mask=i < n, other=float("-1e8"))
    tl.store(o_ptr + i, x + pick(x.dtype) + LOG, mask=i < n)
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}, {{"n", PyValue::integer(100)}}));
  EXPECT_NE(T.find("arange 0, 128 : [128] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("constant -100000000.0 : fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("constant -1.0 : fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("constant 6.0 : [128] fp32"), std::string::npos) << T;
}

TEST(Lowering, PyTorchsNumericLimitsAreConstantsInKernels) {
  // torchao's NVFP4 quantizers clamp with `torch.finfo(torch.float32).max`
  // inside the kernel: the code generator calls finfo at compile time.
  std::string T = lowered(R"(
import torch

@triton.jit
def k(x_ptr, o_ptr):
    FP32_MAX: tl.constexpr = torch.finfo(torch.float32).max
    i = tl.arange(0, 16)
    tl.store(o_ptr + i, tl.minimum(tl.load(x_ptr + i), FP32_MAX) + torch.finfo(torch.float16).max)
    # AMD's relaxed atomics: PyTorch here is a CUDA build (torchao).
    if tl.constexpr(torch.version.hip is not None):
        tl.atomic_max(o_ptr, 1.0, sem="relaxed")
    else:
        tl.atomic_max(o_ptr, 2.0)
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find("constant 3.4028234663852886e+38 : fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("constant 65504.0 : [16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("constant 2.0 : fp32"), std::string::npos) << T;
  EXPECT_EQ(T.find("relaxed"), std::string::npos) << T;
}

TEST(Lowering, MinimumAndMaximumComputeBf16InFp32) {
  // core.maximum promotes bf16 operands to fp32 (torchao's Hadamard amax
  // keeps a running fp32 max of bf16 tiles): the value is cast, not only typed.
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, o_ptr):
    i = tl.arange(0, 16)
    r = tl.load(x_ptr + i).to(tl.bfloat16)
    tl.store(o_ptr + i, tl.maximum(tl.zeros((16,), dtype=tl.float32), tl.abs(r)) + tl.minimum(r, r))
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find(": [16] bf16 to [16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("maximum"), std::string::npos) << T;
}

TEST(Lowering, AddressesFromATableBecomePointersAndPointersAreTruthy) {
  // Triton's grouped GEMM tutorial: an int64 address loaded from a table
  // becomes a pointer through tl.pointer_type; `if bias:` on a pointer is a
  // test against null (ptr -> i1), as semantic.cast lowers it.
  ElemType I64P = ptrTo(ScalarKind::I64);
  std::string T = lowered(R"(
@triton.jit
def k(table, bias, o_ptr):
    a_ptr = tl.load(table).to(tl.pointer_type(tl.float16))
    x = tl.load(a_ptr + tl.arange(0, 16)).to(tl.float32)
    if bias:
        x += tl.load(bias + tl.arange(0, 16))
    tl.store(o_ptr + tl.arange(0, 16), x)
)",
                          request({{"table", I64P}, {"bias", F32P}, {"o_ptr", F32P}}, {}));
  EXPECT_NE(T.find(": i64 to *fp16"), std::string::npos) << T;
  EXPECT_NE(T.find("cast %bias : *fp32 to i1"), std::string::npos) << T;
}

TEST(Lowering, PhiloxGivesFourWordsOfOneCounter) {
  // FlagGems' rand: a 64-bit offset split into two 32-bit counter words.
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, seed, philox_offset):
    i = tl.arange(0, 16)
    off = philox_offset.to(tl.int64) + i
    c0 = (off & 0xFFFFFFFF).to(tl.uint32)
    c1 = ((off >> 32) & 0xFFFFFFFF).to(tl.uint32)
    r0, r1, r2, r3 = tl.philox(seed, c0, c1, 0, 0)
    a, b, c, d = tl.randint4x(seed, i)
    tl.store(o_ptr + i, (r0 ^ r3 ^ a ^ d).to(tl.float32))
)",
                          request({{"o_ptr", F32P}, {"seed", I32}, {"philox_offset", I32}}));
  EXPECT_NE(T.find("word=3"), std::string::npos) << T;
  EXPECT_EQ(countLines(T, "randint "), 8) << T;
}

TEST(Lowering, ConstexprFunctionsAndDtypePredicatesRunAtCompileTime) {
  std::string Int =
      lowered(ConstexprFunctionKernel, request({{"x_ptr", ptrTo(ScalarKind::I8)}, {"o_ptr", ptrTo(ScalarKind::I64)}}));
  EXPECT_NE(Int.find("mul"), std::string::npos) << Int;
  EXPECT_NE(Int.find("to [16] i64"), std::string::npos) << Int;
  std::string Half = lowered(ConstexprFunctionKernel, request({{"x_ptr", F16P}, {"o_ptr", F32P}}));
  EXPECT_EQ(Half.find("mul"), std::string::npos) << Half;
  EXPECT_NE(Half.find("cast %3 : [16] fp16 to [16] fp32"), std::string::npos) << Half;
}

TEST(Lowering, PromotionCastsTheNarrowerOperand) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, y_ptr, o_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(o_ptr + offs, x + y)
)",
                          request({{"x_ptr", F16P}, {"y_ptr", F32P}, {"o_ptr", F16P}}));
  // fp16 + fp32 computes in fp32; the store casts back to the pointee.
  EXPECT_NE(T.find("cast %3 : [16] fp16 to [16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("add %9, %6 : [16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("cast %10 : [16] fp32 to [16] fp16"), std::string::npos) << T;
}

TEST(Lowering, IntegerTrueDivisionCastsBothSidesToFp32) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, n):
    q = n / 3
    tl.store(o_ptr, q)
)",
                          request({{"o_ptr", F32P}, {"n", I32}}));
  EXPECT_NE(T.find("cast %n : i32 to fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("constant 3.0 : fp32"), std::string::npos) << T;
  EXPECT_EQ(countLines(T, " div "), 1) << T;
}

TEST(Lowering, BroadcastingExpandsAndBroadcastsBothSides) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr):
    r = tl.arange(0, 8)
    c = tl.arange(0, 4)
    idx = r[:, None] * 4 + c[None, :]
    tl.store(o_ptr + idx, idx)
)",
                          request({{"o_ptr", I32P}}));
  EXPECT_NE(T.find("expand_dims %0 axis=1 : [8, 1] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("expand_dims %1 axis=0 : [1, 4] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("broadcast %4 : [8, 4] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("broadcast %5 : [8, 4] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("addptr"), std::string::npos) << T;
}

TEST(Lowering, LoopCarriesReassignedNamesOnly) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, o_ptr, n):
    offs = tl.arange(0, 32)
    acc = tl.zeros((32,), dtype=tl.float32)
    count = 0
    for i in range(0, n):
        acc += tl.load(x_ptr + i * 32 + offs)
        count += 1
    tl.store(o_ptr + offs, acc / count)
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}, {"n", I32}}));
  // acc and count (promoted from the constexpr 0 to an int32 tensor) are
  // carried; offs, read only, is not.
  EXPECT_NE(T.find("for %i = %"), std::string::npos) << T;
  EXPECT_NE(T.find("iter_args(%acc = %"), std::string::npos) << T;
  EXPECT_NE(T.find("%count = %"), std::string::npos) << T;
  EXPECT_NE(T.find("-> ([32] fp32, i32) : i32"), std::string::npos) << T;
  EXPECT_EQ(countLines(T, "yield"), 1) << T;
}

TEST(Lowering, WhileLoopRecomputesItsCondition) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, n):
    i = 0
    while i < n:
        i = i * 2 + 1
    tl.store(o_ptr, i)
)",
                          request({{"o_ptr", I32P}, {"n", I32}}));
  EXPECT_NE(T.find("while (%i = %"), std::string::npos) << T;
  EXPECT_NE(T.find("condition %"), std::string::npos) << T;
  EXPECT_NE(T.find("} do(%i_1: i32) {"), std::string::npos) << T;
}

TEST(Lowering, RuntimeIfYieldsTheNamesEitherBranchAssigns) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, n):
    x = 1.0
    if n > 4:
        x = 2.0
        y = 3
    else:
        y = 4
    tl.store(o_ptr, x + y)
)",
                          request({{"o_ptr", F32P}, {"n", I32}}));
  EXPECT_NE(T.find("= if %"), std::string::npos) << T;
  EXPECT_NE(T.find("-> (fp32, i32) {"), std::string::npos) << T;
  EXPECT_EQ(countLines(T, "yield"), 2) << T;
  EXPECT_NE(T.find("} else {"), std::string::npos) << T;
}

TEST(Lowering, RuntimeIfYieldsTuplesAndBlockPointersAsTheirParts) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, n):
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))
    t = (n, n + 1)
    if n > 4:
        p = tl.advance(p, (16,))
        t = (t[1], t[0])
    tl.store(p, tl.zeros((16,), dtype=tl.float32) + t[0], boundary_check=(0,))
)",
                          request({{"x_ptr", F32P}, {"n", I32}}));
  // p: base, shape, stride, offset; t: two i32.
  EXPECT_NE(T.find("= if %"), std::string::npos) << T;
  EXPECT_NE(T.find("-> (*fp32, i64, i64, i32, i32, i32) {"), std::string::npos) << T;
}

TEST(Lowering, ConstexprIfIsFolded) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, FLAG: tl.constexpr):
    if FLAG:
        v = 1
    else:
        v = 2
    tl.store(o_ptr, v)
)",
                          request({{"o_ptr", I32P}}, {{"FLAG", PyValue::boolean(false)}}));
  EXPECT_EQ(T.find(" if "), std::string::npos) << T;
  EXPECT_NE(T.find("constant 2 : i32"), std::string::npos) << T;
  EXPECT_EQ(T.find("constant 1 : i32"), std::string::npos) << T;
}

TEST(Lowering, StaticRangeUnrolls) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr):
    acc = 0
    for i in tl.static_range(3):
        acc += i
    tl.store(o_ptr, acc)
)",
                          request({{"o_ptr", I32P}}));
  EXPECT_EQ(T.find("for "), std::string::npos) << T;
  EXPECT_EQ(countLines(T, " = add "), 3) << T;
}

TEST(Lowering, InlinedHelperReturnsATuple) {
  std::string T = lowered(R"(
@triton.jit
def stats(x):
    return tl.sum(x, axis=0), tl.max(x, axis=0)

@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 64)
    s, m = stats(tl.load(x_ptr + offs))
    tl.store(o_ptr, s)
    tl.store(o_ptr + 1, m)
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find("reduce sum %"), std::string::npos) << T;
  EXPECT_NE(T.find("reduce max %"), std::string::npos) << T;
  EXPECT_EQ(countLines(T, "store "), 2) << T;
}

TEST(Lowering, EarlyReturnMovesTheRestIntoTheElseRegion) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    tl.store(o_ptr + pid, pid)
)",
                          request({{"o_ptr", I32P}, {"n", I32}}));
  size_t If = T.find("if %"), Else = T.find("} else {"), Store = T.find("store ");
  ASSERT_NE(If, std::string::npos) << T;
  EXPECT_TRUE(If < Else && Else < Store) << T;
}

TEST(Lowering, EarlyReturnInsideAConstexprIfMovesTheRestOfEveryLevel) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, n, CHECK: tl.constexpr):
    pid = tl.program_id(0)
    if CHECK:
        if pid >= n:
            return
        tl.store(o_ptr + pid, 1)
    tl.store(o_ptr + pid + 1, 2)
)",
                          request({{"o_ptr", I32P}, {"n", I32}}, {{"CHECK", PyValue::boolean(true)}}));
  // Both stores run only when the program did not return.
  size_t Else = T.find("} else {");
  ASSERT_NE(Else, std::string::npos) << T;
  EXPECT_EQ(countLines(T.substr(Else), "store "), 2) << T;
  EXPECT_EQ(countLines(T, "store "), 2) << T;
}

TEST(Lowering, HelperReturningFromBothPathsYieldsTheValue) {
  std::string T = lowered(R"(
@triton.jit
def pick(a, b):
    if a > b:
        return a
    return b

@triton.jit
def k(o_ptr, x, y):
    tl.store(o_ptr, pick(x, y))
)",
                          request({{"o_ptr", I32P}, {"x", I32}, {"y", I32}}));
  EXPECT_NE(T.find("= if %"), std::string::npos) << T;
  EXPECT_NE(T.find("yield %x : i32"), std::string::npos) << T;
  EXPECT_NE(T.find("yield %y : i32"), std::string::npos) << T;
}

TEST(Lowering, HelperReturningTuplesOrANumberFromBothPaths) {
  std::string T = lowered(R"(
@triton.jit
def order(a, b):
    if a > b:
        return b, a
    return a, b

@triton.jit
def clip(a):
    if a > 10:
        return 10
    return a

@triton.jit
def k(o_ptr, x, y):
    lo, hi = order(x, y)
    tl.store(o_ptr, lo)
    tl.store(o_ptr + 1, clip(hi))
)",
                          request({{"o_ptr", I32P}, {"x", I32}, {"y", I32}}));
  EXPECT_NE(T.find("= if %"), std::string::npos) << T;
  EXPECT_NE(T.find("-> (i32, i32) {"), std::string::npos) << T;
  EXPECT_NE(T.find("yield %y, %x : i32, i32"), std::string::npos) << T;
  EXPECT_NE(T.find("yield %x, %y : i32, i32"), std::string::npos) << T;
  EXPECT_EQ(countLines(T, " = if "), 2) << T;
}

TEST(Lowering, SumOfInt8AccumulatesInInt32AndKeepsDims) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    c = tl.arange(0, 8)
    x = tl.load(x_ptr + r[:, None] * 8 + c[None, :])
    s = tl.sum(x, axis=1, keep_dims=True)
    tl.store(o_ptr + r[:, None], s)
)",
                          request({{"x_ptr", ptrTo(ScalarKind::I8)}, {"o_ptr", I32P}}));
  EXPECT_NE(T.find("[4, 8] i8 to [4, 8] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("reduce sum %"), std::string::npos) << T;
  EXPECT_NE(T.find("axis=1 : [4] i32"), std::string::npos) << T;
  EXPECT_NE(T.find("expand_dims %"), std::string::npos) << T;
}

TEST(Lowering, MaxWithIndicesGivesMaxAndArgmax) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, o_ptr, i_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    m, i = tl.max(x, axis=0, return_indices=True)
    tl.store(o_ptr, m)
    tl.store(i_ptr, i)
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}, {"i_ptr", I32P}}));
  EXPECT_NE(T.find("reduce max %"), std::string::npos) << T;
  EXPECT_NE(T.find("reduce argmax %"), std::string::npos) << T;
}

TEST(Lowering, ReduceInlinesTheCombineFunction) {
  std::string T = lowered(R"(
@triton.jit
def combine(a, b):
    return tl.maximum(a, b) + 1

@triton.jit
def k(x_ptr, o_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(o_ptr, tl.reduce(x, 0, combine))
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find("reduce custom %"), std::string::npos) << T;
  EXPECT_NE(T.find("combine("), std::string::npos) << T;
  EXPECT_NE(T.find("maximum %"), std::string::npos) << T;
}

TEST(Lowering, ReduceOverEveryAxisReshapesToOneDimensionFirst) {
  std::string T = lowered(R"(
@triton.jit
def mx(a, b):
    return tl.maximum(a, b)

@triton.jit
def k(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    x = tl.load(x_ptr + r[:, None] * 4 + r[None, :])
    tl.store(o_ptr + r[:, None] * 0 + r[None, :] * 0, tl.reduce(x, None, mx, keep_dims=True))
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find("reshape %"), std::string::npos) << T;
  EXPECT_NE(T.find(": [16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("reduce custom %"), std::string::npos) << T;
  EXPECT_NE(T.find(": [1, 1] fp32"), std::string::npos) << T;
}

TEST(Lowering, ScansAndAssociativeScan) {
  std::string T = lowered(R"(
@triton.jit
def add(a, b):
    return a + b

@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.cumsum(x, 0) + tl.associative_scan(x, 0, add, reverse=True))
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find("scan cumsum %"), std::string::npos) << T;
  EXPECT_NE(T.find("scan custom %"), std::string::npos) << T;
  EXPECT_NE(T.find("reverse"), std::string::npos) << T;
}

TEST(Lowering, CombineFunctionsKeepOnlyTheScalarsTheyCompute) {
  // FlagGems' maximum_with_index_tie_break_right: `is_floating` returns a
  // constexpr that visit_Return decays to a constant tensor, computed from
  // a [1] tensor made for its dtype alone. Triton folds the scf.if and drops
  // the dead ops; so must the combine region, which holds scalars only.
  std::string T = lowered(R"(
@triton.jit
def promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)

@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()

@triton.jit
def pick(a, ia, b, ib):
    mask = a > b
    if is_floating(a):
        mask |= (a != a) and not (b != b)
    return tl.where(mask, a, b), tl.where(mask, ia, ib)

@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 16)
    v, i = tl.associative_scan((tl.load(x_ptr + offs), offs), 0, pick)
    tl.store(o_ptr + offs, v + i)
)",
                          request({{"x_ptr", F32P}, {"o_ptr", F32P}}));
  EXPECT_NE(T.find("scan custom %"), std::string::npos) << T;
  size_t Region = T.find("combine(");
  ASSERT_NE(Region, std::string::npos) << T;
  std::string Combine = T.substr(Region, T.find("}", Region) - Region);
  EXPECT_EQ(Combine.find("splat"), std::string::npos) << Combine;
  EXPECT_EQ(Combine.find(" if "), std::string::npos) << Combine;
  EXPECT_NE(Combine.find("cmp ne"), std::string::npos) << Combine; // the NaN test of the branch taken
}

TEST(Lowering, AtomicsCarryKindMaskAndSemantics) {
  std::string T = lowered(R"(
@triton.jit
def k(p, q, n):
    offs = tl.arange(0, 8)
    m = offs < n
    tl.atomic_add(p + offs, 1, mask=m)
    tl.atomic_max(p + offs, offs, mask=m, sem="relaxed")
    tl.atomic_xchg(p, 5)
    old = tl.atomic_cas(q, 0, 1)
    tl.store(p, old)
)",
                          request({{"p", I32P}, {"q", I32P}, {"n", I32}}));
  EXPECT_NE(T.find("atomic_rmw add %"), std::string::npos) << T;
  EXPECT_NE(T.find("atomic_rmw max %"), std::string::npos) << T;
  EXPECT_NE(T.find("relaxed"), std::string::npos) << T;
  EXPECT_NE(T.find("atomic_rmw xchg %"), std::string::npos) << T;
  EXPECT_NE(T.find("atomic_cas %"), std::string::npos) << T;
}

TEST(Lowering, RandomNumbersTakeSeedOffsetsAndRounds) {
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, seed):
    offs = tl.arange(0, 32)
    r = tl.rand(seed, offs) + tl.randn(seed, offs, n_rounds=7)
    tl.store(o_ptr + offs, r + tl.randint(seed, offs).to(tl.float32))
)",
                          request({{"o_ptr", F32P}, {"seed", I32}}));
  EXPECT_NE(T.find("rand %seed, %0"), std::string::npos) << T;
  EXPECT_NE(T.find("randn %seed, %0 n_rounds=7"), std::string::npos) << T;
  EXPECT_NE(T.find("randint %seed, %0"), std::string::npos) << T;
}

TEST(Lowering, WhereDotAndCasts) {
  std::string T = lowered(R"(
@triton.jit
def k(a_ptr, b_ptr, o_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    c = tl.dot(a, b, input_precision="ieee")
    c = tl.where(c > 0, c, 0.0)
    tl.store(o_ptr + r[:, None] * 16 + r[None, :], c.to(tl.float16, fp_downcast_rounding="rtz"))
)",
                          request({{"a_ptr", F16P}, {"b_ptr", F16P}, {"o_ptr", F16P}}));
  EXPECT_NE(T.find("dot %"), std::string::npos) << T;
  EXPECT_NE(T.find("precision=ieee : [16, 16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("select %"), std::string::npos) << T;
  EXPECT_NE(T.find("cast rtz %"), std::string::npos) << T;
}

TEST(Lowering, EqualToOneParametersAreConstants) {
  LoweringRequest R = request({{"o_ptr", I32P}, {"stride", I32}});
  R.EqualToOne = {"stride"};
  std::string T = lowered(R"(
@triton.jit
def k(o_ptr, stride):
    tl.store(o_ptr + tl.arange(0, 4) * stride, 0)
)",
                          R);
  EXPECT_NE(T.find("func @k(%o_ptr: *i32) {"), std::string::npos) << T;
}

TEST(Lowering, UnknownArgumentTypeIsAProblem) {
  auto L = lowerSnippet(R"(
@triton.jit
def k(x_ptr, n):
    tl.store(x_ptr, n)
)",
                        request({{"x_ptr", I32P}}));
  EXPECT_FALSE(L->Result.Function);
  EXPECT_NE(L->text().find("problem `n`: the type of parameter `n` is not known"), std::string::npos) << L->text();
}

TEST(Lowering, BlockPointersBecomePointerTilesAndMasks) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, n):
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))
    x = tl.load(p, boundary_check=(0,), padding_option="nan")
    tl.store(tl.advance(p, (16,)), x, boundary_check=(0,))
)",
                          request({{"x_ptr", F32P}, {"n", I32}}));
  // index = offset + arange, in i64, times the stride; the check compares
  // the index with 0 and the shape; NaN pads the masked-off lanes.
  EXPECT_NE(T.find("cast %n : i32 to i64"), std::string::npos) << T;
  EXPECT_NE(T.find("arange 0, 16"), std::string::npos) << T;
  EXPECT_NE(T.find("cmp ge"), std::string::npos) << T;
  EXPECT_NE(T.find("cmp lt"), std::string::npos) << T;
  EXPECT_NE(T.find("constant nan : [16] fp32"), std::string::npos) << T;
  EXPECT_NE(T.find("other="), std::string::npos) << T;
  EXPECT_EQ(countLines(T, "addptr"), 2) << T;
}

TEST(Lowering, LoopsCarryBlockPointersAndTuplesAsTheirParts) {
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, n):
    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (16,), (0,))
    t = (n, n + 1)
    for i in range(4):
        p = tl.advance(p, (16,))
        t = (t[1], t[0])
    tl.store(p, tl.zeros((16,), dtype=tl.float32) + t[0])
)",
                          request({{"x_ptr", F32P}, {"n", I32}}));
  // p carries its base, shape, stride and offset; t its two elements.
  EXPECT_NE(T.find("iter_args(%p = %x_ptr, %"), std::string::npos) << T;
  EXPECT_NE(T.find("%t = %n, %"), std::string::npos) << T;
  EXPECT_NE(T.find("-> (*fp32, i64, i64, i32, i32, i32) : i32"), std::string::npos) << T;
}

TEST(Lowering, LibdeviceFunctionsWithAnOpLowerOthersAreLimits) {
  const char *Kernel = R"(
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, libdevice.fabs(x) + libdevice.FN(x))
)";
  std::string WithSqrt = std::regex_replace(std::string(Kernel), std::regex("FN"), "sqrt");
  std::string T = lowered(WithSqrt, request({{"x_ptr", F32P}}));
  EXPECT_NE(T.find("abs %"), std::string::npos) << T;
  EXPECT_NE(T.find("sqrt %"), std::string::npos) << T;
  std::string WithTanh = std::regex_replace(std::string(Kernel), std::regex("FN"), "tanh");
  EXPECT_NE(lowered(WithTanh, request({{"x_ptr", F32P}})).find("tanh %"), std::string::npos);
  auto L =
      lowerSnippet(std::regex_replace(std::string(Kernel), std::regex("FN"), "lgamma"), request({{"x_ptr", F32P}}));
  EXPECT_FALSE(L->Result.Function);
  EXPECT_NE(L->text().find("is not supported by tessel's lowering yet"), std::string::npos) << L->text();
}

TEST(Lowering, APointersDtypeIsItsPointerType) {
  // tritonbench's persistent matmul: `if c_ptr.dtype == tl.float8e4nv:` is
  // decided by the specialization (a pointer type is no float8 dtype), and
  // the pointer type's element_ty is the pointee.
  std::string T = lowered(R"(
@triton.jit
def k(x_ptr, c_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    ty = c_ptr.dtype
    if c_ptr.dtype == tl.float8e4nv:
        c = x.to(tl.float8e4nv)
    else:
        c = x.to(ty.element_ty)
    tl.store(c_ptr + offs, c)
)",
                          request({{"x_ptr", F32P}, {"c_ptr", F16P}}));
  EXPECT_NE(T.find("fp16"), std::string::npos) << T;
  EXPECT_EQ(T.find("fp8"), std::string::npos) << T;
}

TEST(Lowering, UnmodelledBuiltinsAreLimitsNeverDroppedSilently) {
  auto L = lowerSnippet(R"(
@triton.jit
def k(x_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    if tl.dot_scaled(x, None, "e2m1", x, None, "e2m1") > n:
        tl.store(x_ptr + offs, x)
    tl.debug_barrier()
)",
                        request({{"x_ptr", F32P}, {"n", I32}}));
  EXPECT_FALSE(L->Result.Function);
  EXPECT_NE(L->text().find("problem `tl.dot_scaled(x, None, \"e2m1\", x, None, \"e2m1\")`: tl.dot_scaled is not "
                           "supported by tessel's lowering yet"),
            std::string::npos)
      << L->text();
}

TEST(Lowering, SemaErrorsLeaveNoFunction) {
  auto L = lowerSnippet(R"(
@triton.jit
def k(x_ptr):
    tl.store(x_ptr + tl.arange(0, 10), 1)
)",
                        request({{"x_ptr", F32P}}));
  EXPECT_FALSE(L->Result.Function);
  EXPECT_NE(L->text().find("arange's range must be a power of 2"), std::string::npos) << L->text();
}

TEST(Lowering, UnknownKernelIsAProblem) {
  LoweringRequest R = request({});
  R.Kernel = "missing";
  auto L = lowerSnippet("@triton.jit\ndef k(x):\n    pass\n", R);
  EXPECT_FALSE(L->Result.Function);
  EXPECT_NE(L->text().find("no @triton.jit function named `missing`"), std::string::npos) << L->text();
}

} // namespace
} // namespace tessel::sema::test
