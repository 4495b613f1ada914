//===- Server.cpp - the tessel language server ----------------------------===//
/// \file
/// Binds LSP methods to handlers, one onX method per method, and owns the
/// server's state: the workspace (main thread), the scheduler (analysis on
/// worker threads), the kernel runner (Run actions), and the project the
/// documents belong to (open buffers as overlays, the workspace index, who
/// read which file: an edit re-checks exactly the open files that read it).
///
/// Every request gets exactly one reply: ReplyOnce drops a second reply with
/// a log line and sends InternalError if a handler forgot to reply. Each
/// handler runs under try/catch, so an exception becomes an error response,
/// never a crash. Requests before `initialize` get ServerNotInitialized;
/// unknown methods MethodNotFound; params that do not parse InvalidParams.
///
/// Requests that need an analysed file run on the document's worker through
/// Scheduler::runWithFile and convert positions with that version's line
/// index, so a position always refers to the text the client had when it
/// asked. Requests the client makes on its own (inlay hints, code lenses,
/// code actions) are failed with ContentModified when an edit overtakes them,
/// unless the client says it cancels stale requests itself.
///
/// The JIT tier (JitTier.h) gets each version after its front-end analysis;
/// a version's diagnostics are its front-end findings plus the JIT findings
/// that hold for it, published again when the tier has compiled the rest.
///
/// One diagnostic model per client (LSP 3.17): a client that announced pull
/// diagnostics (`textDocument.diagnostic`) and the refresh request
/// (`workspace.diagnostics.refreshSupport`) pulls, and gets no
/// publishDiagnostics; every other client is pushed to. VS Code shows the two
/// models' diagnostics side by side, so serving both counted every finding
/// twice. A puller learns of what changed after its pull (the JIT and proof
/// tiers, a Run, an edit in an imported file) through
/// `workspace/diagnostic/refresh`, sent only when the diagnostics of the
/// version it last pulled changed, and at most one at a time.
//===----------------------------------------------------------------------===//
#include "lsp/Server.h"

#include "compiler/backend/Subprocess.h"
#include "diagnostics/ConfigListEdit.h"
#include "lsp/CrashReporter.h"
#include "lsp/FeatureProtocol.h"
#include "lsp/FromProtocol.h"
#include "lsp/JitTier.h"
#include "lsp/KernelRunner.h"
#include "lsp/Protocol.h"
#include "lsp/ReferenceTier.h"
#include "lsp/Scheduler.h"
#include "lsp/ToProtocol.h"
#include "lsp/TuneResults.h"
#include "lsp/Uri.h"
#include "lsp/Workspace.h"
#include "lsp/WorkspaceDependents.h"
#include "lsp/WorkspaceIndex.h"
#include "lsp/features/Definition.h"
#include "lsp/features/ProjectNavigation.h"
#include "lsp/features/ProjectReferences.h"
#include "lsp/features/References.h"
#include "lsp/features/TileIR.h"
#include "tessel/Version.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace tessel::lsp {
namespace {

/// The reply to one request: callable once; a second call is logged and
/// dropped, and a request whose last ReplyOnce dies unanswered gets an
/// InternalError.
class ReplyOnce {
public:
  ReplyOnce(Transport &T, json Id, std::string Method, std::function<void()> OnDone)
      : S(std::make_shared<State>(T, std::move(Id), std::move(Method), std::move(OnDone))) {}

  void operator()(Expected<json> Result) const { S->send(std::move(Result)); }
  const std::string &method() const { return S->Method; }

private:
  struct State {
    State(Transport &T, json Id, std::string Method, std::function<void()> OnDone)
        : T(T), Id(std::move(Id)), Method(std::move(Method)), OnDone(std::move(OnDone)), Start(Clock::now()) {}
    ~State() {
      if (!Replied)
        send(LspError{ErrorCode::InternalError, "server failed to reply to " + Method});
    }
    void send(Expected<json> Result) {
      if (Replied.exchange(true)) {
        logError("dropped a second reply to " + Method + "(" + Id.dump() + ")");
        return;
      }
      auto Ms = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - Start).count() / 1000.0;
      std::string What = Result ? "" : " error " + std::to_string(static_cast<int>(Result.error().Code));
      logInfo("--> reply:" + Method + "(" + Id.dump() + ")" + What + " " + std::to_string(Ms) + "ms");
      T.reply(Id, std::move(Result));
      if (OnDone)
        OnDone();
    }
    Transport &T;
    json Id;
    std::string Method;
    std::function<void()> OnDone;
    Clock::time_point Start;
    std::atomic<bool> Replied{false};
  };
  std::shared_ptr<State> S;
};

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

/// Exits the process once Pid is gone: an editor that crashed cannot send
/// `exit`, and a server left behind would hold its files and memory.
static void watchClientProcess(int64_t Pid) {
  if (Pid <= 0)
    return;
  std::thread([Pid] {
    while (true) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      if (::kill(static_cast<pid_t>(Pid), 0) != 0 && errno == ESRCH) {
        logError("client process " + std::to_string(Pid) + " is gone; exiting");
        std::_Exit(1);
      }
    }
  }).detach();
}

class LanguageServer final : public MessageHandler, public SchedulerCallbacks, public JitTierCallbacks {
public:
  LanguageServer(const LspOptions &Opts, Transport &T)
      : Opts(Opts), T(T), Runner(Opts.SelfExecutable.empty() ? "tessel" : Opts.SelfExecutable) {
    GpuAvailable = Opts.GpuAvailable.value_or(::access("/dev/nvidiactl", F_OK) == 0);
    JitTierOptions J;
    J.Enabled = Opts.Jit;
    J.Deferred = Opts.WorkerThreads == 0;
    if (Opts.ArchGiven || J.Deferred)
      J.Arch = backend::GpuArch{unsigned(Opts.Arch), false};
    J.WorkerProgram = !Opts.JitWorkerProgram.empty() ? Opts.JitWorkerProgram
                      : !Opts.SelfExecutable.empty() ? Opts.SelfExecutable
                                                     : "tessel";
    J.TimeoutSeconds = Opts.JitTimeoutSeconds;
    J.Project = &Project;
    J.ReleaseMemory = Opts.ReleaseThreadMemory;
    Jit = std::make_unique<JitTier>(J, *this);
    // A .cu file's diagnostics are pushed whatever the client's model: it pulls only the
    // documents it opened with this server (Python), so a pull would never come.
    Refs = std::make_unique<ReferenceTier>(J.Deferred, [this](const std::string &Uri, const json &Diags) {
      this->T.notify("textDocument/publishDiagnostics", {{"uri", Uri}, {"diagnostics", Diags}});
    });
    SchedulerOptions S;
    S.WorkerThreads = Opts.WorkerThreads;
    S.Check.Arch = Opts.Arch;
    S.Check.Prove = true; // verdicts for hovers; cached per kernel, bounded per query and kernel
    S.Check.Project = &Project;
    // Z3 out of memory ends the process it runs in: each proof runs in one of its own.
    S.Check.Prover.Isolated = true;
    S.Check.Prover.IsolatedMemoryBytes = Opts.ProverMemoryBytes;
    S.ReleaseMemory = Opts.ReleaseMemory;
    S.CollectMemory = Opts.CollectMemory;
    Sched = std::make_unique<Scheduler>(S, *this);
    bindAll();
  }

  ~LanguageServer() override {
    // The index's callbacks read members declared after it.
    Index.cancel();
    // Replies of queued work go out before the transport is gone.
    Sched->blockUntilIdle(std::chrono::seconds(10));
    Runner.stop();
    Sched.reset();
    Jit.reset();
    Refs.reset();
  }

  bool exitedCleanly() const { return ShutdownRequested; }

  /// At most once a minute, as messages come: every worker gives back the
  /// empty pages its heap keeps for reuse (as clangd's periodic malloc_trim).
  /// A thread's allocator purges its freed pages only when that thread next
  /// allocates, so a worker that typing no longer visits kept what its last
  /// analysis freed; over an hour of typing, resident memory drifted up
  /// with pages no live object held. Collected, not ended: see
  /// SchedulerOptions::CollectMemory.
  void maybeReleaseMemory() {
    auto Now = Clock::now();
    if (!Opts.CollectMemory || Now - LastRelease < std::chrono::minutes(1))
      return;
    LastRelease = Now;
    Sched->collectMemory();
  }

  // MessageHandler.
  bool onNotify(const std::string &Method, json Params) override;
  bool onCall(const std::string &Method, json Params, json Id) override;
  bool onReply(json Id, Expected<json> Result) override;

  // SchedulerCallbacks.
  void onDiagnostics(const AnalyzedFile &F, const std::vector<diag::Finding> &Findings) override;
  void onBackgroundWork(const std::string &Uri, bool Done, const std::string &Message) override {
    logVerbose("background work on " + Uri + (Done ? " ended: " : " began: ") + Message);
  }

  // JitTierCallbacks.
  void onJitFindings(const DocumentSnapshot &Doc, const std::vector<diag::Finding> &Findings) override;

private:
  using CallHandler = std::function<void(const json &, ReplyOnce, CancelFlag)>;
  using NotifyHandler = std::function<void(const json &)>;

  template <typename P>
  void bindCall(const std::string &Method, void (LanguageServer::*Fn)(const P &, ReplyOnce, CancelFlag)) {
    Calls[Method] = [this, Fn, Method](const json &J, ReplyOnce R, CancelFlag C) {
      P Params;
      try {
        Params = J.get<P>();
      } catch (const json::exception &E) {
        return R(LspError{ErrorCode::InvalidParams, "invalid params for " + Method + ": " + E.what()});
      }
      (this->*Fn)(Params, std::move(R), std::move(C));
    };
  }
  template <typename P> void bindNotify(const std::string &Method, void (LanguageServer::*Fn)(const P &)) {
    Notifications[Method] = [this, Fn, Method](const json &J) {
      P Params;
      try {
        Params = J.get<P>();
      } catch (const json::exception &E) {
        logError("invalid params for " + Method + ": " + E.what());
        return;
      }
      (this->*Fn)(Params);
    };
  }

  void bindAll();

