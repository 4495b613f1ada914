//===- PipelineTest.cpp - cp.async pipelining of dot loops ----------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The pipeliner (compiler/codegen/Pipeliner.h, lower/Pipeline.cpp) in the
/// PTX: the matmul sample under its first launch (unit strides, K = 128) at
/// every autotune config, for sm_80 and sm_90, copies its operands with
/// `cp.async.cg` 16 bytes at a time, commits one group per iteration and
/// waits for num_stages - 2 of them; its shared memory is then Triton's
/// figure, (num_stages - 1) x (BM·BK + BK·BN) x 2 bytes on the mma.sync path
/// and num_stages x ... where Triton runs the dot on wgmma (sm_90); a loop's
/// `tl.range(num_stages=)` overrides the kernel's. num_stages = 1, a load with a nonzero `other`, a load whose tile has
/// another use, or scalar accesses give the unpipelined code (no cp.async).
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

using Sample = SnippetKernel;

Sample matmulSample() { return parseRepoFile("samples/matmul.py"); }

/// The request of the sample's first launch under autotune config Config.
LoweringRequest matmulRequest(const Sample &S, size_t Config) {
  sema::LaunchPlanOptions PO;
  PO.Config = Config;
  sema::LaunchPlan Plan = sema::planLaunch(*S.File, S.Info, "matmul_kernel", PO);
  EXPECT_EQ(Plan.Error, "");
  EXPECT_FALSE(Plan.Launches.empty());
  return Plan.Launches.empty() ? LoweringRequest{} : Plan.Launches.front().Request;
}

int64_t constexprInt(const LoweringRequest &R, const char *Name) { return R.Constexprs.at(Name).asInt(); }

const char *CpAsync16 = R"(cp\.async\.cg\.shared\.global \[ %r?d?[0-9]+ \+ [0-9]+ \], \[ %rd[0-9]+ \+ 0 \], 16, %r[0-9]+;)";

class MatmulPipeline : public ::testing::TestWithParam<std::tuple<size_t, unsigned>> {};

