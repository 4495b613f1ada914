//===- DotWgmmaTest.cpp - tl.dot on wgmma (sm_90a) ------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// lower/DotWgmma.cpp in the PTX, with CodegenOptions::Wgmma on sm_90a:
/// the matmul sample at its autotune configs issues one
/// `wgmma.mma_async.m64nNk16` per k step of 16 and repetition of its
/// warpgroup's tile, with Triton's instruction N, between a `wgmma.fence`
/// and a `commit_group` + `wait_group 0`; the operands come from the
/// cp.async rings in the NVMMA layout (no proxy fence, as Triton), never
/// through ldmatrix or mma.sync; ptxas assembles it. With the option off
/// (TESSEL_WGMMA=0), or on plain sm_90, the same kernel stays on mma.sync. The ring has
/// num_stages stages on sm_90 either way (Triton's wgmma figure).
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include "compiler/codegen/layout/WgmmaLayout.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

SnippetKernel matmulSample() { return parseRepoFile("samples/matmul.py"); }

/// The sample's kernel at a tutorial-03 config, unit strides, operands in
/// Elem.
LoweringRequest request(int64_t BM, int64_t BN, int64_t BK, unsigned Stages, unsigned Warps,
                        ScalarKind Elem = ScalarKind::FP16) {
  LoweringRequest R;
  R.Kernel = "matmul_kernel";
  R.NumWarps = Warps;
  R.NumStages = Stages;
  R.Constexprs["BLOCK_M"] = PyValue::integer(BM);
  R.Constexprs["BLOCK_N"] = PyValue::integer(BN);
  R.Constexprs["BLOCK_K"] = PyValue::integer(BK);
  R.Constexprs["GROUP_M"] = PyValue::integer(8);
  R.Constexprs["ACTIVATION"] = PyValue::string("");
  R.ArgTypes["a_ptr"] = R.ArgTypes["b_ptr"] = ElemType{Elem, 1};
  R.ArgTypes["c_ptr"] = ElemType{ScalarKind::FP16, 1};
  for (const char *P : {"M", "N", "K", "stride_am", "stride_bk", "stride_cm"})
    R.ArgTypes[P] = ElemType{ScalarKind::I32};
  for (const char *P : {"stride_ak", "stride_bn", "stride_cn"})
    R.EqualToOne.insert(P);
  return R;
}

struct Config {
  int64_t BM, BN, BK;
  unsigned Stages, Warps;
};

class Wgmma : public ::testing::TestWithParam<Config> {};

TEST_P(Wgmma, IssuesWarpgroupMmaFromTheRings) {
  Config Cf = GetParam();
  SnippetKernel K = matmulSample();
  for (ScalarKind Elem : {ScalarKind::FP16, ScalarKind::BF16}) {
    LoweringRequest R = request(Cf.BM, Cf.BN, Cf.BK, Cf.Stages, Cf.Warps, Elem);
    Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(C.Error, "");
    EXPECT_TRUE(C.Kernel.assembled());
    WgmmaShape S = wgmmaShape(Cf.BM, Cf.BN, Cf.Warps);
    std::string Type = Elem == ScalarKind::BF16 ? "bf16" : "f16";
    std::string Instr =
        "wgmma\\.mma_async\\.sync\\.aligned\\.m64n" + std::to_string(S.InstrN) + "k16\\.f32\\." + Type + "\\." + Type;
    EXPECT_EQ(countMatches(C.Ptx, Instr), Cf.BK / 16 * S.RepM * S.RepN) << C.Ptx.substr(0, 3000);
    EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.fence\.sync\.aligned;)"), 1);
    EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.commit_group\.sync\.aligned;)"), 1);
    EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.wait_group\.sync\.aligned 0;)"), 1);
    // The rings cp.async fills get no proxy fence, as in Triton's loop
    // (Pipeline.cpp).
    EXPECT_EQ(countMatches(C.Ptx, R"(fence\.proxy\.async)"), 0);
    EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync|ldmatrix)"), 0);
    EXPECT_EQ(C.Ptx.find(".target sm_90a") != std::string::npos, true);
    // Triton's wgmma figure: num_stages stages of both tiles, at 1024-byte
    // boundaries.
    EXPECT_EQ(C.ABI.SharedBytes, Cf.Stages * (Cf.BM * Cf.BK + Cf.BK * Cf.BN) * 2);
    for (const SharedBuffer &B : C.ABI.SharedBuffers)
      if (B.Kind == SharedBufferKind::PipelineStage) {
        EXPECT_EQ(B.Offset % 1024, 0u) << B.What;
        EXPECT_NE(B.What.find("NVMMA"), std::string::npos) << B.What;
      }
  }
}

// Tutorial 03's Hopper configs that fit (facts §5), and the sample's own
// 64x64x64 with 4 warps.
INSTANTIATE_TEST_SUITE_P(Tutorial03, Wgmma,
                         ::testing::Values(Config{128, 256, 64, 3, 8}, Config{64, 256, 32, 4, 4},
                                           Config{128, 128, 32, 4, 4}, Config{128, 64, 32, 4, 4},
                                           Config{64, 128, 32, 4, 4}, Config{128, 32, 32, 4, 4},
                                           Config{64, 64, 64, 3, 4}),
                         [](const ::testing::TestParamInfo<Config> &I) {
                           const Config &C = I.param;
                           return std::to_string(C.BM) + "x" + std::to_string(C.BN) + "x" + std::to_string(C.BK) +
                                  "_s" + std::to_string(C.Stages) + "_w" + std::to_string(C.Warps);
                         });

