//===- TmaTest.cpp - host descriptors as tensor maps on sm_90 -------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// TmaDescriptors.h and lower/Tma.cpp in the PTX: on sm_90 a host
/// TensorDescriptor parameter is Triton's `nvTmaDesc` (a 128-byte, 64-byte
/// aligned parameter, then the i32 shape and the i64 strides), its loads
/// are `cp.async.bulk.tensor` copies into an NVMMA buffer completing on an
/// mbarrier, its stores bulk copies out of one after a proxy fence; on
/// sm_80, or for a block TMA cannot copy, the pointer form stays with
/// Triton's expanded parameters. ptxas assembles every case.
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include "compiler/backend/Jit.h"
#include "compiler/codegen/TmaDescriptors.h"

#include <gtest/gtest.h>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

const char *CopyKernel = R"(@triton.jit
def desc_copy(x, y, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = x.load([pm * BLOCK_M, pn * BLOCK_N])
    y.store([pm * BLOCK_M, pn * BLOCK_N], t * 2 + 1)
)";

LoweringRequest copyRequest(int64_t BM, int64_t BN, ScalarKind Elem = ScalarKind::FP16) {
  LoweringRequest R;
  R.Kernel = "desc_copy";
  R.NumWarps = 4;
  R.Constexprs["BLOCK_M"] = PyValue::integer(BM);
  R.Constexprs["BLOCK_N"] = PyValue::integer(BN);
  for (const char *P : {"x", "y"}) {
    R.ArgTypes[P] = ElemType{Elem, 1};
    R.DescriptorBlocks[P] = {BM, BN};
  }
  return R;
}