TEST_P(MatmulPipeline, CopiesAheadWithCpAsync) {
  auto [Config, Arch] = GetParam();
  Sample S = matmulSample();
  LoweringRequest R = matmulRequest(S, Config);
  ASSERT_EQ(R.Kernel, "matmul_kernel");
  Compiled C = compileRequest(*S.File, S.Info, R, Arch, /*Assemble=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  int64_t Stages = R.NumStages, BM = constexprInt(R, "BLOCK_M"), BN = constexprInt(R, "BLOCK_N"),
          BK = constexprInt(R, "BLOCK_K");
  int64_t Threads = 32 * static_cast<int64_t>(R.NumWarps);
  // Every thread copies its 8-element vectors of both tiles, once per stage
  // of the prologue and once in the loop.
  int64_t PerIteration = (BM * BK + BK * BN) / 8 / Threads;
  EXPECT_EQ(countMatches(C.Ptx, CpAsync16), PerIteration * Stages) << "config " << Config;
  // A thread's copies into a stage share its first copy's address, the
  // others at constant offsets (the swizzle's phase is the same for rows a
  // multiple of 8 apart): at most one `+ 0` per operand and stage.
  EXPECT_LE(countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[ %r[0-9]+ \+ 0 \])"), 2 * Stages)
      << "config " << Config;
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.commit_group;)"), Stages);
  EXPECT_EQ(countMatches(C.Ptx, "cp\\.async\\.wait_group " + std::to_string(Stages - 2) + ";"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.wait_group 0;)"), Stages == 2 ? 2 : 1);
  // The dot still runs on tensor cores, reading the ring with ldmatrix, and
  // no operand is staged through registers any more.
  EXPECT_GE(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 16);
  EXPECT_GE(countMatches(C.Ptx, R"(ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16)"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global)"), 0) << "the operands are loaded only by cp.async";
  // Triton's figure (facts §5), the rings only: num_stages - 1 stages on the
  // mma.sync path, num_stages where Triton 3.6 runs the dot on wgmma (sm_90,
  // whole warpgroups, BLOCK_M a multiple of 64), whichever instruction
  // tessel issues.
  bool Wgmma = Arch >= 90 && R.NumWarps % 4 == 0 && BM % 64 == 0;
  int64_t Slots = Wgmma ? Stages : Stages - 1;
  EXPECT_EQ(C.ABI.SharedBytes, static_cast<unsigned>(Slots * (BM * BK + BK * BN) * 2));
  unsigned Rings = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    if (B.Kind == SharedBufferKind::PipelineStage) {
      ++Rings;
      EXPECT_EQ(B.Stages, static_cast<unsigned>(Slots));
    }
  EXPECT_EQ(Rings, 2u);
}

INSTANTIATE_TEST_SUITE_P(Configs, MatmulPipeline,
                         ::testing::Combine(::testing::Values(size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{4}),
                                            ::testing::Values(80u, 90u)),
                         [](const ::testing::TestParamInfo<std::tuple<size_t, unsigned>> &I) {
                           return "c" + std::to_string(std::get<0>(I.param)) + "_sm" +
                                  std::to_string(std::get<1>(I.param));
                         });

TEST(Pipeline, SharedAddressesAre32Bit) {
  // As in Triton (nvptx-short-ptr): a shared address takes one 32-bit
  // register, in cp.async's destination and ldmatrix's source alike.
  Sample S = matmulSample();
  Compiled C = compileRequest(*S.File, S.Info, matmulRequest(S, 0), 80, /*Assemble=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_GE(countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[ %r[0-9]+ \+ 0 \])"), 1) << C.Ptx.substr(0, 3000);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[ %rd)"), 0);
  EXPECT_GE(
      countMatches(C.Ptx, R"(ldmatrix\.sync\.aligned\.m8n8\.x[24](\.trans)?\.shared\.b16 \{[^}]*\}, \[%r[0-9]+\])"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(ldmatrix[^\n]*\[%rd)"), 0);
  EXPECT_EQ(countMatches(C.Ptx, R"(mov\.u64\s+%rd[0-9]+, global_smem)"), 0);
}

TEST(Pipeline, OneStageIsNotPipelined) {
  Sample S = matmulSample();
  for (unsigned Arch : {80u, 90u}) {
    LoweringRequest R = matmulRequest(S, 1);
    R.NumStages = 1;
    Compiled C = compileRequest(*S.File, S.Info, R, Arch);
    ASSERT_EQ(C.Error, "");
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async)"), 0) << C.Ptx.substr(0, 2000);
    EXPECT_GE(countMatches(C.Ptx, R"(ld\.global\.v4\.b32)"), 1);
    for (const SharedBuffer &B : C.ABI.SharedBuffers)
      EXPECT_NE(B.Kind, SharedBufferKind::PipelineStage);
  }
}

TEST(Pipeline, TwoStagesWaitForEveryGroup) {
  Sample S = matmulSample();
  LoweringRequest R = matmulRequest(S, 3);
  R.NumStages = 2;
  Compiled C = compileRequest(*S.File, S.Info, R, 80, /*Assemble=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.commit_group;)"), 2);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.wait_group 0;)"), 2);
  EXPECT_EQ(C.ABI.SharedBytes, (64u * 64 + 64 * 64) * 2);
}

/// The Triton tutorial's loop: pointers carried and advanced, the K tail
/// masked with `other=0.0`.
const char *Tutorial = R"(
@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_cm,
       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OTHER: tl.constexpr,
       REUSE: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_n[None, :])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    extra = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=OTHER)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        if REUSE:
            extra += a.to(tl.float32)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], c + tl.sum(extra, axis=1)[:, None].to(tl.float16))
)";

/// stride_ak is 1 (a specialized constant) unless UnitStride is false.
LoweringRequest tutorialRequest(double Other, bool Reuse, bool UnitStride = true) {
  LoweringRequest R;
  R.Kernel = "mm";
  R.NumWarps = 4;
  R.NumStages = 3;
  R.Constexprs["BLOCK_M"] = PyValue::integer(64);
  R.Constexprs["BLOCK_N"] = PyValue::integer(64);
  R.Constexprs["BLOCK_K"] = PyValue::integer(32);
  R.Constexprs["OTHER"] = PyValue::floating(Other);
  R.Constexprs["REUSE"] = PyValue::boolean(Reuse);
  R.ArgTypes = {{"a_ptr", ElemType{ScalarKind::FP16, 1}}, {"b_ptr", ElemType{ScalarKind::FP16, 1}},
                {"c_ptr", ElemType{ScalarKind::FP16, 1}}, {"M", ElemType{ScalarKind::I32}},
                {"N", ElemType{ScalarKind::I32}},         {"K", ElemType{ScalarKind::I32}},
                {"stride_am", ElemType{ScalarKind::I32}}, {"stride_bk", ElemType{ScalarKind::I32}},
                {"stride_cm", ElemType{ScalarKind::I32}}};
  if (UnitStride)
    R.EqualToOne.insert("stride_ak");
  else
    R.ArgTypes["stride_ak"] = ElemType{ScalarKind::I32};
  return R;
}

Compiled compileTutorial(double Other, bool Reuse, unsigned Arch, bool UnitStride = true) {
  SnippetKernel S = parseSnippet(Tutorial);
  return compileRequest(*S.File, S.Info, tutorialRequest(Other, Reuse, UnitStride), Arch, /*Assemble=*/true);
}

