//===- FeatureProtocol.h - feature results to LSP JSON ----------*- C++ -*-===//
/// \file
/// Each feature in lsp/features/ returns tessel's own struct with byte
/// ranges; these functions turn them into the LSP result objects, with
/// positions in the negotiated encoding. Choices that depend on the client
/// (markdown or plain text) are parameters, decided by the server.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATUREPROTOCOL_H
#define TESSEL_LSP_FEATUREPROTOCOL_H

#include "lsp/LineIndex.h"
#include "lsp/features/CodeActions.h"
#include "lsp/features/CodeLens.h"
#include "lsp/features/Completion.h"
#include "lsp/features/DocumentSymbols.h"
#include "lsp/features/FoldingRanges.h"
#include "lsp/features/Hover.h"
#include "lsp/features/InlayHints.h"
#include "lsp/features/SemanticTokens.h"
#include "lsp/features/SignatureHelp.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tessel::lsp {

nlohmann::json toProtocol(const HoverInfo &H, const LineIndex &Index, PositionEncoding Enc, bool Markdown);
nlohmann::json toProtocol(const InlayHint &H, const LineIndex &Index, PositionEncoding Enc);
nlohmann::json toProtocol(const CodeLensInfo &L, const LineIndex &Index, PositionEncoding Enc, const std::string &Uri);
nlohmann::json toProtocol(const CodeActionInfo &A, const LineIndex &Index, PositionEncoding Enc,
                          const std::string &Uri);
nlohmann::json toProtocol(const CompletionInfo &C, bool Markdown);
nlohmann::json toProtocol(const SymbolInfo &S, const LineIndex &Index, PositionEncoding Enc);
nlohmann::json toProtocol(const SignatureHelpInfo &H, bool Markdown);
nlohmann::json toProtocol(const FoldingRangeInfo &R);
/// LSP's relative encoding: five integers per token (line delta, start
/// delta, length, type, modifiers), lengths in the negotiated encoding.
nlohmann::json toProtocol(const std::vector<SemanticToken> &Tokens, const LineIndex &Index, PositionEncoding Enc);
/// The legend announced in `initialize`.
nlohmann::json semanticTokensLegend();

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATUREPROTOCOL_H
