//===- Protocol.cpp - the LSP structures tessel uses ----------------------===//
/// \file
/// from_json / to_json for Protocol.h. Required fields use at(), which throws
/// on absence; optional ones are read only when present and non-null.
//===----------------------------------------------------------------------===//
#include "lsp/Protocol.h"

using nlohmann::json;

namespace tessel::lsp {

static const json *optionalField(const json &J, const char *Key) {
  auto It = J.find(Key);
  if (It == J.end() || It->is_null())
    return nullptr;
  return &*It;
}

/// Follows a path of object keys; null when any step is missing.
static const json *path(const json &J, std::initializer_list<const char *> Keys) {
  const json *Cur = &J;
  for (const char *K : Keys) {
    if (!Cur->is_object())
      return nullptr;
    Cur = optionalField(*Cur, K);
    if (!Cur)
      return nullptr;
  }
  return Cur;
}

static bool arrayHasString(const json *A, const char *S) {
  if (!A || !A->is_array())
    return false;
  for (const json &E : *A)
    if (E.is_string() && E.get<std::string>() == S)
      return true;
  return false;
}

void from_json(const json &J, Position &P) {
  int64_t Line = J.at("line").get<int64_t>(), Char = J.at("character").get<int64_t>();
  if (Line < 0 || Char < 0)
    throw json::other_error::create(501, "a position has negative line or character", &J);
  P.Line = static_cast<uint32_t>(std::min<int64_t>(Line, UINT32_MAX));
  P.Character = static_cast<uint32_t>(std::min<int64_t>(Char, UINT32_MAX));
}
void to_json(json &J, const Position &P) { J = {{"line", P.Line}, {"character", P.Character}}; }

void from_json(const json &J, Range &R) {
  J.at("start").get_to(R.Start);
  J.at("end").get_to(R.End);
}
void to_json(json &J, const Range &R) { J = {{"start", R.Start}, {"end", R.End}}; }

void from_json(const json &J, TextDocumentIdentifier &T) { J.at("uri").get_to(T.Uri); }

void from_json(const json &J, TextDocumentItem &T) {
  J.at("uri").get_to(T.Uri);
  if (const json *L = optionalField(J, "languageId"))
    L->get_to(T.LanguageId);
  J.at("version").get_to(T.Version);
  J.at("text").get_to(T.Text);
}

void from_json(const json &J, DidOpenTextDocumentParams &P) { J.at("textDocument").get_to(P.TextDocument); }

void from_json(const json &J, TextDocumentContentChangeEvent &C) {
  if (const json *R = optionalField(J, "range"))
    C.ChangeRange = R->get<Range>();
  J.at("text").get_to(C.Text);
}

void from_json(const json &J, DidChangeTextDocumentParams &P) {
  const json &Doc = J.at("textDocument");
  Doc.get_to(P.TextDocument);
  if (const json *V = optionalField(Doc, "version"))
    P.Version = V->get<int64_t>();
  J.at("contentChanges").get_to(P.ContentChanges);
}

void from_json(const json &J, DidCloseTextDocumentParams &P) { J.at("textDocument").get_to(P.TextDocument); }

void from_json(const json &J, TextDocumentPositionParams &P) {
  J.at("textDocument").get_to(P.TextDocument);
  J.at("position").get_to(P.Pos);
}

void from_json(const json &J, ReferenceParams &P) {
  J.at("textDocument").get_to(P.TextDocument);
  J.at("position").get_to(P.Pos);
  if (J.contains("context") && J["context"].is_object() && J["context"].contains("includeDeclaration"))
    P.IncludeDeclaration = J["context"]["includeDeclaration"].get<bool>();
}

void from_json(const json &J, RenameParams &P) {
  J.at("textDocument").get_to(P.TextDocument);
  J.at("position").get_to(P.Pos);
  J.at("newName").get_to(P.NewName);
}

void from_json(const json &J, DocumentParams &P) { J.at("textDocument").get_to(P.TextDocument); }

void from_json(const json &J, RangeParams &P) {
  J.at("textDocument").get_to(P.TextDocument);
  J.at("range").get_to(P.R);
}

void from_json(const json &J, CodeActionParams &P) {
  J.at("textDocument").get_to(P.TextDocument);
  J.at("range").get_to(P.R);
  if (const json *Only = path(J, {"context", "only"}))
    Only->get_to(P.OnlyKinds);
}

void from_json(const json &J, ExecuteCommandParams &P) {
  J.at("command").get_to(P.Command);
  P.Arguments = json::array();
  if (const json *A = optionalField(J, "arguments")) {
    if (!A->is_array())
      throw json::type_error::create(302, "arguments must be an array", A);
    P.Arguments = *A;
  }
}

void from_json(const json &J, CancelParams &P) { P.Id = J.at("id"); }

void from_json(const json &J, ViewIRParams &P) {
  J.at("textDocument").get_to(P.TextDocument);
  J.at("kernel").get_to(P.Kernel);
  if (const json *C = optionalField(J, "config"))
    P.Config = C->get<int64_t>();
  J.at("kind").get_to(P.Kind);
}

void from_json(const json &J, RunKernelParams &P) {
  J.at("uri").get_to(P.Uri);
  J.at("kernel").get_to(P.Kernel);
  P.Device = "cpu";
  if (const json *D = optionalField(J, "device"))
    D->get_to(P.Device);
  if (const json *C = optionalField(J, "config"))
    P.Config = C->get<int64_t>();
}

void from_json(const json &J, InitializeParams &P) {
  if (const json *Pid = optionalField(J, "processId"))
    P.ProcessId = Pid->get<int64_t>();
  const json Caps = J.value("capabilities", json::object());
  P.HoverMarkdown = arrayHasString(path(Caps, {"textDocument", "hover", "contentFormat"}), "markdown");
  P.CompletionDocMarkdown =
      arrayHasString(path(Caps, {"textDocument", "completion", "completionItem", "documentationFormat"}), "markdown");
  if (const json *W = path(Caps, {"window", "workDoneProgress"}))
    P.WorkDoneProgress = W->is_boolean() && W->get<bool>();
  if (const json *S = path(Caps, {"general", "staleRequestSupport", "cancel"}))
    P.CancelsStaleRequests = S->is_boolean() && S->get<bool>();
  if (const json *E = path(Caps, {"general", "positionEncodings"}); E && E->is_array())
    for (const json &Enc : *E)
      if (Enc.is_string())
        P.PositionEncodings.push_back(Enc);
  if (const json *I = path(J, {"initializationOptions", "inlayHints", "enable"}); I && I->is_boolean())
    P.InlayHintsEnabled = I->get<bool>();
}

} // namespace tessel::lsp
