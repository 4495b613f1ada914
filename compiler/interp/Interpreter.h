//===- Interpreter.h - running tile IR on the CPU ---------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Executes a Function over a whole launch grid on host buffers, with
/// Triton's semantics per dtype (see docs/tir.md, "Execution semantics").
///
/// Each op runs once per program over its whole tile (a loop over contiguous
/// arrays), never once per lane, so a program costs roughly what its tiles
/// weigh. Programs run one after another in row-major grid order (x
/// fastest); atomics therefore see a deterministic order.
///
/// Problems in the kernel are data, never crashes: every masked-on lane of a
/// load, store or atomic is checked against the buffer its pointer belongs
/// to, and the violations come back in RunResult together with failed
/// device_asserts and the device_print log. Only an interpreter limit (an
/// op it cannot execute, the step budget) stops a run early, and that too is
/// reported in RunResult rather than thrown.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_INTERPRETER_H
#define TESSEL_COMPILER_INTERP_INTERPRETER_H

#include "compiler/interp/Memory.h"
#include "compiler/ir/Ops.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::interp {

/// One kernel argument, in parameter order.
struct ArgValue {
  enum class Kind { Pointer, Int, Float };
  Kind K = Kind::Int;
  uint32_t BufferId = 0; ///< for Pointer: the buffer the pointer starts at (offset 0)
  int64_t Int = 0;
  double Float = 0;

  static ArgValue pointer(uint32_t Id) { return {Kind::Pointer, Id, 0, 0}; }
  static ArgValue integer(int64_t V) { return {Kind::Int, 0, V, 0}; }
  static ArgValue floating(double V) { return {Kind::Float, 0, 0, V}; }
};

struct RunOptions {
  std::array<int64_t, 3> Grid = {1, 1, 1};
  /// Violation records kept (all are counted in TotalViolations).
  size_t MaxViolations = 1000;
  size_t MaxPrintLines = 10000;
  /// Ops executed over the whole run before giving up (a guard against
  /// kernels whose loops never end); 0 means no limit.
  uint64_t MaxSteps = 2'000'000'000;
  /// The tf32 dots the target multiplies with their operands' low 13
  /// mantissa bits dropped: Hopper's wgmma reads fp32 operands from shared
  /// memory as tf32 without rounding them (Triton converts none first),
  /// where mma.sync's operands are rounded (`cvt.rna.tf32.f32`, the
  /// default). Empty: every tf32 dot rounds.
  std::function<bool(const ir::DotOp &)> Tf32Truncates;
};

enum class ViolationKind {
  OutOfBounds,       ///< the lane's element lies outside its buffer
  Misaligned,        ///< the byte offset is not a multiple of the element size
  InvalidPointer,    ///< the pointer names no buffer (null or corrupted)
  UninitializedRead, ///< an output's element read before anything wrote it
};

std::string_view violationKindName(ViolationKind K);

struct AccessViolation {
  ViolationKind Kind = ViolationKind::OutOfBounds;
  std::string Buffer;         ///< the buffer's name ("" for InvalidPointer)
  int64_t ElementOffset = 0;  ///< in elements of the accessed type, from the buffer's start
  int64_t BufferElements = 0; ///< the buffer's size in its own elements
  std::array<int64_t, 3> ProgramId = {0, 0, 0};
  int64_t Lane = 0; ///< row-major index into the access's tile
  SourceRange Range;
  ir::OpKind Op = ir::OpKind::Load; ///< Load, Store, AtomicRMW or AtomicCas
};

/// Every violation of one kind at one access site into one buffer, counted
/// over the whole run (not capped like the individual records): what a
/// diagnostic about that load or store needs.
struct ViolationSite {
  ViolationKind Kind = ViolationKind::OutOfBounds;
  SourceRange Range;
  ir::OpKind Op = ir::OpKind::Load;
  std::string Buffer;
  int64_t BufferElements = 0;
  size_t Count = 0;
  int64_t MinElementOffset = 0, MaxElementOffset = 0;
  /// The first violating lane, in execution order.
  std::array<int64_t, 3> FirstProgramId = {0, 0, 0};
  int64_t FirstLane = 0;
};

struct AssertFailure {
  std::string Message;
  std::array<int64_t, 3> ProgramId = {0, 0, 0};
  int64_t Lane = 0;
  SourceRange Range;
};

/// Every failing lane of one device_assert, counted over the whole run (not
/// capped like the individual records).
struct AssertSite {
  SourceRange Range;
  std::string Message;
  size_t Count = 0;
  std::array<int64_t, 3> FirstProgramId = {0, 0, 0};
  int64_t FirstLane = 0;
};

struct RunResult {
  bool Completed = false;
  std::string Error; ///< why the run stopped early, when it did
  SourceRange ErrorRange;
  std::vector<AccessViolation> Violations;
  size_t TotalViolations = 0;
  std::vector<ViolationSite> Sites;    ///< in order of first occurrence
  std::vector<AssertFailure> Asserts;  ///< capped at RunOptions::MaxViolations
  std::vector<AssertSite> AssertSites; ///< in order of first failure
  std::string PrintLog;
  uint64_t Steps = 0; ///< ops executed
  /// 2 x M x N x K summed over every tl.dot executed: the work `tessel run
  /// --gpu` divides by the time for TFLOP/s.
  uint64_t DotFlops = 0;
};

/// One line for people: "out-of-bounds load of x[1000] (x has 1000 elements)
/// in program (3, 0, 0), lane 232".
std::string describe(const AccessViolation &V);
/// For a site: "24 out-of-bounds stores to out[1000..1023] (out has 1000
/// elements), first in program (3, 0, 0), lane 232".
std::string describe(const ViolationSite &S);

/// Runs F over Opts.Grid. Args must match F's parameters (pointers for
/// pointer parameters, numbers for scalars). F is verified first; a function
/// that does not verify is not run (RunResult::Error says why).
RunResult run(const ir::Function &F, Memory &Mem, const std::vector<ArgValue> &Args, const RunOptions &Opts = {});

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_INTERPRETER_H