TEST(Pipeline, CarriedPointersAreAdvancedAhead) {
  for (unsigned Arch : {80u, 90u}) {
    Compiled C = compileTutorial(0.0, false, Arch);
    ASSERT_EQ(C.Error, "");
    // 64x32 + 32x64 fp16 over 128 threads: 4 vectors of 16 bytes each per
    // iteration, in the prologue's 2 and the loop's 1.
    EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 12) << C.Ptx.substr(0, 4000);
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.wait_group 1;)"), 1);
    // 64x64 on 4 warps is a wgmma dot for Triton on sm_90: three stages.
    EXPECT_EQ(C.ABI.SharedBytes, (Arch == 90 ? 3u : 2u) * (64 * 32 + 32 * 64) * 2);
  }
}

TEST(Pipeline, ExtraStageSavesTheSecondBarrier) {
  // With num_stages stages the copies ahead fill the stage the previous
  // iteration read, released by the barrier at the top of the iteration:
  // one bar.sync per iteration fewer than the sm_80 loop's two. The
  // epilogue writes from the accumulator: the barriers of its conversion's
  // rounds differ between sm_80 and sm_90 (where stmatrix changes Triton's
  // choice of rounds) and are not the loop's.
  SnippetKernel S = parseSnippet(Tutorial);
  auto Compile = [&](unsigned Arch) {
    return compileRequest(*S.File, S.Info, tutorialRequest(0.0, false), Arch, /*Assemble=*/true, {}, true, false,
                          /*TritonEpilogue=*/false);
  };
  Compiled C80 = Compile(80), C90 = Compile(90);
  ASSERT_EQ(C80.Error, "");
  ASSERT_EQ(C90.Error, "");
  EXPECT_EQ(countMatches(C90.Ptx, R"(bar\.sync)"), countMatches(C80.Ptx, R"(bar\.sync)") - 1);
  // The wait is the same: iteration i's group, S - 2 newer ones may fly.
  EXPECT_EQ(countMatches(C90.Ptx, R"(cp\.async\.wait_group 1;)"), 1);
}

TEST(Pipeline, RangeNumStagesOverridesTheKernels) {
  // The kernel's num_stages is 3; the loop's tl.range says otherwise.
  std::string Src = Tutorial;
  std::string Loop = "for k in range(0, tl.cdiv(K, BLOCK_K)):";
  size_t At = Src.find(Loop);
  ASSERT_NE(At, std::string::npos);
  for (int Stages : {4, 1}) {
    std::string S = Src;
    S.replace(At, Loop.size(), "for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=" + std::to_string(Stages) + "):");
    SnippetKernel K = parseSnippet(S);
    Compiled C = compileRequest(*K.File, K.Info, tutorialRequest(0.0, false), 80, /*Assemble=*/true);
    ASSERT_EQ(C.Error, "");
    if (Stages == 1) {
      EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async)"), 0);
      continue;
    }
    EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 16);
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.wait_group 2;)"), 1);
    EXPECT_EQ(C.ABI.SharedBytes, 3u * (64 * 32 + 32 * 64) * 2);
  }
}

