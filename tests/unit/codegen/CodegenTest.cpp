//===- CodegenTest.cpp - one small kernel per lowering family --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Each test compiles a small kernel source -> tile IR -> LLVM IR -> PTX (the
/// backend's pipeline) and checks the PTX for what matters: vector width of
/// global accesses, shuffles in reductions, no local memory in simple
/// kernels, Triton's parameter list and `.reqntid`.
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

ElemType ptrTo(ScalarKind K) { return ElemType{K, 1}; }

Compiled compileSnippet(const std::string &Body, const LoweringRequest &Req, unsigned Arch = 90,
                        bool Assemble = false) {
  SnippetKernel S = parseSnippet(Body);
  return compileRequest(*S.File, S.Info, Req, Arch, Assemble);
}

const char *VectorAdd = R"(
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
)";

LoweringRequest vectorAddRequest() {
  LoweringRequest R;
  R.Kernel = "add_kernel";
  R.Constexprs["BLOCK"] = PyValue::integer(1024);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"y_ptr", ptrTo(ScalarKind::FP32)},
                {"out_ptr", ptrTo(ScalarKind::FP32)},
                {"n", ElemType{ScalarKind::I32}}};
  return R;
}

TEST(Codegen, VectorAddUses128BitAccessesAndNoLocalMemory) {
  Compiled C = compileSnippet(VectorAdd, vectorAddRequest(), 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global\.v4\.b32)"), 4) << C.Ptx; // 2 loads x 2 repetitions
  EXPECT_EQ(countMatches(C.Ptx, R"(st\.global\.v4\.b32)"), 2) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(\.local)"), 0) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(bar\.sync)"), 0) << C.Ptx;
  EXPECT_EQ(C.Kernel.Resources.SpillStores, 0u);
  // Line tables: the loads are at line 10 of the snippet (3 lines of imports first).
  EXPECT_GE(countMatches(C.Ptx, R"(\.loc\s+1 10 )"), 1) << C.Ptx;
}

TEST(Codegen, TritonABI) {
  Compiled C = compileSnippet(VectorAdd, vectorAddRequest());
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(C.ABI.EntryName, "add_kernel");
  std::vector<std::string> Want = {".u64 .ptr .global", ".u64 .ptr .global", ".u64 .ptr .global", ".u32",
                                   ".u64 .ptr .global", ".u64 .ptr .global"};
  EXPECT_EQ(C.ABI.ParamTypes, Want);
  ASSERT_EQ(C.Kernel.Params.size(), 6u) << C.Ptx;
  EXPECT_EQ(C.Kernel.Params[3].Type, ".u32");
  EXPECT_EQ(C.Kernel.Params[0].Type.rfind(".u64 .ptr .global", 0), 0u);
  EXPECT_EQ(C.Kernel.ReqNtid, 128u);
  EXPECT_EQ(C.ABI.SharedBytes, 0u);
  EXPECT_NE(C.Llvm.find("@global_smem = external addrspace(3) global [0 x i8]"), std::string::npos);

  // n == 1 is specialized away; num_warps=8 gives .reqntid 256.
  LoweringRequest R = vectorAddRequest();
  R.EqualToOne.insert("n");
  R.NumWarps = 8;
  Compiled One = compileSnippet(VectorAdd, R);
  ASSERT_EQ(One.Error, "");
  EXPECT_EQ(One.Kernel.Params.size(), 5u) << One.Ptx;
  EXPECT_EQ(One.Kernel.ReqNtid, 256u);
}

TEST(Codegen, RowReductionShufflesAcrossLanesAndWarps) {
  const char *Src = R"(
@triton.jit
def row_sum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs)
    tl.store(out_ptr + row, tl.sum(x, axis=0))
)";
  LoweringRequest R;
  R.Kernel = "row_sum";
  R.Constexprs["BLOCK"] = PyValue::integer(1024);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP32)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(shfl\.sync\.bfly\.b32)"), 5) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(bar\.sync)"), 2) << C.Ptx;
  EXPECT_GT(C.ABI.SharedBytes, 0u);
  EXPECT_EQ(countMatches(C.Ptx, R"(\.local)"), 0) << C.Ptx;
}