TEST(Wgmma, OptionOffAndPlainSm90StayOnMmaSync) {
  SnippetKernel K = matmulSample();
  LoweringRequest R = request(128, 128, 32, 4, 4);
  // The option off: mma.sync, with the same rings (num_stages of them:
  // Triton's figure on sm_90).
  Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/false, {}, true, /*Wgmma=*/false);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma)"), 0);
  EXPECT_GE(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k16)"), 1);
  EXPECT_EQ(C.ABI.SharedBytes, 4u * (128 * 32 + 32 * 128) * 2);
  // The option on for a plain sm_90 target (no `a`): wgmma cannot be
  // assembled there, so mma.sync again.
  sema::LoweredKernel L = sema::lowerKernel(*K.File, K.Info, R);
  ASSERT_TRUE(L.Function);
  llvm::LLVMContext Ctx;
  CodegenOptions Opts;
  Opts.NumWarps = 4;
  Opts.NumStages = 4;
  Opts.DivisibleBy16 = defaultDivisibility(*L.Function);
  Opts.Wgmma = true;
  Opts.ArchSpecific = false;
  CodegenResult CR = emitLLVM(*L.Function, Opts, Ctx);
  ASSERT_TRUE(CR.Module);
  std::string Ir;
  llvm::raw_string_ostream OS(Ir);
  CR.Module->print(OS, nullptr);
  EXPECT_EQ(Ir.find("wgmma"), std::string::npos);
  EXPECT_NE(Ir.find("mma.sync"), std::string::npos);
}

