//===- Uri.h - file:// URIs and paths ---------------------------*- C++ -*-===//
/// \file
/// Converts between `file://` URIs (percent-encoded, as LSP clients send
/// them) and filesystem paths. Other schemes (`untitled:`, `test:`) have no
/// path; the server still checks such documents, it just cannot run them.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_URI_H
#define TESSEL_LSP_URI_H

#include <optional>
#include <string>
#include <string_view>

namespace tessel::lsp {

/// The path of a `file://` URI, percent-decoded; nullopt for other schemes.
std::optional<std::string> uriToPath(std::string_view Uri);
/// `file://` + the percent-encoded absolute path.
std::string pathToUri(std::string_view Path);

} // namespace tessel::lsp

#endif // TESSEL_LSP_URI_H
