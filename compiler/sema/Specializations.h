//===- Specializations.h - the ways a file launches a kernel ----*- C++ -*-===//
/// \file
/// Every specialization a kernel is checked under: one per autotune config,
/// crossed with one per launch site (literal keyword arguments), or the
/// parameter defaults alone. Constexprs set by @triton.heuristics are
/// unknown. Identical specializations are merged.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_SPECIALIZATIONS_H
#define TESSEL_COMPILER_SEMA_SPECIALIZATIONS_H

#include "compiler/sema/KernelChecker.h"

#include <set>

namespace tessel::sema {

std::vector<Specialization> specializationsOf(const JitFunction &Fn, size_t Max);

/// The grid axes that every launch site of Fn sizes with a plain count
/// rather than a rounded-up `cdiv` (`kernel[(N // BLOCK, B * H)](...)`, also
/// through a local `grid = (...)` or `grid = lambda META: (...)` in the
/// launching function), or leaves out; empty when a launch site's grid is not
/// written out as a tuple or there is no launch site.
std::set<int64_t> floorDividedGridAxes(const JitFunction &Fn, const ast::Module &M);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_SPECIALIZATIONS_H
