//===- FeatureProtocol.cpp - feature results to LSP JSON ------------------===//
/// \file
/// Field names and numeric kinds follow LSP 3.17. Code lenses without an
/// action carry a command with an empty id: clients show the title as plain
/// text.
//===----------------------------------------------------------------------===//
#include "lsp/FeatureProtocol.h"
#include "lsp/ToProtocol.h"

using nlohmann::json;

namespace tessel::lsp {

json toProtocol(const HoverInfo &H, const LineIndex &Index, PositionEncoding Enc, bool Markdown) {
  return {
      {"contents", {{"kind", Markdown ? "markdown" : "plaintext"}, {"value", Markdown ? H.markdown() : H.plainText()}}},
      {"range", toProtocol(H.Range, Index, Enc)}};
}

json toProtocol(const InlayHint &H, const LineIndex &Index, PositionEncoding Enc) {
  return {{"position", toProtocol(Index.position(H.Offset, Enc))},
          {"label", H.Label},
          {"kind", 1},
          {"paddingLeft", false},
          {"paddingRight", false}};
}

json toProtocol(const CodeLensInfo &L, const LineIndex &Index, PositionEncoding Enc, const std::string &Uri) {
  json Command = {{"title", L.Title}, {"command", ""}};
  if (L.RunDevice) {
    Command["command"] = "tessel.runKernel";
    Command["arguments"] = json::array({{{"uri", Uri}, {"kernel", L.Kernel}, {"device", *L.RunDevice}}});
  }
  return {{"range", toProtocol(L.Range, Index, Enc)}, {"command", std::move(Command)}};
}

json toProtocol(const CodeActionInfo &A, const LineIndex &Index, PositionEncoding Enc, const std::string &Uri) {
  json Edits = json::array();
  for (const TextEdit &E : A.Edits)
    Edits.push_back({{"range", toProtocol(E.Range, Index, Enc)}, {"newText", E.NewText}});
  json Action = {{"title", A.Title}, {"kind", "quickfix"}, {"edit", {{"changes", {{Uri, std::move(Edits)}}}}}};
  if (A.For)
    Action["diagnostics"] = json::array({toProtocol(*A.For, Index, Uri, Enc)});
  if (A.Preferred)
    Action["isPreferred"] = true;
  return Action;
}

static int completionKind(BuiltinKind K) {
  switch (K) {
  case BuiltinKind::Function:
    return 3; // Function
  case BuiltinKind::Class:
    return 7; // Class
  case BuiltinKind::DType:
    return 22; // Struct: closest to a type object
  case BuiltinKind::Constant:
    return 21; // Constant
  }
  return 1;
}

json toProtocol(const CompletionInfo &C, bool Markdown) {
  std::string Doc = Markdown ? "```python\ntl." + C.Signature + "\n```\n\n" + C.Doc : C.Doc;
  return {{"label", C.Label},
          {"kind", completionKind(C.Kind)},
          {"detail", C.Signature},
          {"documentation", {{"kind", Markdown ? "markdown" : "plaintext"}, {"value", Doc}}},
          {"insertText", C.Label}};
}

json toProtocol(const SymbolInfo &S, const LineIndex &Index, PositionEncoding Enc) {
  json J = {{"name", S.Name},
            {"detail", S.Detail},
            {"kind", static_cast<int>(S.Kind)},
            {"range", toProtocol(S.Range, Index, Enc)},
            {"selectionRange", toProtocol(S.Selection, Index, Enc)}};
  if (!S.Children.empty()) {
    json Children = json::array();
    for (const SymbolInfo &C : S.Children)
      Children.push_back(toProtocol(C, Index, Enc));
    J["children"] = std::move(Children);
  }
  return J;
}

} // namespace tessel::lsp
