//===- HoistConstantOffsets.h - constants to the outside of index sums ----===//
/// \file
/// A function pass of tessel's LLVM pipeline: in a sum of additions (`add`
/// or `or disjoint`) it moves a constant term outward, `(X + C) + Y` to
/// `(X + Y) + C`, so that the index of every element of a tile is one shared
/// sum plus the element's constant.
///
/// Why: a layout gives element i of a thread the index `lanes ^ C_i`
/// (disjoint bits, so `lanes + C_i`), and `offs[:, None] * stride` with
/// `offs = pid * BLOCK + tl.arange(0, BLOCK)` reaches LLVM as
/// `((lanes + C_i) + pid * BLOCK) * stride`. LLVM 19's InstCombine and
/// Reassociate leave the constant inside, so the multiply cannot be
/// distributed over it and every element keeps its own 64-bit address.
/// With the constant outside, InstCombine folds `(S + C_i) * stride` to
/// `S * stride + C_i * stride` and the NVPTX back end puts `C_i * stride`
/// into the load's immediate offset: one address register for the tile, as
/// in Triton's PTX (whose newer LLVM reassociates this itself), and the
/// registers Triton's kernels take.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_HOISTCONSTANTOFFSETS_H
#define TESSEL_COMPILER_BACKEND_HOISTCONSTANTOFFSETS_H

#include "llvm/IR/PassManager.h"

namespace tessel::backend {

class HoistConstantOffsetsPass : public llvm::PassInfoMixin<HoistConstantOffsetsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &AM);
};

} // namespace tessel::backend

#endif