TEST(Codegen, LoopsCarryTilesAndMathUsesTritonsFastPaths) {
  const char *Src = R"(
@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        acc += tl.exp(tl.load(x_ptr + i * BLOCK + offs))
    if n > 4:
        acc = tl.sqrt(acc)
    acc = tl.exp2(acc)
    tl.store(out_ptr + offs, acc.to(tl.float16))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(256);
  R.ArgTypes = {
      {"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP16)}, {"n", ElemType{ScalarKind::I32}}};
  Compiled C = compileSnippet(Src, R, 80, true);
  ASSERT_EQ(C.Error, "");
  // As Triton's PTX: exp through its own ex2.approx.f32 call, exp2 and
  // sqrt through LLVM's, which flush subnormals.
  EXPECT_GE(countMatches(C.Ptx, R"(ex2\.approx\.f32)"), 1) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(ex2\.approx\.ftz\.f32)"), 1) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(sqrt\.approx\.ftz\.f32)"), 1) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(cvt\.rn\.f16x2\.f32)"), 1) << C.Ptx;
}

// The lowering's builder simplifies as it builds, and instsimplify threads
// an operation over a phi's incoming values. While a loop body is built, its
// phis must not look like they hold only their initial value: `i * BLOCK`
// would fold to 0 and `i == 0` to true, and every iteration would read the
// first block (tensor-core matmuls read stage 0 on every iteration this way).
TEST(Codegen, LoopBodyIsBuiltForEveryIterationNotTheFirst) {
  const char *Src = R"(
@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        x = tl.load(x_ptr + i * BLOCK + offs)
        acc += tl.where(i == 0, x * 2.0, x)
    tl.store(out_ptr + offs, acc)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(256);
  R.ArgTypes = {
      {"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP32)}, {"n", ElemType{ScalarKind::I32}}};
  Compiled C = compileSnippet(Src, R);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Llvm, R"(= mul i32 %iv, 256)"), 1) << C.Llvm;
  EXPECT_EQ(countMatches(C.Llvm, R"(= icmp eq i32 %iv, 0)"), 1) << C.Llvm;
  EXPECT_EQ(countMatches(C.Llvm, R"(tessel\.loop\.standin)"), 0) << C.Llvm;
}

// Triton's FDivOpConversion: fp32 `/` is div.full.f32, fp64 `/` div.rn.f64;
// tl.math.div_rn is the precise division (tt.precise_divf: div.rn.f32).
TEST(Codegen, DivisionRoundsAsTriton) {
  const char *Src = R"(
@triton.jit
def k(x_ptr, d_ptr, out_ptr, rn_ptr, out64_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(out_ptr + offs, x / d)
    tl.store(rn_ptr + offs, tl.math.div_rn(x, d))
    tl.store(out64_ptr + offs, x.to(tl.float64) / d.to(tl.float64))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(128);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"d_ptr", ptrTo(ScalarKind::FP32)},
                {"out_ptr", ptrTo(ScalarKind::FP32)},
                {"rn_ptr", ptrTo(ScalarKind::FP32)},
                {"out64_ptr", ptrTo(ScalarKind::FP64)}};
  Compiled C = compileSnippet(Src, R);
  ASSERT_EQ(C.Error, "");
  // One element per thread (128 lanes, 4 warps): one of each.
  EXPECT_EQ(countMatches(C.Ptx, R"(div\.full\.f32)"), 1) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(div\.rn\.f32)"), 1) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(div\.rn\.f64)"), 1) << C.Ptx;
}

TEST(Codegen, NarrowingToHalfPacksTwoElementsPerConversion) {
  // Triton's FpToFp converter rounds fp32 to fp16 and bf16 two elements
  // at a time (`cvt.rn.f16x2.f32`); an explicit rounding mode other than
  // to-nearest-even keeps the one-element conversions.
  const char *Src = R"(
@triton.jit
def k(x_ptr, h_ptr, b_ptr, z_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(h_ptr + offs, x.to(tl.float16))
    tl.store(b_ptr + offs, x.to(tl.bfloat16))
    tl.store(z_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(1024);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"h_ptr", ptrTo(ScalarKind::FP16)},
                {"b_ptr", ptrTo(ScalarKind::BF16)},
                {"z_ptr", ptrTo(ScalarKind::FP16)}};
  Compiled C = compileSnippet(Src, R);
  ASSERT_EQ(C.Error, "");
  // 8 elements per thread: 4 packed conversions each for fp16 and bf16.
  EXPECT_EQ(countMatches(C.Ptx, R"(cvt\.rn\.f16x2\.f32)"), 4) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(cvt\.rn\.bf16x2\.f32)"), 4) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(cvt\.rn\.f16\.f32)"), 0) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(cvt\.rz\.f16\.f32)"), 8) << C.Ptx;
}

