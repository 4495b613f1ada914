//===- AxisInfoTest.cpp - facts the mask merging and vectorization rely on -===//
/// \file
/// AxisInfo on lowered kernels: what a compare is constant over decides
/// which mask registers a thread computes once (LoweringContext's merging
/// of constant runs), so a run claimed too long is a wrong mask on the GPU.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/AxisInfo.h"
#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/ir/Ops.h"
#include "compiler/sema/Lowering.h"

#include <gtest/gtest.h>

namespace tessel::codegen {
namespace {

/// The AxisInfo of every compare of K's body, in order.
std::vector<AxisInfo> compares(const std::string &Src, const sema::LoweringRequest &R) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "k.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  sema::LoweredKernel L = sema::lowerKernel(*File, Info, R);
  EXPECT_TRUE(L.Function);
  std::vector<AxisInfo> Out;
  if (!L.Function)
    return Out;
  AxisInfoAnalysis AI(*L.Function, {"n"});
  for (const auto &O : L.Function->body().ops())
    if (O->kind() == ir::OpKind::Cmp)
      Out.push_back(AI.get(O->result()));
  return Out;
}

TEST(AxisInfo, ABroadcastRangeIsNoAlignedConstantAlongItsNewAxis) {
  // The causal mask: offs_m[:, None] >= offs_n[None, :] changes along a row
  // wherever offs_m does, whatever the block offsets' alignment (Triton's
  // ExpandDims rule counts [2^n, 2^n + 1, ...] as divisible by 1).
  sema::LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"o_ptr", ElemType{ScalarKind::I32, 1}}, {"n", ElemType{ScalarKind::I32}}};
  std::vector<AxisInfo> C = compares(R"(import triton
import triton.language as tl

@triton.jit
def k(o_ptr, n):
    offs_m = tl.program_id(0) * 64 + tl.arange(0, 64)
    offs_n = tl.program_id(1) * 32 + tl.arange(0, 32)
    causal = offs_m[:, None] >= offs_n[None, :]
    valid = offs_n[None, :] < n
    tl.store(o_ptr + offs_m[:, None] * 32 + offs_n[None, :], (causal & valid).to(tl.int32))
)",
                                     R);
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[0].Constancy, (std::vector<int64_t>{1, 1}));
  // `offs_n < n` with n divisible by 16: runs of 16 columns agree.
  EXPECT_EQ(C[1].Constancy[1], 16);
}

TEST(AxisInfo, AMinimumOfAlignedValuesKeepsTheirAlignment) {
  // Triton's MaxMinOpAxisInfoVisitor: min/max of two integers divisible by
  // 16 is divisible by 16. mamba's `chunk_size_limit = min(chunk_size,
  // seqlen - pid_c * chunk_size)` then keeps the masks against it constant
  // over 16 columns, and a 64-element fp16 load under such a mask is an
  // 8-byte copy Triton pipelines (_chunk_scan_bwd_dx_kernel: 65792 bytes
  // and 168 registers on the H100, as tessel's now). One side not aligned:
  // nothing is known.
  sema::LoweringRequest R;
  R.Kernel = "k";
  R.ArgTypes = {{"o_ptr", ElemType{ScalarKind::I32, 1}}, {"n", ElemType{ScalarKind::I32}}};
  std::vector<AxisInfo> C = compares(R"(import triton
import triton.language as tl

@triton.jit
def k(o_ptr, n):
    offs = tl.arange(0, 64)
    lim = min(n, n * 3 - tl.program_id(0) * 64)
    odd = tl.maximum(n, n + 1)
    tl.store(o_ptr + offs, (offs < lim).to(tl.int32) + (offs < odd).to(tl.int32))
)",
                                     R);
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[0].Constancy[0], 16);
  EXPECT_EQ(C[1].Constancy[0], 1);
}

} // namespace
} // namespace tessel::codegen
