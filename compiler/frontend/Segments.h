//===- Segments.h - top-level statement boundaries by lexical scan -*- C++ -*-===//
/// \file
/// Internal to the front end. Finds where top-level statements start without
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
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_SEGMENTS_H
#define TESSEL_COMPILER_FRONTEND_SEGMENTS_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace tessel::cst {

/// Whether Line (from column 0) starts `def `, `class `, `@` or `async def `.
bool startsDefinition(std::string_view Line);

/// Byte offsets where top-level statements start, in increasing order. The
/// first is always 0 for a non-empty text (leading comments and blank
/// lines belong to the first statement); none for an empty one.
std::vector<uint32_t> topLevelStarts(std::string_view Text);

} // namespace tessel::cst

#endif // TESSEL_COMPILER_FRONTEND_SEGMENTS_H
