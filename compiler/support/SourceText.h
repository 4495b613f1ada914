//===- SourceText.h - a file's text with its line table ---------*- C++ -*-===//
/// \file
/// The one place where byte offsets become 0-based (line, byte column) pairs
/// for the compiler's own consumers (text output, `at L:C` excerpts). The LSP
/// converts byte columns to UTF-16 in lsp/LineIndex, from the same text.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_SOURCETEXT_H
#define TESSEL_COMPILER_SUPPORT_SOURCETEXT_H

#include "compiler/support/SourceRange.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

/// 0-based line and 0-based byte column.
struct LineCol {
  uint32_t Line = 0;
  uint32_t Column = 0;
};

class SourceText {
public:
  SourceText() : SourceText(std::string()) {}
  explicit SourceText(std::string Text, std::string Path = {});
  /// Text, an edit of Before that left its first Prefix and last Suffix
  /// bytes alone: the line table is Before's outside the edit and scanned
  /// only inside it (a keystroke in a 5 MB file scanned all of it, a tenth
  /// of the keystroke; issue 14).
  SourceText(std::string Text, std::string Path, const SourceText &Before, uint32_t Prefix, uint32_t Suffix);

  const std::string &text() const { return Text; }
  const std::string &path() const { return Path; }
  std::string_view slice(SourceRange R) const;

  LineCol lineCol(uint32_t Offset) const;
  /// Byte offset of a 0-based line/byte column, clamped to the text.
  uint32_t offset(LineCol LC) const;
  uint32_t lineCount() const { return static_cast<uint32_t>(LineStarts.size()); }
  /// The byte offset where a 0-based line starts (the text's size past the
  /// last line).
  uint32_t lineStart(uint32_t Line) const;
  /// The 0-based line holding a byte offset (clamped to the text).
  uint32_t lineOf(uint32_t Offset) const;
  /// The text of a 0-based line without its line terminator.
  std::string_view line(uint32_t Line) const;

private:
  /// Appends the starts of the lines that begin in [From, To) (From > 0).
  void scanLineStarts(uint32_t From, uint32_t To);
  std::string Text;
  std::string Path;
  std::vector<uint32_t> LineStarts;
};

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_SOURCETEXT_H
