//===- ToProtocol.cpp - tessel's data to LSP JSON -------------------------===//
/// \file
/// Implements the Finding -> Diagnostic conversion. Keys are emitted in a
/// fixed order by nlohmann::json (sorted), which keeps golden files stable.
//===----------------------------------------------------------------------===//
#include "lsp/ToProtocol.h"

#include "lsp/Uri.h"

#include <filesystem>

namespace tessel::lsp {

nlohmann::json toProtocol(Position P) { return {{"line", P.Line}, {"character", P.Character}}; }

nlohmann::json toProtocol(SourceRange R, const LineIndex &Index, PositionEncoding Enc) {
  // A reversed range would make clients drop the diagnostic; collapse it.
  uint32_t End = R.End < R.Begin ? R.Begin : R.End;
  return {{"start", toProtocol(Index.position(R.Begin, Enc))}, {"end", toProtocol(Index.position(End, Enc))}};
}

std::string displayMessage(const diag::Finding &F) {
  if (F.Specialization.empty())
    return F.Message;
  return F.Message + " [under " + F.Specialization + "]";
}

std::string relativePath(const std::string &Path) {
  std::error_code EC;
  std::filesystem::path Cwd = std::filesystem::current_path(EC);
  if (EC || Path.empty() || Path[0] != '/')
    return Path;
  std::string Rel = std::filesystem::path(Path).lexically_proximate(Cwd).string();
  return Rel.rfind("..", 0) == 0 ? Path : Rel;
}

nlohmann::json toProtocol(const diag::Finding &F, const LineIndex &Index, const std::string &Uri,
                          PositionEncoding Enc) {
  nlohmann::json D = {
      {"range", toProtocol(F.Range, Index, Enc)},
      {"severity", static_cast<int>(F.Sev)},
      {"code", std::string(F.code())},
      {"source", "tessel"},
      {"message", displayMessage(F)},
  };
  if (!F.Related.empty()) {
    nlohmann::json Related = nlohmann::json::array();
    for (const RelatedLocation &R : F.Related) {
      if (R.File) { // a place in another file (an imported helper)
        // Named the way this file is: a URI for a client, a path for `tessel check`.
        LineIndex Other(R.File->text());
        std::string OtherUri = Uri.rfind("file://", 0) == 0 ? pathToUri(R.File->path()) : relativePath(R.File->path());
        Related.push_back(
            {{"location", {{"uri", OtherUri}, {"range", toProtocol(R.Range, Other, Enc)}}}, {"message", R.Message}});
        continue;
      }
      Related.push_back(
          {{"location", {{"uri", Uri}, {"range", toProtocol(R.Range, Index, Enc)}}}, {"message", R.Message}});
    }
    D["relatedInformation"] = std::move(Related);
  }
  return D;
}

} // namespace tessel::lsp