TEST(Wgmma, EachAccumulatorsStepsBackToBack) {
  // 128x128x64 on 4 warps: two m64n128 accumulators, four k steps each,
  // issued as Triton orders them: A A A A B B B B (not A B A B ...).
  SnippetKernel K = matmulSample();
  Compiled C = compileRequest(*K.File, K.Info, request(128, 128, 64, 3, 4), 90, /*Assemble=*/false, {}, true,
                              /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  std::regex First(R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16 \{(%f[0-9]+),)");
  std::vector<std::string> Accs;
  for (auto It = std::sregex_iterator(C.Ptx.begin(), C.Ptx.end(), First); It != std::sregex_iterator(); ++It)
    Accs.push_back((*It)[1]);
  ASSERT_EQ(Accs.size(), 8u);
  for (size_t I = 1; I < 8; ++I)
    EXPECT_EQ(Accs[I] == Accs[I - 1], I != 4) << I;
}

/// The module of the sample at 128x128x64 on 4 warps, 3 stages, sm_90a,
/// with Pendings wgmma groups left in flight by the pipelined loop.
std::string moduleWithPendings(unsigned Pendings) {
  SnippetKernel K = matmulSample();
  sema::LoweredKernel L = sema::lowerKernel(*K.File, K.Info, request(128, 128, 64, 3, 4));
  EXPECT_TRUE(L.Function);
  if (!L.Function)
    return "";
  llvm::LLVMContext Ctx;
  CodegenOptions Opts;
  Opts.NumWarps = 4;
  Opts.NumStages = 3;
  Opts.DivisibleBy16 = defaultDivisibility(*L.Function);
  for (const char *P : {"M", "N", "K", "stride_am", "stride_bk", "stride_cm"})
    Opts.DivisibleBy16.insert(P); // pipelined, as compileRequest's
  Opts.Wgmma = true;
  Opts.ArchSpecific = true;
  Opts.WgmmaPendings = Pendings;
  CodegenResult CR = emitLLVM(*L.Function, Opts, Ctx);
  EXPECT_TRUE(CR.Module);
  std::string Ir;
  llvm::raw_string_ostream OS(Ir);
  if (CR.Module)
    CR.Module->print(OS, nullptr);
  return Ir;
}

TEST(Wgmma, PipelinedLoopCanLeaveOneGroupInFlight) {
  // Triton's pendings = 1: the loop's dot waits for the previous
  // iteration's group only, the stage that group read is refilled after a
  // second barrier, and the loop's exit waits for the last group before
  // the accumulator is read.
  std::string Async = moduleWithPendings(1), Sync = moduleWithPendings(0);
  EXPECT_EQ(countMatches(Async, R"(wgmma\.wait_group\.sync\.aligned 1;)"), 1);
  EXPECT_EQ(countMatches(Async, R"(wgmma\.wait_group\.sync\.aligned 0;)"), 1);
  EXPECT_EQ(countMatches(Sync, R"(wgmma\.wait_group\.sync\.aligned 1;)"), 0);
  EXPECT_EQ(countMatches(Sync, R"(wgmma\.wait_group\.sync\.aligned 0;)"), 1);
  EXPECT_EQ(countMatches(Async, R"(call void @llvm\.nvvm\.barrier0\(\))"),
            countMatches(Sync, R"(call void @llvm\.nvvm\.barrier0\(\))") + 1);
}

TEST(Wgmma, TritonsEpilogueStoresThroughASwizzledConversion) {
  // CodegenOptions::TritonEpilogue: the fp16 result (128x128 over 4 warps,
  // 128 values a thread) goes to shared memory in the accumulator's pairs,
  // comes back as 16-byte pieces of rows in the store's coalesced layout,
  // and is written with 16-byte stores; without it, straight from the pairs.
  SnippetKernel K = matmulSample();
  Compiled Triton = compileRequest(*K.File, K.Info, request(128, 128, 64, 3, 4), 90, false, {}, true, true, true);
  Compiled Direct = compileRequest(*K.File, K.Info, request(128, 128, 64, 3, 4), 90, false, {}, true, true, false);
  ASSERT_EQ(Triton.Error, "");
  ASSERT_EQ(Direct.Error, "");
  EXPECT_EQ(countMatches(Triton.Ptx, R"(st\.shared\.u32)"), 64);
  EXPECT_EQ(countMatches(Triton.Ptx, R"(ld\.shared\.v4\.u32)"), 16);
  EXPECT_EQ(countMatches(Triton.Ptx, R"(st\.global\.v4\.b32)"), 16);
  EXPECT_EQ(countMatches(Direct.Ptx, R"(st\.global\.b32)"), 64);
  EXPECT_EQ(countMatches(Direct.Ptx, R"(ld\.shared\.v4)"), 0);
  // Every register's address is one of eight per-thread addresses (the
  // swizzle's phases) plus an immediate, not an address of its own (64);
  // LLVM may spell a phase twice.
  std::regex Store(R"(st\.shared\.u32\s+\[(%r[0-9]+))");
  std::set<std::string> Bases;
  for (auto It = std::sregex_iterator(Triton.Ptx.begin(), Triton.Ptx.end(), Store); It != std::sregex_iterator(); ++It)
    Bases.insert((*It)[1]);
  EXPECT_LE(Bases.size(), 16u);
  EXPECT_GE(Bases.size(), 8u);
}

TEST(Wgmma, OutOfResourceConfigsHaveTritonsRequiredFigure) {
  // The five fp16 configs of tutorial 03 that Triton 3.6 refuses on the
  // H200 ("out of resource: shared memory, Required: ..."), facts §5: the
  // figure is num_stages stages of both tiles, over the 232448-byte limit.
  SnippetKernel K = matmulSample();
  for (Config Cf : {Config{128, 256, 128, 3, 8}, Config{256, 128, 128, 3, 8}, Config{128, 128, 128, 4, 4},
                    Config{256, 64, 128, 4, 4}, Config{64, 256, 128, 4, 4}}) {
    Compiled C = compileRequest(*K.File, K.Info, request(Cf.BM, Cf.BN, Cf.BK, Cf.Stages, Cf.Warps), 90,
                                /*Assemble=*/false, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(C.Error, "");
    uint64_t Required = Cf.Stages * (Cf.BM * Cf.BK + Cf.BK * Cf.BN) * 2;
    EXPECT_EQ(C.ABI.SharedBytes, Required) << Cf.BM << "x" << Cf.BN << "x" << Cf.BK;
    EXPECT_GT(Required, 232448u);
  }
}

TEST(Wgmma, AttentionsChainedDotsAssemble) {
  // Both dots of the attention sample on wgmma at every autotune config:
  // q·k (chained: every warp along M, copies past BLOCK_M) and p·v with p
  // from registers or staged from them (8 warps with BLOCK_M 64).
  SnippetKernel S = parseRepoFile("samples/attention.py");
  const auto &File = S.File;
  const ModuleInfo &Info = S.Info;
  for (size_t Config = 0; Config < 16; Config += 5) {
    sema::LaunchPlanOptions PO;
    PO.Config = Config;
    sema::LaunchPlan Plan = sema::planLaunch(*File, Info, "attn_fwd_kernel", PO);
    ASSERT_EQ(Plan.Error, "");
    ASSERT_FALSE(Plan.Launches.empty());
    LoweringRequest R = Plan.Launches.front().Request;
    Compiled C = compileRequest(*File, Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(C.Error, "") << "config " << Config;
    EXPECT_TRUE(C.Kernel.assembled());
    EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.commit_group\.sync\.aligned;)"), 2) << "config " << Config;
    EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync|ldmatrix)"), 0) << "config " << Config;
  }
}

TEST(Wgmma, AttentionsPStaysInRegisters) {
  // Config 0 (64x32, 4 warps): p = exp2(scores - m) is computed in the q·k
  // accumulator, which is wgmma's A-fragment layout for p·v, so p·v reads
  // p from registers (`{a0, a1, a2, a3}`, one per k step of 16) as Triton
  // does, and p gets no shared buffer; q·k still reads q from one.
  SnippetKernel S = parseRepoFile("samples/attention.py");
  const auto &File = S.File;
  const ModuleInfo &Info = S.Info;
  sema::LaunchPlanOptions PO;
  PO.Config = 0;
  sema::LaunchPlan Plan = sema::planLaunch(*File, Info, "attn_fwd_kernel", PO);
  ASSERT_EQ(Plan.Error, "");
  ASSERT_FALSE(Plan.Launches.empty());
  LoweringRequest R = Plan.Launches.front().Request;
  ASSERT_EQ(R.NumWarps, 4u);
  Compiled C = compileRequest(*File, Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(countMatches(C.Ptx, R"(\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}, %rd[0-9]+, p, 1, 1, 1;)"), 2)
      << C.Ptx.substr(0, 3000);
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async)"), 4 + 2); // q·k: 64 / 16 k steps
  bool PShared = false, QOnce = false, QEachIteration = false;
  std::string Buffers;
  for (const SharedBuffer &B : C.ABI.SharedBuffers) {
    PShared |= B.What.find("operand a of tl.dot, 64x32 fp16") != std::string::npos;
    QOnce |= B.What.find("operand of tl.dot, loop-invariant, 64x64 fp16") != std::string::npos;
    QEachIteration |= B.What.find("operand a of tl.dot, 64x64 fp16") != std::string::npos;
    Buffers += B.What + "\n";
  }
  EXPECT_FALSE(PShared) << Buffers;
  // q, the same in every iteration, is written to shared memory once
  // before the loop (Triton's hoisted local_alloc), not staged per dot.
  EXPECT_TRUE(QOnce) << Buffers;
  EXPECT_FALSE(QEachIteration) << Buffers;
}

TEST(Wgmma, AnAComputedInRegistersIsReadFromThem) {
  // tests/gpu/dot_dtypes.py's dot_scaled_a_kernel: a is loaded, scaled
  // along K and cast to b's type. Triton's AccelerateMatmul keeps an a that
  // does not come from a load in registers (convertDotOperandForMMA); wgmma
  // reads four 32-bit registers a k step (two fp16, one tf32, four fp8
  // elements each) and a gets no NVMMA buffer. Instances: fp16, bf16, tf32,
  // fp8 (b K-major), fp16 on 8 warps.
  SnippetKernel S = parseRepoFile("tests/gpu/dot_dtypes.py");
  sema::LaunchPlanOptions PO;
  sema::LaunchPlan Plan = sema::planLaunch(*S.File, S.Info, "dot_scaled_a_kernel", PO);
  ASSERT_EQ(Plan.Error, "");
  ASSERT_EQ(Plan.Launches.size(), 5u);
  const char *Shapes[] = {"k16.f32.f16.f16", "k16.f32.bf16.bf16", "k8.f32.tf32.tf32", "k32.f32.e4m3.e4m3",
                          "k16.f32.f16.f16"};
  for (size_t I = 0; I < Plan.Launches.size(); ++I) {
    const LoweringRequest &R = Plan.Launches[I].Request;
    Compiled C = compileRequest(*S.File, S.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(C.Error, "") << "instance " << I;
    EXPECT_TRUE(C.Kernel.assembled()) << "instance " << I;
    std::string Instr = std::string(R"(wgmma\.mma_async\.sync\.aligned\.m64n[0-9]+)") + Shapes[I] +
                        R"( \{[^}]*\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}, %rd[0-9]+, )";
    int64_t BK = R.Constexprs.at("BK").asInt(), BM = R.Constexprs.at("BM").asInt();
    int64_t Steps = BK / (I == 2 ? 8 : I == 3 ? 32 : 16);
    // Each k step once per repetition along M (the warpgroups along M
    // first).
    EXPECT_EQ(countMatches(C.Ptx, Instr), Steps * std::max<int64_t>(1, BM / 64 / (R.NumWarps / 4)))
        << "instance " << I;
    EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async)"), countMatches(C.Ptx, Instr)) << "instance " << I;
    for (const SharedBuffer &B : C.ABI.SharedBuffers)
      EXPECT_EQ(B.What.find("operand a of tl.dot"), std::string::npos) << "instance " << I << ": " << B.What;
  }
}

TEST(Wgmma, Int8DotsAccumulateInInt32Registers) {
  // Triton 3.6 runs an int8 dot with an int32 result on MMA v3 on sm_90:
  // `wgmma ... .s32.s8.s8`, k32 a step, int32 accumulators (`=r`), the
  // scale-d flag only (no scales, no transpose flags: both operands
  // K-major). tests/gpu/dot_dtypes.py's dot_int8_kernel: a from its ring,
  // b N-major and so staged K-major, as fp8.
  SnippetKernel S = parseRepoFile("tests/gpu/dot_dtypes.py");
  sema::LaunchPlan Plan = sema::planLaunch(*S.File, S.Info, "dot_int8_kernel", sema::LaunchPlanOptions{});
  ASSERT_EQ(Plan.Error, "");
  ASSERT_FALSE(Plan.Launches.empty());
  Compiled C = compileRequest(*S.File, S.Info, Plan.Launches.front().Request, 90, /*Assemble=*/true, {}, true,
                              /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async\.sync\.aligned\.m64n64k32\.s32\.s8\.s8 \{%r[0-9]+(, %r[0-9]+){31}\}, %rd[0-9]+, %rd[0-9]+, p;)"), 2)
      << C.Ptx.substr(0, 4000);
  EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync)"), 0);
  EXPECT_GE(countMatches(C.Ptx, R"(wgmma\.wait_group\.sync\.aligned 0;)"), 1);
}

/// The attention sample's first launch under autotune config Config.
struct AttentionSample : SnippetKernel {
  LoweringRequest request(size_t Config) const {
    sema::LaunchPlanOptions PO;
    PO.Config = Config;
    sema::LaunchPlan Plan = sema::planLaunch(*File, Info, "attn_fwd_kernel", PO);
    EXPECT_EQ(Plan.Error, "");
    EXPECT_FALSE(Plan.Launches.empty());
    return Plan.Launches.empty() ? LoweringRequest{} : Plan.Launches.front().Request;
  }
};
AttentionSample attentionSample() { return {parseRepoFile("samples/attention.py")}; }

TEST(Wgmma, PStaysInRegistersForTwoWarpgroupsAlongN) {
  // Config 1 (64x32 on 8 warps): q·k puts both warpgroups along M, the
  // second holding a copy of rows 0-63; p·v ([64, 64]) puts them along N,
  // both reading p's rows 0-63, which each already holds: p goes to wgmma
  // from registers, as Triton's does (kernl's llama-v2 attention: 81920
  // bytes as Triton's metadata.shared on the H100, not 90112).
  AttentionSample S = attentionSample();
  LoweringRequest R = S.request(1);
  ASSERT_EQ(R.NumWarps, 8u);
  Compiled C = compileRequest(*S.File, S.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(countMatches(C.Ptx, R"(\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}, %rd[0-9]+, p, 1, 1, 1;)"), 2)
      << C.Ptx.substr(0, 3000);
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    EXPECT_EQ(B.What.find("operand a of tl.dot, 64x32 fp16"), std::string::npos) << B.What;
}

TEST(Wgmma, AttentionsTransposedKIsCopiedIntoAKMajorRing) {
  // k is loaded as [HEAD_DIM, BLOCK_N] from `offs_d[:, None]` (contiguous
  // along its rows). As Triton's pipeliner, tessel copies it with 16-byte
  // cp.async into a ring of num_stages stages in the transposed NVMMA
  // layout and q·k reads it K-major (imm-trans-b 0), instead of loading it
  // into registers and staging it at every iteration. Shared memory is then
  // Triton's figure: q once + num_stages stages of k and of v (57344 for
  // 64x64 with 3 stages, 65536 for 128x64: Triton 3.6's metadata.shared on
  // the H200, bench/RESULTS.md). The autotune configs with 4 warps (8 warps
  // with BLOCK_M 64 stage p as well).
  AttentionSample S = attentionSample();
  for (size_t Config = 0; Config < 16; Config += 2) {
    LoweringRequest R = S.request(Config);
    ASSERT_EQ(R.NumWarps, 4u);
    int64_t BM = R.Constexprs.at("BLOCK_M").asInt(), BN = R.Constexprs.at("BLOCK_N").asInt();
    int64_t D = R.Constexprs.at("HEAD_DIM").asInt(), Stages = R.NumStages;
    std::string Name = std::to_string(BM) + "x" + std::to_string(BN) + " s" + std::to_string(Stages);
    Compiled C = compileRequest(*S.File, S.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
    ASSERT_EQ(C.Error, "") << Name;
    EXPECT_TRUE(C.Kernel.assembled()) << Name;
    EXPECT_EQ(C.ABI.SharedBytes, static_cast<uint64_t>(BM * D * 2 + Stages * 2 * (D * BN * 2))) << Name;
    std::string Buffers;
    bool KRing = false, KStaged = false;
    for (const SharedBuffer &B : C.ABI.SharedBuffers) {
      Buffers += B.What + "\n";
      std::string KTile = std::to_string(D) + "x" + std::to_string(BN) + " fp16";
      KRing |= B.Kind == SharedBufferKind::PipelineStage && B.What == "operand b of tl.dot, " + std::to_string(Stages) +
                                                                          " stages of " + KTile +
                                                                          " (NVMMA transposed, cp.async)";
      KStaged |= B.Kind == SharedBufferKind::DotOperand && B.What.find("operand b of tl.dot") != std::string::npos;
      if (B.Kind == SharedBufferKind::PipelineStage)
        EXPECT_EQ(B.Offset % 1024, 0u) << B.What;
    }
    EXPECT_TRUE(KRing) << Name << "\n" << Buffers;
    EXPECT_FALSE(KStaged) << Name << "\n" << Buffers;
    // q·k: a (q) and b (k) both K-major, HEAD_DIM / 16 k steps per 64 rows,
    // the first of each from a zero accumulator it does not read (scale-d
    // 0, no tied inputs, as Triton's); p·v: p from registers, v N-major.
    EXPECT_EQ(countMatches(C.Ptx, R"(\}, %rd[0-9]+, %rd[0-9]+, 0, 1, 1, 0, 0;)"), BM / 64) << Name;
    EXPECT_EQ(countMatches(C.Ptx, R"(\}, %rd[0-9]+, %rd[0-9]+, p, 1, 1, 0, 0;)"), (D / 16 - 1) * (BM / 64)) << Name;
    EXPECT_EQ(countMatches(C.Ptx, R"(\}, %rd[0-9]+, p, 1, 1, 1;)"), BN / 16 * (BM / 64)) << Name;
    // Every copy is 16 bytes: k's and v's tiles over 128 threads, in the
    // prologue's num_stages - 1 iterations and the loop's one; per stage,
    // one shared address and the other copies at constant offsets from it
    // (their rows are 8 apart: the swizzle's phase is the same).
    EXPECT_EQ(
        countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[ %r[0-9]+ \+ [0-9]+ \], \[ %rd[0-9]+ \+ 0 \], 16,)"),
        Stages * 2 * (D * BN * 2 / 16 / 128))
        << Name;
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.cg\.shared\.global \[ %r[0-9]+ \+ 0 \])"), Stages * 2) << Name;
    EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.ca)"), 0) << Name;
    // One proxy fence: after q's one write before the loop, none per
    // iteration for the rings.
    EXPECT_EQ(countMatches(C.Ptx, R"(fence\.proxy\.async\.shared::cta;)"), 1) << Name;
  }
}