  // Lifecycle.
  void onInitialize(const InitializeParams &P, ReplyOnce R, CancelFlag);
  void onInitialized(const json &);
  void onShutdown(const json &, ReplyOnce R, CancelFlag);
  void onSync(const json &, ReplyOnce R, CancelFlag);
  void onCancelRequest(const CancelParams &P);
  void onDidChangeConfiguration(const json &P);
  // Documents.
  void onDidOpen(const DidOpenTextDocumentParams &P);
  void onDidChange(const DidChangeTextDocumentParams &P);
  void onDidClose(const DidCloseTextDocumentParams &P);
  // The project.
  void onDidChangeWatchedFiles(const DidChangeWatchedFilesParams &P);
  void onDidChangeWorkspaceFolders(const DidChangeWorkspaceFoldersParams &P);
  void indexFolders(const std::vector<std::string> &Uris);
  void registerFileWatchers();
  /// The open buffer of Uri now overrides its file for every other
  /// document's imports (Text), or no longer does (nullopt); false when
  /// importers read the same text as before.
  bool setBuffer(const std::string &Uri, std::optional<std::string> Text);
  /// Checks again the open documents (Except aside) whose last analysis read
  /// the file at Path, or a role of which the file at Path now changes
  /// (WorkspaceDependents); every open document when Path is empty.
  void recheckReaders(const std::string &Path, const std::string &Except);
  /// The URI to name the file at Path with: the open document's, else file://.
  std::string uriOfPath(const std::string &Path);
  /// The files a project-wide search looks in: the workspace index's, else
  /// those of the project root around Path.
  std::vector<std::string> projectFiles(const std::string &Path);
  /// For a parameter of a top-level function of F: the LSP ranges, per URI,
  /// of the keywords naming it at calls and launches in the project's other
  /// files (empty for anything else).
  std::map<std::string, std::vector<json>> keywordsElsewhere(const AnalyzedFile &F, const RenameTarget &T,
                                                             PositionEncoding E);
  /// Project-wide occurrences of the function under Pos, as LSP locations per
  /// URI; nullopt (Why set) when the cursor is on no project function.
  std::optional<std::map<std::string, std::vector<std::pair<json, OccurrenceRole>>>>
  projectLocations(const AnalyzedFile &F, uint32_t Offset, PositionEncoding E, std::string &Why,
                   std::optional<ProjectFunction> *Fn = nullptr, std::vector<FileOccurrences> *Found = nullptr);
  // Features.
  void onHover(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C);
  void onDefinition(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C);
  void onCompletion(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C);
  void onSignatureHelp(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C);
  void onReferences(const ReferenceParams &P, ReplyOnce R, CancelFlag C);
  void onDocumentHighlight(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C);
  void onPrepareRename(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C);
  void onRename(const RenameParams &P, ReplyOnce R, CancelFlag C);
  void onFoldingRange(const DocumentParams &P, ReplyOnce R, CancelFlag C);
  void onSemanticTokens(const DocumentParams &P, ReplyOnce R, CancelFlag C);
  void onPullDiagnostics(const DocumentDiagnosticParams &P, ReplyOnce R, CancelFlag C);
  void onInlayHint(const RangeParams &P, ReplyOnce R, CancelFlag C);
  void onCodeLens(const DocumentParams &P, ReplyOnce R, CancelFlag C);
  void onCodeAction(const CodeActionParams &P, ReplyOnce R, CancelFlag C);
  void onDocumentSymbol(const DocumentParams &P, ReplyOnce R, CancelFlag C);
  void onExecuteCommand(const ExecuteCommandParams &P, ReplyOnce R, CancelFlag C);
  // tessel extensions.
  void onViewIR(const ViewIRParams &P, ReplyOnce R, CancelFlag C);
  void runKernel(const RunKernelParams &P, ReplyOnce R);
  /// tessel.showConfigs: the "+N configs" lens's table (features/CodeLens.h).
  void showConfigs(const ShowConfigsParams &P, ReplyOnce R, CancelFlag C);
  /// What the lenses and the config table know of F: the JIT tier's figures
  /// of its version (Gpu: the machine has one, for the Run lenses).
  CodeLensOptions lensOptions(const AnalyzedFile &F, bool Gpu);

  /// Runs Fn with the analysed file of Uri on its worker; errors go to R.
  void withFile(const std::string &Uri, const char *Name, Staleness S, CancelFlag C, ReplyOnce R,
                std::function<Expected<json>(const AnalyzedFile &)> Fn);
  Staleness clientRequestStaleness() const {
    return Client.CancelsStaleRequests ? Staleness::Allowed : Staleness::InvalidateOnUpdate;
  }
  void watchProcess(int64_t Pid);
  std::string writeScratch(const std::string &Text);
  void clearRunDiagnostics(const std::string &Uri);
  /// Diags are now the diagnostics of Uri at Version: pushed to a pushing
  /// client; a pulling client is asked to pull again when they differ from
  /// what it last pulled of that version (a later version it pulls itself).
  void publish(const std::string &Uri, std::optional<int64_t> Version, const json &Diags);
  /// workspace/diagnostic/refresh, one at a time: a request while one is
  /// unanswered is sent once the client answers.
  void requestDiagnosticRefresh();
  /// The run's JSON report (null when it wrote none); its scratch files are removed.
  json takeRunReport(const RunRequest &Req);
  void tuneKernel(const RunKernelParams &P, ReplyOnce R);
  void onProgressCancel(const json &P);
  /// The quick fix that keeps the configs the last complete tune of a kernel
  /// of F found best, when F is the version it tuned.
  std::vector<CodeActionInfo> tuneActions(const AnalyzedFile &F, SourceRange Within);
  void publishRunDiagnostics(const RunRequest &Req, const json &Report);
  /// The LSP diagnostics of F: its findings plus the notes for a skipped or
  /// failed analysis; pushed by onDiagnostics, pulled by onPullDiagnostics.
  json diagnosticsJson(const AnalyzedFile &F, const std::vector<diag::Finding> &Findings) const;
  json findingsJson(const DocumentSnapshot &Doc, const std::vector<diag::Finding> &Findings) const;
  /// What the JIT tier needs of F (no analysis: nothing to compile).
  static JitVersion jitVersion(const AnalyzedFile &F);
  void setJitEnabled(bool On);
  LspOptions Opts;
  Transport &T;
  Workspace WS;
  /// Imports of open documents resolve through it; open buffers override
  /// their files on disk (setBuffer), watched-file events invalidate them.
  project::Project Project;
  std::unique_ptr<JitTier> Jit;
  std::unique_ptr<ReferenceTier> Refs; ///< Clang's diagnostics of the CUDA references documents name
  /// The workspace folders' files, parsed in the background.
  WorkspaceIndex Index{Project};
  std::unique_ptr<Scheduler> Sched;
  KernelRunner Runner;
  std::map<std::string, CallHandler> Calls;
  std::map<std::string, NotifyHandler> Notifications;

  bool Initialized = false;
  bool ShutdownRequested = false;
  InitializeParams Client;
  PositionEncoding Enc = PositionEncoding::UTF16;
  std::atomic<bool> InlayHintsEnabled{true};
  /// The `run.triton` setting: Run also runs the kernel through Triton.
  std::atomic<bool> RunTriton{false};
  /// `tessel.defaultRunner` and `tessel.runners`: where Run and Tune go
  /// (runners/RunnerSpec.h names; `tessel run` and `tessel tune` check them).
  std::mutex RunnersMutex;
  std::string DefaultRunner;
  std::vector<std::string> Runners;
  /// The run or tune in progress (its $/progress token, cancellable), and per
  /// document and kernel the last complete tune: the version it tuned and
  /// the configs it found best, for the quick fix.
  struct TuneDone {
    int64_t Version = 0;
    std::vector<size_t> Keep;
    size_t Configs = 0;
  };
  std::mutex TuneMutex;
  std::string ActiveToken;
  std::map<std::string, std::map<std::string, TuneDone>> LastTune;
  bool GpuAvailable = false;
  std::atomic<int> NextProgress{0};

  /// The diagnostics last published per document, and a Run's TS301-TS303
  /// for the version that ran (workers and the runner thread publish).
  struct Published {
    int64_t Version = 0;
    json Diagnostics; ///< Front + the JIT tier's
    json Front;       ///< the front end's alone
  };
  std::mutex PublishedMutex;
  std::map<std::string, Published> LastPublished, RunDiagnostics;
  /// The client pulls diagnostics (see the file comment); set by initialize.
  bool PullDiagnostics = false;
  /// What a pulling client last pulled per document: the version and the
  /// result id (the version and a hash of the diagnostics).
  struct Pulled {
    int64_t Version = 0;
    std::string ResultId;
  };
  std::mutex PulledMutex;
  std::map<std::string, Pulled> LastPulled;
  bool RefreshInFlight = false, RefreshAgain = false;
  std::atomic<int> NextRefresh{0};
  Clock::time_point RefreshSent;
  /// The last run's one-line summary per document and kernel (the code lens
  /// after a run), written by the runner thread.
  std::mutex LastRunMutex;
  std::map<std::string, std::map<std::string, std::string>> LastRun;

  std::mutex CancelMutex;
  std::map<std::string, CancelFlag> Cancels;
  Clock::time_point LastRelease = Clock::now();

  /// Per open document: the other files its last analysis read and the
  /// roles other files gave its @jit functions (workers write, the main
  /// thread asks which documents a change affects).
  WorkspaceDependents Dependents;
  /// The path -> URI of every open document.
  std::mutex ReadsMutex;
  std::map<std::string, std::string> OpenUris;
};

void LanguageServer::bindAll() {
  bindCall<InitializeParams>("initialize", &LanguageServer::onInitialize);
  bindCall<json>("shutdown", &LanguageServer::onShutdown);
  bindCall<json>("sync", &LanguageServer::onSync);
  bindCall<TextDocumentPositionParams>("textDocument/hover", &LanguageServer::onHover);
  bindCall<TextDocumentPositionParams>("textDocument/definition", &LanguageServer::onDefinition);
  bindCall<TextDocumentPositionParams>("textDocument/completion", &LanguageServer::onCompletion);
  bindCall<TextDocumentPositionParams>("textDocument/signatureHelp", &LanguageServer::onSignatureHelp);
  bindCall<ReferenceParams>("textDocument/references", &LanguageServer::onReferences);
  bindCall<TextDocumentPositionParams>("textDocument/documentHighlight", &LanguageServer::onDocumentHighlight);
  bindCall<TextDocumentPositionParams>("textDocument/prepareRename", &LanguageServer::onPrepareRename);
  bindCall<RenameParams>("textDocument/rename", &LanguageServer::onRename);
  bindCall<DocumentParams>("textDocument/foldingRange", &LanguageServer::onFoldingRange);
  bindCall<DocumentParams>("textDocument/semanticTokens/full", &LanguageServer::onSemanticTokens);
  bindCall<DocumentDiagnosticParams>("textDocument/diagnostic", &LanguageServer::onPullDiagnostics);
  bindCall<RangeParams>("textDocument/inlayHint", &LanguageServer::onInlayHint);
  bindCall<DocumentParams>("textDocument/codeLens", &LanguageServer::onCodeLens);
  bindCall<CodeActionParams>("textDocument/codeAction", &LanguageServer::onCodeAction);
  bindCall<DocumentParams>("textDocument/documentSymbol", &LanguageServer::onDocumentSymbol);
  bindCall<ExecuteCommandParams>("workspace/executeCommand", &LanguageServer::onExecuteCommand);
  bindCall<ViewIRParams>("tessel/viewIR", &LanguageServer::onViewIR);
  bindNotify<json>("initialized", &LanguageServer::onInitialized);
  bindNotify<CancelParams>("$/cancelRequest", &LanguageServer::onCancelRequest);
  bindNotify<json>("workspace/didChangeConfiguration", &LanguageServer::onDidChangeConfiguration);
  bindNotify<json>("window/workDoneProgress/cancel", &LanguageServer::onProgressCancel);
  bindNotify<DidOpenTextDocumentParams>("textDocument/didOpen", &LanguageServer::onDidOpen);
  bindNotify<DidChangeTextDocumentParams>("textDocument/didChange", &LanguageServer::onDidChange);
  bindNotify<DidCloseTextDocumentParams>("textDocument/didClose", &LanguageServer::onDidClose);
  bindNotify<DidChangeWatchedFilesParams>("workspace/didChangeWatchedFiles", &LanguageServer::onDidChangeWatchedFiles);
  bindNotify<DidChangeWorkspaceFoldersParams>("workspace/didChangeWorkspaceFolders",
                                              &LanguageServer::onDidChangeWorkspaceFolders);
}

