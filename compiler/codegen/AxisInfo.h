//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's AxisInfo analysis (lib/Analysis/AxisInfo.cpp), reduced to what
/// coalescing and vectorization read. For every integer or pointer value and
/// every dimension d:
///
///  - Contiguity[d]: the length of the runs of consecutive values along d
///    (arange(0, 8) has 8; `offs // 2` has 1);
///  - Divisibility[d]: the largest power of two dividing the first value of
///    every such run (for pointers in bytes: a pointer parameter marked "D"
///    by the specialization is 16);
///  - Constancy[d]: the length of the runs of equal values along d (a splat
///    has the whole dimension; `offs < n` with n divisible by 16 has 16);
///  - ConstantValue: the value when every element is one known integer
///    (Triton's getConstantValue: `x * 1` keeps x's contiguity).
///
/// Worked example, `x_ptr + pid * 1024 + arange(0, 1024)` with x_ptr "D":
///     arange          contiguity 1024, divisibility 2^30 (starts at 0)
///     pid * 1024      constancy 1024, divisibility 1024
///     sum             contiguity 1024, divisibility 1024
///     x_ptr + sum     contiguity 1024, divisibility gcd(16, 4096) = 16 bytes
/// so four fp32 elements (16 bytes) load as one 128-bit access.
///
/// As in Triton, a `for` loop's induction variable is divisible by
/// gcd(lower bound, step) (so `k0 + arange(0, BLOCK_K) < K` keeps its mask
/// constant over 16 elements when K is "D"), and `x * 1` (a stride
/// specialized to 1) keeps x's contiguity.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_AXISINFO_H
#define TESSEL_COMPILER_CODEGEN_AXISINFO_H

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessel::ir {
class Function;
class Value;
} // namespace tessel::ir

namespace tessel::codegen {

struct AxisInfo {
  /// One entry per dimension (one for a scalar).
  std::vector<int64_t> Contiguity, Divisibility, Constancy;
  std::optional<int64_t> ConstantValue;
};

class AxisInfoAnalysis {
public:
  /// Analyses F; DivisibleBy16 names the parameters Triton marks "D".
  AxisInfoAnalysis(const ir::Function &F, const std::set<std::string> &DivisibleBy16);
  /// The facts of V (the most conservative ones for values never analysed).
  const AxisInfo &get(const ir::Value *V) const;

private:
  std::unordered_map<const ir::Value *, AxisInfo> Infos;
  AxisInfo Unknown;
  friend struct AxisInfoBuilder;
};

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_AXISINFO_H
