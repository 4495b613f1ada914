//===- TensormapCreateTest.cpp - tensor maps a kernel builds on sm_90 -----===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// lower/TensormapCreate.cpp in the PTX: on sm_90 a tl.make_tensor_descriptor
/// whose blocks TMA copies writes its map into shared memory field by field
/// (`tensormap.replace`), releases it to the program's slot of global
/// scratch and acquires it there before the copies read it, as Triton 3.6
/// does; the kernel asks for 128 bytes of global scratch per map and
/// program. Elsewhere (sm_80, a descriptor made in a loop) the pointer form
/// stays and no scratch is asked for. ptxas assembles every case.
//===----------------------------------------------------------------------===//
#include "CodegenTestSupport.h"

#include <gtest/gtest.h>

namespace tessel::codegen::test {
namespace {

using sema::LoweringRequest;

const char *DeviceCopyKernel = R"(@triton.jit
def dev_copy(x_ptr, y_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    x = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BLOCK_M, BLOCK_N])
    y = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BLOCK_M, BLOCK_N],
                                  padding_option="nan")
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = x.load([pm * BLOCK_M, pn * BLOCK_N])
    y.store([pm * BLOCK_M, pn * BLOCK_N], t * 2 + 1)
)";

/// The same descriptor made afresh in every iteration of a loop.
const char *LoopKernel = R"(@triton.jit
def loop_copy(x_ptr, y_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pn = tl.program_id(0)
    for pm in range(0, 4):
        x = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BLOCK_M, BLOCK_N])
        t = x.load([pm * BLOCK_M, pn * BLOCK_N])
        tl.store(y_ptr + pm * BLOCK_M * BLOCK_N + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N
                 + tl.arange(0, BLOCK_N)[None, :], t)
)";

LoweringRequest request(const char *Kernel, int64_t BM, int64_t BN, ScalarKind Elem = ScalarKind::FP16) {
  LoweringRequest R;
  R.Kernel = Kernel;
  R.NumWarps = 4;
  R.Constexprs["BLOCK_M"] = PyValue::integer(BM);
  R.Constexprs["BLOCK_N"] = PyValue::integer(BN);
  for (const char *P : {"x_ptr", "y_ptr"})
    R.ArgTypes[P] = ElemType{Elem, 1};
  for (const char *P : {"M", "N", "stride_m"})
    R.ArgTypes[P] = ElemType{ScalarKind::I32};
  return R;
}