bool LanguageServer::onNotify(const std::string &Method, json Params) {
  if (Method == "exit")
    return false;
  maybeReleaseMemory();
  if (!Initialized) {
    logError("notification " + Method + " before initialize ignored");
    return true;
  }
  auto It = Notifications.find(Method);
  if (It == Notifications.end()) {
    // `$/` notifications may be ignored silently (LSP); others are worth a line.
    if (Method.rfind("$/", 0) != 0)
      logInfo("unhandled notification " + Method);
    return true;
  }
  try {
    It->second(Params);
  } catch (const std::exception &E) {
    logError("notification " + Method + " failed: " + E.what());
  }
  return true;
}

bool LanguageServer::onCall(const std::string &Method, json Params, json Id) {
  maybeReleaseMemory();
  std::string Key = Id.dump();
  auto Flag = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard<std::mutex> L(CancelMutex);
    Cancels[Key] = Flag;
  }
  ReplyOnce R(T, Id, Method, [this, Key, Flag] {
    std::lock_guard<std::mutex> L(CancelMutex);
    auto It = Cancels.find(Key);
    if (It != Cancels.end() && It->second == Flag)
      Cancels.erase(It);
  });
  logInfo("<-- " + Method + "(" + Key + ")");
  if (!Initialized && Method != "initialize") {
    R(LspError{ErrorCode::ServerNotInitialized, "server not initialized: " + Method + " before initialize"});
    return true;
  }
  if (ShutdownRequested && Method != "shutdown") {
    R(LspError{ErrorCode::InvalidRequest, "server is shutting down: " + Method + " after shutdown"});
    return true;
  }
  auto It = Calls.find(Method);
  if (It == Calls.end()) {
    R(LspError{ErrorCode::MethodNotFound, "method not found: " + Method});
    return true;
  }
  try {
    It->second(Params, R, Flag);
  } catch (const std::exception &E) {
    R(LspError{ErrorCode::InternalError, Method + " failed: " + E.what()});
  } catch (...) {
    R(LspError{ErrorCode::InternalError, Method + " failed with an unknown exception"});
  }
  return true;
}

bool LanguageServer::onReply(json Id, Expected<json> Result) {
  if (Id.is_string() && Id.get<std::string>().rfind("diagnostic-refresh-", 0) == 0) {
    bool Again = false;
    {
      std::lock_guard<std::mutex> L(PulledMutex);
      RefreshInFlight = false;
      std::swap(Again, RefreshAgain);
    }
    if (Again)
      requestDiagnosticRefresh();
  }
  if (Result)
    logVerbose("client replied to " + Id.dump());
  else
    logInfo("client answered " + Id.dump() + " with error: " + Result.error().Message);
  return true;
}

//===----------------------------------------------------------------------===//
// Lifecycle
//===----------------------------------------------------------------------===//

void LanguageServer::onInitialize(const InitializeParams &P, ReplyOnce R, CancelFlag) {
  if (Initialized)
    return R(LspError{ErrorCode::InvalidRequest, "initialize was already called"});
  Client = P;
  for (const std::string &Name : P.PositionEncodings)
    if (auto E = parsePositionEncoding(Name)) {
      Enc = *E;
      break;
    }
  WS.setEncoding(Enc);
  PullDiagnostics = P.PullDiagnostics && P.DiagnosticRefresh;
  if (P.InlayHintsEnabled)
    InlayHintsEnabled = *P.InlayHintsEnabled;
  if (P.JitEnabled)
    Jit->setEnabled(*P.JitEnabled);
  if (P.RunTriton)
    RunTriton = *P.RunTriton;
  {
    std::lock_guard<std::mutex> L(RunnersMutex);
    DefaultRunner = P.DefaultRunner.value_or("");
    Runners = P.Runners;
  }
  if (P.ProcessId && !Opts.ClientProcessId && Opts.WatchClientProcess)
    watchProcess(*P.ProcessId);
  Initialized = true;
  json Caps = {
      {"positionEncoding", positionEncodingName(Enc)},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", false}}},
      {"hoverProvider", true},
      {"completionProvider", {{"triggerCharacters", {".", "\"", "'"}}, {"resolveProvider", false}}},
      {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {","}}}},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"renameProvider", {{"prepareProvider", true}}},
      {"foldingRangeProvider", true},
      {"semanticTokensProvider", {{"legend", semanticTokensLegend()}, {"full", true}, {"range", false}}},
      {"definitionProvider", true},
      {"documentSymbolProvider", true},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"codeLensProvider", {{"resolveProvider", false}}},
      {"inlayHintProvider", true},
      {"executeCommandProvider",
       {{"commands", {"tessel.runKernel", "tessel.tuneKernel", "tessel.viewIR", "tessel.showConfigs"}}}},
      {"experimental",
       {{"tessel",
         {{"viewIR", true},
          {"viewIRKinds", {"tir", "llvm", "ptx", "sass", "reference-ptx", "reference-sass"}},
          {"runKernel", true},
          {"jit", true}}}}},
      {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}},
  };
  // Offered only to a client that pulls: one that can do both would show both.
  if (PullDiagnostics)
    Caps["diagnosticProvider"] = {{"interFileDependencies", true}, {"workspaceDiagnostics", false}};
  R(json{{"capabilities", Caps}, {"serverInfo", {{"name", "tessel"}, {"version", TESSEL_VERSION_STRING}}}});
}

void LanguageServer::onInitialized(const json &) {
  T.notify("tessel/serverStatus", {{"gpuAvailable", GpuAvailable}, {"arch", "sm_" + std::to_string(Opts.Arch)}});
  registerFileWatchers();
  indexFolders(Client.WorkspaceFolders);
}

void LanguageServer::onShutdown(const json &, ReplyOnce R, CancelFlag) {
  ShutdownRequested = true;
  Runner.stop();
  Sched->blockUntilIdle(std::chrono::seconds(10));
  R(json(nullptr));
}

void LanguageServer::onSync(const json &, ReplyOnce R, CancelFlag) {
  // Idle means no analysis queued and no Run in progress.
  Runner.wait();
  if (!Index.wait(std::chrono::seconds(60)))
    return R(LspError{ErrorCode::RequestFailed, "sync: the workspace index did not finish in time"});
  if (!Sched->blockUntilIdle() || !Jit->waitIdle() || !Sched->blockUntilIdle())
    return R(LspError{ErrorCode::RequestFailed, "sync: the workers did not become idle in time"});
  R(json(nullptr));
}

void LanguageServer::onCancelRequest(const CancelParams &P) {
  std::lock_guard<std::mutex> L(CancelMutex);
  auto It = Cancels.find(P.Id.dump());
  if (It == Cancels.end()) {
    logVerbose("cancel of " + P.Id.dump() + ": no such request in flight");
    return;
  }
  It->second->store(true);
}

void LanguageServer::onDidChangeConfiguration(const json &P) {
  const json *Enable = nullptr;
  if (P.is_object() && P.contains("settings")) {
    const json &S = P["settings"];
    if (S.is_object() && S.contains("tessel") && S["tessel"].is_object() && S["tessel"].contains("inlayHints") &&
        S["tessel"]["inlayHints"].is_object() && S["tessel"]["inlayHints"].contains("enable"))
      Enable = &S["tessel"]["inlayHints"]["enable"];
  }
  if (Enable && Enable->is_boolean()) {
    InlayHintsEnabled = Enable->get<bool>();
    logInfo(std::string("inlay hints ") + (InlayHintsEnabled ? "enabled" : "disabled"));
  }
  // `tessel.run.triton`: Run also through Triton.
  if (P.is_object() && P.contains("settings") && P["settings"].is_object() && P["settings"].contains("tessel") &&
      P["settings"]["tessel"].is_object() && P["settings"]["tessel"].contains("run") &&
      P["settings"]["tessel"]["run"].is_object() && P["settings"]["tessel"]["run"].contains("triton") &&
      P["settings"]["tessel"]["run"]["triton"].is_boolean()) {
    RunTriton = P["settings"]["tessel"]["run"]["triton"].get<bool>();
    logInfo(std::string("runs through Triton ") + (RunTriton ? "on" : "off"));
  }
  // `tessel.defaultRunner` (a string) and `tessel.runners` (strings).
  if (P.is_object() && P.contains("settings") && P["settings"].is_object() && P["settings"].contains("tessel") &&
      P["settings"]["tessel"].is_object()) {
    const json &S = P["settings"]["tessel"];
    std::lock_guard<std::mutex> L(RunnersMutex);
    if (S.contains("defaultRunner") && (S["defaultRunner"].is_string() || S["defaultRunner"].is_null())) {
      DefaultRunner = S["defaultRunner"].is_string() ? S["defaultRunner"].get<std::string>() : "";
      logInfo("default runner: " + (DefaultRunner.empty() ? std::string("this machine") : DefaultRunner));
    }
    if (S.contains("runners") && S["runners"].is_array()) {
      Runners.clear();
      for (const json &R : S["runners"])
        if (R.is_string() && !R.get<std::string>().empty())
          Runners.push_back(R.get<std::string>());
    }
  }
  // `tessel.jit`: true / false, or {"enable": bool}.
  if (P.is_object() && P.contains("settings") && P["settings"].is_object() && P["settings"].contains("tessel") &&
      P["settings"]["tessel"].is_object() && P["settings"]["tessel"].contains("jit")) {
    const json &J = P["settings"]["tessel"]["jit"];
    if (J.is_boolean())
      setJitEnabled(J.get<bool>());
    else if (J.is_object() && J.contains("enable") && J["enable"].is_boolean())
      setJitEnabled(J["enable"].get<bool>());
  }
}