TEST(Wgmma, MmaSyncKeepsATransposedLoadOutOfTheRing) {
  // Without wgmma (plain sm_90) ldmatrix reads row-major rings only: k
  // stays a register load staged by the dot, v is still copied ahead.
  AttentionSample S = attentionSample();
  Compiled C = compileRequest(*S.File, S.Info, S.request(6), 90, /*Assemble=*/true, {}, true, /*Wgmma=*/false);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma)"), 0);
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    EXPECT_EQ(B.What.find("transposed"), std::string::npos) << B.What;
  EXPECT_GE(countMatches(C.Ptx, R"(cp\.async\.cg)"), 1);
}

/// A matmul whose a is read M-contiguous and b K-contiguous (a = A^T's
/// rows, b = B^T's: `offs_m[:, None] + offs_k[None, :] * stride_ak`).
const char *TransposedMatmul = R"(
@triton.jit
def mm_t(a_ptr, b_ptr, c_ptr, M, N, K, stride_ak, stride_bn, stride_cm,
         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] + (k + offs_k[None, :]) * stride_ak)
        b = tl.load(b_ptr + (k + offs_k[:, None]) + offs_n[None, :] * stride_bn)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16))
)";

TEST(Wgmma, TransposedOperandsAreReadInTheOtherMajorMode) {
  // a M-major (imm-trans-a 1) and b K-major (imm-trans-b 0), both from
  // transposed rings of num_stages stages; ptxas assembles it.
  SnippetKernel K = parseSnippet(TransposedMatmul);
  LoweringRequest R;
  R.Kernel = "mm_t";
  R.NumWarps = 4;
  R.NumStages = 3;
  R.Constexprs["BLOCK_M"] = PyValue::integer(128);
  R.Constexprs["BLOCK_N"] = PyValue::integer(128);
  R.Constexprs["BLOCK_K"] = PyValue::integer(64);
  R.ArgTypes = {{"a_ptr", ElemType{ScalarKind::FP16, 1}}, {"b_ptr", ElemType{ScalarKind::FP16, 1}},
                {"c_ptr", ElemType{ScalarKind::FP16, 1}}, {"M", ElemType{ScalarKind::I32}},
                {"N", ElemType{ScalarKind::I32}},         {"K", ElemType{ScalarKind::I32}},
                {"stride_ak", ElemType{ScalarKind::I32}}, {"stride_bn", ElemType{ScalarKind::I32}},
                {"stride_cm", ElemType{ScalarKind::I32}}};
  Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  // Two m64n128 accumulators (BLOCK_M 128 on one warpgroup), 4 k steps each.
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async.*, p, 1, 1, 1, 0;)"), 8) << C.Ptx.substr(0, 3000);
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async)"), 8);
  EXPECT_EQ(C.ABI.SharedBytes, 3u * (128 * 64 + 64 * 128) * 2);
  int Transposed = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    Transposed += B.Kind == SharedBufferKind::PipelineStage && B.What.find("NVMMA transposed") != std::string::npos;
  EXPECT_EQ(Transposed, 2);
}

