//===- Protocol.cpp - the LSP structures tessel uses ----------------------===//
/// \file
/// from_json / to_json for Protocol.h. Required fields use at(), which throws
/// on absence; optional ones are read only when present and non-null.
///
/// Every field is checked for its JSON type, and every number for the range
/// LSP 3.17 gives it (`integer`: -2^31..2^31-1, `uinteger`: 0..2^31-1),
/// before it is converted: nlohmann's get<int64_t>() casts a double (which
/// is what a literal beyond int64 parses to) without a check, which is
/// undefined behaviour. A field that fails throws json::other_error, which
/// the server turns into InvalidParams.
//===----------------------------------------------------------------------===//
#include "lsp/Protocol.h"
#include "lsp/Uri.h"

#include <cstdint>
#include <optional>
#include <string>

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

/// Throws what the server turns into InvalidParams, naming the field.
[[noreturn]] static void badField(const json &J, const char *Key, const std::string &Why) {
  throw json::other_error::create(501, std::string("'") + Key + "' " + Why, &J);
}

/// An LSP number of type `integer` (Min = -2^31) or `uinteger` (Min = 0):
/// an integer literal (no fraction, no exponent) within [Min, 2^31 - 1].
static int64_t checkedInteger(const json &V, const char *Key, int64_t Min) {
  constexpr int64_t Max = INT32_MAX;
  const char *Type = Min < 0 ? "an integer" : "a non-negative integer";
  if (V.is_number_unsigned()) {
    uint64_t U = V.get<uint64_t>();
    if (U > static_cast<uint64_t>(Max))
      badField(V, Key, std::string("must be ") + Type + " of at most 2147483647");
    return static_cast<int64_t>(U);
  }
  if (!V.is_number_integer())
    badField(V, Key,
             std::string("must be ") + Type + ", not " + V.type_name() +
                 (V.is_number_float() ? " (a fraction or beyond 64 bits)" : ""));
  int64_t I = V.get<int64_t>();
  if (I < Min)
    badField(V, Key, Min < 0 ? "must be at least -2147483648" : "must not be negative");
  if (I > Max)
    badField(V, Key, std::string("must be ") + Type + " of at most 2147483647");
  return I;
}

static const json &requiredField(const json &J, const char *Key) {
  if (!J.is_object())
    throw json::type_error::create(302, std::string("expected an object holding '") + Key + "', not " + J.type_name(),
                                   &J);
  auto It = J.find(Key);
  if (It == J.end())
    badField(J, Key, "is missing");
  return *It;
}

static int64_t integerField(const json &J, const char *Key) {
  return checkedInteger(requiredField(J, Key), Key, INT32_MIN);
}
static uint32_t uintegerField(const json &J, const char *Key) {
  return static_cast<uint32_t>(checkedInteger(requiredField(J, Key), Key, 0));
}
static std::optional<int64_t> optionalInteger(const json &J, const char *Key, int64_t Min) {
  if (const json *V = optionalField(J, Key))
    return checkedInteger(*V, Key, Min);
  return std::nullopt;
}

static std::string checkedString(const json &V, const char *Key) {
  if (!V.is_string())
    badField(V, Key, std::string("must be a string, not ") + V.type_name());
  return V.get<std::string>();
}
static std::string stringField(const json &J, const char *Key) { return checkedString(requiredField(J, Key), Key); }

static const json &arrayField(const json &V, const char *Key) {
  if (!V.is_array())
    badField(V, Key, std::string("must be an array, not ") + V.type_name());
  return V;
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
  // A negative line or character is a distinct message: clients that send
  // one have an off-by-one to find.
  for (const char *Key : {"line", "character"}) {
    const json &V = requiredField(J, Key);
    if (V.is_number_integer() && !V.is_number_unsigned() && V.get<int64_t>() < 0)
      throw json::other_error::create(501, "a position has negative line or character", &J);
  }
  P.Line = uintegerField(J, "line");
  P.Character = uintegerField(J, "character");
}
void to_json(json &J, const Position &P) { J = {{"line", P.Line}, {"character", P.Character}}; }

