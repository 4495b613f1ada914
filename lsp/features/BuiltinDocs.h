//===- BuiltinDocs.h - documentation of the tl.* builtins -------*- C++ -*-===//
/// \file
/// The `triton.language` names tessel documents in hovers and completion:
/// each with its signature as Triton 3.6 declares it and a paragraph written
/// for tessel (not copied from Triton's docstrings). The table follows
/// shared/reference/triton-3.6-facts.md §1; arguments that must be
/// compile-time constants are noted in the text.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_BUILTINDOCS_H
#define TESSEL_LSP_FEATURES_BUILTINDOCS_H

#include <string_view>
#include <vector>

namespace tessel::lsp {

enum class BuiltinKind { Function, Class, DType, Constant };

struct BuiltinDoc {
  std::string_view Name; ///< attribute name under triton.language: "load"
  BuiltinKind Kind;
  std::string_view Signature; ///< "load(pointer, mask=None, other=None, ...)"
  std::string_view Doc;       ///< one paragraph, plain text with `code` spans
};

/// Every documented builtin, sorted by name.
const std::vector<BuiltinDoc> &builtinDocs();
/// The builtin called Name (e.g. "load", or "math.exp"), or null.
const BuiltinDoc *findBuiltin(std::string_view Name);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_BUILTINDOCS_H