// libdevice's pow (FlagGems' vector norms, xformers' rope): __nv_powf for
// fp32 operands (an int exponent promoted), __nv_pow for fp64, each linked
// from libdevice rather than approximated.
TEST(Codegen, LibdevicePowCallsLibdevice) {
  const char *Src = R"(
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr, out_ptr, out64_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.pow(x, 3))
    tl.store(out64_ptr + offs, libdevice.pow(x.to(tl.float64), 0.5))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(128);
  R.ArgTypes = {
      {"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP32)}, {"out64_ptr", ptrTo(ScalarKind::FP64)}};
  Compiled C = compileSnippet(Src, R);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Llvm, R"(call float @__nv_powf\(float %[^,]+, float 3\.0)"), 1) << C.Llvm;
  EXPECT_EQ(countMatches(C.Llvm, R"(call double @__nv_pow\(double)"), 1) << C.Llvm;
}

TEST(Codegen, AtomicsCarrySemanticAndScope) {
  const char *Src = R"(
@triton.jit
def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.atomic_add(out_ptr + offs, x, sem="relaxed", scope="cta")
    tl.atomic_max(out_ptr, tl.max(x, 0))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(128);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP32)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_GE(countMatches(C.Ptx, R"(atom\.relaxed\.cta\.global\.add\.f32)"), 1) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(atom\.acq_rel\.gpu\.global\.max\.s32)"), 1) << C.Ptx;
}

TEST(Codegen, InlineAsmRunsPerElementOrPerPackedRegister) {
  // Triton's idioms: fla's `mov.f32 $0, $1;` per fp32 element; four int8
  // elements packed into one 32-bit register per statement (pack=4), as
  // ElementwiseInlineAsmOpConversion packs them; gdc_wait's side effect
  // stays though its dummy result is unused.
  const char *Src = R"(
@triton.jit
def k(x_ptr, q_ptr, o_ptr, p_ptr):
    offs = tl.arange(0, 512)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    q = tl.load(q_ptr + offs)
    r = tl.inline_asm_elementwise("prmt.b32 $0, $1, 0, 0x0123;", "=r,r", [q], dtype=tl.int8, is_pure=True, pack=4)
    tl.extra.cuda.gdc_wait()
    tl.store(o_ptr + offs, y)
    tl.store(p_ptr + offs, r)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"q_ptr", ptrTo(ScalarKind::I8)},
                {"o_ptr", ptrTo(ScalarKind::FP32)},
                {"p_ptr", ptrTo(ScalarKind::I8)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  // 512 elements over 128 threads: 4 per thread.
  EXPECT_EQ(countMatches(C.Ptx, R"(mov\.f32 %r\d+, %r\d+;)"), 4) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(prmt\.b32 %r\d+, %r\d+, 0, 0x0123;)"), 1) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(griddepcontrol\.wait;)"), 1) << C.Ptx;
}

TEST(Codegen, InlineAsmWithSeveralResultsIsOneStatement) {
  // lmdeploy's AWQ dequantization: one statement writes two halves
  // (`mov.b32 {$0, $1}, tmp`); both results come from it, the first
  // result's registers first in the constraints, as Triton orders them.
  const char *Src = R"(
@triton.jit
def k(w_ptr, lo_ptr, hi_ptr):
    offs = tl.arange(0, 128)
    w = tl.load(w_ptr + offs)
    lo, hi = tl.inline_asm_elementwise("mov.b32 {$0, $1}, $2;", "=h,=h,r", [w], dtype=(tl.float16, tl.float16),
                                       is_pure=True, pack=1)
    tl.store(lo_ptr + offs, lo)
    tl.store(hi_ptr + offs, hi)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {
      {"w_ptr", ptrTo(ScalarKind::I32)}, {"lo_ptr", ptrTo(ScalarKind::FP16)}, {"hi_ptr", ptrTo(ScalarKind::FP16)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  // 128 elements over 128 threads: one statement per thread, not one per result.
  EXPECT_EQ(countMatches(C.Ptx, R"(mov\.b32 \{%rs\d+, %rs\d+\}, %r\d+;)"), 1) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(st\.global(\.\w+)*\.b16 )"), 2) << C.Ptx;
}

TEST(Codegen, InlineAsmWithConstraintsThatDoNotFitIsAProblem) {
  const char *Src = R"(
@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.inline_asm_elementwise("mov.f32 $0, $1;", "=r", [x], dtype=tl.float32, is_pure=True, pack=1))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"o_ptr", ptrTo(ScalarKind::FP32)}};
  Compiled C = compileSnippet(Src, R, 90);
  EXPECT_NE(C.Error.find("do not match its operands"), std::string::npos) << C.Error;
}