TEST(Pipeline, RangeLoopLoadIsReadBackFromItsRing) {
  // Fused softmax's `tl.range(..., num_stages=NUM_STAGES)` row loop, fp32,
  // rows of 1024 (a multiple of 16): each row is copied two rows ahead,
  // 16 bytes at a time, and read back into registers, -inf in the masked
  // lanes. The figure is Triton 3.6's for this config (samples/
  // triton-3.6-oracle.txt): two 4096-byte stages and the reduction's 16.
  std::string Path = std::string(TESSEL_SOURCE_DIR) + "/samples/fused_softmax.py";
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text.str(), Path));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  LoweringRequest R;
  R.Kernel = "fused_softmax_kernel";
  R.NumWarps = 4;
  R.Constexprs["BLOCK_SIZE"] = PyValue::integer(1024);
  R.Constexprs["NUM_STAGES"] = PyValue::integer(3);
  R.ArgTypes = {{"out_ptr", ElemType{ScalarKind::FP32, 1}},   {"in_ptr", ElemType{ScalarKind::FP32, 1}},
                {"in_row_stride", ElemType{ScalarKind::I32}}, {"out_row_stride", ElemType{ScalarKind::I32}},
                {"n_rows", ElemType{ScalarKind::I32}},        {"n_cols", ElemType{ScalarKind::I32}}};
  for (unsigned Arch : {80u, 90u}) {
    Compiled C = compileRequest(*File, Info, R, Arch, /*Assemble=*/true);
    ASSERT_EQ(C.Error, "");
    EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 6) << C.Ptx.substr(0, 3000);
    // A stage's copies share one shared address (the register's offset is in
    // the instruction) and are not predicated: an iteration past the end
    // copies 0 bytes, as in Triton's PTX.
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[ %r[0-9]+ \+ 2048 \])"), 3);
    EXPECT_EQ(countMatches(C.Ptx, R"(@%p[0-9]+ cp\.async)"), 0);
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.wait_group 1;)"), 1);
    EXPECT_GE(countMatches(C.Ptx, R"(ld\.shared\.v4\.(f32|b32|u32))"), 1);
    EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global)"), 0);
    EXPECT_EQ(C.ABI.SharedBytes, 2u * 4096 + 16);
  }
  // The developer option TESSEL_PIPELINE_TL_RANGE=0 (CodegenOptions::
  // PipelineRangeLoads): the row is loaded where the loop loads it, 16 bytes
  // at a time, and no ring is planned.
  {
    Compiled C = compileRequest(*File, Info, R, 90, /*Assemble=*/false, {}, /*PipelineRangeLoads=*/false);
    ASSERT_EQ(C.Error, "");
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async)"), 0);
    EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global\.v4\.b32)"), 2);
    EXPECT_EQ(C.ABI.SharedBytes, 16u);
  }
  // tl.range(num_stages=1): nothing ahead (the kernel's num_stages, 3, does not
  // apply to the loop's loads, which feed no dot).
  R.Constexprs["NUM_STAGES"] = PyValue::integer(1);
  Compiled C = compileRequest(*File, Info, R, 80);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async)"), 0);
}

