//===- GuessedTypes.h - settle the argument types a plan guessed -*- C++ -*-===//
/// \file
/// A plan made without a spec guesses the element type of pointers nothing
/// types (RepresentativeValues.h) and the kind of scalars nothing uses as an
/// integer. The evidence rules read the kernel's text; they miss what only
/// the types show, such as offsets loaded through `+=` or a tile mixed with
/// another of a known type. A guess the kernel does not type-check under is
/// tessel's mistake, not the code's (DESIGN.md "Figures"), so before the
/// plan is used its first launch is lowered, and while Triton's type rules
/// reject it the guessed types are searched, one parameter at a time, for
/// types under which the kernel gets further. The search is greedy and
/// bounded (a few dozen lowerings, only for kernels that fail): it keeps a
/// change when the first type error moves later in the kernel or goes away.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_GUESSEDTYPES_H
#define TESSEL_COMPILER_SEMA_GUESSEDTYPES_H

#include "compiler/sema/LaunchPlan.h"

namespace tessel::sema {

/// Re-types Plan's guessed parameters (Plan.GuessedTypes) in every launch
/// when the first launch does not lower under the guesses and other types
/// get further; rewrites the parameter's assumption to say so. Opts are
/// those the plan's compile will lower under.
void settleGuessedTypes(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts, LaunchPlan &Plan);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_GUESSEDTYPES_H
