//===- FromProtocol.h - LSP requests to tessel's terms ----------*- C++ -*-===//
/// \file
/// The inverse of ToProtocol: positions and ranges in the negotiated encoding
/// become byte offsets of one version's text, and content-change events
/// become Workspace edits. The negotiated encoding's name is parsed here too.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FROMPROTOCOL_H
#define TESSEL_LSP_FROMPROTOCOL_H

#include "compiler/support/SourceRange.h"
#include "lsp/LineIndex.h"
#include "lsp/Protocol.h"
#include "lsp/Workspace.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tessel::lsp {

uint32_t fromProtocol(Position P, const LineIndex &Index, PositionEncoding Enc);
SourceRange fromProtocol(const Range &R, const LineIndex &Index, PositionEncoding Enc);
std::vector<DocumentEdit> fromProtocol(const std::vector<TextDocumentContentChangeEvent> &Changes);

/// "utf-8", "utf-16", "utf-32" (LSP's PositionEncodingKind); nullopt otherwise.
std::optional<PositionEncoding> parsePositionEncoding(std::string_view Name);
std::string_view positionEncodingName(PositionEncoding Enc);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FROMPROTOCOL_H
