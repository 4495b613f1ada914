//===- Launch.h - a launch spec instance as interpreter inputs --*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The glue between a concrete launch (compiler/frontend/LaunchSpec.h) and
/// the interpreter: one buffer per tensor entry, filled as its flags say
/// (deterministically, from a seed), one argument per kernel parameter
/// matched by name, and the grid. This is what `tessel run --cpu` does
/// before it calls interp::run.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_LAUNCH_H
#define TESSEL_COMPILER_INTERP_LAUNCH_H

#include "compiler/frontend/LaunchSpec.h"
#include "compiler/interp/Interpreter.h"

#include <string>
#include <vector>

namespace tessel::interp {

struct PreparedLaunch {
  Memory Mem;
  std::vector<ArgValue> Args;
  RunOptions Opts;
  /// Tensor entry name -> buffer id, in spec order.
  std::vector<std::pair<std::string, uint32_t>> Buffers;
  /// What a mismatch between the spec and the kernel prevented
  /// ("no value for parameter 'n' in the launch spec"); the launch cannot
  /// run while this is non-empty.
  std::vector<std::string> Errors;

  uint32_t buffer(std::string_view Name) const;
};

/// Buffers and arguments for F under one concrete launch. Inputs are filled
/// from a generator seeded with Seed, so two runs see the same data.
PreparedLaunch prepareLaunch(const ir::Function &F, const launch::ConcreteLaunch &L, uint64_t Seed = 0);

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_LAUNCH_H
