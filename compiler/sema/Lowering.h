//===- Lowering.h - one kernel specialization to tile IR --------*- C++ -*-===//
/// \file
/// The public entry of the AST -> tile IR lowering. Like Triton's
/// CodeGenerator, the lowering is the checker's walk itself: KernelChecker,
/// given an ir::Builder, emits the ops of each expression while it types it
/// (constexpr `if`s folded, `static_range` unrolled, @jit helpers inlined per
/// call site, promotion and broadcasting made explicit). A request names the
/// kernel and what Triton keys a compiled instance on: the constexpr values,
/// the dtypes of the other arguments, the integers equal to 1 and the launch
/// options. The result is verified; a verifier failure is a Problem naming
/// the op (a tessel bug), never a crash.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_LOWERING_H
#define TESSEL_COMPILER_SEMA_LOWERING_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/ir/Ops.h"
#include "compiler/sema/Analysis.h"
#include "compiler/support/Problem.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tessel::sema {

/// What fixes one compiled instance of a kernel (Triton's specialization key).
struct LoweringRequest {
  std::string Kernel;                        ///< the @jit function's name
  std::map<std::string, PyValue> Constexprs; ///< tl.constexpr parameters (and autotune/heuristics keys)
  std::map<std::string, ElemType> ArgTypes;  ///< other parameters: pointer<fp16>, i32, fp32 ... from the launch
  std::set<std::string> EqualToOne;          ///< int parameters equal to 1 (Triton specializes them to constants)
  /// int parameters whose value is a multiple of 16 (Triton's "D" key: the
  /// code may assume it, e.g. for 128-bit accesses along a stride).
  std::set<std::string> DivisibleBy16;
  /// Parameters that receive a host TensorDescriptor, with its block shape
  /// (Triton's `tensordesc<fp16[64, 64]>`); ArgTypes holds pointer<dtype>.
  std::map<std::string, std::vector<int64_t>> DescriptorBlocks;
  int64_t NumWarps = 4;
  int64_t NumStages = 3;
};

/// What tells two requests apart (Triton's specialization key): requests
/// with equal keys lower to the same function, so launches that differ only
/// in sizes are lowered, compiled or run once each.
std::string specializationKey(const LoweringRequest &R);

struct LoweredKernel {
  std::unique_ptr<ir::Function> Function; ///< null when the kernel could not be lowered
  std::vector<Problem> Problems;          ///< sema's errors and lowering limits, at their source ranges
  /// The call ranges of the loads, stores and atomics written in the
  /// checked file; those of helpers inlined from other modules are not
  /// among them (their ops' ranges are offsets into their own files).
  std::vector<SourceRange> OwnAccesses;
  /// What the lowering took without proof, for the figures' "assumed" lines
  /// (a host-computed alias taken as libdevice's function of its name).
  std::vector<std::string> Assumptions;
};

/// Lowers Request.Kernel of File under Request's specialization. Problems
/// carry sema's errors (then Function is null), lowering limits ("not
/// supported by tessel's lowering yet") and verifier failures.
LoweredKernel lowerKernel(const ParsedFile &File, const ModuleInfo &Info, const LoweringRequest &Request,
                          const AnalyzeOptions &Opts = {});

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_LOWERING_H
