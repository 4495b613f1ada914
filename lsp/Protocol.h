//===- Protocol.h - the LSP structures tessel uses --------------*- C++ -*-===//
/// \file
/// Plain structs named after the LSP 3.17 specification, with from_json /
/// to_json beside each, added only when a handler needs them (clangd's
/// Protocol.h rule). Parsing is strict about required fields: a missing or
/// mistyped one throws nlohmann::json::exception, which the server's binder
/// turns into an InvalidParams reply.
///
/// Positions reuse lsp::Position from LineIndex.h; their `character` counts
/// code units of the negotiated encoding.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_PROTOCOL_H
#define TESSEL_LSP_PROTOCOL_H

#include "lsp/LineIndex.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

void from_json(const nlohmann::json &J, Position &P);
void to_json(nlohmann::json &J, const Position &P);

struct Range {
  Position Start, End;
};
void from_json(const nlohmann::json &J, Range &R);
void to_json(nlohmann::json &J, const Range &R);

struct TextDocumentIdentifier {
  std::string Uri;
};
void from_json(const nlohmann::json &J, TextDocumentIdentifier &T);

struct TextDocumentItem {
  std::string Uri;
  std::string LanguageId;
  int64_t Version = 0;
  std::string Text;
};
void from_json(const nlohmann::json &J, TextDocumentItem &T);

struct DidOpenTextDocumentParams {
  TextDocumentItem TextDocument;
};
void from_json(const nlohmann::json &J, DidOpenTextDocumentParams &P);

struct TextDocumentContentChangeEvent {
  std::optional<Range> ChangeRange; ///< absent: the whole document is replaced
  std::string Text;
};
void from_json(const nlohmann::json &J, TextDocumentContentChangeEvent &C);

struct DidChangeTextDocumentParams {
  TextDocumentIdentifier TextDocument;
  std::optional<int64_t> Version;
  std::vector<TextDocumentContentChangeEvent> ContentChanges;
};
void from_json(const nlohmann::json &J, DidChangeTextDocumentParams &P);

struct DidCloseTextDocumentParams {
  TextDocumentIdentifier TextDocument;
};
void from_json(const nlohmann::json &J, DidCloseTextDocumentParams &P);

/// hover, definition, completion.
struct TextDocumentPositionParams {
  TextDocumentIdentifier TextDocument;
  Position Pos;
};
void from_json(const nlohmann::json &J, TextDocumentPositionParams &P);

/// references.
struct ReferenceParams {
  TextDocumentIdentifier TextDocument;
  Position Pos;
  bool IncludeDeclaration = true; ///< context.includeDeclaration
};
void from_json(const nlohmann::json &J, ReferenceParams &P);

/// rename.
struct RenameParams {
  TextDocumentIdentifier TextDocument;
  Position Pos;
  std::string NewName;
};
void from_json(const nlohmann::json &J, RenameParams &P);

/// documentSymbol, codeLens.
struct DocumentParams {
  TextDocumentIdentifier TextDocument;
};
void from_json(const nlohmann::json &J, DocumentParams &P);

/// textDocument/diagnostic (pull diagnostics).
struct DocumentDiagnosticParams {
  TextDocumentIdentifier TextDocument;
  std::optional<std::string> PreviousResultId;
};
void from_json(const nlohmann::json &J, DocumentDiagnosticParams &P);

/// inlayHint.
struct RangeParams {
  TextDocumentIdentifier TextDocument;
  Range R;
};
void from_json(const nlohmann::json &J, RangeParams &P);

struct CodeActionParams {
  TextDocumentIdentifier TextDocument;
  Range R;
  std::vector<std::string> OnlyKinds; ///< context.only
};
void from_json(const nlohmann::json &J, CodeActionParams &P);

struct ExecuteCommandParams {
  std::string Command;
  nlohmann::json Arguments; ///< an array (possibly empty)
};
void from_json(const nlohmann::json &J, ExecuteCommandParams &P);

struct CancelParams {
  nlohmann::json Id;
};
void from_json(const nlohmann::json &J, CancelParams &P);

/// workspace/didChangeWatchedFiles: Type 1 created, 2 changed, 3 deleted.
struct FileEvent {
  std::string Uri;
  int Type = 2;
};
struct DidChangeWatchedFilesParams {
  std::vector<FileEvent> Changes;
};
void from_json(const nlohmann::json &J, DidChangeWatchedFilesParams &P);

/// workspace/didChangeWorkspaceFolders: the URIs added and removed.
struct DidChangeWorkspaceFoldersParams {
  std::vector<std::string> Added, Removed;
};
void from_json(const nlohmann::json &J, DidChangeWorkspaceFoldersParams &P);

/// `tessel/viewIR` and the `tessel.viewIR` command's argument.
struct ViewIRParams {
  TextDocumentIdentifier TextDocument;
  std::string Kernel;
  std::optional<int64_t> Config;
  std::string Kind; ///< "tir" | "llvm" | "ptx" | "sass"
};
void from_json(const nlohmann::json &J, ViewIRParams &P);

/// The `tessel.runKernel` command's argument.
struct RunKernelParams {
  std::string Uri;
  std::string Kernel;
  std::string Device; ///< "cpu" | "gpu" | "auto" (the GPU when there is one)
  std::optional<int64_t> Config;
  /// Also run through Triton (`tessel run --triton`); unset: the
  /// `run.triton` setting.
  std::optional<bool> Triton;
  /// Also run the kernel's CUDA C++ reference (`tessel run --reference`, GPU runs only).
  std::optional<bool> Reference;
};
void from_json(const nlohmann::json &J, RunKernelParams &P);

/// The `tessel.showConfigs` command's argument: an autotuned kernel of a
/// document, whose configs and figures the reply gives as a Markdown table.
struct ShowConfigsParams {
  std::string Uri;
  std::string Kernel;
};
void from_json(const nlohmann::json &J, ShowConfigsParams &P);

/// What tessel reads from `initialize`.
struct InitializeParams {
  std::optional<int64_t> ProcessId;
  bool HoverMarkdown = false;                 ///< textDocument.hover.contentFormat has "markdown"
  bool CompletionDocMarkdown = false;         ///< completionItem.documentationFormat has "markdown"
  bool WorkDoneProgress = false;              ///< window.workDoneProgress
  bool CancelsStaleRequests = false;          ///< general.staleRequestSupport.cancel
  bool CodeLensRefresh = false;               ///< workspace.codeLens.refreshSupport
  bool PullDiagnostics = false;               ///< textDocument.diagnostic is present
  bool DiagnosticRefresh = false;             ///< workspace.diagnostics.refreshSupport
  std::vector<std::string> PositionEncodings; ///< general.positionEncodings, client's order
  std::optional<bool> InlayHintsEnabled;      ///< initializationOptions.inlayHints.enable
  std::optional<bool> JitEnabled;             ///< initializationOptions.jit (or jit.enable)
  std::optional<bool> RunTriton;              ///< initializationOptions.run.triton
  std::optional<std::string> DefaultRunner;   ///< initializationOptions.defaultRunner
  std::vector<std::string> Runners;           ///< initializationOptions.runners
  /// workspaceFolders' URIs, else rootUri (else rootPath made a URI); the
  /// folders the server indexes.
  std::vector<std::string> WorkspaceFolders;
  bool WatchedFilesDynamic = false; ///< workspace.didChangeWatchedFiles.dynamicRegistration
};
void from_json(const nlohmann::json &J, InitializeParams &P);

} // namespace tessel::lsp

#endif // TESSEL_LSP_PROTOCOL_H