const char *Fp8Matmul = R"(
@triton.jit
def mm_fp8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_bn, stride_cm,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k + offs_k[None, :]))
        b = tl.load(b_ptr + (k + offs_k[:, None]) * stride_bk + offs_n[None, :] * stride_bn)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16))
)";

/// mm_fp8 at 128x256x64 on 8 warps, 3 stages, b K-major (stride_bk 1, as
/// tutorial 03's fp8 benchmark) or N-major (stride_bn 1).
Compiled compileTyped(ScalarKind AType, ScalarKind BType, bool KMajorB, unsigned NumWarps, int64_t BM, int64_t BN,
                      int64_t BK, unsigned Stages) {
  SnippetKernel K = parseSnippet(Fp8Matmul);
  LoweringRequest R;
  R.Kernel = "mm_fp8";
  R.NumWarps = NumWarps;
  R.NumStages = Stages;
  R.Constexprs["BLOCK_M"] = PyValue::integer(BM);
  R.Constexprs["BLOCK_N"] = PyValue::integer(BN);
  R.Constexprs["BLOCK_K"] = PyValue::integer(BK);
  R.EqualToOne = {KMajorB ? "stride_bk" : "stride_bn"};
  R.ArgTypes = {{"a_ptr", ElemType{AType, 1}},
                {"b_ptr", ElemType{BType, 1}},
                {"c_ptr", ElemType{ScalarKind::FP16, 1}},
                {"M", ElemType{ScalarKind::I32}},
                {"N", ElemType{ScalarKind::I32}},
                {"K", ElemType{ScalarKind::I32}},
                {"stride_am", ElemType{ScalarKind::I32}},
                {"stride_cm", ElemType{ScalarKind::I32}},
                {"stride_bk", ElemType{ScalarKind::I32}},
                {"stride_bn", ElemType{ScalarKind::I32}}};
  return compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
}

