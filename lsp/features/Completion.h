//===- Completion.h - what may be typed at the cursor -----------*- C++ -*-===//
/// \file
/// textDocument/completion, by what the text before the cursor is
/// (CursorContext, since the line being typed rarely parses):
///  - after `tl.` (any alias of `triton.language`, or it spelled out): the
///    documented builtins; after `tl.math.` only what triton.language.math
///    has; after `triton.`: the host-side API (jit, autotune, Config, ...);
///  - at an argument of a call tessel knows (`tl.load(p, |`, `helper(|`,
///    `kernel[grid](|`): the keywords not given yet (`mask=`, launch options),
///    then the names in scope;
///  - inside a string that is such a keyword's value (`eviction_policy="|`):
///    the strings Triton accepts there;
///  - inside `triton.Config({|` and `key=[|`, and in `args["|` of a
///    heuristics or grid lambda: the kernel's parameter names;
///  - elsewhere in code: the enclosing function's parameters and the locals
///    assigned before the cursor, the module's constexpr globals, functions
///    and imports, and the Python builtins a kernel may use.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_COMPLETION_H
#define TESSEL_LSP_FEATURES_COMPLETION_H

#include "lsp/features/BuiltinDocs.h"
#include "lsp/features/Signatures.h"

#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

enum class CompletionKind { Function, Class, DType, Constant, Keyword, Variable, Parameter, Module, Value, Field };

struct CompletionInfo {
  std::string Label;
  CompletionKind Kind;
  std::string Detail; ///< a signature, "constexpr parameter", ...
  std::string Doc;
  std::string InsertText;  ///< empty: the label
  bool BuiltinDoc = false; ///< Detail is a `tl.` signature (rendered as code above Doc)
};

/// Imported: the signatures of callees other modules define (optional), for
/// the keywords of a call or launch of an imported kernel.
std::vector<CompletionInfo> complete(const AnalyzedFile &F, uint32_t Offset,
                                     const ImportedSignatures *Imported = nullptr);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_COMPLETION_H
