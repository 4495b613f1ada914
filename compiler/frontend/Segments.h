//===- Segments.h - top-level statement boundaries by lexical scan -*- C++ -*-===//
/// \file
/// Internal to the front end and the server's documents. Finds where top-level statements start without
/// parsing: a line that starts at column 0 with code, outside brackets,
/// strings and backslash continuations, that is not an `else`/`elif`/
/// `except`/`finally` clause and does not follow a decorator. The parser
/// splits a file there, parses the pieces on several threads, and reparses
/// only the pieces an edit touched.
///
/// Like Recovery, a column-0 `def`, `class`, `async def` or `@` line closes
/// any bracket left open above it: in a file meant to work it cannot
/// continue a bracketed expression, so a half-typed line cannot swallow the
/// kernels below it. Triple-quoted strings are honoured exactly (code in a
/// string template must not be split).
///
/// The scan's state where it finds a start is always its initial one (no
/// bracket open, no decorator or continuation pending), so it can resume at
/// any start of an older version above an edit, and it can stop at the first
/// start past the edit that the older version had too: from there the text
/// and the state are the same, hence the starts are the old ones, moved.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_SEGMENTS_H
#define TESSEL_COMPILER_FRONTEND_SEGMENTS_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace tessel::cst {

/// Whether Line (from column 0) starts `def `, `class `, `@` or `async def `.
bool startsDefinition(std::string_view Line);

/// Byte offsets where top-level statements start, in increasing order. The
/// first is always 0 for a non-empty text (leading comments and blank
/// lines belong to the first statement); none for an empty one.
std::vector<uint32_t> topLevelStarts(std::string_view Text);

/// Resumes that scan at From, 0 or one of topLevelStarts(Text): appends to
/// Out the starts at and after From, in order, until Known says the starts
/// from the one just appended on are known (it returns true), or the text
/// ends. Returns whether Known stopped it.
bool appendTopLevelStarts(std::string_view Text, uint32_t From, std::vector<uint32_t> &Out,
                          const std::function<bool(uint32_t)> &Known);

/// The starts of Text, edited from a text of OldSize bytes whose starts were
/// Old; the two share their first Prefix and last Suffix bytes. The scan runs
/// again only from the start before the one holding the first changed byte
/// to the first start past the edit that Old had too; the rest are Old's,
/// moved. The result equals topLevelStarts(Text).
std::vector<uint32_t> startsAfterEdit(const std::vector<uint32_t> &Old, size_t OldSize, std::string_view Text,
                                      size_t Prefix, size_t Suffix);

/// Where trailing spaces can be added without changing what Python reads of
/// [Begin, End), Begin a start: the terminator of the last line there that
/// ends outside strings and comments, with no backslash continuation and no
/// one-line string left open (spaces inside brackets change nothing). The
/// language server pads the text it checks there (lsp::Workspace), so that an
/// edit's change in length stops at the piece it is in. Nullopt when no line
/// qualifies (or the only one is the text's unterminated last line).
std::optional<uint32_t> lastPaddableLineEnd(std::string_view Text, uint32_t Begin, uint32_t End);

} // namespace tessel::cst

#endif // TESSEL_COMPILER_FRONTEND_SEGMENTS_H
