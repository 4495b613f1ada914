//===- Hover.h - what is under the cursor -----------------------*- C++ -*-===//
/// \file
/// Hover over a tile shows its type (shape and dtype) and constexpr value
/// under each specialization of its kernel; over a `tl.*` builtin, its
/// signature and documentation; over a kernel's name, what tessel knows of
/// its configs and launches. Returns tessel's own HoverInfo; the server picks
/// markdown or plain text from the client's capabilities.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_HOVER_H
#define TESSEL_LSP_FEATURES_HOVER_H

#include "compiler/support/SourceRange.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct HoverInfo {
  SourceRange Range;              ///< the hovered token
  std::string Code;               ///< a line of Python-like code: "offs: [1024] i32", "tl.load(pointer, ...)"
  std::vector<std::string> Notes; ///< one line each: "under BLOCK=128: [128] i32"
  std::string Doc;                ///< a paragraph, may hold `code` spans

  std::string markdown() const;
  std::string plainText() const;
};

std::optional<HoverInfo> hover(const AnalyzedFile &F, uint32_t Offset);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_HOVER_H
