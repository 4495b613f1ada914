//===- GuessedValues.h - settle the constexpr values a plan assumed -*- C++ -*-===//
/// \file
/// A plan made without a spec assumes a value for each constexpr nothing
/// fixes, from how the kernel uses it (RepresentativeValues.h): 64 for a
/// block of a 2-D tile, 1024 for a 1-D one. The rules read one use at a
/// time; the kernel's own compile-time checks relate them: a GEMV reshapes
/// its `[BLOCK_M, BLOCK_K]` tile to `(BLOCK_K, 1)` (gemlite: BLOCK_M is 1),
/// DeepSeek's KV compressor takes `tl.arange(0, (1 + OVERLAP) * RATIO)`,
/// an indexer asserts `HEAD_DIM - 2 * HALF_ROT_DIM >= 0`. An assumed value
/// those checks reject is tessel's mistake, not the code's, so when the
/// plan's first launch does not lower, the assumed integer constexprs are
/// searched, one at a time and within a few dozen lowerings, for values
/// under which the kernel gets further (LoweringReach.h); a search that
/// does not end with the kernel lowering changes nothing.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_GUESSEDVALUES_H
#define TESSEL_COMPILER_SEMA_GUESSEDVALUES_H

#include "compiler/sema/LaunchPlan.h"

namespace tessel::sema {

/// Changes Plan's assumed constexprs (Plan.AssumedConstexprs) in every
/// launch when the first launch does not lower under them and other values
/// make it lower; rewrites each changed value's assumption to say why. Opts
/// are those the plan's compile will lower under.
void settleAssumedConstexprs(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts,
                             LaunchPlan &Plan);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_GUESSEDVALUES_H
