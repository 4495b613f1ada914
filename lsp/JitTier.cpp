//===- JitTier.cpp - the language server's background compiles ------------===//
/// \file
/// Implements JitTier.h: one thread (none when deferred) takes IR views
/// first, then the document whose debounce expired first, and compiles its
/// kernels one config at a time through diag::jitCheckConfig with the tier's
/// worker process and cache. Per-document state lives under one mutex, held
/// only between compiles, never during one.
//===----------------------------------------------------------------------===//
#include "lsp/JitTier.h"
#include "lsp/Logger.h"

#include "compiler/backend/Disassemble.h"
#include "compiler/backend/Subprocess.h"
#include "compiler/sema/KernelReuse.h"
#include "compiler/sema/LaunchPlan.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

using Clock = std::chrono::steady_clock;

namespace tessel::lsp {

namespace {

/// The results of one kernel (every config), and the inputs of the version
/// they were computed for.
struct KernelEntry {
  std::shared_ptr<const ParsedFile> File;
  sema::KernelInputs Inputs;
  std::vector<diag::Finding> Findings;
  std::vector<JitFigures> Configs;
};

/// The compile in progress, so that a newer version can abandon it.
struct InFlight {
  std::string Kernel;
  std::shared_ptr<const ParsedFile> File;
  sema::KernelInputs Inputs;
  std::shared_ptr<std::atomic<bool>> Cancel;
};

struct Document {
  std::optional<JitVersion> Pending;
  /// The latest version, compiled again when the tier is turned back on.
  std::optional<JitVersion> Last;
  Clock::time_point Due;
  std::map<std::string, KernelEntry> Entries;
  std::chrono::milliseconds LastRunTime{0};
  std::optional<InFlight> Running;
  bool Removed = false;
};

struct ViewJob {
  JitVersion V;
  std::string Kernel;
  std::optional<size_t> Config;
  std::string Kind;
  JitTier::ViewReply Reply;
};

const sema::KernelRecord *recordOf(const sema::FileAnalysis &FA, const std::string &Kernel) {
  for (const sema::KernelRecord &R : FA.Records)
    if (R.Kernel == Kernel)
      return &R;
  return nullptr;
}

/// Whether Kernels are too many to compile in the editor.
bool tooMany(size_t Kernels, const JitTierOptions &Opts) { return Kernels > Opts.MaxKernels; }

/// Moves every range of F that lies in the kernel's own file; false when one
/// lies outside every input segment.
bool rebase(const sema::Rebaser &R, diag::Finding &F) {
  return moveOwnRanges(F, [&R](SourceRange &Range) { return R.rebase(Range); });
}

bool rebase(const sema::Rebaser &R, diag::JitSummary &S) {
  if (!R.rebase(S.KernelName))
    return false;
  return !S.ConfigRange || R.rebase(*S.ConfigRange);
}

} // namespace

struct JitTier::Impl {
  // The cache serves an undo or a retyped line with the figures of a kernel
  // compiled minutes ago; 8 MiB is about a hundred kernels, and a server
  // that runs all day stays flat once it is full.
  Impl(JitTierOptions O, JitTierCallbacks &CB) : Opts(std::move(O)), CB(CB), Cache("", 256, size_t(8) << 20) {}

  JitTierOptions Opts;
  JitTierCallbacks &CB;
  backend::CompileCache Cache;
  std::unique_ptr<backend::JitWorkerProcess> Worker;
  std::optional<backend::GpuArch> Arch;

  mutable std::mutex Mu;
  std::condition_variable Wake, Idle;
  std::map<std::string, Document> Docs;
  std::deque<ViewJob> Views;
  bool Busy = false, Stop = false;
  std::atomic<bool> Enabled{true};
  std::thread Thread;

  std::atomic<uint64_t> Compiles{0}, Reused{0}, Cancelled{0};