void LanguageServer::setJitEnabled(bool On) {
  if (On == Jit->enabled())
    return;
  Jit->setEnabled(On);
  logInfo(std::string("the JIT tier is ") + (On ? "on" : "off"));
  if (On)
    return; // the next version of each document is compiled
  // Off: the JIT findings go now, not at the next edit.
  std::vector<std::pair<std::string, Published>> Again;
  {
    std::lock_guard<std::mutex> L(PublishedMutex);
    for (auto &[Uri, P] : LastPublished) {
      P.Diagnostics = P.Front;
      Again.push_back({Uri, P});
    }
  }
  for (auto &[Uri, P] : Again)
    publish(Uri, P.Version, P.Diagnostics);
}

void LanguageServer::watchProcess(int64_t Pid) { watchClientProcess(Pid); }

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

void LanguageServer::onDidOpen(const DidOpenTextDocumentParams &P) {
  const TextDocumentItem &D = P.TextDocument;
  bool Changed = setBuffer(D.Uri, D.Text);
  Sched->update(WS.open(D.Uri, D.Version, D.Text));
  if (auto Path = uriToPath(D.Uri); Path && Changed)
    recheckReaders(*Path, D.Uri);
}

void LanguageServer::onDidChange(const DidChangeTextDocumentParams &P) {
  std::string Error;
  auto U = WS.change(P.TextDocument.Uri, P.Version, fromProtocol(P.ContentChanges), Error);
  if (!U) {
    logError("didChange rejected: " + Error);
    return;
  }
  bool Changed = setBuffer(P.TextDocument.Uri, U->Snapshot.Text->text());
  Sched->update(std::move(*U));
  if (auto Path = uriToPath(P.TextDocument.Uri); Path && Changed)
    recheckReaders(*Path, P.TextDocument.Uri);
}

void LanguageServer::onDidClose(const DidCloseTextDocumentParams &P) {
  std::optional<DocumentSnapshot> Closing = WS.snapshot(P.TextDocument.Uri);
  if (!WS.close(P.TextDocument.Uri)) {
    logError("didClose of a document that is not open: " + P.TextDocument.Uri);
    return;
  }
  {
    std::lock_guard<std::mutex> L(PublishedMutex);
    LastPublished.erase(P.TextDocument.Uri);
    RunDiagnostics.erase(P.TextDocument.Uri);
  }
  {
    std::lock_guard<std::mutex> L(LastRunMutex);
    LastRun.erase(P.TextDocument.Uri);
  }
  // The JIT tier lets go of the analysis first: the scheduler gives the
  // memory back once the last reference is gone.
  Jit->remove(P.TextDocument.Uri);
  // A large document's memory goes back with every heap ended; a small
  // one's needs no more than the routine collect (SchedulerOptions).
  bool Large = Closing && Closing->Text && Closing->Text->text().size() >= SchedulerOptions().ReleaseAfterBytes;
  Sched->remove(P.TextDocument.Uri, Large ? Opts.ReleaseMemory : Opts.CollectMemory);
  if (PullDiagnostics) {
    // The client forgets a closed document's pulled diagnostics itself.
    std::lock_guard<std::mutex> L(PulledMutex);
    LastPulled.erase(P.TextDocument.Uri);
  } else {
    T.notify("textDocument/publishDiagnostics", {{"uri", P.TextDocument.Uri}, {"diagnostics", json::array()}});
  }
  // Its importers see the file on disk again, which may differ from the
  // buffer that was closed unsaved.
  bool Changed = setBuffer(P.TextDocument.Uri, std::nullopt);
  if (auto Path = uriToPath(P.TextDocument.Uri); Path && Changed)
    recheckReaders(*Path, P.TextDocument.Uri);
}

//===----------------------------------------------------------------------===//
// The project
//===----------------------------------------------------------------------===//

bool LanguageServer::setBuffer(const std::string &Uri, std::optional<std::string> Text) {
  auto Path = uriToPath(Uri);
  if (!Path)
    return false; // untitled: and other schemes: nothing imports them
  {
    std::lock_guard<std::mutex> L(ReadsMutex);
    if (Text)
      OpenUris[project::normalPath(*Path)] = Uri;
    else
      OpenUris.erase(project::normalPath(*Path));
  }
  if (!Text)
    Dependents.forget(Uri);
  return Project.setBuffer(*Path, std::move(Text));
}

void LanguageServer::recheckReaders(const std::string &RawPath, const std::string &Except) {
  std::string Path = RawPath.empty() ? RawPath : project::normalPath(RawPath);
  std::vector<std::string> Uris = Dependents.affectedBy(Path, Except, Project);
  for (const std::string &Uri : Uris) {
    auto Snap = WS.snapshot(Uri);
    if (!Snap)
      continue;
    // The same version again, no edits: the scheduler reparses nothing and
    // sema re-checks exactly the kernels whose recorded reads changed.
    logVerbose("re-checking " + Uri + (Path.empty() ? "" : " (it imports " + Path + " or a role changed there)"));
    Sched->update(DocumentUpdate{std::move(*Snap), {}, false});
  }
}

void LanguageServer::onDidChangeWatchedFiles(const DidChangeWatchedFilesParams &P) {
  bool Structural = false;
  std::vector<std::string> Changed;
  for (const FileEvent &E : P.Changes) {
    auto Path = uriToPath(E.Uri);
    if (!Path)
      continue;
    bool Created = E.Type == 1, Deleted = E.Type == 3;
    Project.fileChanged(*Path, Created || Deleted);
    if (Created)
      Index.addFile(*Path);
    if (Deleted)
      Index.removeFile(*Path);
    std::string Name = Path->substr(Path->rfind('/') + 1);
    Structural |= Created || Deleted || Name == "tessel.toml" || Name == "pyproject.toml";
    Changed.push_back(*Path);
  }
  // A file that appeared or went away (or new settings) may change what any
  // import resolves to; a changed file only what its readers read.
  if (Structural)
    return recheckReaders("", "");
  for (const std::string &Path : Changed)
    recheckReaders(Path, "");
}

void LanguageServer::onDidChangeWorkspaceFolders(const DidChangeWorkspaceFoldersParams &P) {
  if (!P.Removed.empty())
    logInfo("workspace folders removed; their files stay indexed until the server restarts");
  indexFolders(P.Added);
}

void LanguageServer::registerFileWatchers() {
  if (!Client.WatchedFilesDynamic)
    return;
  json Watchers = json::array();
  for (const char *Glob : {"**/*.py", "**/tessel.toml", "**/pyproject.toml"})
    Watchers.push_back({{"globPattern", Glob}});
  T.call("client/registerCapability",
         {{"registrations",
           {{{"id", "tessel/watchedFiles"},
             {"method", "workspace/didChangeWatchedFiles"},
             {"registerOptions", {{"watchers", Watchers}}}}}}},
         "register-watchers");
}

void LanguageServer::indexFolders(const std::vector<std::string> &Uris) {
  std::vector<std::string> Folders;
  for (const std::string &Uri : Uris)
    if (auto Path = uriToPath(Uri))
      Folders.push_back(*Path);
  if (Folders.empty())
    return;
  std::string Token = "tessel/index/" + std::to_string(++NextProgress);
  bool Progress = Client.WorkDoneProgress;
  if (Progress) {
    T.call("window/workDoneProgress/create", {{"token", Token}}, "progress-" + Token);
    T.notify("$/progress", {{"token", Token},
                            {"value", {{"kind", "begin"}, {"title", "Indexing the workspace"}, {"percentage", 0}}}});
  }
  // Deferred (`--lit-test`): indexed before the next message, so transcripts
  // are deterministic; else in the background, on the analysis threads' count.
  bool Background = Opts.WorkerThreads > 0;
  unsigned Threads = std::max(1u, Opts.WorkerThreads);
  Index.start(
      std::move(Folders), Background, Threads,
      [this, Token, Progress](size_t Total) {
        if (Progress)
          T.notify("$/progress",
                   {{"token", Token},
                    {"value",
                     {{"kind", "report"}, {"message", "0/" + std::to_string(Total) + " files"}, {"percentage", 0}}}});
      },
      [this, Token, Progress](size_t Done, size_t Total) {
        if (Progress && Total)
          T.notify("$/progress", {{"token", Token},
                                  {"value",
                                   {{"kind", "report"},
                                    {"message", std::to_string(Done) + "/" + std::to_string(Total) + " files"},
                                    {"percentage", static_cast<int>(Done * 100 / Total)}}}});
      },
      [this, Token, Progress](size_t Files, std::chrono::milliseconds, bool Cancelled) {
        if (Progress)
          T.notify(
              "$/progress",
              {{"token", Token},
               {"value",
                {{"kind", "end"},
                 {"message", Cancelled ? std::string("cancelled") : "indexed " + std::to_string(Files) + " files"}}}});
      });
}

std::string LanguageServer::uriOfPath(const std::string &Path) {
  std::lock_guard<std::mutex> L(ReadsMutex);
  auto It = OpenUris.find(Path);
  return It != OpenUris.end() ? It->second : pathToUri(Path);
}

