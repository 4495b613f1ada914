//===- References.h - every occurrence of a name, Triton-aware --*- C++ -*-===//
/// \file
/// textDocument/references, documentHighlight, prepareRename and rename
/// share one question: which tokens name the same thing as the one under the
/// cursor? Python's scoping answers it for locals, parameters, functions and
/// globals of the file; Triton adds the places that name a kernel parameter
/// in strings or keywords: the keys of `triton.Config({...})` (inline in the
/// decorator or in the helper that returns the configs), `key=[...]` of
/// `@triton.autotune`, the keys and `args["..."]` of `@triton.heuristics`,
/// `meta["..."]` in a launch's grid lambda, and the keywords of each launch
/// `kernel[grid](..., NAME=...)` and call `helper(..., NAME=...)`.
///
/// One file for now: occurrencesIn() takes the target and the file to
/// search, so a project-wide rename runs it over each file that imports the
/// kernel (the target's identity is its name and defining function, not an
/// AST pointer of the defining file).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_REFERENCES_H
#define TESSEL_LSP_FEATURES_REFERENCES_H

#include "compiler/support/SourceRange.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

enum class SymbolScope { Local, Parameter, Function, Global };

/// What the cursor names.
struct RenameTarget {
  std::string Name;
  SymbolScope Scope = SymbolScope::Local;
  std::string Owner;     ///< the top-level function of a local or parameter
  bool JitOwner = false; ///< Owner is a @jit function: launches and configs name its parameters
  SourceRange At;        ///< the token under the cursor (for a string key: its text inside the quotes)
};

enum class OccurrenceRole { Definition, Write, Read, Keyword, String };

struct Occurrence {
  SourceRange Range; ///< the identifier (inside the quotes for a string)
  OccurrenceRole Role;
};

/// The target under Offset, or nullopt with Why saying what cannot be
/// renamed there ("`tl` is an imported module", ...).
std::optional<RenameTarget> targetAt(const AnalyzedFile &F, uint32_t Offset, std::string &Why);

/// Every occurrence of T in F, in source order, the definition included.
std::vector<Occurrence> occurrencesIn(const AnalyzedFile &F, const RenameTarget &T);

/// A reason the rename of T to NewName would change what the code means
/// (not an identifier, a keyword, a name already bound there, a launch with
/// `**kwargs` that may pass it), or "" when it is safe.
std::string renameProblem(const AnalyzedFile &F, const RenameTarget &T, const std::string &NewName);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_REFERENCES_H