  /// E's results moved onto V's version of Kernel, when its inputs there
  /// are the ones E was computed from.
  static std::optional<KernelEntry> carry(const KernelEntry &E, const JitVersion &V, const sema::KernelRecord &R) {
    if (E.Inputs.Files != R.Inputs.Files)
      return std::nullopt;
    std::optional<sema::Rebaser> Rb = sema::Rebaser::match(*E.File, E.Inputs, *V.Analysis->File, R.Inputs);
    if (!Rb)
      return std::nullopt;
    KernelEntry Out{V.Analysis->File, R.Inputs, E.Findings, E.Configs};
    for (diag::Finding &F : Out.Findings)
      if (!rebase(*Rb, F))
        return std::nullopt;
    for (JitFigures &C : Out.Configs)
      if (!rebase(*Rb, C.Summary))
        return std::nullopt;
    return Out;
  }

  /// The kernels of V the tier compiles, with their records; none when
  /// there are more than Opts.MaxKernels (a generated file of thousands).
  std::vector<std::pair<const JitFunction *, const sema::KernelRecord *>> kernelsOf(const JitVersion &V) const {
    std::vector<std::pair<const JitFunction *, const sema::KernelRecord *>> Out;
    if (!V.Analysis || !V.Analysis->File || tooMany(V.Analysis->Records.size(), Opts))
      return Out;
    std::unordered_map<std::string_view, const sema::KernelRecord *> Records;
    for (const sema::KernelRecord &R : V.Analysis->Records)
      Records.emplace(R.Kernel, &R);
    for (const JitFunction *Fn : diag::jitKernels(V.Analysis->Info, V.FrontEnd))
      if (auto It = Records.find(Fn->Name); It != Records.end() && !It->second->Role.helper())
        Out.push_back({Fn, It->second}); // an uncalled helper is compiled only inside its callers
    return Out;
  }

  backend::GpuArch arch() {
    if (Arch)
      return *Arch;
    Arch = backend::GpuArch{90, true};
    if (Opts.Arch) {
      Arch = *Opts.Arch;
      return *Arch;
    }
    // The CUDA driver is loaded by a worker, never by the server.
    auto R = backend::runProgram(Opts.WorkerProgram, {"tessel", "jit-worker", "--local-arch"}, 30);
    if (!R) {
      logInfo("jit: cannot ask for the local GPU (" + llvm::toString(R.takeError()) + "); compiling for sm_90a");
      return *Arch;
    }
    std::string Name = R->Stdout.substr(0, R->Stdout.find('\n'));
    if (std::optional<backend::GpuArch> A = backend::parseArch(Name); A && R->ExitCode == 0)
      Arch = *A;
    logInfo("jit: compiling for " + Arch->name());
    return *Arch;
  }

  backend::JitWorkerProcess &worker() {
    if (!Worker)
      Worker = std::make_unique<backend::JitWorkerProcess>(Opts.WorkerProgram);
    return *Worker;
  }

  diag::JitCheckOptions checkOptions(const std::atomic<bool> *Cancel) {
    diag::JitCheckOptions JO;
    JO.Arch = arch();
    JO.Cache = &Cache;
    JO.Worker = &worker();
    JO.WorkerTimeoutSeconds = Opts.TimeoutSeconds;
    JO.Project = Opts.Project;
    JO.Cancelled = Cancel;
    return JO;
  }

  /// Takes the next job: true with one of View / Uri+Version set, false when
  /// stopping (threaded) or nothing is due (Block false).
  bool next(std::unique_lock<std::mutex> &L, bool Block, std::optional<ViewJob> &View, std::string &Uri,
            std::optional<JitVersion> &V) {
    while (true) {
      if (Stop)
        return false;
      if (!Views.empty()) {
        View = std::move(Views.front());
        Views.pop_front();
        return true;
      }
      std::optional<Clock::time_point> Earliest;
      std::string Best;
      for (auto &[U, D] : Docs)
        if (D.Pending && (!Earliest || D.Due < *Earliest)) {
          Earliest = D.Due;
          Best = U;
        }
      if (Earliest && (*Earliest <= Clock::now() || Opts.Deferred)) {
        Uri = Best;
        V = std::move(Docs[Best].Pending);
        Docs[Best].Pending.reset();
        return true;
      }
      if (!Block)
        return false;
      if (Earliest)
        Wake.wait_until(L, *Earliest);
      else
        Wake.wait(L);
    }
  }

