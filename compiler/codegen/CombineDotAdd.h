//===- CombineDotAdd.h - acc + dot(a, b, 0) as dot(a, b, acc) ---*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's combine patterns for a dot added to a value (TritonCombineOps,
/// Combine.td's CombineDotAdd{I,F}{,Rev}Pattern), which run on every kernel
/// Triton compiles: `d + dot(a, b, 0)` and `dot(a, b, 0) + d` become
/// `dot(a, b, d)` when
///  - the dot's accumulator is the constant zero (integer 0, float ±0),
///  - the dot's result has no other use,
///  - for a float add, the dot's max_num_imprecise_acc is 0.
///
/// Tutorial 03 writes `accumulator += tl.dot(a, b)`: without this, the dot
/// fills fresh accumulator registers from zero and the add then needs the
/// carried accumulator beside them, twice the registers (128 x 128 fp32 on
/// 4 warps: 256 per thread, so spills where Triton takes 210).
///
/// The tile IR is immutable, so this is a plan the lowering follows (dot
/// families take accumulator() instead of acc(), the add takes the dot's
/// tile), not a rewrite; the interpreter still computes the sum as written
/// (the two differ by fp32 rounding only, as Triton's compiled kernel and
/// its interpreter do). The lowering builds the dot where it stands, so the
/// combine also needs d to be available there: the add and the dot in the
/// same block, d not defined after the dot in it. LLVM-free.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_COMBINEDOTADD_H
#define TESSEL_COMPILER_CODEGEN_COMBINEDOTADD_H

#include <unordered_map>

namespace tessel::ir {
class DotOp;
class Function;
class Op;
class Value;
} // namespace tessel::ir

namespace tessel::codegen {

struct DotAddCombine {
  /// A combined dot → d, the value it accumulates into.
  std::unordered_map<const ir::Op *, const ir::Value *> Addend;
  /// A combined add → its dot, whose result the add's result is.
  std::unordered_map<const ir::Op *, const ir::Op *> Folded;

  /// What Dot accumulates into: d where combined, else its own acc.
  const ir::Value *accumulator(const ir::DotOp &Dot) const;
  /// The dot whose result Add's result is, or null for any other op.
  const ir::Op *foldedDot(const ir::Op &Add) const;
};

/// Every add of F that Triton's patterns combine with its dot.
DotAddCombine combineDotAdds(const ir::Function &F);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_COMBINEDOTADD_H
