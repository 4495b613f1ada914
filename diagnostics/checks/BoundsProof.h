//===- BoundsProof.h - lanes the bounds prover drives out of bounds -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// ## What it does
/// Reports each `tl.load` / `tl.store` / atomic for which the bounds prover
/// (compiler/analysis/BoundsProver.h) found a lane, enabled by the access's
/// mask, whose address leaves its buffer (TS203), with the counterexample
/// in words: `x_ptr[1000] read by program 0, lane 1000, with n = 1000
/// (x_ptr has 1000 elements)`. Under a launch spec the violation is certain
/// and the finding is an error; under the conventional reading (no spec)
/// it is a warning whose assumptions follow as a related note. A kernel the
/// solver could not decide in time gets one information note (TS204).
///
/// ## Why is this bad?
/// Triton does not check addresses: an enabled lane outside its tensor reads
/// garbage, corrupts a neighbouring tensor, or faults with an illegal
/// address, often only for sizes that are not a multiple of the block.
///
/// ## Example
/// ```python
/// offs = pid * BLOCK + tl.arange(0, BLOCK)
/// x = tl.load(x_ptr + offs, mask=offs <= n)
/// ```
/// Use instead:
/// ```python
/// x = tl.load(x_ptr + offs, mask=offs < n)
/// ```
///
/// Where the prover has a verdict on an access (proven or refuted), the
/// structural TS201/TS202 finding at that access is dropped: one finding
/// per access.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_CHECKS_BOUNDSPROOF_H
#define TESSEL_DIAGNOSTICS_CHECKS_BOUNDSPROOF_H

#include "compiler/analysis/BoundsProver.h"
#include "diagnostics/Finding.h"

#include <vector>

namespace tessel::diag {

/// Findings for one kernel's verdicts.
std::vector<Finding> checkBoundsProof(const analysis::KernelBounds &Kernel);

/// Drops the TS201/TS202 findings at accesses the prover decided.
void dropDecidedStructural(std::vector<Finding> &Findings, const std::vector<analysis::KernelBounds> &Kernels);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_CHECKS_BOUNDSPROOF_H