  void loop(bool Block) {
    std::unique_lock<std::mutex> L(Mu);
    while (true) {
      std::optional<ViewJob> View;
      std::string Uri;
      std::optional<JitVersion> V;
      if (!next(L, Block, View, Uri, V))
        break;
      Busy = true;
      L.unlock();
      uint64_t Before = Compiles.load();
      try {
        if (View)
          runView(*View);
        else
          runDocument(Uri, *V);
      } catch (const std::exception &E) {
        logError(std::string("jit: ") + E.what());
      }
      L.lock();
      // Lowering a large kernel frees megabytes that this thread's heap
      // keeps for its next allocations, where they fragment: after each
      // document it compiled, the thread hands them back (an edit of a
      // 128x256 fp32 tile kernel left the server 4 MiB larger each time; a
      // collect is a millisecond beside a compile's hundreds).
      if (Opts.ReleaseMemory && Compiles.load() != Before) {
        L.unlock();
        Opts.ReleaseMemory();
        L.lock();
      }
      Busy = false;
      Idle.notify_all();
    }
  }

  /// Uri's document, or null once it is gone: a document closed while the
  /// tier worked outside the lock must not come back as an empty one that
  /// keeps later results (Docs[Uri] would make it). Called with Mu held.
  Document *documentOf(const std::string &Uri) {
    auto It = Docs.find(Uri);
    return It == Docs.end() ? nullptr : &It->second;
  }