std::vector<std::string> LanguageServer::projectFiles(const std::string &Path) {
  std::vector<std::string> Files = Index.files();
  if (!Files.empty() && Index.covers(Path))
    return Files;
  project::Config C = Project.configFor(Path);
  if (C.Root.empty())
    return Files;
  std::vector<std::string> More = Project.pythonFiles(C.Root);
  Files.insert(Files.end(), More.begin(), More.end());
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

std::optional<std::map<std::string, std::vector<std::pair<json, OccurrenceRole>>>>
LanguageServer::projectLocations(const AnalyzedFile &F, uint32_t Offset, PositionEncoding E, std::string &Why,
                                 std::optional<ProjectFunction> *FnOut, std::vector<FileOccurrences> *FoundOut) {
  std::optional<ProjectFunction> Fn = projectFunctionAt(F, Offset, Project, Why);
  if (!Fn)
    return std::nullopt;
  std::vector<FileOccurrences> Found = projectOccurrences(*Fn, projectFiles(Fn->DefPath), Project);
  std::map<std::string, std::vector<std::pair<json, OccurrenceRole>>> Out;
  for (const FileOccurrences &FO : Found) {
    LineIndex Lines(FO.Text->text());
    auto &List = Out[uriOfPath(FO.Path)];
    for (const Occurrence &O : FO.Occurrences)
      List.emplace_back(toProtocol(O.Range, Lines, E), O.Role);
  }
  if (FnOut)
    *FnOut = std::move(Fn);
  if (FoundOut)
    *FoundOut = std::move(Found);
  return Out;
}

std::map<std::string, std::vector<json>> LanguageServer::keywordsElsewhere(const AnalyzedFile &F, const RenameTarget &T,
                                                                           PositionEncoding E) {
  std::map<std::string, std::vector<json>> Out;
  project::ModuleRef Ref = moduleRefOf(F, Project);
  if (T.Scope != SymbolScope::Parameter || Ref.Path.empty() || T.Owner.empty())
    return Out;
  ProjectFunction Fn{Ref.Path, T.Owner, T.At};
  for (const FileOccurrences &FO : projectKeywordOccurrences(Fn, T.Name, projectFiles(Ref.Path), Project)) {
    LineIndex Lines(FO.Text->text());
    auto &List = Out[uriOfPath(FO.Path)];
    for (const Occurrence &O : FO.Occurrences)
      List.push_back(toProtocol(O.Range, Lines, E));
  }
  return Out;
}

void LanguageServer::onDiagnostics(const AnalyzedFile &F, const std::vector<diag::Finding> &Findings) {
  if (F.Report.Analysis)
    Dependents.record(F.Doc.Uri, *F.Report.Analysis);
  json Front = diagnosticsJson(F, Findings);
  json Diags = Front;
  std::unique_lock<std::mutex> L(PublishedMutex);
  auto Last = LastPublished.find(F.Doc.Uri);
  if (F.ProofsAdded && Last != LastPublished.end() && Last->second.Version == F.Doc.Version) {
    // The proof tier's verdicts for a version already out: the analysis the
    // JIT tier has is unchanged, so its findings so far stay.
    const json &Before = Last->second.Diagnostics;
    for (size_t I = Last->second.Front.size(); I < Before.size(); ++I)
      Diags.push_back(Before[I]);
  } else {
    L.unlock();
    // The JIT findings of kernels this version left unchanged go out with the
    // front end's; the tier compiles the others and publishes again.
    for (const json &D : findingsJson(F.Doc, Jit->update(jitVersion(F))))
      Diags.push_back(D);
    L.lock();
  }
  json All = Diags;
  LastPublished[F.Doc.Uri] = {F.Doc.Version, Diags, Front};
  // A Run's findings hold for the version that ran; the next edit clears them.
  auto Run = RunDiagnostics.find(F.Doc.Uri);
  if (Run != RunDiagnostics.end() && Run->second.Version == F.Doc.Version)
    for (const json &D : Run->second.Diagnostics)
      All.push_back(D);
  else if (Run != RunDiagnostics.end())
    RunDiagnostics.erase(Run);
  L.unlock();
  publish(F.Doc.Uri, F.Doc.Version, All);
  if (auto Path = uriToPath(F.Doc.Uri); Path && F.Doc.Text)
    Refs->update(*Path, F.Doc.Text->text());
}

JitVersion LanguageServer::jitVersion(const AnalyzedFile &F) {
  JitVersion V;
  V.Doc = F.Doc;
  if (F.Parsed && F.Report.Analysis && F.InternalError.empty()) {
    V.Analysis = F.Report.Analysis;
    V.FrontEnd = F.Report.Findings;
  }
  return V;
}

json LanguageServer::findingsJson(const DocumentSnapshot &Doc, const std::vector<diag::Finding> &Findings) const {
  json Diags = json::array();
  for (const diag::Finding &Fd : Findings)
    Diags.push_back(toProtocol(Fd, *Doc.Index, Doc.Uri, Enc));
  return Diags;
}

void LanguageServer::onJitFindings(const DocumentSnapshot &Doc, const std::vector<diag::Finding> &Findings) {
  json Jits = findingsJson(Doc, Findings);
  json All;
  {
    std::lock_guard<std::mutex> L(PublishedMutex);
    auto It = LastPublished.find(Doc.Uri);
    // Published with the front end's of the same version only: an older
    // version's are stale, a newer one's front end comes first.
    if (It == LastPublished.end() || It->second.Version != Doc.Version)
      return;
    // A front-end TS404 is a lower bound (diag::checkSharedMemoryBound):
    // the JIT's exact TS404 at the same config replaces it.
    auto IsTS404 = [](const json &D) { return D.value("code", json()) == "TS404"; };
    json Diags = json::array();
    for (const json &D : It->second.Front) {
      bool Replaced = IsTS404(D) && std::any_of(Jits.begin(), Jits.end(),
                                                [&](const json &J) { return IsTS404(J) && J["range"] == D["range"]; });
      if (!Replaced)
        Diags.push_back(D);
    }
    for (const json &D : Jits)
      Diags.push_back(D);
    bool Changed = Diags != It->second.Diagnostics;
    It->second.Diagnostics = Diags;
    All = std::move(Diags);
    auto Run = RunDiagnostics.find(Doc.Uri);
    if (Run != RunDiagnostics.end() && Run->second.Version == Doc.Version)
      for (const json &D : Run->second.Diagnostics)
        All.push_back(D);
    if (!Changed)
      All = nullptr;
  }
  if (!All.is_null())
    publish(Doc.Uri, Doc.Version, All);
  // The lenses show the new figures once the client asks again.
  if (Client.CodeLensRefresh)
    T.call("workspace/codeLens/refresh", nullptr, "codeLens-refresh-" + std::to_string(++NextProgress));
}

json LanguageServer::diagnosticsJson(const AnalyzedFile &F, const std::vector<diag::Finding> &Findings) const {
  json Diags = json::array();
  for (const diag::Finding &Fd : Findings)
    Diags.push_back(toProtocol(Fd, *F.Doc.Index, F.Doc.Uri, Enc));
  if (!F.Skipped.empty())
    Diags.push_back({{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
                     {"severity", 3},
                     {"source", "tessel"},
                     {"message", F.Skipped}});
  if (!F.InternalError.empty())
    Diags.push_back({{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
                     {"severity", 1},
                     {"source", "tessel"},
                     {"message", "tessel could not finish checking this file (internal error: " + F.InternalError +
                                     "); the diagnostics shown may be incomplete"}});
  return Diags;
}

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

void LanguageServer::withFile(const std::string &Uri, const char *Name, Staleness S, CancelFlag C, ReplyOnce R,
                              std::function<Expected<json>(const AnalyzedFile &)> Fn) {
  Sched->runWithFile(Uri, Name, S, C, [R, Fn = std::move(Fn), Name](Expected<std::shared_ptr<const AnalyzedFile>> F) {
    if (!F)
      return R(F.error());
    CrashContext Context(Name, (*F)->Doc.Uri);
    try {
      R(Fn(**F));
    } catch (const std::exception &E) {
      R(LspError{ErrorCode::InternalError, std::string(Name) + " failed: " + E.what()});
    }
  });
}

void LanguageServer::onHover(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C) {
  bool Markdown = Client.HoverMarkdown;
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "hover", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> json {
    uint32_t Offset = fromProtocol(P.Pos, *F.Doc.Index, E);
    auto H = hover(F, Offset);
    if (!H)
      H = hoverInProject(F, Offset, Project);
    return H ? toProtocol(*H, *F.Doc.Index, E, Markdown) : json(nullptr);
  });
}

void LanguageServer::onDefinition(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "definition", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> json {
    uint32_t Offset = fromProtocol(P.Pos, *F.Doc.Index, E);
    auto D = definition(F, Offset);
    if (!D) {
      auto L = definitionInProject(F, Offset, Project);
      if (!L)
        return json(nullptr);
      LineIndex Lines(L->Text->text());
      return {{"uri", uriOfPath(L->Path)}, {"range", toProtocol(L->Range, Lines, E)}};
    }
    return {{"uri", F.Doc.Uri}, {"range", toProtocol(*D, *F.Doc.Index, E)}};
  });
}

void LanguageServer::onCompletion(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  bool Markdown = Client.CompletionDocMarkdown;
  withFile(P.TextDocument.Uri, "completion", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> json {
    json Items = json::array();
    uint32_t Offset = fromProtocol(P.Pos, *F.Doc.Index, E);
    std::optional<std::vector<CompletionInfo>> FromProject = completeInProject(F, Offset, Project);
    ImportedSignatures Imported = [&](const std::string &Callee, bool IsLaunch) {
      return signatureInProject(F, Callee, IsLaunch, Project);
    };
    for (const CompletionInfo &I : FromProject ? *FromProject : complete(F, Offset, &Imported))
      Items.push_back(toProtocol(I, Markdown));
    return {{"isIncomplete", false}, {"items", std::move(Items)}};
  });
}

void LanguageServer::onSignatureHelp(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  bool Markdown = Client.CompletionDocMarkdown;
  withFile(P.TextDocument.Uri, "signatureHelp", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> json {
    ImportedSignatures Imported = [&](const std::string &Callee, bool IsLaunch) {
      return signatureInProject(F, Callee, IsLaunch, Project);
    };
    auto H = signatureHelp(F, fromProtocol(P.Pos, *F.Doc.Index, E), &Imported);
    return H ? toProtocol(*H, Markdown) : json(nullptr);
  });
}

void LanguageServer::onReferences(const ReferenceParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "references", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> json {
    std::string Why;
    uint32_t Offset = fromProtocol(P.Pos, *F.Doc.Index, E);
    json Locations = json::array();
    // A top-level function: every file of the project that imports it.
    if (auto Across = projectLocations(F, Offset, E, Why)) {
      for (const auto &[Uri, List] : *Across)
        for (const auto &[Range, Role] : List)
          if (P.IncludeDeclaration || Role != OccurrenceRole::Definition)
            Locations.push_back({{"uri", Uri}, {"range", Range}});
      return Locations;
    }
    auto Target = targetAt(F, Offset, Why);
    if (!Target)
      return Locations;
    for (const Occurrence &O : occurrencesIn(F, *Target))
      if (P.IncludeDeclaration || O.Role != OccurrenceRole::Definition)
        Locations.push_back({{"uri", F.Doc.Uri}, {"range", toProtocol(O.Range, *F.Doc.Index, E)}});
    for (const auto &[Uri, Ranges] : keywordsElsewhere(F, *Target, E))
      for (const json &Range : Ranges)
        Locations.push_back({{"uri", Uri}, {"range", Range}});
    return Locations;
  });
}

