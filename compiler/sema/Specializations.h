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

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_SPECIALIZATIONS_H
