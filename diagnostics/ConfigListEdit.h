//===- ConfigListEdit.h - rewriting an autotune configs=[...] list -*- C++ -*-===//
/// \file
/// The edit behind `tessel tune --prune` and the editor's "keep the tuned
/// configs" quick fix: the `configs=[...]` list of an @autotune kernel
/// rewritten to hold some of its configs in a given order (the ones a tune
/// found best, best first). Only a list written as Config(...) calls one
/// after another can be edited; configs built by a comprehension or a
/// helper are the user's code to change, and Why says so.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIAGNOSTICS_CONFIGLISTEDIT_H
#define TESSEL_DIAGNOSTICS_CONFIGLISTEDIT_H

#include "compiler/frontend/Discovery.h"
#include "compiler/support/Problem.h"
#include "compiler/support/SourceText.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::diag {

/// One edit replacing Fn's configs (from the first Config call to the end of
/// the last) with those of Keep (indices into Fn.Configs), separated as the
/// first two were. nullopt with Why when the list is not literal calls, or
/// Keep is empty or names a config twice.
std::optional<TextEdit> configListEdit(const SourceText &Text, const JitFunction &Fn, const std::vector<size_t> &Keep,
                                       std::string &Why);

} // namespace tessel::diag

#endif // TESSEL_DIAGNOSTICS_CONFIGLISTEDIT_H