void LanguageServer::onDocumentHighlight(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "documentHighlight", Staleness::Allowed, C, R, [=](const AnalyzedFile &F) -> json {
    std::string Why;
    auto Target = targetAt(F, fromProtocol(P.Pos, *F.Doc.Index, E), Why);
    json Highlights = json::array();
    if (!Target)
      return Highlights;
    for (const Occurrence &O : occurrencesIn(F, *Target)) {
      int Kind = O.Role == OccurrenceRole::String                                          ? 1  // Text
                 : O.Role == OccurrenceRole::Definition || O.Role == OccurrenceRole::Write ? 3  // Write
                                                                                           : 2; // Read
      Highlights.push_back({{"range", toProtocol(O.Range, *F.Doc.Index, E)}, {"kind", Kind}});
    }
    return Highlights;
  });
}

void LanguageServer::onPrepareRename(const TextDocumentPositionParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "prepareRename", Staleness::Allowed, C, R,
           [=, this](const AnalyzedFile &F) -> Expected<json> {
             std::string Why;
             uint32_t Offset = fromProtocol(P.Pos, *F.Doc.Index, E);
             auto Target = targetAt(F, Offset, Why);
             if (!Target) {
               // An imported function is renamed where it is defined and everywhere it is imported.
               std::string ProjectWhy;
               if (auto Fn = projectFunctionAt(F, Offset, Project, ProjectWhy))
                 return json{{"range", toProtocol(Fn->At, *F.Doc.Index, E)}, {"placeholder", Fn->Name}};
               return LspError{ErrorCode::RequestFailed, "cannot rename: " + Why};
             }
             return json{{"range", toProtocol(Target->At, *F.Doc.Index, E)}, {"placeholder", Target->Name}};
           });
}

void LanguageServer::onRename(const RenameParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "rename", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> Expected<json> {
    std::string Why;
    uint32_t Offset = fromProtocol(P.Pos, *F.Doc.Index, E);
    std::optional<ProjectFunction> Fn;
    std::vector<FileOccurrences> Found;
    if (auto Across = projectLocations(F, Offset, E, Why, &Fn, &Found)) {
      if (std::string Problem = projectRenameProblem(*Fn, Found, P.NewName, Project); !Problem.empty())
        return LspError{ErrorCode::RequestFailed, "cannot rename `" + Fn->Name + "`: " + Problem};
      json Changes = json::object();
      for (const auto &[Uri, List] : *Across) {
        json Edits = json::array();
        for (const auto &[Range, Role] : List)
          Edits.push_back({{"range", Range}, {"newText", P.NewName}});
        Changes[Uri] = std::move(Edits);
      }
      return json{{"changes", std::move(Changes)}};
    }
    auto Target = targetAt(F, Offset, Why);
    if (!Target)
      return LspError{ErrorCode::RequestFailed, "cannot rename: " + Why};
    if (std::string Problem = renameProblem(F, *Target, P.NewName); !Problem.empty())
      return LspError{ErrorCode::RequestFailed, "cannot rename `" + Target->Name + "`: " + Problem};
    // A local, a parameter or a global: one file (a top-level function went
    // through the project above).
    json Edits = json::array();
    for (const Occurrence &O : occurrencesIn(F, *Target))
      Edits.push_back({{"range", toProtocol(O.Range, *F.Doc.Index, E)}, {"newText", P.NewName}});
    json Changes = {{F.Doc.Uri, std::move(Edits)}};
    // A parameter's keywords at the launches and calls in other files.
    for (const auto &[Uri, Ranges] : keywordsElsewhere(F, *Target, E))
      for (const json &Range : Ranges)
        Changes[Uri].push_back({{"range", Range}, {"newText", P.NewName}});
    return json{{"changes", std::move(Changes)}};
  });
}

void LanguageServer::onFoldingRange(const DocumentParams &P, ReplyOnce R, CancelFlag C) {
  withFile(P.TextDocument.Uri, "foldingRange", clientRequestStaleness(), C, R, [](const AnalyzedFile &F) -> json {
    json Ranges = json::array();
    for (const FoldingRangeInfo &X : foldingRanges(F))
      Ranges.push_back(toProtocol(X));
    return Ranges;
  });
}

void LanguageServer::onSemanticTokens(const DocumentParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "semanticTokens", clientRequestStaleness(), C, R,
           [=](const AnalyzedFile &F) -> json { return toProtocol(semanticTokens(F), *F.Doc.Index, E); });
}

/// A pulled report's id: the version and a hash of its diagnostics (FNV-1a,
/// the same on every platform), so a re-pull of unchanged diagnostics is
/// answered "unchanged".
static std::string resultIdOf(int64_t Version, const json &Diags) {
  uint64_t H = 14695981039346656037ull;
  for (unsigned char C : Diags.dump()) {
    H ^= C;
    H *= 1099511628211ull;
  }
  char Hash[17];
  std::snprintf(Hash, sizeof Hash, "%016llx", static_cast<unsigned long long>(H));
  return std::to_string(Version) + "-" + Hash;
}

void LanguageServer::onPullDiagnostics(const DocumentDiagnosticParams &P, ReplyOnce R, CancelFlag C) {
  std::optional<std::string> Previous = P.PreviousResultId;
  withFile(P.TextDocument.Uri, "diagnostic", Staleness::Allowed, C, R, [this, Previous](const AnalyzedFile &F) -> json {
    json Items;
    {
      std::lock_guard<std::mutex> L(PublishedMutex);
      auto Last = LastPublished.find(F.Doc.Uri);
      Items = Last != LastPublished.end() && Last->second.Version == F.Doc.Version
                  ? Last->second.Diagnostics
                  : diagnosticsJson(F, F.Report.Findings);
      auto Run = RunDiagnostics.find(F.Doc.Uri);
      if (Run != RunDiagnostics.end() && Run->second.Version == F.Doc.Version)
        for (const json &D : Run->second.Diagnostics)
          Items.push_back(D);
    }
    std::string Id = resultIdOf(F.Doc.Version, Items);
    {
      std::lock_guard<std::mutex> L(PulledMutex);
      LastPulled[F.Doc.Uri] = {F.Doc.Version, Id};
    }
    if (Previous && *Previous == Id)
      return {{"kind", "unchanged"}, {"resultId", Id}};
    return {{"kind", "full"}, {"resultId", Id}, {"items", std::move(Items)}};
  });
}

void LanguageServer::publish(const std::string &Uri, std::optional<int64_t> Version, const json &Diags) {
  if (!PullDiagnostics) {
    json Params = {{"uri", Uri}, {"diagnostics", Diags}};
    if (Version)
      Params["version"] = *Version;
    T.notify("textDocument/publishDiagnostics", Params);
    return;
  }
  if (!Version)
    return;
  std::string Id = resultIdOf(*Version, Diags);
  {
    std::lock_guard<std::mutex> L(PulledMutex);
    auto It = LastPulled.find(Uri);
    // Never pulled: the client pulls when it shows the document. An older
    // version: the client pulls the edit's version itself.
    if (It == LastPulled.end() || It->second.Version != *Version || It->second.ResultId == Id)
      return;
  }
  requestDiagnosticRefresh();
}

void LanguageServer::requestDiagnosticRefresh() {
  {
    std::lock_guard<std::mutex> L(PulledMutex);
    // One unanswered at a time; a client that never answers gets another
    // after two seconds.
    if (RefreshInFlight && Clock::now() - RefreshSent < std::chrono::seconds(2)) {
      RefreshAgain = true;
      return;
    }
    RefreshInFlight = true;
    RefreshAgain = false;
    RefreshSent = Clock::now();
  }
  T.call("workspace/diagnostic/refresh", nullptr, "diagnostic-refresh-" + std::to_string(++NextRefresh));
}

void LanguageServer::onInlayHint(const RangeParams &P, ReplyOnce R, CancelFlag C) {
  if (!InlayHintsEnabled)
    return R(json::array());
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "inlayHint", clientRequestStaleness(), C, R, [=](const AnalyzedFile &F) -> json {
    json Hints = json::array();
    for (const InlayHint &H : inlayHints(F, fromProtocol(P.R, *F.Doc.Index, E)))
      Hints.push_back(toProtocol(H, *F.Doc.Index, E));
    return Hints;
  });
}

void LanguageServer::onCodeLens(const DocumentParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  bool Gpu = GpuAvailable;
  withFile(P.TextDocument.Uri, "codeLens", clientRequestStaleness(), C, R, [=, this](const AnalyzedFile &F) -> json {
    CodeLensOptions LensOpts = lensOptions(F, Gpu);
    json Lenses = json::array();
    std::map<std::string, std::string> Runs;
    {
      std::lock_guard<std::mutex> L(LastRunMutex);
      if (auto It = LastRun.find(F.Doc.Uri); It != LastRun.end())
        Runs = It->second;
    }
    for (const CodeLensInfo &L : codeLenses(F, LensOpts)) {
      Lenses.push_back(toProtocol(L, *F.Doc.Index, E, F.Doc.Uri));
      // The last run's verdict, time and % of peak, after the kernel's Run lenses.
      if (L.RunDevice && *L.RunDevice == "cpu")
        if (auto It = Runs.find(L.Kernel); It != Runs.end())
          Lenses.push_back(toProtocol(CodeLensInfo{L.Range, "last run: " + It->second, std::nullopt, L.Kernel},
                                      *F.Doc.Index, E, F.Doc.Uri));
    }
    return Lenses;
  });
}

CodeLensOptions LanguageServer::lensOptions(const AnalyzedFile &F, bool Gpu) {
  CodeLensOptions Opts;
  Opts.GpuAvailable = Gpu;
  Opts.JitEnabled = Jit->enabled();
  if (Opts.JitEnabled)
    Opts.Jit = Jit->lenses(jitVersion(F));
  return Opts;
}

void LanguageServer::onCodeAction(const CodeActionParams &P, ReplyOnce R, CancelFlag C) {
  bool WantQuickFix = P.OnlyKinds.empty();
  for (const std::string &K : P.OnlyKinds)
    WantQuickFix |= K == "quickfix" || K.empty();
  if (!WantQuickFix)
    return R(json::array());
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "codeAction", clientRequestStaleness(), C, R, [=, this](const AnalyzedFile &F) -> json {
    json Actions = json::array();
    SourceRange Within = fromProtocol(P.R, *F.Doc.Index, E);
    for (const CodeActionInfo &A : codeActions(F, Within))
      Actions.push_back(toProtocol(A, *F.Doc.Index, E, F.Doc.Uri));
    for (const CodeActionInfo &A : tuneActions(F, Within))
      Actions.push_back(toProtocol(A, *F.Doc.Index, E, F.Doc.Uri));
    return Actions;
  });
}