  /// Compiles what V needs and publishes its findings, unless a newer
  /// version arrives first.
  void runDocument(const std::string &Uri, const JitVersion &V) {
    if (!Enabled)
      return;
    if (tooMany(V.Analysis->Records.size(), Opts)) {
      logInfo("jit: " + Uri + " has " + std::to_string(V.Analysis->Records.size()) + " @jit functions, more than the " +
              std::to_string(Opts.MaxKernels) + " the editor compiles; `tessel check --jit` compiles them all");
      return;
    }
    auto Start = Clock::now();
    std::vector<diag::Finding> All;
    bool Complete = true;
    for (const auto &[Fn, Record] : kernelsOf(V)) {
      std::shared_ptr<std::atomic<bool>> Cancel = std::make_shared<std::atomic<bool>>(false);
      {
        std::lock_guard<std::mutex> G(Mu);
        // Closed between two kernels (remove() erases an idle document).
        Document *DP = documentOf(Uri);
        if (!DP)
          return;
        Document &D = *DP;
        if (D.Removed || D.Pending) {
          Complete = false; // a newer version: it takes over from here
          break;
        }
        if (auto It = D.Entries.find(Fn->Name); It != D.Entries.end())
          if (std::optional<KernelEntry> E = carry(It->second, V, *Record)) {
            for (const diag::Finding &F : E->Findings)
              All.push_back(F);
            It->second = std::move(*E);
            ++Reused;
            continue;
          }
        D.Running = InFlight{Fn->Name, V.Analysis->File, Record->Inputs, Cancel};
      }
      KernelEntry E{V.Analysis->File, Record->Inputs, {}, {}};
      diag::JitCheckOptions JO = checkOptions(Cancel.get());
      std::vector<std::optional<size_t>> Configs;
      if (Fn->Configs.empty())
        Configs.push_back(std::nullopt);
      for (size_t I = 0; I < Fn->Configs.size(); ++I)
        Configs.push_back(I);
      for (std::optional<size_t> C : Configs) {
        if (Cancel->load())
          break;
        auto T0 = Clock::now();
        diag::ConfigJitReport R = diag::jitCheckConfig(*V.Analysis->File, V.Analysis->Info, *Fn, C, JO);
        if (Cancel->load())
          break;
        ++Compiles;
        logVerbose("jit: " + Fn->Name + (C ? " config " + std::to_string(*C) : std::string()) + " of " + Uri + " v" +
                   std::to_string(V.Doc.Version) + " in " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - T0).count()) +
                   " ms" + (R.Summary && R.Summary->FromCache ? " (cache)" : ""));
        for (diag::Finding &F : R.Findings)
          E.Findings.push_back(std::move(F));
        if (R.Summary)
          E.Configs.push_back({C, std::move(*R.Summary)});
      }
      std::lock_guard<std::mutex> G(Mu);
      Document *DP = documentOf(Uri);
      if (!DP)
        return;
      Document &D = *DP;
      D.Running.reset();
      if (Cancel->load()) {
        ++Cancelled;
        logInfo("jit: abandoned the compile of " + Fn->Name + " in " + Uri + " v" + std::to_string(V.Doc.Version) +
                ": a newer version changed it");
        Complete = false;
        break;
      }
      diag::mergeKernelFindings(*Fn, E.Findings);
      All.insert(All.end(), E.Findings.begin(), E.Findings.end());
      D.Entries[Fn->Name] = std::move(E);
    }
    std::lock_guard<std::mutex> G(Mu);
    Document *DP = documentOf(Uri);
    if (!DP)
      return;
    Document &D = *DP;
    D.LastRunTime = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - Start);
    if (D.Removed && !D.Pending) {
      Docs.erase(Uri);
      return;
    }
    if (!Complete || D.Removed || D.Pending)
      return;
    // Kernels that are gone (renamed, deleted) need no results.
    std::vector<std::pair<const JitFunction *, const sema::KernelRecord *>> Now = kernelsOf(V);
    for (auto It = D.Entries.begin(); It != D.Entries.end();)
      It = std::any_of(Now.begin(), Now.end(), [&](const auto &K) { return K.first->Name == It->first; })
               ? std::next(It)
               : D.Entries.erase(It);
    std::stable_sort(All.begin(), All.end(),
                     [](const diag::Finding &A, const diag::Finding &B) { return A.Range.Begin < B.Range.Begin; });
    // Published under the lock: a later version's update() waits, so the
    // client never sees this version's findings after the next one's.
    CB.onJitFindings(V.Doc, All);
  }

  void runView(ViewJob &J) {
    const sema::FileAnalysis &FA = *J.V.Analysis;
    const JitFunction *Fn = FA.Info.jit(J.Kernel);
    if (!Fn)
      return J.Reply(LspError{ErrorCode::InvalidParams, "no @triton.jit function named '" + J.Kernel + "'"});
    sema::LaunchPlanOptions PO;
    PO.Config = J.Config ? J.Config : Fn->Configs.empty() ? std::nullopt : std::optional<size_t>(0);
    diag::JitCheckOptions JO = checkOptions(nullptr);
    backend::KernelJitOptions KO;
    KO.Arch = JO.Arch;
    KO.Assemble = J.Kind != "llvm" && diag::canAssemble();
    KO.KeepLlvm = J.Kind == "llvm";
    KO.Cache = &Cache;
    KO.Worker = JO.Worker;
    KO.WorkerTimeoutSeconds = Opts.TimeoutSeconds;
    KO.Project = Opts.Project;
    if (PO.Config)
      KO.MaxNReg = Fn->Configs[*PO.Config].Config.MaxNReg;
    const sema::AnalyzeOptions Lowering = backend::loweringOptions(KO);
    PO.Settle = &Lowering;
    sema::LaunchPlan Plan = sema::planLaunch(*FA.File, FA.Info, J.Kernel, PO);
    if (!Plan.Error.empty())
      return J.Reply(LspError{ErrorCode::RequestFailed, "kernel '" + J.Kernel + "' cannot be compiled: " + Plan.Error});
    if (Plan.Launches.empty())
      return J.Reply(LspError{ErrorCode::RequestFailed,
                              "kernel '" + J.Kernel + "' cannot be compiled: no launch of it could be planned"});
    if (J.Kind == "sass" && !backend::hasDisassembler()) {
      auto E = backend::disassemble("");
      return J.Reply(LspError{ErrorCode::RequestFailed, llvm::toString(E.takeError())});
    }
    backend::KernelJitResult R = backend::jitKernel(*FA.File, FA.Info, Plan.Launches.front().Request, KO);
    if (!R.Kernel) {
      std::string Why = R.Error;
      if (Why.empty() && !R.Problems.empty()) {
        LineCol LC = FA.File->text().lineCol(R.Problems.front().Range.Begin);
        Why = std::to_string(LC.Line + 1) + ":" + std::to_string(LC.Column + 1) + ": " + R.Problems.front().Message;
      }
      return J.Reply(LspError{ErrorCode::RequestFailed, "kernel '" + J.Kernel + "' cannot be compiled for " +
                                                            KO.Arch.name() + ": " + (Why.empty() ? "unknown" : Why)});
    }
    const backend::CompiledKernel &K = *R.Kernel;
    std::string Comment = J.Kind == "llvm" ? "; " : "// "; // PTX and nvdisasm both comment with //
    std::string Head;
    for (const std::string &A : Plan.Assumptions)
      Head += Comment + A + "\n";
    if (J.Kind == "llvm")
      return J.Reply(Head + K.Llvm);
    if (J.Kind == "ptx")
      return J.Reply(Head + K.Ptx);
    if (K.Cubin.empty())
      return J.Reply(LspError{ErrorCode::RequestFailed, "no cubin for kernel '" + J.Kernel +
                                                            "': neither ptxas nor nvJitLink was found, so there is "
                                                            "no SASS to show"});
    auto S = backend::disassemble(K.Cubin);
    if (!S)
      return J.Reply(LspError{ErrorCode::RequestFailed, llvm::toString(S.takeError())});
    J.Reply(Head + *S);
  }
};

