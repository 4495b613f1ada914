//===- SemanticTokens.h - names coloured by what Triton makes them -*- C++ -*-===//
/// \file
/// textDocument/semanticTokens/full: every name in the file, by what it is
/// (a module alias, a function, a parameter, a local) and, inside @jit code,
/// by what sema found it to be: a compile-time constant (`constexpr`), a
/// pointer, a tile (a block of values). A `tl.*` builtin is a function with
/// `defaultLibrary`. The legend is tokenTypes()/tokenModifiers(); encoding
/// into LSP's relative integers happens in FeatureProtocol.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_SEMANTICTOKENS_H
#define TESSEL_LSP_FEATURES_SEMANTICTOKENS_H

#include "compiler/support/SourceRange.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

enum class TokenType : uint32_t { Namespace, Function, Parameter, Variable, Decorator };
enum TokenModifier : uint32_t {
  Declaration = 1u << 0,
  DefaultLibrary = 1u << 1,
  Constexpr = 1u << 2,
  Pointer = 1u << 3,
  Tile = 1u << 4,
};

struct SemanticToken {
  SourceRange Range; ///< one identifier, on one line
  TokenType Type;
  uint32_t Modifiers = 0;
};

const std::vector<std::string_view> &tokenTypes();
const std::vector<std::string_view> &tokenModifiers();

/// Tokens in source order.
std::vector<SemanticToken> semanticTokens(const AnalyzedFile &F);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_SEMANTICTOKENS_H