void LanguageServer::onDocumentSymbol(const DocumentParams &P, ReplyOnce R, CancelFlag C) {
  PositionEncoding E = Enc;
  withFile(P.TextDocument.Uri, "documentSymbol", Staleness::Allowed, C, R, [=](const AnalyzedFile &F) -> json {
    json Symbols = json::array();
    for (const SymbolInfo &S : documentSymbols(F))
      Symbols.push_back(toProtocol(S, *F.Doc.Index, E));
    return Symbols;
  });
}

void LanguageServer::onExecuteCommand(const ExecuteCommandParams &P, ReplyOnce R, CancelFlag C) {
  if (P.Command != "tessel.runKernel" && P.Command != "tessel.tuneKernel" && P.Command != "tessel.viewIR" &&
      P.Command != "tessel.showConfigs")
    return R(LspError{ErrorCode::InvalidParams, "unknown command: " + P.Command});
  if (P.Arguments.size() != 1)
    return R(LspError{ErrorCode::InvalidParams, P.Command + " takes exactly one argument object"});
  // The argument is read before R is moved into the handler: in one call
  // expression the order is unspecified, and GCC moved R out first, so a bad
  // argument's exception reached the catch with an empty R (a crash).
  std::optional<ViewIRParams> View;
  std::optional<RunKernelParams> Run;
  std::optional<ShowConfigsParams> Configs;
  try {
    if (P.Command == "tessel.viewIR")
      View = P.Arguments[0].get<ViewIRParams>();
    else if (P.Command == "tessel.showConfigs")
      Configs = P.Arguments[0].get<ShowConfigsParams>();
    else
      Run = P.Arguments[0].get<RunKernelParams>();
  } catch (const json::exception &E) {
    return R(LspError{ErrorCode::InvalidParams, "invalid argument for " + P.Command + ": " + E.what()});
  }
  if (View)
    return onViewIR(*View, std::move(R), std::move(C));
  if (Configs)
    return showConfigs(*Configs, std::move(R), std::move(C));
  if (P.Command == "tessel.tuneKernel")
    return tuneKernel(*Run, std::move(R));
  return runKernel(*Run, std::move(R));
}

void LanguageServer::showConfigs(const ShowConfigsParams &P, ReplyOnce R, CancelFlag C) {
  std::string Kernel = P.Kernel;
  withFile(P.Uri, "tessel.showConfigs", Staleness::Allowed, C, R, [=, this](const AnalyzedFile &F) -> Expected<json> {
    std::string Table = configTable(F, lensOptions(F, /*Gpu=*/false), Kernel);
    if (Table.empty())
      return LspError{ErrorCode::InvalidParams, "'" + Kernel + "' is no kernel of this file with autotune configs"};
    return json{{"kernel", Kernel}, {"markdown", Table}};
  });
}

//===----------------------------------------------------------------------===//
// tessel extensions
//===----------------------------------------------------------------------===//

/// The `reference-ptx` / `reference-sass` views: the kernel's CUDA C++ reference compiled by
/// `tessel compile --reference` in a process of its own (Clang's code generator and LLVM's NVPTX
/// back end never run in the server), from the file on disk.
static void viewReference(const std::string &Program, const std::string &Path, const ViewIRParams &Q, ReplyOnce &R) {
  std::string Emit = Q.Kind == "reference-ptx" ? "ptx" : "sass";
  std::vector<std::string> Args = {"tessel", "compile", Path, "--kernel", Q.Kernel, "--reference", "--emit", Emit};
  if (Q.Config) {
    Args.push_back("--config");
    Args.push_back(std::to_string(*Q.Config));
  }
  std::string Exe = Program;
  if (!llvm::sys::path::is_absolute(Exe))
    if (auto Found = llvm::sys::findProgramByName(Exe))
      Exe = *Found;
  auto Out = backend::runProgram(Exe, Args, 120);
  if (!Out)
    return R(LspError{ErrorCode::RequestFailed, "tessel/viewIR: " + llvm::toString(Out.takeError())});
  if (Out->ExitCode != 0) {
    std::string Why = Out->Stderr;
    while (!Why.empty() && Why.back() == '\n')
      Why.pop_back();
    return R(LspError{ErrorCode::RequestFailed, Why.empty() ? "tessel compile --reference failed" : Why});
  }
  R(json{{"text", Out->Stdout}, {"languageId", Emit}});
}

void LanguageServer::onViewIR(const ViewIRParams &P, ReplyOnce R, CancelFlag C) {
  if (P.Kind == "reference-ptx" || P.Kind == "reference-sass") {
    auto Path = uriToPath(P.TextDocument.Uri);
    if (!Path)
      return R(LspError{ErrorCode::InvalidParams, "a reference's view needs a file:// document"});
    return viewReference(Opts.SelfExecutable.empty() ? "tessel" : Opts.SelfExecutable, *Path, P, R);
  }
  if (P.Kind != "tir" && P.Kind != "llvm" && P.Kind != "ptx" && P.Kind != "sass")
    return R(LspError{ErrorCode::InvalidParams, "kind must be \"tir\", \"llvm\", \"ptx\", \"sass\", "
                                                "\"reference-ptx\" or \"reference-sass\", not \"" +
                                                    P.Kind + "\""});
  ViewIRParams Q = P;
  Sched->runWithFile(
      P.TextDocument.Uri, "tessel/viewIR", Staleness::Allowed, C,
      [this, Q, R](Expected<std::shared_ptr<const AnalyzedFile>> File) {
        if (!File)
          return R(File.error());
        const AnalyzedFile &F = **File;
        CrashContext Context("tessel/viewIR", F.Doc.Uri);
        const JitFunction *J = F.Report.Analysis ? F.Report.Analysis->Info.jit(Q.Kernel) : nullptr;
        if (!J)
          return R(LspError{ErrorCode::InvalidParams, "no @triton.jit function named '" + Q.Kernel + "'"});
        size_t NumConfigs = std::max<size_t>(J->Configs.size(), 1);
        if (Q.Config && (*Q.Config < 0 || static_cast<size_t>(*Q.Config) >= NumConfigs))
          return R(LspError{ErrorCode::InvalidParams,
                            "kernel '" + Q.Kernel + "' has no config " + std::to_string(*Q.Config)});
        std::optional<size_t> Config = Q.Config ? std::optional<size_t>(*Q.Config) : std::nullopt;
        if (Q.Kind == "tir") {
          try {
            TileIRView V = tileIRView(F, Q.Kernel, Config);
            if (!V.Error.empty())
              return R(LspError{ErrorCode::RequestFailed, V.Error});
            return R(json{{"text", V.Text}, {"languageId", "tir"}});
          } catch (const std::exception &E) {
            return R(LspError{ErrorCode::InternalError, std::string("tessel/viewIR failed: ") + E.what()});
          }
        }
        // LLVM IR, PTX and SASS are compiled on the JIT tier's thread (in its
        // worker process), not on the document's worker.
        std::string Kind = Q.Kind;
        Jit->view(JitVersion{F.Doc, F.Report.Analysis, F.Report.Findings}, Q.Kernel, Config, Kind,
                  [R, Kind](Expected<std::string> Text) {
                    if (!Text)
                      return R(Text.error());
                    R(json{{"text", *Text}, {"languageId", Kind}});
                  });
      });
}

/// Timed runs of an editor's GPU run: enough for a stable median of a
/// kernel of a few milliseconds, well under a second for most.
static constexpr size_t RunIters = 20;

void LanguageServer::runKernel(const RunKernelParams &P, ReplyOnce R) {
  if (P.Device != "cpu" && P.Device != "gpu" && P.Device != "auto")
    return R(
        LspError{ErrorCode::InvalidParams, "device must be \"cpu\", \"gpu\" or \"auto\", not \"" + P.Device + "\""});
  auto Path = uriToPath(P.Uri);
  if (!Path)
    return R(LspError{ErrorCode::InvalidParams, "tessel.runKernel needs a file:// document, not " + P.Uri});
  // The GPU when one is present and the user chose it (or "auto"), the CPU
  // interpreter otherwise; the runner process, never this one, loads libcuda.
  std::string Where;
  {
    std::lock_guard<std::mutex> L(RunnersMutex);
    Where = DefaultRunner;
  }
  // With a runner elsewhere, its machine has the GPU (or says it has none).
  std::string Device = P.Device == "cpu" || (!GpuAvailable && Where.empty()) ? "cpu" : "gpu";
  RunRequest Req;
  Req.Uri = P.Uri;
  Req.Path = *Path;
  Req.Kernel = P.Kernel;
  Req.Device = Device;
  Req.Config = P.Config;
  Req.Iters = Device == "gpu" ? RunIters : 0;
  Req.Triton = P.Triton.value_or(RunTriton);
  Req.Reference = Device == "gpu" && P.Reference.value_or(false);
  Req.Runner = Where;
  if (P.Device == "gpu" && Device == "cpu")
    Req.Fallback = "no GPU on this machine: ran on the CPU interpreter";
  // Run what the editor shows, not what is on disk; the report's TS301-TS303
  // become diagnostics of this version.
  if (auto Snap = WS.snapshot(P.Uri)) {
    Req.Version = Snap->Version;
    Req.TextFile = writeScratch(Snap->Text->text());
  }
  // The report gives the run's summary (and, for an open document, its diagnostics).
  Req.JsonFile = writeScratch("");
  clearRunDiagnostics(P.Uri);
  std::string Token = "tessel/run/" + std::to_string(++NextProgress);
  bool Progress = Client.WorkDoneProgress;
  std::string Title = "Running " + P.Kernel + " on " + (Device == "gpu" ? "the GPU" : "the CPU") +
                      (Req.Triton ? " and through Triton" : "");
  {
    std::lock_guard<std::mutex> L(TuneMutex);
    ActiveToken = Token;
  }
  if (Progress) {
    T.call("window/workDoneProgress/create", {{"token", Token}}, "progress-" + Token);
    T.notify("$/progress", {{"token", Token}, {"value", {{"kind", "begin"}, {"title", Title}, {"cancellable", true}}}});
  }
  std::string Error;
  bool Started = Runner.start(
      Req,
      [this, Token, Progress](RunResult Res) {
        json Report = takeRunReport(Res.Request);
        publishRunDiagnostics(Res.Request, Report);
        json Summary = Res.Cancelled ? json(nullptr) : summarizeRunReport(Report);
        std::string Verb = Res.Cancelled ? "was cancelled" : "exited with code " + std::to_string(Res.ExitCode);
        if (Progress)
          T.notify("$/progress", {{"token", Token}, {"value", {{"kind", "end"}, {"message", Verb}}}});
        json Result = {{"uri", Res.Request.Uri},   {"kernel", Res.Request.Kernel}, {"device", Res.Request.Device},
                       {"exitCode", Res.ExitCode}, {"cancelled", Res.Cancelled},   {"output", Res.Output}};
        if (!Summary.is_null())
          Result["summary"] = Summary;
        if (!Res.Request.Fallback.empty())
          Result["note"] = Res.Request.Fallback;
        T.notify("tessel/runResult", Result);
        if (!Summary.is_null()) {
          {
            std::lock_guard<std::mutex> L(LastRunMutex);
            LastRun[Res.Request.Uri][Res.Request.Kernel] = Summary.value("text", "");
          }
          if (Client.CodeLensRefresh)
            T.call("workspace/codeLens/refresh", nullptr, "codelens-refresh-" + Token);
        }
        int Type = Res.ExitCode == 0 ? 3 : 1; // Info : Error
        T.notify("window/logMessage", {{"type", Type},
                                       {"message", "tessel run " + Res.Request.Kernel + " (" + Res.Request.Device +
                                                       ") " + Verb + (Res.Output.empty() ? "" : ":\n" + Res.Output)}});
      },
      Error);
  if (!Started) {
    if (Progress)
      T.notify("$/progress", {{"token", Token}, {"value", {{"kind", "end"}, {"message", Error}}}});
    return R(LspError{ErrorCode::RequestFailed, Error});
  }
  R(json(nullptr));
}