Compiled compileFp8(bool KMajorB, unsigned NumWarps = 8, int64_t BM = 128, int64_t BN = 256, int64_t BK = 64,
                    unsigned Stages = 3) {
  return compileTyped(ScalarKind::FP8E4NV, ScalarKind::FP8E5, KMajorB, NumWarps, BM, BN, BK, Stages);
}

TEST(Wgmma, Tf32ReadsBothOperandsKMajorAtK8) {
  // Triton 3.6 runs an fp32 dot at tf32 precision on wgmma (supportMMA
  // takes F32 at version 3): m64nNk8 .tf32 with no transpose flags, both
  // operands K-major (AccelerateMatmul's allowTranspose is false for
  // them), num_stages rings of 4-byte elements where the load is K-major.
  Compiled C = compileTyped(ScalarKind::FP32, ScalarKind::FP32, true, 8, 128, 128, 32, 3);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  // Two warpgroups along M, one m64n128 accumulator each, K / 8 = 4 steps.
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async\.sync\.aligned\.m64n128k8\.f32\.tf32\.tf32 .*, p, 1, 1;)"), 4)
      << C.Ptx.substr(0, 3000);
  EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync)"), 0);
  EXPECT_EQ(C.ABI.SharedBytes, 3u * (128 * 32 + 32 * 128) * 4);
  int Transposed = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    Transposed += B.Kind == SharedBufferKind::PipelineStage && B.What.find("NVMMA transposed") != std::string::npos;
  EXPECT_EQ(Transposed, 1);
  // b N-major: its ring is K-major all the same, filled by one 4-byte
  // cp.async per element (Triton's shared memory on the H100 is the same
  // 98304 bytes either way: bench/RESULTS.md).
  Compiled N = compileTyped(ScalarKind::FP32, ScalarKind::FP32, false, 8, 128, 128, 32, 3);
  ASSERT_EQ(N.Error, "");
  EXPECT_TRUE(N.Kernel.assembled());
  EXPECT_EQ(countMatches(N.Ptx, R"(wgmma\.mma_async\.sync\.aligned\.m64n128k8\.f32\.tf32\.tf32 .*, p, 1, 1;)"), 4);
  EXPECT_EQ(N.ABI.SharedBytes, C.ABI.SharedBytes);
  Transposed = 0;
  for (const SharedBuffer &B : N.ABI.SharedBuffers) {
    Transposed += B.Kind == SharedBufferKind::PipelineStage && B.What.find("NVMMA transposed") != std::string::npos;
    EXPECT_NE(B.Kind, SharedBufferKind::DotOperand) << B.What;
  }
  EXPECT_EQ(Transposed, 1);
  EXPECT_GT(countMatches(N.Ptx, R"(cp\.async\.ca\.shared\.global \[ %r\d+ \+ \d+ \], \[ %rd\d+ \+ 0 \], 4)"), 0);
  // The four elements a thread reads along N are one pointer plus 4, 8 and
  // 12 bytes, not four pointers kept live across the loop.
  EXPECT_GT(countMatches(N.Ptx, R"(cp\.async\.ca\.shared\.global \[ %r\d+ \+ \d+ \], \[ %rd\d+ \+ 12 \], 4)"), 0);
  // An N of 8 is not Triton's wgmma N (a multiple of 16): no wgmma.
  Compiled S = compileTyped(ScalarKind::FP16, ScalarKind::FP16, true, 4, 64, 8, 32, 3);
  ASSERT_EQ(S.Error, "");
  EXPECT_TRUE(S.Kernel.assembled());
  EXPECT_EQ(countMatches(S.Ptx, R"(wgmma\.mma_async)"), 0);
}

