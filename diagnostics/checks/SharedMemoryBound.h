//===- SharedMemoryBound.h - shared memory no element type fits -*- C++ -*-===//
/// \file
/// ## What it does
/// Reports TS404 (out-of-shared-memory) from the front tier, without
/// compiling the kernel, when a config's `tl.dot` operands cannot fit in
/// the target's per-block shared memory whatever element types the
/// pointers turn out to have: Triton stages every tl.dot operand that is a
/// `tl.load` result whole in shared memory (the pipeliner's buffers or the
/// `local_alloc` before the dot; the MMA and FMA paths both read their
/// operands from there), and both operands of one dot are live together.
/// The bound counts those operands only, each at the smallest element
/// size the dot accepts for it: its own type when sema knows it, else the
/// other operand's (tl.dot wants equal types, fp8 pairs aside, and those
/// are one byte), else one byte (int8, fp8). Everything else the kernel
/// keeps in shared memory (pipeline stages beyond one, layout conversions,
/// reduction scratch) can only add to it, so the message says "at least".
/// `tessel check --jit` (or the language server's JIT tier) computes the
/// exact figure once the types are known and replaces this finding.
///
/// ## Why is this bad?
/// Triton compiles such a config and fails at its first launch with
/// `OutOfResources`; under `@triton.autotune` the config is dropped without
/// a word.
///
/// ## Example
/// ```python
/// triton.Config({'BLOCK_M': 512, 'BLOCK_N': 512, 'BLOCK_K': 512}, num_warps=8)
/// ```
/// Use instead:
/// ```python
/// triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}, num_warps=8)
/// ```
///
/// Silent: a dot in a constexpr branch tessel cannot decide, a shape sema
/// does not know, one warp (Triton may convert within the warp, without
/// shared memory), operands computed rather than loaded (a product's
/// accumulator can feed the next dot from registers).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_CHECKS_SHAREDMEMORYBOUND_H
#define TESSEL_DIAGNOSTICS_CHECKS_SHAREDMEMORYBOUND_H

#include "compiler/sema/Analysis.h"
#include "diagnostics/Finding.h"

#include <optional>
#include <vector>

namespace tessel::diag {

/// TS404 for one kernel specialization on sm_Arch when its largest tl.dot
/// needs more shared memory than the arch allows whatever the pointers'
/// element types are; at the config (else the dot), with each operand
/// also a related location.
std::optional<Finding> checkSharedMemoryBound(const sema::KernelAnalysis &Kernel, int Arch);

/// Drops the bounds of Findings that an exact TS404 (the JIT's, at the same
/// config) replaces.
void preferExactSharedMemory(std::vector<Finding> &Findings);

/// Triton's autotuner times every config and skips one whose launch raises
/// OutOfResources: that config is lost, not the kernel. The TS404s of Fn's
/// configs are those of Findings from First on (one per config at most);
/// under @triton.autotune with more than one config they become warnings
/// saying the autotuner skips them, one per source place (configs a list
/// comprehension writes share one, which names them all), unless every
/// config overflows, which stays an error for each.
void markAutotuneSkips(const JitFunction &Fn, std::vector<Finding> &Findings, size_t First = 0);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_CHECKS_SHAREDMEMORYBOUND_H