JitTier::JitTier(JitTierOptions Opts, JitTierCallbacks &Callbacks)
    : P(std::make_unique<Impl>(std::move(Opts), Callbacks)) {
  P->Enabled = P->Opts.Enabled;
  if (!P->Opts.Deferred)
    P->Thread = std::thread([this] { P->loop(true); });
}

JitTier::~JitTier() {
  {
    std::lock_guard<std::mutex> L(P->Mu);
    P->Stop = true;
    for (auto &[Uri, D] : P->Docs)
      if (D.Running)
        D.Running->Cancel->store(true);
  }
  P->Wake.notify_all();
  if (P->Thread.joinable())
    P->Thread.join();
  // Views still queued get an answer.
  for (ViewJob &J : P->Views)
    J.Reply(LspError{ErrorCode::RequestCancelled, "the server is shutting down"});
}

std::vector<diag::Finding> JitTier::update(JitVersion V) {
  std::vector<diag::Finding> Holding;
  if (!V.Analysis || !V.Analysis->File)
    return Holding;
  {
    std::lock_guard<std::mutex> L(P->Mu);
    Document &D = P->Docs[V.Doc.Uri];
    D.Removed = false;
    D.Last = V;
    if (!P->Enabled)
      return Holding;
    for (const auto &[Fn, Record] : P->kernelsOf(V))
      if (auto It = D.Entries.find(Fn->Name); It != D.Entries.end())
        if (std::optional<KernelEntry> E = Impl::carry(It->second, V, *Record))
          Holding.insert(Holding.end(), E->Findings.begin(), E->Findings.end());
    // The compile in progress goes on when this version leaves its kernel
    // as it was: its result is this version's too.
    if (D.Running) {
      const sema::KernelRecord *R = recordOf(*V.Analysis, D.Running->Kernel);
      bool Same = R && D.Running->Inputs.Files == R->Inputs.Files &&
                  sema::Rebaser::match(*D.Running->File, D.Running->Inputs, *V.Analysis->File, R->Inputs);
      if (!Same)
        D.Running->Cancel->store(true);
    }
    auto Delay = std::clamp(D.LastRunTime, P->Opts.MinDebounce, P->Opts.MaxDebounce);
    D.Due = Clock::now() + (P->Opts.Deferred ? std::chrono::milliseconds(0) : Delay);
    D.Pending = std::move(V);
  }
  P->Wake.notify_all();
  return Holding;
}

