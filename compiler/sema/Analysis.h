//===- Analysis.h - what sema knows about a file's kernels ------*- C++ -*-===//
/// \file
/// The result of checking every kernel of a file under every specialization:
/// problems, plus the facts editors show (the type of each assigned tile, the
/// constexpr values in force) and the memory accesses that the masking checks
/// in diagnostics/ read. Plain data, immutable once built, safe to share
/// between threads.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_ANALYSIS_H
#define TESSEL_COMPILER_SEMA_ANALYSIS_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/support/Problem.h"
#include "compiler/types/Types.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::sema {

/// The type of one named value at one place in the source (an assignment
/// target, a parameter, a loop variable).
struct ValueFact {
  SourceRange Range; ///< the name token
  std::string Name;
  TileType Type;
  PyValue Constexpr; ///< Unknown when the value is not a compile-time constant
};

/// How a memory access's offsets vary along each tile axis (see
/// MaskFacts.h for the lattice); read by diagnostics/checks/MaskCoverage.
enum class AxisIndex : uint8_t {
  None,    ///< constant along this axis
  Arange,  ///< varies along the axis within the block only (bounded by the block size)
  Sliding, ///< block position plus a program-id or loop-derived start: can run past the end
  Wrapped, ///< reduced modulo / clamped: bounded whatever the start
};

struct MemoryAccess {
  const ast::CallExpr *Call = nullptr; ///< the tl.load / tl.store / tl.atomic_* call
  std::string Op;                      ///< "tl.load", "tl.store", "tl.atomic_add"...
  SourceRange PointerRange;            ///< the pointer argument
  std::vector<AxisIndex> PointerAxes;  ///< one per tile axis of the pointer (empty for a scalar pointer)
  /// Why an axis slides: "program_id(0)", "the loop variable `k`".
  std::vector<std::string> SlidingCause;
  bool HasMask = false;
  std::vector<bool> MaskBounds; ///< per axis: some mask term compares an index varying along it
  bool IsBlockPointer = false;
  bool HasBoundaryCheck = false;
  /// Set when this load is the then/else operand of a tl.where whose
  /// condition is a comparison: the SourceRange of that tl.where call.
  std::optional<SourceRange> EnclosingWhere;
};

struct KernelAnalysis {
  std::string Kernel;
  std::string Specialization;       ///< "BLOCK_M=128, BLOCK_N=64, num_warps=4, num_stages=3"; "" for the only one
  SourceRange SpecializationSource; ///< the config or launch site that fixed it (empty when defaults)
  std::vector<ValueFact> Values;
  std::vector<MemoryAccess> Accesses;
  bool Completed = false; ///< false when an error stopped the walk early
};

struct FileAnalysis {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  std::vector<KernelAnalysis> Kernels; ///< one per kernel x specialization
  std::vector<Problem> Problems;

  /// The facts of the first specialization of the kernel whose body contains Offset.
  /// Does R share a line with a syntax error? Findings there would describe
  /// the parser's recovery, not the user's code, so a half-typed line gets
  /// its syntax error only.
  bool onBrokenLine(SourceRange R) const;
  const KernelAnalysis *kernelAt(uint32_t Offset) const;
  /// The fact whose name token contains Offset, in the kernel containing Offset.
  const ValueFact *valueAt(uint32_t Offset) const;
};

struct AnalyzeOptions {
  int Arch = 90; ///< compute capability: 80, 90...
  /// Cap on specializations per kernel (autotune lists can be long).
  size_t MaxSpecializations = 64;
};

std::shared_ptr<const FileAnalysis> analyzeFile(std::shared_ptr<const ParsedFile> File,
                                                const AnalyzeOptions &Opts = {});

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_ANALYSIS_H