TEST(Pipeline, NestedAndGuardedLoops) {
  // The K loop inside an outer loop (a persistent kernel's shape) pipelines
  // in every outer iteration; loads under an `if` in the body do not, and
  // the kernel still compiles.
  std::string Src = Tutorial;
  std::string Loop = "    for k in range(0, tl.cdiv(K, BLOCK_K)):";
  size_t At = Src.find(Loop);
  ASSERT_NE(At, std::string::npos);
  std::string Nested = Src;
  Nested.replace(At, Loop.size(), "    for t in range(0, M):\n     for k in range(0, tl.cdiv(K, BLOCK_K)):");
  SnippetKernel K = parseSnippet(Nested);
  Compiled C = compileRequest(*K.File, K.Info, tutorialRequest(0.0, false), 80, /*Assemble=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 12);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.wait_group 1;)"), 1);

  const char *Guarded = R"(
@triton.jit
def g(a_ptr, b_ptr, c_ptr, K, FLAG: tl.constexpr):
    offs = tl.arange(0, 32)
    acc = tl.zeros((32, 32), dtype=tl.float32)
    for k in range(0, K, 32):
        if k < K - 64:
            a = tl.load(a_ptr + offs[:, None] * K + (k + offs)[None, :])
            b = tl.load(b_ptr + (k + offs)[:, None] * 32 + offs[None, :])
            acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs[:, None] * 32 + offs[None, :], acc)
)";
  LoweringRequest R;
  R.Kernel = "g";
  R.NumWarps = 4;
  R.Constexprs["FLAG"] = PyValue::boolean(true);
  R.ArgTypes = {{"a_ptr", ElemType{ScalarKind::FP16, 1}},
                {"b_ptr", ElemType{ScalarKind::FP16, 1}},
                {"c_ptr", ElemType{ScalarKind::FP32, 1}},
                {"K", ElemType{ScalarKind::I32}}};
  SnippetKernel G = parseSnippet(Guarded);
  Compiled CG = compileRequest(*G.File, G.Info, R, 80, /*Assemble=*/true);
  ASSERT_EQ(CG.Error, "");
  EXPECT_EQ(countMatches(CG.Ptx, R"(cp\.async)"), 0);
}

TEST(Pipeline, NonzeroOtherStaysInRegisters) {
  // Zero-filling cannot give 1.0: operand a is loaded as before and staged
  // by the dot; b is still copied ahead.
  Compiled C = compileTutorial(1.0, false, 80);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 6);
  EXPECT_GE(countMatches(C.Ptx, R"(ld\.global\.v4\.b32)"), 1);
  // b's ring (2 stages of 32x64 fp16) and a staged by the dot as before.
  std::vector<std::pair<SharedBufferKind, uint64_t>> Operands;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    if (B.Kind == SharedBufferKind::PipelineStage || B.Kind == SharedBufferKind::DotOperand)
      Operands.push_back({B.Kind, B.Bytes});
  std::vector<std::pair<SharedBufferKind, uint64_t>> Expected = {{SharedBufferKind::PipelineStage, 2 * 32 * 64 * 2},
                                                                 {SharedBufferKind::DotOperand, 64 * 32 * 2}};
  EXPECT_EQ(Operands, Expected);
}

TEST(Pipeline, TileWithAnotherUseStaysInRegisters) {
  Compiled C = compileTutorial(0.0, true, 80);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 6);
  EXPECT_GE(countMatches(C.Ptx, R"(ld\.global\.v4\.b32)"), 1);
}

