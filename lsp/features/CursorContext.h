//===- CursorContext.h - what the text around the cursor is -----*- C++ -*-===//
/// \file
/// Signature help and completion are asked for while the user types, when the
/// line under the cursor rarely parses: `tl.load(p, ` is an unclosed call.
/// So they read the text, not the AST: a forward lexical scan from the start
/// of the top-level statement around the cursor (a line at column 0) to the
/// cursor, which tracks brackets, strings and comments the way Python's
/// tokenizer does. The answer is the innermost open call (its callee as
/// written, the argument the cursor is in, the keywords already given), the
/// brackets around the cursor, and the string literal the cursor is inside.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_CURSORCONTEXT_H
#define TESSEL_LSP_FEATURES_CURSORCONTEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::lsp {

/// An open call around the cursor: `callee(` ... cursor.
struct OpenCall {
  uint32_t Paren = 0;      ///< offset of the `(`
  std::string Callee;      ///< as written before the `(`: "tl.load", "kernel" (for `kernel[grid](`)
  bool IsLaunch = false;   ///< written `callee[...](`: a kernel launch
  unsigned ArgIndex = 0;   ///< commas at the call's own level before the cursor
  unsigned Positional = 0; ///< arguments before the cursor's that are not `name=...`
  std::string Keyword;     ///< the cursor's argument so far is `Keyword=...`
  std::vector<std::string> UsedKeywords;
  bool AtArgStart = false; ///< the cursor's argument so far is at most an identifier
};

/// A bracket open at the cursor, innermost last.
struct OpenBracket {
  char Kind;                 ///< '(', '[' or '{'
  uint32_t Offset;           ///< where it opens
  std::string Before;        ///< the dotted name written just before it ("triton.Config", "key=" gives "")
  std::string KeywordBefore; ///< `name=` directly before the bracket: "key" for `key=[`
};

struct CursorContext {
  std::vector<OpenBracket> Brackets;
  std::optional<OpenCall> Call; ///< the innermost open `(` that is a call
  /// The identifier (or dotted name, "tl.ma") that ends at the cursor.
  std::string Word;
  /// Inside a string literal: its text from the opening quote to the cursor.
  std::optional<std::string> String;
  uint32_t StringStart = 0; ///< offset just after the opening quote
  bool InComment = false;
  /// The argument the cursor is in (or the dict entry) has no `:` or `=` yet.
  bool AtItemStart = false;
};

CursorContext cursorContext(std::string_view Text, uint32_t Offset);

/// Offset of the start of the top-level statement holding Offset: the last
/// line before it that starts at column 0 with code (not a comment or blank).
uint32_t statementStart(std::string_view Text, uint32_t Offset);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_CURSORCONTEXT_H
