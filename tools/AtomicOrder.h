//===- AtomicOrder.h - outputs holding what atomics returned ----*- C++ -*-===//
/// \file
/// An output that stores the value a `tl.atomic_add` (or any atomic)
/// returned holds something that depends on the order programs ran in:
/// MoE routers hand out slots with `pos = tl.atomic_add(counts + e, 1)` and
/// store them. The interpreter runs programs one after another, the GPU all
/// at once, so such an output differs between the two with neither wrong;
/// `tessel run --gpu` says so instead of reporting a mismatch as an error.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_ATOMICORDER_H
#define TESSEL_TOOLS_ATOMICORDER_H

#include "compiler/ir/Ops.h"

#include <map>
#include <string>

namespace tessel::tools {

/// Pointer parameters of F (by name) that some store or atomic writes a
/// value derived from an atomic's result to, each with that atomic's range.
/// Conservative: a value computed from such a result in any way counts, and
/// a pointer counts for every parameter it may be derived from.
std::map<std::string, SourceRange> atomicOrderedOutputs(const ir::Function &F);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_ATOMICORDER_H