TEST(Wgmma, AWordLoadFeedingTheDotIsPipelinedOneElementACopy) {
  // lightllm's int4 dequantizing matmul: the zero points are read one i32
  // per 8 columns (`offs_n // 8`), a load with no contiguous order. Triton
  // pipelines every load a dot operand is computed from whose copies are 32
  // bits or more (AssignLatencies, canBeConvertedToAsyncLoad), so z gets
  // its ring like b: 196608 bytes for the library's config on the H100.
  SnippetKernel K = parseSnippet(R"(
@triton.jit
def dequant_mm(a_ptr, b_ptr, z_ptr, c_ptr, K, stride_am, stride_bk, stride_zk,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k + offs_k[None, :]))
        b = tl.load(b_ptr + (k + offs_k[:, None]) * stride_bk + offs_n[None, :])
        z = tl.load(z_ptr + (k + offs_k[:, None]) * stride_zk + offs_n[None, :] // 8)
        acc = tl.dot(a, (b - z).to(tl.float16), acc)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], acc)
)");
  LoweringRequest R;
  R.Kernel = "dequant_mm";
  R.NumWarps = 4;
  R.NumStages = 3;
  R.Constexprs["BLOCK_M"] = PyValue::integer(64);
  R.Constexprs["BLOCK_N"] = PyValue::integer(128);
  R.Constexprs["BLOCK_K"] = PyValue::integer(32);
  R.ArgTypes = {{"a_ptr", ElemType{ScalarKind::FP16, 1}}, {"b_ptr", ElemType{ScalarKind::I32, 1}},
                {"z_ptr", ElemType{ScalarKind::I32, 1}},  {"c_ptr", ElemType{ScalarKind::FP32, 1}},
                {"K", ElemType{ScalarKind::I32}},         {"stride_am", ElemType{ScalarKind::I32}},
                {"stride_bk", ElemType{ScalarKind::I32}}, {"stride_zk", ElemType{ScalarKind::I32}}};
  Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  int WordRings = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    WordRings += B.Kind == SharedBufferKind::PipelineStage && B.What.find("32x128 i32") != std::string::npos;
  EXPECT_EQ(WordRings, 2); // b and z
}

