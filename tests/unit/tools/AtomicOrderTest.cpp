//===- AtomicOrderTest.cpp - outputs holding what atomics returned --------===//
/// \file
/// Which outputs `tessel run --gpu` may see differ by the programs' order:
/// lmdeploy's MoE router stores the slot `tl.atomic_add` handed out; an
/// output computed from loads alone, or a counter only added to, is not.
//===----------------------------------------------------------------------===//
#include "tools/AtomicOrder.h"

#include "compiler/frontend/Discovery.h"
#include "compiler/sema/Lowering.h"

#include <gtest/gtest.h>

using namespace tessel;

namespace {

std::map<std::string, SourceRange> ordered(const std::string &Body, const sema::LoweringRequest &R) {
  auto File = ParsedFile::parse(
      std::make_shared<SourceText>("import triton\nimport triton.language as tl\n\n" + Body, "test.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  sema::LoweredKernel L = sema::lowerKernel(*File, Info, R);
  EXPECT_TRUE(L.Function) << (L.Problems.empty() ? std::string() : L.Problems.front().Message);
  return L.Function ? tools::atomicOrderedOutputs(*L.Function) : std::map<std::string, SourceRange>{};
}

ElemType ptrTo(ScalarKind K) { return ElemType{K, 1, false}; }

TEST(AtomicOrder, SlotsAnAtomicHandsOutAreOrderDependentCountsAreNot) {
  const std::string Src = R"(
@triton.jit
def k(ids_ptr, counts_ptr, pos_ptr, copy_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    e = tl.load(ids_ptr + offs)
    slot = tl.atomic_add(counts_ptr + e, 1)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(4):
        acc += slot * i
    tl.store(pos_ptr + offs, acc)
    tl.store(copy_ptr + offs, e)
)";
  sema::LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(64);
  R.ArgTypes = {{"ids_ptr", ptrTo(ScalarKind::I32)},
                {"counts_ptr", ptrTo(ScalarKind::I32)},
                {"pos_ptr", ptrTo(ScalarKind::I32)},
                {"copy_ptr", ptrTo(ScalarKind::I32)}};
  auto Out = ordered(Src, R);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out.begin()->first, "pos_ptr"); // through the loop-carried sum
}

} // namespace