void JitTier::remove(const std::string &Uri) {
  std::lock_guard<std::mutex> L(P->Mu);
  auto It = P->Docs.find(Uri);
  if (It == P->Docs.end())
    return;
  if (It->second.Running) {
    // The thread still refers to it: mark it, and let the run end.
    It->second.Running->Cancel->store(true);
    It->second.Removed = true;
    It->second.Pending.reset();
    It->second.Last.reset();
    It->second.Entries.clear();
    return;
  }
  P->Docs.erase(It);
}

void JitTier::setEnabled(bool On) {
  {
    std::lock_guard<std::mutex> L(P->Mu);
    P->Enabled = On;
    for (auto &[Uri, D] : P->Docs) {
      if (On && D.Last && !D.Pending) {
        // Back on: the version the user sees is compiled now, not at the
        // next edit.
        D.Pending = D.Last;
        D.Due = Clock::now();
      }
      if (On)
        continue;
      D.Pending.reset();
      if (D.Running)
        D.Running->Cancel->store(true);
    }
  }
  P->Wake.notify_all();
}

bool JitTier::enabled() const { return P->Enabled; }

std::map<std::string, KernelJitLens> JitTier::lenses(const JitVersion &V) {
  std::map<std::string, KernelJitLens> Out;
  if (!V.Analysis || !V.Analysis->File)
    return Out;
  std::lock_guard<std::mutex> L(P->Mu);
  auto DI = P->Docs.find(V.Doc.Uri);
  for (const auto &[Fn, Record] : P->kernelsOf(V)) {
    KernelJitLens &K = Out[Fn->Name];
    if (DI != P->Docs.end())
      if (auto It = DI->second.Entries.find(Fn->Name); It != DI->second.Entries.end())
        if (std::optional<KernelEntry> E = Impl::carry(It->second, V, *Record)) {
          K.Configs = std::move(E->Configs);
          continue;
        }
    K.Pending = P->Enabled;
  }
  return Out;
}

void JitTier::view(JitVersion V, std::string Kernel, std::optional<size_t> Config, std::string Kind, ViewReply Reply) {
  {
    std::lock_guard<std::mutex> L(P->Mu);
    P->Views.push_back({std::move(V), std::move(Kernel), Config, std::move(Kind), std::move(Reply)});
  }
  P->Wake.notify_all();
}

bool JitTier::waitIdle(std::chrono::milliseconds Timeout) {
  if (P->Opts.Deferred) {
    P->loop(false);
    return true;
  }
  std::unique_lock<std::mutex> L(P->Mu);
  auto Deadline = Clock::now() + Timeout;
  while (true) {
    bool Work = P->Busy || !P->Views.empty() ||
                std::any_of(P->Docs.begin(), P->Docs.end(), [](const auto &D) { return bool(D.second.Pending); });
    if (!Work)
      return true;
    if (P->Idle.wait_until(L, Deadline) == std::cv_status::timeout)
      return false;
  }
}

JitTier::Stats JitTier::stats() const {
  Stats S{P->Compiles.load(), P->Reused.load(), P->Cancelled.load(), 0};
  std::lock_guard<std::mutex> L(P->Mu);
  S.WorkerStarts = P->Worker ? P->Worker->starts() : 0;
  return S;
}

} // namespace tessel::lsp
