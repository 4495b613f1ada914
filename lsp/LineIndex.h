//===- LineIndex.h - byte offsets <-> LSP positions -------------*- C++ -*-===//
/// \file
/// The one place where the compiler's byte offsets (UTF-8, what tree-sitter
/// gives) become LSP positions and back. LSP columns count code units of the
/// negotiated encoding: UTF-16 by default, UTF-8 or UTF-32 when the client
/// offers them (LSP 3.17 `general.positionEncodings`).
///
/// Line breaks are "\n", "\r\n" and a lone "\r", as in LSP and in Python.
/// Bytes that are not valid UTF-8 each count as one code unit in every
/// encoding (an editor shows each as U+FFFD, which is one UTF-16 unit), so
/// broken files still get stable, monotonic positions.
///
/// Out-of-range input is clamped, never an error: a column past the end of
/// its line means the end of that line (before the terminator), a line past
/// the last means the end of the text, and an offset or column that falls
/// inside a multi-unit character means the start of that character.
///
/// The line table is the SourceText's own (one per version of a document;
/// building a second one here was 5 % of the server's time per keystroke in
/// a 5 MB file): a conversion finds its line by binary search, then reads
/// that line's bytes, and on a pure-ASCII line a column is a byte offset.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_LINEINDEX_H
#define TESSEL_LSP_LINEINDEX_H

#include "compiler/support/SourceText.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::lsp {

/// What a position's `character` counts.
enum class PositionEncoding { UTF8, UTF16, UTF32 };

/// An LSP position: 0-based line, 0-based column in code units.
struct Position {
  uint32_t Line = 0;
  uint32_t Character = 0;
  friend bool operator==(Position A, Position B) { return A.Line == B.Line && A.Character == B.Character; }
};

/// Spaces the server's copy of a document has at the end of a line and the
/// client's text has not (Workspace.h says why): [Offset, Offset + Size),
/// just before the line's terminator.
struct Slack {
  uint32_t Offset = 0;
  uint32_t Size = 0;
  friend bool operator==(Slack A, Slack B) { return A.Offset == B.Offset && A.Size == B.Size; }
};

class LineIndex {
public:
  /// Indexes a copy of Text.
  explicit LineIndex(std::string Text, const std::vector<Slack> &Slacks = {});
  /// Indexes Text's text, sharing it and its line table rather than copying
  /// (a document's snapshot holds both: a copy was another 4.4 MB per
  /// version of the 13,000-kernel file, two versions alive per keystroke).
  /// Slacks (by offset) are the spaces the client does not see: a line is
  /// what precedes its slack, so positions are the client's.
  explicit LineIndex(std::shared_ptr<const SourceText> Text, const std::vector<Slack> &Slacks = {});

  /// The position of a byte offset (clamped to the text).
  Position position(uint32_t Offset, PositionEncoding Enc = PositionEncoding::UTF16) const;
  /// The byte offset of a position (clamped as described above).
  uint32_t offset(Position P, PositionEncoding Enc = PositionEncoding::UTF16) const;

  uint32_t lineCount() const { return Source->lineCount(); }
  /// A 0-based line's text without its terminator (and its slack); empty
  /// past the end.
  std::string_view line(uint32_t Line) const;
  /// The byte offset where a 0-based line starts (text size past the end).
  uint32_t lineStart(uint32_t Line) const;
  const std::string &text() const { return Source->text(); }
  /// The text as the client has it: text() without the slack.
  std::string clientText() const;
  const std::vector<Slack> &slacks() const { return Slacks; }

private:
  uint32_t slackOn(uint32_t Line) const;
  std::shared_ptr<const SourceText> Source;
  std::vector<Slack> Slacks;
  std::vector<std::pair<uint32_t, uint32_t>> SlackLines; ///< (line, size), by line
};

/// Length in bytes of the (possibly invalid) UTF-8 sequence at the start of
/// S, and the code point it encodes; an invalid byte has length 1 and no
/// code point (returned as U+FFFD). S must not be empty.
struct DecodedChar {
  uint32_t Bytes;
  char32_t CodePoint;
  bool Valid;
};
DecodedChar decodeUtf8(std::string_view S);

/// Code units a decoded character occupies in Enc.
uint32_t codeUnits(const DecodedChar &C, PositionEncoding Enc);

} // namespace tessel::lsp

#endif // TESSEL_LSP_LINEINDEX_H
