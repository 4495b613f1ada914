//===- ToProtocol.h - tessel's data to LSP JSON -----------------*- C++ -*-===//
/// \file
/// Conversions from tessel's own plain data (byte ranges, Findings) to LSP
/// JSON. Only lsp/ knows JSON or UTF-16: everything below hands over byte
/// offsets, and the LineIndex of the same text turns them into positions in
/// the negotiated encoding here. `tessel check --format=json` prints exactly
/// these objects, so the CLI and the server cannot disagree.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_TOPROTOCOL_H
#define TESSEL_LSP_TOPROTOCOL_H

#include "compiler/support/SourceRange.h"
#include "diagnostics/Finding.h"
#include "lsp/LineIndex.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tessel::lsp {

/// `{"line": L, "character": C}`.
nlohmann::json toProtocol(Position P);
/// An LSP Range `{"start": ..., "end": ...}` for a byte range of Index's text.
nlohmann::json toProtocol(SourceRange R, const LineIndex &Index, PositionEncoding Enc = PositionEncoding::UTF16);

/// The message a Finding shows: its text, plus " [under BLOCK=1024,
/// num_warps=8]" when it holds only under one specialization.
std::string displayMessage(const diag::Finding &F);

/// An LSP Diagnostic: 0-based range, numeric severity (1-4), string code
/// ("TS104"), source "tessel", message, and relatedInformation (locations in
/// the same document, Uri) when the finding has related locations.
/// An absolute path under the working directory, relative to it (the
/// project model names imported files absolutely; `tessel check` names files
/// as the user gave them); other paths unchanged.
std::string relativePath(const std::string &Path);

nlohmann::json toProtocol(const diag::Finding &F, const LineIndex &Index, const std::string &Uri,
                          PositionEncoding Enc = PositionEncoding::UTF16);

} // namespace tessel::lsp

#endif // TESSEL_LSP_TOPROTOCOL_H
