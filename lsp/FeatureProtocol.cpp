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
    if (L.Reference)
      Command["arguments"][0]["reference"] = true;
  } else if (L.Tunes) {
    Command["command"] = "tessel.tuneKernel";
    Command["arguments"] = json::array({{{"uri", Uri}, {"kernel", L.Kernel}, {"device", "auto"}}});
  } else if (L.ShowsConfigs) {
    Command["command"] = "tessel.showConfigs";
    Command["arguments"] = json::array({{{"uri", Uri}, {"kernel", L.Kernel}}});
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

static int completionKind(CompletionKind K) {
  switch (K) {
  case CompletionKind::Function:
    return 3; // Function
  case CompletionKind::Class:
    return 7; // Class
  case CompletionKind::DType:
    return 22; // Struct: closest to a type object
  case CompletionKind::Constant:
    return 21; // Constant
  case CompletionKind::Keyword:
    return 10; // Property: a named argument, as pyright shows `name=`
  case CompletionKind::Variable:
  case CompletionKind::Parameter:
    return 6; // Variable
  case CompletionKind::Module:
    return 9; // Module
  case CompletionKind::Value:
    return 12; // Value
  case CompletionKind::Field:
    return 5; // Field
  }
  return 1;
}

json toProtocol(const CompletionInfo &C, bool Markdown) {
  std::string Doc = C.Doc;
  if (C.BuiltinDoc && Markdown)
    Doc = "```python\ntl." + C.Detail + "\n```\n\n" + C.Doc;
  json J = {{"label", C.Label},
            {"kind", completionKind(C.Kind)},
            {"detail", C.Detail},
            {"insertText", C.InsertText.empty() ? C.Label : C.InsertText}};
  if (!Doc.empty())
    J["documentation"] = {{"kind", Markdown ? "markdown" : "plaintext"}, {"value", Doc}};
  return J;
}

json toProtocol(const SignatureHelpInfo &H, bool Markdown) {
  json Params = json::array();
  for (size_t I = 0; I < H.Signature.Params.size(); ++I) {
    const ParamInfo &P = H.Signature.Params[I];
    json PJ = {{"label", {H.Signature.ParamOffsets[I].first, H.Signature.ParamOffsets[I].second}}};
    std::string Doc = P.LaunchOption ? "launch option" : P.Constexpr ? "constexpr: a compile-time value" : "";
    if (!P.Values.empty()) {
      Doc += Doc.empty() ? "one of" : "; one of";
      for (const std::string &V : P.Values)
        Doc += " \"" + V + "\"";
    }
    if (!P.Doc.empty())
      Doc += (Doc.empty() ? "" : ". ") + P.Doc;
    if (!Doc.empty())
      PJ["documentation"] = Doc;
    Params.push_back(std::move(PJ));
  }
  json Sig = {{"label", H.Signature.Label}, {"parameters", std::move(Params)}};
  if (!H.Signature.Doc.empty())
    Sig["documentation"] = {{"kind", Markdown ? "markdown" : "plaintext"}, {"value", H.Signature.Doc}};
  if (H.ActiveParameter >= 0)
    Sig["activeParameter"] = H.ActiveParameter;
  json J = {{"signatures", json::array({std::move(Sig)})}, {"activeSignature", 0}};
  // LSP 3.17: an out-of-range activeParameter means "none"; clients treat an
  // absent one as 0, which would highlight the wrong parameter.
  J["activeParameter"] = H.ActiveParameter >= 0 ? H.ActiveParameter : static_cast<int>(H.Signature.Params.size());
  return J;
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

json toProtocol(const FoldingRangeInfo &R) {
  json J = {{"startLine", R.StartLine}, {"endLine", R.EndLine}};
  if (!R.Kind.empty())
    J["kind"] = R.Kind;
  return J;
}

json toProtocol(const std::vector<SemanticToken> &Tokens, const LineIndex &Index, PositionEncoding Enc) {
  std::vector<uint32_t> Data;
  Data.reserve(Tokens.size() * 5);
  uint32_t Line = 0, Col = 0;
  for (const SemanticToken &T : Tokens) {
    Position B = Index.position(T.Range.Begin, Enc), E = Index.position(T.Range.End, Enc);
    if (E.Line != B.Line || E.Character <= B.Character)
      continue; // identifiers never span lines; skip anything odd
    Data.push_back(B.Line - Line);
    Data.push_back(B.Line == Line ? B.Character - Col : B.Character);
    Data.push_back(E.Character - B.Character);
    Data.push_back(static_cast<uint32_t>(T.Type));
    Data.push_back(T.Modifiers);
    Line = B.Line;
    Col = B.Character;
  }
  return {{"data", std::move(Data)}};
}

json semanticTokensLegend() {
  json Types = json::array(), Mods = json::array();
  for (std::string_view T : tokenTypes())
    Types.push_back(std::string(T));
  for (std::string_view M : tokenModifiers())
    Mods.push_back(std::string(M));
  return {{"tokenTypes", std::move(Types)}, {"tokenModifiers", std::move(Mods)}};
}

} // namespace tessel::lsp