TEST(Tma, HostDescriptorsAreTensorMapsOnSm90) {
  SnippetKernel K = parseSnippet(CopyKernel);
  Compiled C = compileRequest(*K.File, K.Info, copyRequest(64, 64), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  // Triton's expanded signature with tensordesc_meta: map, shape (i32), strides (i64), per descriptor.
  EXPECT_EQ(countMatches(C.Ptx, R"(\.param \.align 64 \.b8 desc_copy_param_[05]\[128\])"), 2) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(\.param \.u32 desc_copy_param_[1267])"), 4);
  EXPECT_EQ(countMatches(C.Ptx, R"(\.param \.u64 desc_copy_param_[3489],)"), 4);
  EXPECT_EQ(C.Kernel.Params.size(), 12u); // 2 x (1 + 2 + 2), then the two scratch pointers
  // The maps are read in place (grid constants), never copied to local memory.
  EXPECT_GE(countMatches(C.Ptx, R"(cvta\.param\.u64)"), 2);
  EXPECT_EQ(countMatches(C.Ptx, R"(st\.local|ld\.local)"), 0);
  // The load: barrier armed with the block's bytes, one 64 x 64 box, the wait on phase 0.
  EXPECT_EQ(countMatches(C.Ptx, R"(mbarrier\.init\.shared::cta\.b64 \[%r\d+\], 1;)"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[%r\d+\], 8192;)"), 1);
  EXPECT_EQ(
      countMatches(
          C.Ptx,
          R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes \[%r\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\];)"),
      1);
  EXPECT_EQ(countMatches(C.Ptx, R"(mbarrier\.try_wait\.parity\.shared::cta\.b64 complete, \[%r\d+\], %r\d+;)"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(mbarrier\.inval\.shared::cta\.b64)"), 1);
  // Read back in 16-byte vectors (the buffer's rows are contiguous whatever the pointers say).
  EXPECT_EQ(countMatches(C.Ptx, R"(ld\.shared\.v4\.b32)"), 4);
  // The store: staged, fenced for the async proxy, one bulk copy, waited for before the buffer is reused.
  EXPECT_EQ(countMatches(C.Ptx, R"(fence\.proxy\.async\.shared::cta;)"), 1);
  EXPECT_EQ(
      countMatches(
          C.Ptx,
          R"(cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\];)"),
      1);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.bulk\.wait_group\.read 0;)"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global|st\.global)"), 0);
  // What the launcher encodes the maps with (Triton's tensordesc_meta).
  ASSERT_EQ(C.ABI.Tma.size(), 2u);
  const TmaDescriptorMeta &X = C.ABI.Tma[0];
  EXPECT_EQ(X.Param, 0u);
  EXPECT_EQ(C.ABI.Tma[1].Param, 11u);
  EXPECT_EQ(X.ElemType, 6u); // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  EXPECT_EQ(X.Swizzle, 3u);  // 128B
  EXPECT_EQ(X.Box, (std::vector<uint32_t>{64, 64}));
  // The buffer (8192 bytes) and its barrier; the store's buffer reuses the load's bytes.
  EXPECT_EQ(C.ABI.SharedBytes, 8200u);
}

/// Attention's forward as tutorial 06 writes it with host descriptors: q
/// loaded once, k (transposed) and v in the loop, two wgmma dots.
const char *AttentionKernel = R"(@triton.jit
def attn(desc_q, desc_k, desc_v, desc_o, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0)
    off = start_m * BLOCK_M
    q = desc_q.load([off, 0])
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    offk = 0
    for start_n in tl.range(0, N_CTX, BLOCK_N):
        k = desc_k.load([offk, 0]).T
        qk = tl.dot(q, k)
        p = tl.exp2(qk - tl.max(qk, 1)[:, None])
        v = desc_v.load([offk, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        offk += BLOCK_N
    desc_o.store([off, 0], acc.to(tl.float16))
)";

LoweringRequest attentionRequest(int64_t BM, int64_t BN, int64_t D, unsigned Stages) {
  LoweringRequest R;
  R.Kernel = "attn";
  R.NumWarps = 4;
  R.NumStages = Stages;
  R.Constexprs["BLOCK_M"] = PyValue::integer(BM);
  R.Constexprs["BLOCK_N"] = PyValue::integer(BN);
  R.Constexprs["HEAD_DIM"] = PyValue::integer(D);
  R.ArgTypes["N_CTX"] = ElemType{ScalarKind::I32};
  for (const char *P : {"desc_q", "desc_k", "desc_v", "desc_o"})
    R.ArgTypes[P] = ElemType{ScalarKind::FP16, 1};
  R.DescriptorBlocks["desc_q"] = R.DescriptorBlocks["desc_o"] = {BM, D};
  R.DescriptorBlocks["desc_k"] = R.DescriptorBlocks["desc_v"] = {BN, D};
  return R;
}

TEST(Tma, LoopLoadsFillRingsThatWgmmaReadsInPlace) {
  // Triton 3.6's figure for tutorial 06's forward at BLOCK_M 64, BLOCK_N 64,
  // HEAD_DIM 64, 3 stages: q's buffer 8192 + a ring of 3 x 8192 for k and
  // one for v + their mbarriers (two arrays of 3 x 8 bytes, 16-byte aligned)
  // = 57400 bytes (bench/hopper/triton-3.6-tutorial-figures.jsonl).
  SnippetKernel K = parseSnippet(AttentionKernel);
  Compiled C = compileRequest(*K.File, K.Info, attentionRequest(64, 64, 64, 3), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(C.ABI.SharedBytes, 57400u);
  unsigned Rings = 0, RingBarriers = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers) {
    Rings += B.Kind == SharedBufferKind::PipelineStage && B.Bytes == 3 * 8192 && B.Stages == 3;
    RingBarriers += B.Kind == SharedBufferKind::Barrier && B.Bytes == 24;
    EXPECT_NE(B.Kind, SharedBufferKind::DotOperand) << B.What; // no operand staged from registers
    EXPECT_NE(B.Kind, SharedBufferKind::LayoutConversion) << B.What;
  }
  EXPECT_EQ(Rings, 2u);
  EXPECT_EQ(RingBarriers, 2u);
  // Copies: q once, k and v twice in the prologue (3 stages) and once in the loop, each one 64 x 64 box.
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster)"), 1 + 2 * 2 + 2);
  // 1 + 2 x 3 barriers initialised; the loop waits on its stage's, at the ring's phase.
  EXPECT_EQ(countMatches(C.Ptx, R"(mbarrier\.init\.shared::cta\.b64)"), 7);
  EXPECT_EQ(countMatches(C.Ptx, R"(mbarrier\.try_wait\.parity)"), 3);
  // Both dots on wgmma, q and k from shared memory (k K-major: the ring holds it transposed), p from
  // registers; nothing of q, k or v is read into registers, nothing goes through cp.async.
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16 \{)"), 8);
  EXPECT_EQ(countMatches(C.Ptx, R"(ld\.shared\.v4)"), 0);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.(ca|cg))"), 0);
  // Triton's loop: k's stage waited for before q·k, v's only before p·v (where each load stands); p·v's
  // group stays in flight into the next iteration, whose q·k wait completes it; then a barrier and the
  // copies ahead, which refill the stage p·v of the previous iteration read.
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.wait_group\.sync\.aligned 1;)"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(wgmma\.wait_group\.sync\.aligned 0;)"), 2); // q·k, and after the loop
  size_t QkWait = C.Ptx.find("wgmma.wait_group.sync.aligned 0;");
  size_t VWait = C.Ptx.find("mbarrier.try_wait.parity", QkWait);
  size_t PvWait = C.Ptx.find("wgmma.wait_group.sync.aligned 1;");
  size_t Refill = C.Ptx.find("cp.async.bulk.tensor.2d.shared::cluster", PvWait);
  ASSERT_NE(QkWait, std::string::npos);
  EXPECT_LT(VWait, PvWait);
  EXPECT_LT(Refill, C.Ptx.find("wgmma.wait_group.sync.aligned 0;", QkWait + 1));
}