void LanguageServer::tuneKernel(const RunKernelParams &P, ReplyOnce R) {
  if (P.Device != "cpu" && P.Device != "gpu" && P.Device != "auto")
    return R(
        LspError{ErrorCode::InvalidParams, "device must be \"cpu\", \"gpu\" or \"auto\", not \"" + P.Device + "\""});
  auto Path = uriToPath(P.Uri);
  if (!Path)
    return R(LspError{ErrorCode::InvalidParams, "tessel.tuneKernel needs a file:// document, not " + P.Uri});
  RunRequest Req;
  Req.Uri = P.Uri;
  Req.Path = *Path;
  Req.Kernel = P.Kernel;
  Req.Tune = true;
  {
    std::lock_guard<std::mutex> L(RunnersMutex);
    Req.Runner = DefaultRunner;
    Req.Runners = Runners;
  }
  bool Elsewhere = !Req.Runner.empty() || !Req.Runners.empty();
  Req.Device = P.Device == "cpu" || (!GpuAvailable && !Elsewhere) ? "cpu" : "gpu";
  if (auto Snap = WS.snapshot(P.Uri)) {
    Req.Version = Snap->Version;
    Req.TextFile = writeScratch(Snap->Text->text());
  }
  Req.JsonFile = writeScratch("");
  std::string Token = "tessel/tune/" + std::to_string(++NextProgress);
  {
    std::lock_guard<std::mutex> L(TuneMutex);
    ActiveToken = Token;
  }
  bool Progress = Client.WorkDoneProgress;
  if (Progress) {
    T.call("window/workDoneProgress/create", {{"token", Token}}, "progress-" + Token);
    T.notify("$/progress", {{"token", Token},
                            {"value",
                             {{"kind", "begin"},
                              {"title", "Tuning " + P.Kernel + (Req.Device == "gpu" ? " on GPUs" : " on the CPU")},
                              {"cancellable", true}}}});
  }
  std::string Error;
  bool Started = Runner.start(
      Req,
      [this, Token, Progress](RunResult Res) {
        json Report = takeRunReport(Res.Request);
        std::optional<TuneSummary> S = Res.Cancelled ? std::nullopt : summarizeTuneReport(Report);
        std::string Verb = Res.Cancelled ? "was cancelled" : "exited with code " + std::to_string(Res.ExitCode);
        if (Progress)
          T.notify("$/progress", {{"token", Token}, {"value", {{"kind", "end"}, {"message", Verb}}}});
        if (S && S->Complete) {
          std::lock_guard<std::mutex> L(TuneMutex);
          LastTune[Res.Request.Uri][Res.Request.Kernel] = TuneDone{Res.Request.Version, S->Keep, S->Configs};
        }
        json Result = {{"uri", Res.Request.Uri},      {"kernel", Res.Request.Kernel}, {"device", Res.Request.Device},
                       {"exitCode", Res.ExitCode},    {"cancelled", Res.Cancelled},   {"output", Res.Output},
                       {"complete", S && S->Complete}};
        if (S) {
          Result["markdown"] = S->Markdown;
          Result["keep"] = S->Keep;
        }
        T.notify("tessel/tuneResult", Result);
        T.notify("window/logMessage", {{"type", S && S->Complete ? 3 : 1},
                                       {"message", "tessel tune " + Res.Request.Kernel + " " + Verb +
                                                       (Res.Output.empty() ? "" : ":\n" + Res.Output)}});
      },
      Error);
  if (!Started) {
    if (Progress)
      T.notify("$/progress", {{"token", Token}, {"value", {{"kind", "end"}, {"message", Error}}}});
    return R(LspError{ErrorCode::RequestFailed, Error});
  }
  R(json(nullptr));
}

void LanguageServer::onProgressCancel(const json &P) {
  if (!P.is_object() || !P.contains("token") || !P["token"].is_string())
    return;
  {
    std::lock_guard<std::mutex> L(TuneMutex);
    if (P["token"].get<std::string>() != ActiveToken)
      return;
    ActiveToken.clear();
  }
  logInfo("run or tune cancelled by the client");
  Runner.stop(); // its result comes back with Cancelled set
}

std::vector<CodeActionInfo> LanguageServer::tuneActions(const AnalyzedFile &F, SourceRange Within) {
  std::map<std::string, TuneDone> Done;
  {
    std::lock_guard<std::mutex> L(TuneMutex);
    if (auto It = LastTune.find(F.Doc.Uri); It != LastTune.end())
      Done = It->second;
  }
  std::vector<CodeActionInfo> Out;
  if (Done.empty() || !F.Report.Analysis)
    return Out;
  for (const auto &[Kernel, T] : Done) {
    const JitFunction *J = F.Report.Analysis->Info.jit(Kernel);
    // Only the text that was tuned: after an edit the indices may name other configs.
    if (!J || !J->Def || T.Version != F.Doc.Version || J->Configs.size() != T.Configs ||
        T.Keep.size() == J->Configs.size())
      continue;
    if (Within.End < J->Def->Range.Begin && (J->Configs.empty() || Within.End < J->Configs.front().Range.Begin))
      continue;
    if (Within.Begin > J->Def->Range.End)
      continue;
    std::string Why;
    std::optional<TextEdit> E = diag::configListEdit(*F.Doc.Text, *J, T.Keep, Why);
    if (!E)
      continue;
    Out.push_back(CodeActionInfo{"Keep the " + std::to_string(T.Keep.size()) + " of " + std::to_string(T.Configs) +
                                     " configs tessel tune found best",
                                 {*E},
                                 nullptr,
                                 false});
  }
  return Out;
}

/// A scratch file holding Text, or "" when it cannot be written.
std::string LanguageServer::writeScratch(const std::string &Text) {
  char Name[] = "/tmp/tessel-run-XXXXXX";
  int Fd = ::mkstemp(Name);
  if (Fd < 0)
    return {};
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N <= 0)
      break;
    Done += static_cast<size_t>(N);
  }
  ::close(Fd);
  return Name;
}

void LanguageServer::clearRunDiagnostics(const std::string &Uri) {
  std::optional<Published> Again;
  {
    std::lock_guard<std::mutex> L(PublishedMutex);
    if (!RunDiagnostics.erase(Uri))
      return;
    if (auto It = LastPublished.find(Uri); It != LastPublished.end())
      Again = It->second;
  }
  if (Again)
    publish(Uri, Again->Version, Again->Diagnostics);
}

json LanguageServer::takeRunReport(const RunRequest &Req) {
  json Report;
  if (!Req.JsonFile.empty()) {
    try {
      std::ifstream In(Req.JsonFile);
      Report = json::parse(In);
    } catch (const std::exception &E) {
      logInfo(std::string("no run report to publish: ") + E.what());
      Report = nullptr;
    }
  }
  ::unlink(Req.JsonFile.c_str());
  if (!Req.TextFile.empty())
    ::unlink(Req.TextFile.c_str());
  return Report;
}

void LanguageServer::publishRunDiagnostics(const RunRequest &Req, const json &Report) {
  json Found = json::array();
  // Only an open document's text ran as a known version (TextFile).
  if (Report.is_object() && !Req.TextFile.empty()) {
    auto Take = [&](const json &List) {
      if (List.is_array())
        for (const json &D : List)
          if (D.is_object() && D.value("code", "").rfind("TS3", 0) == 0)
            Found.push_back(D);
    };
    Take(Report.value("diagnostics", json::array()));
    for (const json &I : Report.value("instances", json::array()))
      if (I.is_object())
        Take(I.value("diagnostics", json::array()));
  }
  if (Found.empty())
    return;
  json All;
  {
    std::lock_guard<std::mutex> L(PublishedMutex);
    auto It = LastPublished.find(Req.Uri);
    // They hold for the version that ran: stale once a later one is out,
    // published with that version's when it is not out yet.
    if (It != LastPublished.end() && It->second.Version > Req.Version)
      return;
    RunDiagnostics[Req.Uri] = {Req.Version, Found, json::array()};
    if (It == LastPublished.end() || It->second.Version != Req.Version)
      return;
    All = It->second.Diagnostics;
  }
  for (const json &D : Found)
    All.push_back(D);
  publish(Req.Uri, Req.Version, All);
}

} // namespace

int runLanguageServer(const LspOptions &Opts, Transport &T) {
  setLogLevel(Opts.Log);
  bool Exited = false, Clean = false;
  {
    LanguageServer Server(Opts, T);
    Exited = T.loop(Server);
    Clean = Server.exitedCleanly();
  }
  if (!Exited) {
    logError("the input ended without an exit notification");
    return 1;
  }
  if (!Clean)
    logError("exit without a preceding shutdown");
  return Clean ? 0 : 1;
}

int runLanguageServer(const LspOptions &Opts) {
  setLogLevel(Opts.Log);
  installCrashHandler();
  logInfo(std::string("tessel ") + TESSEL_VERSION_STRING + " language server, pid " + std::to_string(::getpid()));
  if (Opts.ClientProcessId)
    watchClientProcess(*Opts.ClientProcessId);
  std::unique_ptr<Transport> T = Opts.ListenHost ? newTcpTransport(*Opts.ListenHost, Opts.ListenPort, Opts.Transport)
                                                 : newStdioTransport(Opts.Transport);
  if (!T)
    return 2;
  return runLanguageServer(Opts, *T);
}

} // namespace tessel::lsp
