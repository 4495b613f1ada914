//===- LoweringReach.h - how far a kernel lowers under a guess -*- C++ -*-===//
/// \file
/// A plan made without a spec guesses types (GuessedTypes.h) and constexpr
/// values (GuessedValues.h). A guess the kernel does not compile under is
/// tessel's mistake, not the code's; the searches that settle guesses
/// compare how far the kernel gets under each: whether it lowers with no
/// error of Triton's, else where its first error is. tessel's own limits
/// ("not supported by tessel's lowering yet") are no error here.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_LOWERINGREACH_H
#define TESSEL_COMPILER_SEMA_LOWERINGREACH_H

#include "compiler/sema/Lowering.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::sema {

/// How far the kernel gets under one request.
struct Outcome {
  bool Typed = false;   ///< no error but tessel's own limits
  bool Lowered = false; ///< no problem at all: a function was lowered
  /// Where the first error is, as a path from the kernel inwards (the call
  /// sites into inlined helpers, then its token); empty when none.
  std::vector<uint32_t> FirstError;
  size_t Errors = 0;
  std::string FirstMessage; ///< the first error's message
  /// The first error's range in the kernel's file (an error inside an
  /// imported helper is there at the call that reached it).
  std::optional<SourceRange> FirstRange;
};

Outcome lowerUnder(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts,
                   const LoweringRequest &R);

/// A gets further than B: it type-checks, or its first error comes later,
/// or it has fewer.
bool further(const Outcome &A, const Outcome &B);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_LOWERINGREACH_H
