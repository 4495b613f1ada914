//===- MaskCoverage.h - loads and stores that can run past the end -*- C++ -*-===//
/// \file
/// ## What it does
/// Flags a `tl.load` / `tl.store` / atomic whose offsets slide with
/// `tl.program_id` or a loop variable along some tile axis that no mask term
/// bounds (TS201), and a load that only `tl.where` guards (TS202).
///
/// ## Why is this bad?
/// The last program (or iteration) covers indices past the end of the buffer
/// whenever the size is not a multiple of the block: the unmasked lanes read
/// or write out of bounds. Triton does not check; the GPU may fault, or
/// silently corrupt memory. `tl.where(c, tl.load(p), 0)` still performs the
/// load for every lane before selecting.
///
/// ## Example
/// ```python
/// offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
/// x = tl.load(x_ptr + offs)
/// ```
/// Use instead:
/// ```python
/// x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
/// ```
///
/// The check is structural (see compiler/sema/MaskFacts.h): it needs no sizes,
/// and an offset wrapped with `%` or clamped with tl.minimum or
/// `tl.where(offs < n, offs, 0)` counts as bounded. Accesses in an arm of a
/// constexpr `if` tessel cannot decide are skipped, and so are program ids
/// that a grid of plain counts (no `cdiv`) or an early `if pid >= n: return`
/// bounds.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_CHECKS_MASKCOVERAGE_H
#define TESSEL_DIAGNOSTICS_CHECKS_MASKCOVERAGE_H

#include "compiler/sema/Analysis.h"
#include "diagnostics/Finding.h"

#include <vector>

namespace tessel::diag {

/// Findings for one kernel specialization's memory accesses.
std::vector<Finding> checkMaskCoverage(const sema::KernelAnalysis &Kernel);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_CHECKS_MASKCOVERAGE_H