/// The same in fp8 as tutorial 06 runs it (FP8_OUTPUT): v transposed on the
/// host, so its block is [HEAD_DIM, BLOCK_N] and read through `.T`.
const char *Fp8AttentionKernel = R"(@triton.jit
def attn(desc_q, desc_k, desc_v, desc_o, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0)
    off = start_m * BLOCK_M
    q = desc_q.load([off, 0])
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    offk = 0
    for start_n in tl.range(0, N_CTX, BLOCK_N):
        k = desc_k.load([offk, 0]).T
        qk = tl.dot(q, k)
        p = tl.exp2(qk - tl.max(qk, 1)[:, None])
        v = desc_v.load([0, offk]).T
        acc = tl.dot(p.to(tl.float8e5), v, acc)
        offk += BLOCK_N
    desc_o.store([off, 0], acc.to(tl.float8e5))
)";

TEST(Tma, Fp8AttentionFeedsPToWgmmaFromRegisters) {
  // fp8's m64nNk32 takes four consecutive k per A register, which the q·k
  // accumulator spreads over two lanes: p reaches wgmma through warp
  // shuffles and prmt (Triton's convert_layout to dot_op<kWidth = 4>), not
  // through shared memory. Triton 3.6's figure for tutorial 06 at BM 64,
  // BN 64, D 64, fp8, 3 stages: 28728 bytes (q 4096 + two rings of 3 x 4096
  // + barriers), p taking none of it.
  SnippetKernel K = parseSnippet(Fp8AttentionKernel);
  LoweringRequest R = attentionRequest(64, 64, 64, 3);
  for (const char *P : {"desc_q", "desc_k", "desc_v", "desc_o"})
    R.ArgTypes[P] = ElemType{ScalarKind::FP8E5, 1};
  R.DescriptorBlocks["desc_v"] = {64, 64};
  Compiled C = compileRequest(*K.File, K.Info, R, 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  EXPECT_EQ(C.ABI.SharedBytes, 28728u);
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    EXPECT_NE(B.Kind, SharedBufferKind::DotOperand) << B.What;
  // p·v: BN / 32 = 2 k steps, a from four registers, no transpose flags.
  EXPECT_EQ(countMatches(C.Ptx, R"(m64n64k32\.f32\.e5m2\.e5m2 \{[^}]*\}, \{%r\d+, %r\d+, %r\d+, %r\d+\}, %rd\d+, p, 1, 1;)"),
            2)
      << C.Ptx.substr(0, 3000);
  // Two shuffles and one prmt per A register: 4 registers x 2 k steps.
  EXPECT_EQ(countMatches(C.Ptx, R"(shfl\.sync\.idx\.b32)"), 16);
  EXPECT_EQ(countMatches(C.Ptx, R"(prmt\.b32)"), 8);
}

TEST(Tma, WideBlocksTakeOneCopyPerSwizzleWidth) {
  // 64 x 128 fp16: rows of 256 bytes, two boxes of 64 columns (128 bytes), each 64 x 128 B
  // apart in the buffer; fp32 32 x 32 likewise fits one 128-byte box.
  SnippetKernel K = parseSnippet(CopyKernel);
  Compiled C = compileRequest(*K.File, K.Info, copyRequest(64, 128), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster)"), 2);
  EXPECT_EQ(countMatches(C.Ptx, R"(cp\.async\.bulk\.tensor\.2d\.global\.shared::cta)"), 2);
  EXPECT_EQ(countMatches(C.Ptx, R"(expect_tx\.shared::cta\.b64 _, \[%r\d+\], 16384;)"), 1);
  EXPECT_EQ(C.ABI.Tma[0].Box, (std::vector<uint32_t>{64, 64}));
  Compiled F = compileRequest(*K.File, K.Info, copyRequest(32, 32, ScalarKind::FP32), 90, true, {}, true, true);
  ASSERT_EQ(F.Error, "");
  ASSERT_EQ(F.ABI.Tma.size(), 2u);
  EXPECT_EQ(F.ABI.Tma[0].ElemType, 7u); // FLOAT32
  EXPECT_EQ(F.ABI.Tma[0].Box, (std::vector<uint32_t>{32, 32}));
}

TEST(Tma, PointerFormWhereTmaDoesNotApply) {
  SnippetKernel K = parseSnippet(CopyKernel);
  // sm_80 has no tensor memory accelerator: Triton's parameters for a descriptor not lowered to TMA.
  Compiled A = compileRequest(*K.File, K.Info, copyRequest(64, 64), 80, /*Assemble=*/true);
  ASSERT_EQ(A.Error, "");
  EXPECT_TRUE(A.ABI.Tma.empty());
  EXPECT_EQ(countMatches(A.Ptx, R"(cp\.async\.bulk|mbarrier|\.b8 desc_copy_param)"), 0);
  EXPECT_EQ(A.Kernel.Params.size(), 24u); // 2 x 11, then the scratch pointers
  EXPECT_GT(countMatches(A.Ptx, R"(ld\.global)"), 0);
  // Rows of 16 bytes have no NVMMA swizzle for a box: the pointer form on sm_90 too.
  Compiled N = compileRequest(*K.File, K.Info, copyRequest(64, 8), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(N.Error, "");
  EXPECT_TRUE(N.ABI.Tma.empty());
  EXPECT_EQ(countMatches(N.Ptx, R"(cp\.async\.bulk)"), 0);
}

TEST(Tma, CompiledKernelsKeepTheirMapsThroughTheCache) {
  SnippetKernel K = parseSnippet(CopyKernel);
  Compiled C = compileRequest(*K.File, K.Info, copyRequest(64, 128), 90, /*Assemble=*/false, {}, true, true);
  ASSERT_EQ(C.Error, "");
  backend::adoptABI(C.Kernel, C.ABI);
  llvm::Expected<backend::CompiledKernel> Back = backend::deserialize(backend::serialize(C.Kernel));
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->Tma.size(), 2u);
  EXPECT_EQ(Back->Tma[1].Param, C.ABI.Tma[1].Param);
  EXPECT_EQ(Back->Tma[1].Box, C.ABI.Tma[1].Box);
  EXPECT_EQ(Back->Tma[1].Swizzle, 3u);
  // A map list cut short is refused, not read past.
  std::string Bytes = backend::serialize(*Back);
  Bytes.resize(Bytes.size() - 4);
  EXPECT_FALSE(static_cast<bool>(backend::deserialize(Bytes)));
  llvm::consumeError(backend::deserialize(Bytes).takeError());
}

} // namespace
} // namespace tessel::codegen::test
