//===- Uri.cpp - file:// URIs and paths -----------------------------------===//
/// \file
/// RFC 3986 percent-encoding for the path part only, which is all LSP needs.
//===----------------------------------------------------------------------===//
#include "lsp/Uri.h"

#include <cctype>

namespace tessel::lsp {

static int hexValue(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

std::optional<std::string> uriToPath(std::string_view Uri) {
  constexpr std::string_view Scheme = "file://";
  if (Uri.substr(0, Scheme.size()) != Scheme)
    return std::nullopt;
  std::string_view Rest = Uri.substr(Scheme.size());
  // `file://host/path`: only an empty or "localhost" authority is local.
  size_t Slash = Rest.find('/');
  if (Slash == std::string_view::npos)
    return std::nullopt;
  std::string_view Host = Rest.substr(0, Slash);
  if (!Host.empty() && Host != "localhost")
    return std::nullopt;
  std::string_view Encoded = Rest.substr(Slash);
  std::string Path;
  for (size_t I = 0; I < Encoded.size(); ++I) {
    if (Encoded[I] == '%' && I + 2 < Encoded.size()) {
      int Hi = hexValue(Encoded[I + 1]), Lo = hexValue(Encoded[I + 2]);
      if (Hi >= 0 && Lo >= 0) {
        Path += static_cast<char>(Hi * 16 + Lo);
        I += 2;
        continue;
      }
    }
    Path += Encoded[I];
  }
  return Path;
}

std::string pathToUri(std::string_view Path) {
  static const char *Hex = "0123456789ABCDEF";
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (std::isalnum(C) || C == '/' || C == '-' || C == '_' || C == '.' || C == '~') {
      Uri += static_cast<char>(C);
      continue;
    }
    Uri += '%';
    Uri += Hex[C >> 4];
    Uri += Hex[C & 15];
  }
  return Uri;
}

} // namespace tessel::lsp
