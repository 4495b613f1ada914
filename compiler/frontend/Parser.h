//===- Parser.h - Python source to tessel's AST ----------------*- C++ -*-===//
/// \file
/// Parses a whole file with tree-sitter-python and converts the concrete tree
/// into ast::Module. Never fails: syntax errors become ast::SyntaxError
/// entries plus Error nodes, and every well-formed statement around them is
/// still converted, so one half-typed line does not hide the other kernels.
///
/// ParsedFile keeps tree-sitter's tree so an editor can reparse
/// incrementally after an edit (tree-sitter reuses unchanged subtrees).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_PARSER_H
#define TESSEL_COMPILER_FRONTEND_PARSER_H

#include "compiler/frontend/Ast.h"
#include "compiler/support/SourceText.h"

#include <memory>

struct TSTree;

namespace tessel {

/// An edit of the text, in bytes, as tree-sitter needs it.
struct ByteEdit {
  uint32_t StartByte = 0;
  uint32_t OldEndByte = 0;
  uint32_t NewEndByte = 0;
  LineCol Start, OldEnd, NewEnd; ///< the same positions as 0-based line / byte column
};

class ParsedFile {
public:
  /// Larger texts are not parsed (tree-sitter needs ~80 bytes of memory and
  /// about a microsecond per byte of Python): the module is empty and has
  /// one SyntaxError saying so. Kernel files are tens of kilobytes.
  static constexpr size_t MaxParseBytes = 8u << 20;

  /// Parses Text from scratch.
  static std::shared_ptr<const ParsedFile> parse(std::shared_ptr<const SourceText> Text);
  /// Parses NewText reusing Old's tree; Edits turn Old's text into NewText, in order.
  static std::shared_ptr<const ParsedFile> reparse(const ParsedFile &Old, const std::vector<ByteEdit> &Edits,
                                                   std::shared_ptr<const SourceText> NewText);
  ~ParsedFile();
  ParsedFile(const ParsedFile &) = delete;
  ParsedFile &operator=(const ParsedFile &) = delete;

  const SourceText &text() const { return *Text; }
  std::shared_ptr<const SourceText> textPtr() const { return Text; }
  const ast::Module &module() const { return *Module; }

private:
  ParsedFile() = default;
  std::shared_ptr<const SourceText> Text;
  std::unique_ptr<ast::Module> Module;
  TSTree *Tree = nullptr;
};

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_PARSER_H