TEST(Wgmma, Fp8ReadsBothOperandsKMajorAtK32) {
  // Triton's Hopper fp8 dot: m64n256k32 with no transpose flags (fp8
  // operands are K-major only), a from a row-major ring and b from a
  // transposed one, num_stages stages of 1-byte elements: tutorial 03's
  // 73728 bytes for 128x256x64 at 3 stages.
  Compiled C = compileFp8(true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  // Two warpgroups along M, one m64n256 accumulator each, K / 32 = 2 steps.
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async\.sync\.aligned\.m64n256k32\.f32\.e4m3\.e5m2 .*, p, 1, 1;)"), 2)
      << C.Ptx.substr(0, 3000);
  EXPECT_EQ(C.ABI.SharedBytes, 3u * (128 * 64 + 64 * 256));
  int Transposed = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    Transposed += B.Kind == SharedBufferKind::PipelineStage && B.What.find("NVMMA transposed") != std::string::npos;
  EXPECT_EQ(Transposed, 1);
  // b N-major: wgmma cannot read fp8 that way, so b is not put in a ring
  // but staged K-major (transposed) at each iteration; a keeps its ring.
  Compiled N = compileFp8(false);
  ASSERT_EQ(N.Error, "");
  EXPECT_TRUE(N.Kernel.assembled());
  EXPECT_EQ(countMatches(N.Ptx, R"(wgmma\.mma_async\.sync\.aligned\.m64n256k32\.f32\.e4m3\.e5m2 .*, p, 1, 1;)"), 2);
  int Rings = 0;
  for (const SharedBuffer &B : N.ABI.SharedBuffers)
    Rings += B.Kind == SharedBufferKind::PipelineStage;
  EXPECT_EQ(Rings, 1);
}

TEST(Wgmma, TwoWarpsOfFp8KeepTheirOperandsInCpAsyncRings) {
  // Tutorial 03's fp8 run at 64x32x32 on 2 warps, 5 stages: no warpgroup,
  // so mma.sync, reading a row major and b transposed (the way the
  // tutorial's b, K-major, is loaded) as bytes and widening them to fp16 in
  // registers, as Triton's PTX on the H100 does. Triton keeps
  // both in cp.async rings of num_stages - 1 = 4 stages: 4 x (2048 + 1024)
  // = 12288 bytes (its metadata["shared"]), nothing staged per iteration.
  Compiled C = compileFp8(true, 2, 64, 32, 32, 5);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma)"), 0);
  EXPECT_EQ(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k32)"), 0);
  EXPECT_GT(countMatches(C.Ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 0);
  EXPECT_GT(countMatches(C.Ptx, R"(cvt\.rn\.f16x2\.e5m2x2)"), 0);
  EXPECT_EQ(C.ABI.SharedBytes, 12288u);
  int Rings = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers) {
    Rings += B.Kind == SharedBufferKind::PipelineStage && B.Stages == 4;
    EXPECT_NE(B.Kind, SharedBufferKind::DotOperand) << B.What;
  }
  EXPECT_EQ(Rings, 2);
  // b N-major: the 8-bit instruction's words of four k are not in a row of
  // the load, so b is staged (transposed) by the dot at each iteration.
  Compiled N = compileFp8(false, 2, 64, 32, 32, 5);
  ASSERT_EQ(N.Error, "");
  Rings = 0;
  for (const SharedBuffer &B : N.ABI.SharedBuffers)
    Rings += B.Kind == SharedBufferKind::PipelineStage;
  EXPECT_EQ(Rings, 1);
}

TEST(Wgmma, TwoWarpsStayOnMmaSyncWithTritonsRing) {
  // Tutorial 03's 64x32x32 on 2 warps: no warpgroup, so Triton uses
  // mma.sync and num_stages - 1 stages, whatever the options.
  SnippetKernel K = matmulSample();
  LoweringRequest R = request(64, 32, 32, 5, 2);
  Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, /*Wgmma=*/true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma)"), 0);
  EXPECT_EQ(C.ABI.SharedBytes, 4u * (64 * 32 + 32 * 32) * 2);
}

} // namespace
} // namespace tessel::codegen::test