TEST(Codegen, IntegerDotIntoAFloatAccumulatorConvertsTheOperands) {
  // lmdeploy's w8a8 linear under an assumed float32 ACCUMULATOR_DTYPE: int8
  // operands, an fp32 accumulator. It built an invalid module (fpext of i8).
  const char *Src = R"(
@triton.jit
def k(a_ptr, b_ptr, c_ptr):
    i = tl.arange(0, 32)
    a = tl.load(a_ptr + i[:, None] * 32 + i[None, :])
    b = tl.load(b_ptr + i[:, None] * 32 + i[None, :])
    acc = tl.zeros((32, 32), dtype=tl.float32)
    acc = tl.dot(a, b, acc, out_dtype=tl.float32)
    tl.store(c_ptr + i[:, None] * 32 + i[None, :], acc)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"a_ptr", ptrTo(ScalarKind::I8)}, {"b_ptr", ptrTo(ScalarKind::I8)}, {"c_ptr", ptrTo(ScalarKind::FP32)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_GE(countMatches(C.Ptx, R"(cvt\.rn\.f32\.s(8|16|32) )"), 1) << C.Ptx;
}

TEST(Codegen, ShapeOpsScanDotRandomAndPrintCompile) {
  const char *Src = R"(
@triton.jit
def k(a_ptr, b_ptr, out_ptr, seed, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b)
    c = c + tl.trans(c)
    c = tl.cumsum(c, axis=1)
    r = tl.rand(seed, rm[:, None] * N + rn[None, :])
    tl.device_print("c", tl.max(c, axis=1))
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], c + r)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["M"] = PyValue::integer(32);
  R.Constexprs["N"] = PyValue::integer(32);
  R.Constexprs["K"] = PyValue::integer(16);
  R.ArgTypes = {{"a_ptr", ptrTo(ScalarKind::FP16)},
                {"b_ptr", ptrTo(ScalarKind::FP16)},
                {"out_ptr", ptrTo(ScalarKind::FP32)},
                {"seed", ElemType{ScalarKind::I32}}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  // fp16 x fp16 -> fp32 on tensor cores: 32x32 over 4 warps, one k step.
  EXPECT_GE(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 2) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(ldmatrix\.sync\.aligned\.m8n8)"), 2) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(call\.uni[^;]*vprintf)"), 1) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(mul\.hi\.u32|mul\.wide\.u32)"), 1) << C.Ptx;
}

// tl.gather reads the whole source from a shared scratch at the index's
// positions (Triton's scratch for a gather that is not warp-local: the
// source, 1024 fp32 here); tl.histogram counts with Triton's warp ballots
// and popc, then adds the warps' counts with shared-memory atomics into
// max(bins, 32) i32 (Allocation.cpp's size), zeroed first.
TEST(Codegen, GatherAndHistogramGoThroughSharedMemory) {
  const char *Src = R"(
@triton.jit
def k(src_ptr, idx_ptr, out_ptr, hist_ptr, N: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, N)
    src = tl.load(src_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(src, idx, 0))
    h = tl.histogram(idx, B, mask=idx > 0)
    tl.store(hist_ptr + tl.arange(0, B), h)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["N"] = PyValue::integer(1024);
  R.Constexprs["B"] = PyValue::integer(16);
  R.ArgTypes = {{"src_ptr", ptrTo(ScalarKind::FP32)},
                {"idx_ptr", ptrTo(ScalarKind::I32)},
                {"out_ptr", ptrTo(ScalarKind::FP32)},
                {"hist_ptr", ptrTo(ScalarKind::I32)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_GE(countMatches(C.Ptx, R"(atom\.shared\.add\.u32|red\.shared\.add\.u32)"), 1) << C.Ptx;
  // 1024 elements over 128 threads: 8 registers, each 5 bin-bit ballots and one of the mask.
  EXPECT_EQ(countMatches(C.Ptx, R"(vote\.sync\.ballot\.b32)"), 48) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(popc\.b32)"), 8) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(ld\.shared\.(f32|u32|b32))"), 1) << C.Ptx;
  // The gather's scratch (4096 B) and the bins (32 x 4 B) are never live together.
  EXPECT_EQ(C.ABI.SharedBytes, 4096u);
}

