//===- DocumentSlack.h - spaces that keep offsets still below an edit -*- C++ -*-===//
/// \file
/// The text the server checks is the client's text plus runs of spaces at
/// the ends of a few lines (slack), each at the last line of a top-level
/// piece (Segments.h) where trailing spaces change nothing Python reads. An
/// edit's change in length is absorbed by the slack of the piece it is in:
/// typing a character takes one space away, deleting one adds one. Every
/// byte after that piece keeps its offset, so the versions before and after a
/// keystroke share the parse, the module facts and the analyses of the
/// thousands of kernels below it instead of copying them with moved ranges
/// (issue 14: a keystroke in the middle of a 13,000-kernel file shifted the
/// ranges of the 6,500 kernels below it).
///
/// The client never sees slack: LineIndex takes it off each line, so every
/// position the server reads or writes is the client's.
///
/// Slack that an edit could have pulled into a string or a continuation (the
/// text from the edit to the first unchanged top-level start) is removed,
/// then the edited piece is padded again.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_DOCUMENTSLACK_H
#define TESSEL_LSP_DOCUMENTSLACK_H

#include "compiler/frontend/Parser.h"
#include "lsp/LineIndex.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessel::lsp {

class DocumentSlack {
public:
  /// Slack per piece that an insertion makes when none is left: one shift
  /// per this many characters typed into the same piece.
  static constexpr uint32_t Step = 64;
  /// More slack than this on one line (a large deletion) is not kept: the
  /// text after the piece moves instead.
  static constexpr uint32_t Max = 1u << 16;

  /// A text as the client sent it: no slack yet.
  explicit DocumentSlack(std::string_view Text = {});

  /// Text had Edit applied (a replacement, in the server's bytes). Keeps the
  /// top-level starts and the slack in step with it, then changes slack so
  /// that what follows the edited piece keeps its offsets: those changes
  /// are made to Text and appended to Edits, last offset first.
  void edited(std::string &Text, const ByteEdit &Edit, std::vector<ByteEdit> &Edits);

  /// By offset.
  const std::vector<Slack> &slacks() const { return Slacks; }

private:
  std::vector<uint32_t> Starts; ///< the top-level starts of the server's text
  std::vector<Slack> Slacks;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_DOCUMENTSLACK_H