void from_json(const json &J, Range &R) {
  R.Start = requiredField(J, "start").get<Position>();
  R.End = requiredField(J, "end").get<Position>();
}
void to_json(json &J, const Range &R) { J = {{"start", R.Start}, {"end", R.End}}; }

void from_json(const json &J, TextDocumentIdentifier &T) { T.Uri = stringField(J, "uri"); }

void from_json(const json &J, TextDocumentItem &T) {
  T.Uri = stringField(J, "uri");
  if (const json *L = optionalField(J, "languageId"))
    T.LanguageId = checkedString(*L, "languageId");
  T.Version = integerField(J, "version");
  T.Text = stringField(J, "text");
}

void from_json(const json &J, DidOpenTextDocumentParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentItem>();
}

void from_json(const json &J, TextDocumentContentChangeEvent &C) {
  C.Text = stringField(J, "text");
  if (const json *R = optionalField(J, "range"))
    C.ChangeRange = R->get<Range>();
}

void from_json(const json &J, DidChangeTextDocumentParams &P) {
  const json &Doc = requiredField(J, "textDocument");
  P.TextDocument = Doc.get<TextDocumentIdentifier>();
  P.Version = optionalInteger(Doc, "version", INT32_MIN);
  P.ContentChanges.clear();
  for (const json &C : arrayField(requiredField(J, "contentChanges"), "contentChanges"))
    P.ContentChanges.push_back(C.get<TextDocumentContentChangeEvent>());
}

void from_json(const json &J, DidCloseTextDocumentParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
}

void from_json(const json &J, TextDocumentPositionParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.Pos = requiredField(J, "position").get<Position>();
}

void from_json(const json &J, ReferenceParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.Pos = requiredField(J, "position").get<Position>();
  if (const json *D = path(J, {"context", "includeDeclaration"})) {
    if (!D->is_boolean())
      badField(*D, "includeDeclaration", std::string("must be a boolean, not ") + D->type_name());
    P.IncludeDeclaration = D->get<bool>();
  }
}

void from_json(const json &J, RenameParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.Pos = requiredField(J, "position").get<Position>();
  P.NewName = stringField(J, "newName");
}

void from_json(const json &J, DocumentParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
}

void from_json(const json &J, DocumentDiagnosticParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.PreviousResultId.reset();
  if (const json *R = optionalField(J, "previousResultId"))
    P.PreviousResultId = checkedString(*R, "previousResultId");
}

void from_json(const json &J, RangeParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.R = requiredField(J, "range").get<Range>();
}

void from_json(const json &J, CodeActionParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.R = requiredField(J, "range").get<Range>();
  P.OnlyKinds.clear();
  if (const json *Only = path(J, {"context", "only"}))
    for (const json &K : arrayField(*Only, "only"))
      P.OnlyKinds.push_back(checkedString(K, "only"));
}

void from_json(const json &J, ExecuteCommandParams &P) {
  P.Command = stringField(J, "command");
  P.Arguments = json::array();
  if (const json *A = optionalField(J, "arguments"))
    P.Arguments = arrayField(*A, "arguments");
}

void from_json(const json &J, CancelParams &P) {
  const json &Id = requiredField(J, "id");
  // `integer | string`, as a request id.
  if (!Id.is_string())
    checkedInteger(Id, "id", INT32_MIN);
  P.Id = Id;
}

void from_json(const json &J, ViewIRParams &P) {
  P.TextDocument = requiredField(J, "textDocument").get<TextDocumentIdentifier>();
  P.Kernel = stringField(J, "kernel");
  P.Config = optionalInteger(J, "config", 0);
  P.Kind = stringField(J, "kind");
}

void from_json(const json &J, RunKernelParams &P) {
  P.Uri = stringField(J, "uri");
  P.Kernel = stringField(J, "kernel");
  P.Device = "cpu";
  if (const json *D = optionalField(J, "device"))
    P.Device = checkedString(*D, "device");
  P.Config = optionalInteger(J, "config", 0);
  if (const json *T = optionalField(J, "triton")) {
    if (!T->is_boolean())
      throw json::type_error::create(302, std::string("triton must be a boolean, not ") + T->type_name(), T);
    P.Triton = T->get<bool>();
  }
  if (const json *Ref = optionalField(J, "reference")) {
    if (!Ref->is_boolean())
      throw json::type_error::create(302, std::string("reference must be a boolean, not ") + Ref->type_name(), Ref);
    P.Reference = Ref->get<bool>();
  }
}