/// The loop of tutorial 06's backward that accumulates dk and dv: qT and do
/// are each read by two dots, one of them through tl.trans, and m and Di
/// (vectors read into registers) feed the dots' operands.
const char *DkDvLoop = R"(@triton.jit
def dkdv(K, V, Q, DO, M, D, DK, DV, stride_tok, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         HEAD_DIM: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, HEAD_DIM)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :])
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :])
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    offs_m = tl.arange(0, BLOCK_M)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None]
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :]
    curr_m = 0
    for blk in range(0, N_CTX // BLOCK_M):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        do = tl.load(do_ptrs)
        ppT = pT.to(tl.float16)
        dv += tl.dot(ppT, do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M
        qT_ptrs += BLOCK_M * stride_tok
        do_ptrs += BLOCK_M * stride_tok
    tl.store(DV + offs_n[:, None] * stride_tok + offs_k[None, :], dv.to(tl.float16))
    tl.store(DK + offs_n[:, None] * stride_tok + offs_k[None, :], dk.to(tl.float16))
)";

TEST(Pipeline, ALoadReadByTwoDotsSharesOneRingAndFeedingVectorsGetTheirOwn) {
  // Triton 3.6 on sm_90 (tutorial 06's _attn_bwd at BLOCK_M1 32, BLOCK_N1
  // 128, HEAD_DIM 64, 5 stages: 74752 bytes): qT and do in rings of 5
  // stages that both of their dots read in place (qT as it is and
  // transposed), m and Di in rings of 4 read back into registers, k and v
  // written once before the loop: 2 x 20480 + 2 x 512 + 2 x 16384.
  SnippetKernel K = parseSnippet(DkDvLoop);
  LoweringRequest R;
  R.Kernel = "dkdv";
  R.NumWarps = 4;
  R.NumStages = 5;
  R.Constexprs["BLOCK_M"] = PyValue::integer(32);
  R.Constexprs["BLOCK_N"] = PyValue::integer(128);
  R.Constexprs["HEAD_DIM"] = PyValue::integer(64);
  for (const char *P : {"K", "V", "Q", "DO", "DK", "DV"})
    R.ArgTypes[P] = ElemType{ScalarKind::FP16, 1};
  for (const char *P : {"M", "D"})
    R.ArgTypes[P] = ElemType{ScalarKind::FP32, 1};
  R.ArgTypes["stride_tok"] = R.ArgTypes["N_CTX"] = ElemType{ScalarKind::I32};
  R.DivisibleBy16 = {"stride_tok", "N_CTX"};
  Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(C.ABI.SharedBytes, 74752u);
  int DotRings = 0, VectorRings = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers) {
    DotRings += B.Kind == SharedBufferKind::PipelineStage && B.Stages == 5 && B.Bytes == 20480;
    VectorRings += B.Kind == SharedBufferKind::PipelineStage && B.Stages == 4 && B.Bytes == 512;
    // m and Di are read in the layout the dots' operands take them in.
    EXPECT_FALSE(B.Kind == SharedBufferKind::LayoutConversion && B.What.find("32 fp32") != std::string::npos)
        << B.What;
  }
  EXPECT_EQ(DotRings, 2);
  EXPECT_EQ(VectorRings, 2);
  // Four wgmma dots per iteration, every operand b from a ring or the
  // hoisted k and v: nothing staged from registers inside the loop.
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.commit_group)"), 4);
  EXPECT_EQ(countMatches(C.Ptx, R"(fence\.proxy\.async)"), 1) << "only the hoisted k and v are written from registers";
}

TEST(Pipeline, ScalarAccessesAreNotPipelined) {
  // a's k stride is a runtime value: its loads are 2 bytes wide, below
  // cp.async's 4, and Triton does not pipeline them either (which keeps the
  // oracle's figures, docs/shared-memory.md); b's are still copied ahead.
  Compiled C = compileTutorial(0.0, false, 80, /*UnitStride=*/false);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, CpAsync16), 6);
  EXPECT_GE(countMatches(C.Ptx, R"(ld\.global\.b16)"), 1);
}

const char *ConstexprLoop = R"(@triton.jit
def constexpr_loop(a_ptr, b_ptr, c_ptr, SEQ: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, SEQ, BLOCK):
        a = tl.load(a_ptr + offs[:, None] * SEQ + (k + offs)[None, :])
        b = tl.load(b_ptr + (k + offs)[:, None] * BLOCK + offs[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)
)";

