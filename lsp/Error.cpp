//===- Error.cpp - JSON-RPC errors ----------------------------------------===//
/// \file
/// The single place an LspError becomes JSON.
//===----------------------------------------------------------------------===//
#include "lsp/Error.h"

namespace tessel::lsp {

nlohmann::json toJson(const LspError &E) { return {{"code", static_cast<int>(E.Code)}, {"message", E.Message}}; }

} // namespace tessel::lsp