TEST(TensormapCreate, DeviceDescriptorsBuildTheirMapsInGlobalScratch) {
  SnippetKernel K = parseSnippet(DeviceCopyKernel);
  Compiled C = compileRequest(*K.File, K.Info, request("dev_copy", 64, 64), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(C.Error, "");
  EXPECT_TRUE(C.Kernel.assembled());
  // No host maps: the pointers and ints as they are, then the two scratch pointers.
  EXPECT_TRUE(C.ABI.Tma.empty());
  EXPECT_EQ(C.Kernel.Params.size(), 7u);
  EXPECT_EQ(C.ABI.GlobalScratchBytes, 256u); // two maps of 128 bytes per program
  // Each map: zeroed by warp 0, its fields written by thread 0, innermost dimension first.
  EXPECT_EQ(countMatches(C.Ptx, R"(st\.shared\.b32 \[%r\d+\], 0;)"), 2) << C.Ptx;
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.global_address\.shared::cta\.b1024\.b64 \[%r\d+\], %rd\d+;)"),
            2);
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.rank\.shared::cta\.b1024\.b32 \[%r\d+\], 1;)"), 2);
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.box_dim\.shared::cta\.b1024\.b32 \[%r\d+\], [01], %r\d+;)"),
            4);
  EXPECT_EQ(
      countMatches(C.Ptx, R"(tensormap\.replace\.tile\.global_dim\.shared::cta\.b1024\.b32 \[%r\d+\], [01], %r\d+;)"),
      4);
  EXPECT_EQ(
      countMatches(C.Ptx, R"(tensormap\.replace\.tile\.global_stride\.shared::cta\.b1024\.b64 \[%r\d+\], 0, %rd\d+;)"),
      2);
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.element_stride\.shared::cta\.b1024\.b32)"), 4);
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.elemtype\.shared::cta\.b1024\.b32 \[%r\d+\], 6;)"), 2);
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.swizzle_mode\.shared::cta\.b1024\.b32 \[%r\d+\], 3;)"), 2);
  // Zero fill for x, NaN fill for y (padding="nan").
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.fill_mode\.shared::cta\.b1024\.b32 \[%r\d+\], 0;)"), 1);
  EXPECT_EQ(countMatches(C.Ptx, R"(tensormap\.replace\.tile\.fill_mode\.shared::cta\.b1024\.b32 \[%r\d+\], 1;)"), 1);
  // Released to global scratch, acquired there (with Triton's commit / wait after the fence).
  EXPECT_EQ(countMatches(
                C.Ptx,
                R"(tensormap\.cp_fenceproxy\.global\.shared::cta\.tensormap::generic\.release\.gpu\.sync\.aligned \[%rd\d+\], \[%r\d+\], 128;)"),
            2);
  EXPECT_EQ(countMatches(C.Ptx, R"(fence\.proxy\.tensormap::generic\.acquire\.gpu \[%rd\d+\], 128;)"), 2);
  // The copies read the built maps: one box in, one box out, nothing through pointers.
  EXPECT_EQ(
      countMatches(
          C.Ptx,
          R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes \[%r\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\];)"),
      1);
  EXPECT_EQ(
      countMatches(
          C.Ptx,
          R"(cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\];)"),
      1);
  EXPECT_EQ(countMatches(C.Ptx, R"(ld\.global|st\.global)"), 0);
  // The map's template is shared memory only while it is written: the block's buffer and barrier take the rest.
  unsigned Maps = 0;
  for (const SharedBuffer &B : C.ABI.SharedBuffers)
    Maps += B.Kind == SharedBufferKind::TensorMap && B.Bytes == 128;
  EXPECT_EQ(Maps, 2u);
  EXPECT_EQ(C.ABI.SharedBytes, 8200u);
}

TEST(TensormapCreate, PointerFormWithoutTmaAndInLoops) {
  SnippetKernel K = parseSnippet(DeviceCopyKernel);
  Compiled A = compileRequest(*K.File, K.Info, request("dev_copy", 64, 64), 80, /*Assemble=*/true);
  ASSERT_EQ(A.Error, "");
  EXPECT_EQ(A.ABI.GlobalScratchBytes, 0u);
  EXPECT_EQ(countMatches(A.Ptx, R"(tensormap|cp\.async\.bulk|mbarrier)"), 0);
  EXPECT_GT(countMatches(A.Ptx, R"(ld\.global)"), 0);
  // Rows of 16 bytes have no NVMMA swizzle for a box: no map on sm_90 either.
  Compiled N = compileRequest(*K.File, K.Info, request("dev_copy", 64, 8), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(N.Error, "");
  EXPECT_EQ(N.ABI.GlobalScratchBytes, 0u);
  EXPECT_EQ(countMatches(N.Ptx, R"(tensormap|cp\.async\.bulk)"), 0);
  // A map rewritten every iteration could be read by a copy of the next one: the pointer form.
  SnippetKernel L = parseSnippet(LoopKernel);
  Compiled P = compileRequest(*L.File, L.Info, request("loop_copy", 64, 64), 90, /*Assemble=*/true, {}, true, true);
  ASSERT_EQ(P.Error, "");
  EXPECT_EQ(P.ABI.GlobalScratchBytes, 0u);
  EXPECT_EQ(countMatches(P.Ptx, R"(tensormap)"), 0);
  EXPECT_GT(countMatches(P.Ptx, R"(ld\.global)"), 0);
}

TEST(TensormapCreate, TheScratchSizeSurvivesTheCache) {
  SnippetKernel K = parseSnippet(DeviceCopyKernel);
  Compiled C = compileRequest(*K.File, K.Info, request("dev_copy", 64, 128), 90, /*Assemble=*/false, {}, true, true);
  ASSERT_EQ(C.Error, "");
  backend::adoptABI(C.Kernel, C.ABI);
  EXPECT_EQ(C.Kernel.GlobalScratchBytes, 256u);
  llvm::Expected<backend::CompiledKernel> Back = backend::deserialize(backend::serialize(C.Kernel));
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->GlobalScratchBytes, 256u);
}

} // namespace
} // namespace tessel::codegen::test