TEST(Pipeline, ALoopThatRunsOnceIsNotPipelined) {
  // Liger's neighborhood attention at seq_len 4 (a constexpr) and
  // BLOCK_SIZE_K 64: `range(0, seq_len, BLOCK_SIZE_K)` runs once, MLIR's
  // scf.for canonicalization inlines it before Triton's pipeliner runs, and
  // each wgmma operand has one buffer (32768 bytes at 64x64 fp32 on the
  // H100, not 98304). Two iterations are pipelined as before.
  SnippetKernel K = parseSnippet(ConstexprLoop);
  auto Compile = [&](int64_t Seq) {
    const ElemType F32{ScalarKind::FP32, 1};
    LoweringRequest R = kernelRequest("constexpr_loop", 4, 3, {{"SEQ", Seq}, {"BLOCK", 64}},
                                      {{"a_ptr", F32}, {"b_ptr", F32}, {"c_ptr", F32}});
    return compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/false, {}, true, /*Wgmma=*/true);
  };
  for (int64_t Seq : {4, 64, 128}) {
    Compiled C = Compile(Seq);
    ASSERT_EQ(C.Error, "");
    int Rings = 0, Staged = 0;
    for (const SharedBuffer &B : C.ABI.SharedBuffers) {
      Rings += B.Kind == SharedBufferKind::PipelineStage;
      Staged += B.Kind == SharedBufferKind::DotOperand;
    }
    EXPECT_EQ(Rings, Seq > 64 ? 2 : 0) << "SEQ " << Seq;
    EXPECT_EQ(Staged, Seq > 64 ? 0 : 2) << "SEQ " << Seq;
    EXPECT_EQ(C.ABI.SharedBytes, Seq > 64 ? 98304u : 32768u) << "SEQ " << Seq;
  }
}

const char *ScaledOperand = R"(@triton.jit
def scaled_operand(x_ptr, b_ptr, s_ptr, c_ptr, n, stride_x, stride_b,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OTHER: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_x + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_b + offs_n[None, :]
    s_ptrs = s_ptr + offs_k
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, n, BLOCK_K):
        x = tl.load(x_ptrs, mask=offs_k[None, :] < n - k, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < n - k, other=OTHER).to(tl.float32)
        s = tl.load(s_ptrs, mask=offs_k < n - k, other=0.0).to(tl.float32)
        b *= tl.exp(s)[:, None]
        acc += tl.dot(x, b)
        x_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_b
        s_ptrs += BLOCK_K
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], acc)
)";

TEST(Pipeline, AMaskedLoadAWgmmaOperandIsComputedFromGetsARingWhereZeroFillGivesItsOther) {
  // mamba's _chunk_state_fwd_kernel: b is loaded masked by the chunk's end
  // (other 0.0), scaled, and cast into the dot's operand. Triton's
  // AssignLatencies takes it (distance 0 from the dot) into a ring of
  // num_stages - 1 read back into registers: x's ring (3 x 16384), b's
  // (2 x 8192) and the staged operand (16384), 81920 bytes on the H100.
  // tessel read such rings at the top of the iteration, before the mask is
  // computed, so it took unmasked loads only; cp.async's zero fill gives
  // `other` 0 without the mask. Any other `other` keeps b a plain load.
  SnippetKernel K = parseSnippet(ScaledOperand);
  auto Compile = [&](double Other) {
    const ElemType F32{ScalarKind::FP32, 1}, F16{ScalarKind::FP16, 1}, I32{ScalarKind::I32};
    LoweringRequest R = kernelRequest("scaled_operand", 4, 3, {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 64}},
                                      {{"x_ptr", F32}, {"b_ptr", F16}, {"s_ptr", F16}, {"c_ptr", F32}, {"n", I32},
                                       {"stride_x", I32}, {"stride_b", I32}});
    R.Constexprs["OTHER"] = PyValue::floating(Other);
    return compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  };
  Compiled Zero = Compile(0.0);
  ASSERT_EQ(Zero.Error, "");
  EXPECT_TRUE(Zero.Kernel.assembled());
  std::string Buffers;
  int ReadBack = 0;
  for (const SharedBuffer &B : Zero.ABI.SharedBuffers) {
    Buffers += B.What + "; ";
    ReadBack += B.Kind == SharedBufferKind::PipelineStage && B.What.find("2 stages of 64x64 fp16") != std::string::npos;
  }
  EXPECT_EQ(ReadBack, 1) << Buffers;
  EXPECT_EQ(Zero.ABI.SharedBytes, 81920u) << Buffers;
  Compiled One = Compile(1.0);
  ASSERT_EQ(One.Error, "");
  EXPECT_EQ(One.ABI.SharedBytes, 65536u);
}

} // namespace
} // namespace tessel::codegen::test