TEST(Codegen, DebugBarrierOrdersAnExchangeThroughGlobalMemory) {
  // torchao's Hadamard butterfly: each thread stores its value, waits, loads
  // its partner's. The barrier must be there, and the load after it: a load
  // hoisted above the store (a pure asm statement) read the buffer unwritten.
  const char *Src = R"(
@triton.jit
def k(x_ptr, temp_ptr, out_ptr, n, D: tl.constexpr):
    d = tl.arange(0, D)
    acc = tl.zeros([D], dtype=tl.float32)
    for s in range(n):
        x = tl.load(x_ptr + s * D + d)
        tl.store(temp_ptr + d, x)
        tl.debug_barrier()
        y = tl.load(temp_ptr + (d ^ 1))
        tl.debug_barrier()
        acc += tl.where((d & 1) == 0, x + y, y - x)
    tl.store(out_ptr + d, acc)
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["D"] = PyValue::integer(64);
  R.NumWarps = 2;
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)},
                {"temp_ptr", ptrTo(ScalarKind::FP32)},
                {"out_ptr", ptrTo(ScalarKind::FP32)},
                {"n", ElemType{ScalarKind::I32}}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(bar\.sync\s+0;)"), 2) << C.Ptx;
  size_t Store = C.Ptx.find("st.global.b32");
  size_t Barrier = C.Ptx.find("bar.sync", Store);
  ASSERT_NE(Store, std::string::npos) << C.Ptx;
  ASSERT_NE(Barrier, std::string::npos) << C.Ptx;
  // The x load comes before the store; the partner's load only after the barrier.
  EXPECT_EQ(countMatches(C.Ptx.substr(0, Barrier), R"(ld\.global)"), 1) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx.substr(Barrier), R"(ld\.global)"), 1) << C.Ptx;
}

TEST(Codegen, SortIsTritonsBitonicNetworkOnAHypercube) {
  // tl.sort reshapes [4, 64] to 8 dimensions of 2 and exchanges partners
  // with xor_sum along one of them: lanes of a warp trade through shuffles.
  const char *Src = R"(
@triton.jit
def k(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x, dim=1, descending=True))
    tl.store(out_ptr + tl.arange(0, 8), tl.topk(tl.max(x, axis=0), 8))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["M"] = PyValue::integer(4);
  R.Constexprs["N"] = PyValue::integer(64);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP32)}};
  Compiled C = compileSnippet(Src, R, 90, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_GE(countMatches(C.Ptx, R"(shfl\.sync\.bfly\.b32)"), 6) << C.Ptx;
  EXPECT_GE(countMatches(C.Ptx, R"(setp\.gt\.f32)"), 6) << C.Ptx;
  EXPECT_EQ(C.Kernel.Resources.spillBytes(), 0u);
}

TEST(Codegen, UnloweredConstructIsAProblemAtItsToken) {
  const char *Src = R"(
@triton.jit
def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.float8e4nv))
)";
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(128);
  R.ArgTypes = {{"x_ptr", ptrTo(ScalarKind::FP32)}, {"out_ptr", ptrTo(ScalarKind::FP8E4NV)}};
  // sm_80 has no fp8 conversion instructions.
  Compiled Old = compileSnippet(Src, R, 80);
  EXPECT_EQ(Old.Error, "codegen: `x.to(tl.float8e4nv)`: the cast from fp32 to fp8e4nv on sm_80 is not supported by "
                       "tessel's code generator yet\n");
  Compiled New = compileSnippet(Src, R, 90, true);
  EXPECT_EQ(New.Error, "");
  EXPECT_GE(countMatches(New.Ptx, R"(cvt\.rn\.satfinite\.e4m3x2\.f32)"), 1) << New.Ptx;
}

} // namespace
} // namespace tessel::codegen::test
