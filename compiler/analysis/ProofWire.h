//===- ProofWire.h - a kernel's verdicts as bytes ---------------*- C++ -*-===//
/// \file
/// KernelBounds to bytes and back, so that a proof run in a child process
/// (IsolatedProof.h) comes back to the caller whole. Decoding is total: a
/// truncated or foreign payload is nullopt, never a crash.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_PROOFWIRE_H
#define TESSEL_COMPILER_ANALYSIS_PROOFWIRE_H

#include "compiler/analysis/BoundsProver.h"

#include <optional>
#include <string>
#include <string_view>

namespace tessel::analysis {

std::string encodeKernelBounds(const KernelBounds &K);
std::optional<KernelBounds> decodeKernelBounds(std::string_view Bytes);

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_PROOFWIRE_H
