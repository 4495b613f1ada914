//===- MaskFacts.h - how tile indices vary, for the masking check -*- C++ -*-===//
/// \file
/// A small abstract domain over tensor values, computed alongside their
/// types, that lets diagnostics/checks/MaskCoverage find loads and stores
/// that can run past the end of a buffer without knowing any size.
///
/// Per axis of a tensor, AxisIndex says how its elements vary:
///
///     tl.arange(0, B)                   [Arange]
///     pid * B + tl.arange(0, B)         [Sliding]   program_id moves the block
///     (pid * B + tl.arange(0, B)) % M   [Wrapped]   bounded whatever pid is
///     offs_m[:, None] * s + offs_n[None, :]   [Sliding, Arange]
///
/// A mask built from comparisons records, per axis, whether some term
/// compares an index that varies along that axis (`offs < n` bounds axis 0):
///
///     (offs_m[:, None] < M) & (offs_n[None, :] < N)   bounds [true, true]
///     offs_m[:, None] < M                             bounds [true, false]
///
/// A Sliding axis of a pointer that its mask does not bound is the finding.
/// The domain is structural: a scalar program-id or loop-derived start added
/// to a 1-D arange-derived index makes it slide; `%` and tl.minimum wrap;
/// `&` of masks unions bounds, `|` intersects them.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_MASKFACTS_H
#define TESSEL_COMPILER_SEMA_MASKFACTS_H

#include "compiler/sema/Value.h"

namespace tessel::sema {

/// Facts of V viewed with the given result shape (leading axes added by
/// broadcasting are None).
IndexFacts alignFacts(const Value &V, size_t Rank);

/// The Cause of a value that tl.program_id(Axis) makes dynamic:
/// "program_id(0)".
std::string programIdCause(int64_t Axis);

/// `+` and `-`: joins axes; a dynamic scalar added to a 1-D varying index
/// makes it slide.
IndexFacts additiveFacts(const Value &L, const Value &R, size_t Rank);
/// `*`, `/`, `//`, shifts, bitwise, casts of two operands: joins axes.
IndexFacts joinFacts(const Value &L, const Value &R, size_t Rank);
/// `%`, tl.minimum, tl.clamp: every varying axis becomes Wrapped.
IndexFacts wrapFacts(const IndexFacts &F);
/// A comparison: the mask bounds every axis along which an operand varies.
IndexFacts compareFacts(const Value &L, const Value &R, size_t Rank);
/// `&` (Intersect=false: either term bounds) and `|` (both must bound).
IndexFacts combineMasks(const Value &L, const Value &R, size_t Rank, bool Intersect);
/// expand_dims / `x[:, None]`: inserts a constant axis at Axis.
IndexFacts insertAxis(const IndexFacts &F, size_t Axis);
/// Drops Axis (reductions).
IndexFacts removeAxis(const IndexFacts &F, size_t Axis);
/// trans / permute.
IndexFacts permuteFacts(const IndexFacts &F, const std::vector<int64_t> &Order);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_MASKFACTS_H
