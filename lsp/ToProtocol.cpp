//===- ToProtocol.cpp - tessel's data to LSP JSON -------------------------===//
/// \file
/// Implements the Finding -> Diagnostic conversion. Keys are emitted in a
/// fixed order by nlohmann::json (sorted), which keeps golden files stable.
//===----------------------------------------------------------------------===//
#include "lsp/ToProtocol.h"

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
    for (const RelatedLocation &R : F.Related)
      Related.push_back(
          {{"location", {{"uri", Uri}, {"range", toProtocol(R.Range, Index, Enc)}}}, {"message", R.Message}});
    D["relatedInformation"] = std::move(Related);
  }
  return D;
}

} // namespace tessel::lsp