void from_json(const json &J, ShowConfigsParams &P) {
  P.Uri = stringField(J, "uri");
  P.Kernel = stringField(J, "kernel");
}

void from_json(const json &J, InitializeParams &P) {
  if (!J.is_object())
    throw json::type_error::create(302, std::string("initialize params must be an object, not ") + J.type_name(), &J);
  P.ProcessId = optionalInteger(J, "processId", INT32_MIN);
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
  if (const json *R = path(Caps, {"workspace", "codeLens", "refreshSupport"}))
    P.CodeLensRefresh = R->is_boolean() && R->get<bool>();
  // A client that pulls announces textDocument.diagnostic (an object); it
  // learns of findings computed after its pull only through a refresh.
  if (const json *D = path(Caps, {"textDocument", "diagnostic"}))
    P.PullDiagnostics = D->is_object();
  if (const json *R = path(Caps, {"workspace", "diagnostics", "refreshSupport"}))
    P.DiagnosticRefresh = R->is_boolean() && R->get<bool>();
  if (const json *I = path(J, {"initializationOptions", "inlayHints", "enable"}); I && I->is_boolean())
    P.InlayHintsEnabled = I->get<bool>();
  if (const json *Jit = path(J, {"initializationOptions", "jit"}); Jit && Jit->is_boolean())
    P.JitEnabled = Jit->get<bool>();
  if (const json *Jit = path(J, {"initializationOptions", "jit", "enable"}); Jit && Jit->is_boolean())
    P.JitEnabled = Jit->get<bool>();
  if (const json *T = path(J, {"initializationOptions", "run", "triton"}); T && T->is_boolean())
    P.RunTriton = T->get<bool>();
  if (const json *D = path(J, {"initializationOptions", "defaultRunner"}); D && D->is_string())
    P.DefaultRunner = D->get<std::string>();
  if (const json *Rs = path(J, {"initializationOptions", "runners"}); Rs && Rs->is_array())
    for (const json &R : *Rs)
      if (R.is_string() && !R.get<std::string>().empty())
        P.Runners.push_back(R.get<std::string>());
  if (const json *D = path(Caps, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"}))
    P.WatchedFilesDynamic = D->is_boolean() && D->get<bool>();
  // WorkspaceFolder[] | null, then the deprecated rootUri and rootPath.
  if (const json *W = optionalField(J, "workspaceFolders")) {
    for (const json &F : arrayField(*W, "workspaceFolders"))
      P.WorkspaceFolders.push_back(stringField(F, "uri"));
  } else if (const json *R = optionalField(J, "rootUri")) {
    P.WorkspaceFolders.push_back(checkedString(*R, "rootUri"));
  } else if (const json *R = optionalField(J, "rootPath")) {
    std::string Path = checkedString(*R, "rootPath");
    if (!Path.empty())
      P.WorkspaceFolders.push_back(pathToUri(Path));
  }
}

void from_json(const json &J, DidChangeWatchedFilesParams &P) {
  for (const json &C : arrayField(requiredField(J, "changes"), "changes")) {
    FileEvent E;
    E.Uri = stringField(C, "uri");
    E.Type = static_cast<int>(integerField(C, "type"));
    if (E.Type < 1 || E.Type > 3)
      badField(C, "type", "must be 1 (created), 2 (changed) or 3 (deleted), not " + std::to_string(E.Type));
    P.Changes.push_back(std::move(E));
  }
}

void from_json(const json &J, DidChangeWorkspaceFoldersParams &P) {
  const json &Event = requiredField(J, "event");
  for (const json &F : arrayField(requiredField(Event, "added"), "added"))
    P.Added.push_back(stringField(F, "uri"));
  for (const json &F : arrayField(requiredField(Event, "removed"), "removed"))
    P.Removed.push_back(stringField(F, "uri"));
}

} // namespace tessel::lsp
