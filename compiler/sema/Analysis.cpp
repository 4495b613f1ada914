//===- Analysis.cpp - checking every kernel of a file ---------------------===//
/// \file
/// analyzeFile: syntax errors, discovery, then every kernel under every
/// specialization (or its previous results, when its inputs are unchanged:
/// KernelReuse.h). A problem found under every specialization of a kernel is
/// reported once, plainly; one found under only some carries the
/// specialization it needs and points at the config or launch that made it.
//===----------------------------------------------------------------------===//
#include "compiler/sema/Analysis.h"

#include "compiler/frontend/AstWalk.h"
#include "compiler/sema/GridAxes.h"
#include "compiler/sema/ImportedConfigs.h"
#include "compiler/sema/KernelChecker.h"
#include "compiler/sema/KernelReuse.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Specializations.h"
#include "compiler/support/Cores.h"
#include "compiler/support/WorkerPool.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tessel::sema {

static bool sameProblem(const Problem &A, const Problem &B) {
  return A.Kind == B.Kind && A.Range == B.Range && A.Message == B.Message;
}

/// Merges the problems found under each specialization of one kernel.
static void mergeSpecializations(const std::vector<std::vector<Problem>> &PerSpec,
                                 const std::vector<Specialization> &Specs, ProblemSink &Sink) {
  for (size_t I = 0; I < PerSpec.size(); ++I) {
    bool ReportedPartial = false;
    for (const Problem &P : PerSpec[I]) {
      size_t Count = 0;
      for (const auto &Other : PerSpec)
        for (const Problem &Q : Other)
          if (sameProblem(P, Q)) {
            ++Count;
            break;
          }
      Problem Out = P;
      if (Count == PerSpec.size()) {
        Out.Specialization.clear();
      } else {
        // A bad config is one mistake: like Triton, report where it first
        // fails, not every statement it breaks.
        if (ReportedPartial)
          continue;
        ReportedPartial = true;
        if (!Specs[I].Source.empty())
          Out.Related.push_back({Specs[I].Source, "under " + Specs[I].Description, nullptr});
      }
      Sink.report(std::move(Out));
    }
  }
}

bool FileAnalysis::onBrokenLine(SourceRange R) const {
  const SourceText &Text = File->text();
  uint32_t First = Text.lineCol(R.Begin).Line, Last = Text.lineCol(R.End).Line;
  for (const ast::SyntaxError &E : File->module().SyntaxErrors)
    if (Text.lineCol(E.Range.Begin).Line <= Last && First <= Text.lineCol(E.Range.End).Line)
      return true;
  return false;
}

/// Does a `return` with a value (other than a literal None) sit in B, nested
/// defs aside? Triton compiles such a function only as a callee.
static bool returnsValue(const ast::Block &B) {
  bool Found = false;
  ast::Walker W;
  W.OnStmt = [&](const ast::Stmt *S) {
    if (isa<ast::FunctionDefStmt>(S) || isa<ast::ClassDefStmt>(S))
      return false;
    if (const auto *R = dyn_cast<ast::ReturnStmt>(S)) {
      const auto *C = R->Value ? dyn_cast<ast::ConstantExpr>(R->Value) : nullptr;
      Found |= R->Value && !(C && C->CK == ast::ConstantKind::None);
    }
    return !Found;
  };
  W.walk(B);
  return Found;
}

namespace {
/// One kernel checked under all its specializations, or taken from the
/// previous analysis.
struct KernelResult {
  bool Helper = false; ///< an uncalled helper (KernelChecker::checkUncalledHelper)
  KernelInputs Inputs;
  std::vector<Problem> Problems; ///< merged across its specializations
  std::vector<KernelAnalysis> Analyses;
  /// Reused unmoved: the previous version's analyses themselves.
  std::vector<std::shared_ptr<const KernelAnalysis>> Shared;
  bool Reused = false;
  bool MovedFromPrevious = false; ///< KernelRecord::MovedFromPrevious
  bool Covered = false;           ///< KernelRecord::Covered
};
} // namespace

static void checkKernelSpecializations(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Fn,
                                       const std::vector<Specialization> &Specs, const AnalyzeOptions &Opts,
                                       KernelResult &R) {
  std::vector<std::vector<Problem>> PerSpec;
  ParamKinds Kinds = inferParamKinds(*Fn.Def, Info);
  R.Inputs.Files.clear();
  // The files that said what the module's imports mean (a re-export of
  // triton) are read by every kernel of it.
  R.Inputs.Files.insert(Info.ProjectReads.begin(), Info.ProjectReads.end());
  for (const Specialization &S : Specs) {
    KernelAnalysis KA;
    KA.Kernel = Fn.Name;
    KA.Specialization = S.Description;
    KA.SpecializationSource = S.Source;
    KA.NumWarps = S.NumWarps;
    ProblemSink SpecSink;
    KernelChecker C(File, Info, Opts, SpecSink, KA);
    if (R.Helper)
      C.checkUncalledHelper(Fn, S);
    else
      C.checkKernel(Fn, S, Kinds);
    PerSpec.push_back(SpecSink.take());
    R.Analyses.push_back(std::move(KA));
    R.Inputs.Files.insert(C.reads().begin(), C.reads().end());
    R.Inputs.Files.insert(S.HostReads.begin(), S.HostReads.end());
  }
  ProblemSink KernelSink;
  mergeSpecializations(PerSpec, Specs, KernelSink);
  R.Problems = KernelSink.take();
}

/// Takes Old's results for a kernel whose inputs are unchanged, moved to the
/// kernel's new place; false (R untouched) when they cannot be. Moved: R's
/// inputs are Old's moved past the edit (analyzeFile's MovedInputs), so
/// their texts are known equal.
static bool reuseKernel(const FileAnalysis &Previous, const KernelRecord &Old, const ParsedFile &NewFile,
                        const AnalyzeOptions &Opts, bool Moved, KernelResult &R) {
  // The other files it read must be as they were (an edit in a helper
  // module re-checks exactly the kernels that read it).
  for (const auto &[Path, Hash] : Old.Inputs.Files)
    if (!Opts.Project || Opts.Project->files().contents(Path).Hash != Hash)
      return false;
  std::optional<Rebaser> Move = Moved ? Rebaser::matchMoved(*Previous.File, Old.Inputs, NewFile, R.Inputs)
                                      : Rebaser::match(*Previous.File, Old.Inputs, NewFile, R.Inputs);
  if (!Move)
    return false;
  if (Move->unmoved()) {
    // Where it was (above the edit): the same analyses, shared.
    std::vector<std::shared_ptr<const KernelAnalysis>> Shared;
    Shared.reserve(Old.NumAnalyses);
    for (size_t I = Old.FirstAnalysis; I < Old.FirstAnalysis + Old.NumAnalyses; ++I) {
      if (!(Moved && Old.Covered) && !Move->covers(Previous.Kernels[I]))
        return false;
      Shared.push_back(Previous.Kernels.shared(I));
    }
    std::vector<Problem> Problems = Old.Problems;
    for (Problem &P : Problems)
      if (!Move->rebase(P))
        return false;
    R.Shared = std::move(Shared);
    R.Problems = std::move(Problems);
    R.Inputs.Files = Old.Inputs.Files;
    R.Reused = true;
    R.MovedFromPrevious = Moved;
    R.Covered = true;
    return true;
  }
  std::vector<KernelAnalysis> Analyses;
  Analyses.reserve(Old.NumAnalyses);
  for (size_t I = Old.FirstAnalysis; I < Old.FirstAnalysis + Old.NumAnalyses; ++I)
    Analyses.push_back(Previous.Kernels[I]);
  for (KernelAnalysis &KA : Analyses)
    if (!Move->rebase(KA))
      return false;
  std::vector<Problem> Problems = Old.Problems;
  for (Problem &P : Problems)
    if (!Move->rebase(P))
      return false;
  R.Analyses = std::move(Analyses);
  R.Problems = std::move(Problems);
  R.Inputs.Files = Old.Inputs.Files;
  R.Reused = true;
  R.MovedFromPrevious = Moved;
  R.Covered = true;
  return true;
}

std::shared_ptr<const FileAnalysis> analyzeFile(std::shared_ptr<const ParsedFile> File, const AnalyzeOptions &Opts,
                                                const FileAnalysis *Previous) {
  auto FA = std::make_shared<FileAnalysis>();
  FA->File = File;
  ProblemSink Sink;
  for (const ast::SyntaxError &E : File->module().SyntaxErrors)
    Sink.report(ProblemKind::SyntaxError, E.Range, E.Message);
  // After an edit inside one @jit function's body, the module's other facts
  // are the previous version's, moved (rediscover); else it runs again.
  std::optional<ParsedFile::PieceDiff> Diff;
  std::optional<ModuleInfo> Rediscovered;
  std::optional<BodyEdit> Edit; ///< where, when Info is carried over
  if (Previous && Previous->File) {
    Diff = ParsedFile::diff(*Previous->File, *File);
    FA->DiscoveryProblems = Previous->DiscoveryProblems;
    Rediscovered = rediscover(*Previous->File, Previous->Info, *File, *Diff, FA->DiscoveryProblems);
    // What the imports meant came from other files too: carried over only
    // while those are unchanged.
    if (Rediscovered && Opts.Project && !Opts.Project->readsCurrent(*Rediscovered))
      Rediscovered.reset();
  }
  if (Rediscovered) {
    FA->Info = std::move(*Rediscovered);
    FA->InfoMoved = true;
    Edit = BodyEdit{Previous->File->pieces()[Diff->Leading].Range, Diff->Shift};
  } else {
    ProblemSink Discovery;
    FA->Info = Opts.Project ? Opts.Project->discoverFile(*File, Discovery) : discover(File->module(), Discovery);
    FA->DiscoveryProblems = Discovery.take();
  }
  for (const Problem &P : FA->DiscoveryProblems)
    Sink.report(P);
  // Launch specs written next to kernels: malformed ones are reported at
  // their own text.
  for (Problem &P : checkLaunchDirectives(*File, FA->Info))
    Sink.report(std::move(P));
  // Kernels are independent (each reads the immutable file and module info
  // and writes its own results), so they are checked on all cores; results
  // are merged in source order, so the output does not depend on timing.
  std::vector<const JitFunction *> Kernels;
  std::vector<char> Helper;
  std::vector<RoleEvidence> Roles;
  std::set<std::string> Directed = directedKernels(*File, FA->Info);
  const std::string &Path = File->text().path();
  bool OnDisk = Opts.Project && !Path.empty() && Path != "-";
  // In source order without a lookup by name: hashing the 13,000 names of
  // the largest file measured was a tenth of a keystroke there.
  for (const JitFunction *FnP : FA->Info.inOrder()) {
    const JitFunction &Fn = *FnP;
    const std::string &Name = Fn.Name;
    if (!Fn.IsKernel || !Fn.Def)
      continue; // a helper this file calls: checked inlined at each call
    Kernels.push_back(&Fn);
    // A @jit function nothing here launches or calls: a kernel where
    // something launches it (another file, a directive); a helper where it
    // returns a value or another file's @jit code calls it; else, with no
    // evidence either way, the kernel it is written as. What other files
    // said is kept (RoleEvidence), so a server can ask again when they change.
    RoleEvidence Role;
    if (!Fn.Launched && !Directed.count(Name) && OnDisk) {
      Role.Asked = true;
      Role.Launched = Opts.Project->launchedElsewhere(Path, Name);
      Role.ReturnsValue = returnsValue(Fn.Def->Body);
      if (!Role.Launched && !Role.ReturnsValue) {
        Role.AskedCalled = true;
        Role.Called = Opts.Project->calledElsewhere(Path, Name);
      }
    } else if (!Fn.Launched && !Directed.count(Name)) {
      Role.ReturnsValue = returnsValue(Fn.Def->Body);
    }
    bool IsHelper = Role.helper();
    Helper.push_back(IsHelper);
    Roles.push_back(Role);
  }
  // The previous record of kernel I: mostly at the same index (the same
  // kernels in the same order), else looked up by name.
  std::unordered_map<std::string_view, const KernelRecord *> OldRecords;
  auto OldRecord = [&](size_t I) -> const KernelRecord * {
    if (!Previous)
      return nullptr;
    if (I < Previous->Records.size() && Previous->Records[I].Kernel == Kernels[I]->Name)
      return &Previous->Records[I];
    if (OldRecords.empty())
      for (const KernelRecord &Rec : Previous->Records)
        OldRecords.emplace(Rec.Kernel, &Rec);
    auto It = OldRecords.find(Kernels[I]->Name);
    return It == OldRecords.end() ? nullptr : It->second;
  };
  // Indexed only when some kernel's inputs are collected.
  // A keystroke derives the inputs of a kernel or two on this thread: their
  // names are looked up lazily. Past a few kernels, or for the kernels
  // checked on the pool (which share it), every name is indexed once.
  std::optional<ModuleNames> Names, LazyNames;
  size_t SerialInputs = 0;
  auto SerialNames = [&]() -> const ModuleNames & {
    if (Names)
      return *Names;
    if (++SerialInputs <= 16) {
      if (!LazyNames)
        LazyNames.emplace(*File, FA->Info, /*Lazy=*/true);
      return *LazyNames;
    }
    return Names.emplace(*File, FA->Info);
  };
  std::vector<KernelResult> Results(Kernels.size());
  std::vector<std::vector<Specialization>> Specs(Kernels.size());
  // The role is an input: a helper that becomes a kernel is checked afresh.
  auto InputsOf = [&](const ModuleNames &Index, size_t I) {
    return kernelInputs(Index, *File, *Kernels[I], Specs[I], Opts, Helper[I] ? " role helper;" : " role kernel;");
  };
  // After an edit inside one @jit function's body (Info rediscovered), a
  // kernel whose inputs read nothing of the changed piece has the inputs it
  // had, moved: every fact they spell out (module names, configs, launch
  // sites, host launches, directives: none in the changed piece) is
  // unchanged, so they are not derived again (issue 14: a keystroke derived
  // and compared the inputs of all 13,000 kernels of a file).
  const ast::Stmt *ChangedDef = nullptr;
  if (Edit) {
    const ParsedFile::Piece &OldP = Previous->File->pieces()[Diff->Leading], &NewP = File->pieces()[Diff->Leading];
    if (OldP.Directives.empty() && NewP.Directives.empty())
      ChangedDef = File->module().Body[NewP.FirstStmt];
  }
  OptionFactsPrefix Options(Opts);
  auto MovedInputs = [&](size_t I, const KernelRecord &Old, KernelInputs &Out) {
    if (!ChangedDef || Kernels[I]->Def == ChangedDef || Old.Role.helper() != static_cast<bool>(Helper[I]) ||
        !Options.begins(Old.Inputs.Facts.str(), Kernels[I]->Name))
      return false;
    Out.Segments.clear();
    Out.Segments.reserve(Old.Inputs.Segments.size());
    for (SourceRange S : Old.Inputs.Segments) {
      if (S.Begin < Edit->Piece.End && S.End > Edit->Piece.Begin)
        return false; // reads the changed piece
      Out.Segments.push_back(Edit->moved(S));
    }
    Out.Facts = Old.Inputs.Facts;
    Out.Reusable = Old.Inputs.Reusable;
    return true;
  };
  // Reuse is a copy: done here, so that only the kernels left to check pay
  // for threads.
  // A kernel with no earlier record cannot be reused: its inputs are
  // collected by the thread that checks it, off the serial path.
  std::vector<size_t> ToCheck;
  std::vector<char> InputsPending(Kernels.size(), 0);
  // What the file's launches say of the arguments' types (directives, else
  // the first launch its host code makes, found in one run of that code).
  // The host code runs again only when its text changed (HostLaunchTable).
  std::vector<launch::LaunchDirective> Directives;
  if (!Kernels.empty()) {
    // Info carried over (rediscover): the host code's text is the previous
    // version's, so its segments are moved, not found again and compared.
    FA->Host = hostLaunchTable(*File, FA->Info, Previous ? Previous->Host.get() : nullptr,
                               Previous ? Previous->File.get() : nullptr, Edit ? &*Edit : nullptr);
    Directives = File->launchDirectives();
  } else {
    FA->Host = std::make_shared<HostLaunchTable>();
  }
  const std::map<std::string, HostLaunch> &HostLaunches = FA->Host->Launches;
  project::ModuleRef HostRef = OnDisk ? Opts.Project->refOf(Path) : project::ModuleRef{};
  // A kernel's specializations, with what its launches say.
  auto Specialize = [&](size_t I) {
    // The other modules read to specialize (an imported config list, the
    // launching function's validators) are the kernel's inputs too.
    project::Reads HostReads;
    JitFunction WithImportedConfigs;
    const JitFunction *FnP = Kernels[I];
    if (OnDisk)
      if (std::vector<AutotuneConfig> Imported =
              importedAutotuneConfigs(*FnP, FA->Info, HostRef, *Opts.Project, HostReads);
          !Imported.empty()) {
        WithImportedConfigs = *FnP;
        WithImportedConfigs.Configs = std::move(Imported);
        WithImportedConfigs.ConfigsUnknown = false;
        FnP = &WithImportedConfigs;
      }
    const JitFunction &Fn = *FnP;
    Specs[I] = specializationsOf(Fn, Opts.MaxSpecializations);
    if (Helper[I])
      Specs[I].resize(1); // what holds for any argument holds for one specialization
    // A kernel's launches say what its arguments are (a helper takes any).
    auto Host = Helper[I] ? HostLaunches.end() : HostLaunches.find(Fn.Name);
    LaunchFacts Launched =
        Helper[I] ? LaunchFacts{}
                  : launchFacts(*File, FA->Info, Fn, Directives, Host == HostLaunches.end() ? nullptr : &Host->second);
    for (Specialization &S : Specs[I]) {
      for (const auto &[Param, T] : Launched.ArgTypes)
        S.ArgTypes.emplace(Param, T);
      for (const auto &[Param, V] : Launched.Constexprs)
        S.Constexprs.emplace(Param, V);
    }
    HostNames Names = moduleHostNames(FA->Info, HostRef, OnDisk ? Opts.Project : nullptr, &HostReads);
    std::set<int64_t> FloorDivided = floorDividedGridAxes(Fn, File->module(), Names);
    std::set<std::pair<int64_t, std::string>> Padded = paddedRowPitches(Fn, File->module(), Names);
    for (Specialization &S : Specs[I]) {
      S.FloorDividedGridAxes = FloorDivided;
      S.PaddedRowPitches = Padded;
      S.HostReads = HostReads;
    }
  };
  for (size_t I = 0; I < Kernels.size(); ++I) {
    Results[I].Helper = Helper[I];
    const KernelRecord *Old = OldRecord(I);
    if (Old && MovedInputs(I, *Old, Results[I].Inputs) &&
        reuseKernel(*Previous, *Old, *File, Opts, /*Moved=*/true, Results[I]))
      continue;
    Specialize(I);
    if (!Old) {
      InputsPending[I] = 1;
      ToCheck.push_back(I);
      continue;
    }
    Results[I].Inputs = InputsOf(SerialNames(), I);
    if (!reuseKernel(*Previous, *Old, *File, Opts, /*Moved=*/false, Results[I]))
      ToCheck.push_back(I);
  }
  if (!Names && std::find(InputsPending.begin(), InputsPending.end(), 1) != InputsPending.end())
    Names.emplace(*File, FA->Info);
  // Longest first (specializations times body size), so that the last
  // kernel a thread takes is a short one and no core waits on a long one.
  auto Cost = [&](size_t I) { return Specs[I].size() * (Kernels[I]->Def->Range.End - Kernels[I]->Def->Range.Begin); };
  std::stable_sort(ToCheck.begin(), ToCheck.end(), [&](size_t A, size_t B) { return Cost(A) > Cost(B); });
  parallelFor(ToCheck.size(), usableCores(), [&](size_t J) {
    size_t I = ToCheck[J];
    if (InputsPending[I])
      Results[I].Inputs = InputsOf(*Names, I);
    checkKernelSpecializations(*File, FA->Info, *Kernels[I], Specs[I], Opts, Results[I]);
  });
  for (size_t I = 0; I < Kernels.size(); ++I) {
    KernelResult &R = Results[I];
    for (const Problem &P : R.Problems)
      Sink.report(P);
    KernelRecord Rec;
    Rec.Kernel = Kernels[I]->Name;
    Rec.Inputs = std::move(R.Inputs);
    Rec.Role = Roles[I];
    Rec.FirstAnalysis = FA->Kernels.size();
    Rec.NumAnalyses = R.Analyses.size() + R.Shared.size();
    Rec.Problems = std::move(R.Problems);
    Rec.MovedFromPrevious = R.MovedFromPrevious;
    Rec.Covered = R.Covered;
    FA->Records.push_back(std::move(Rec));
    FA->ReusedKernels += R.Reused;
    for (KernelAnalysis &KA : R.Analyses)
      FA->Kernels.push_back(std::move(KA));
    for (std::shared_ptr<const KernelAnalysis> &KA : R.Shared)
      FA->Kernels.push_back(std::move(KA));
  }
  for (Problem &P : Sink.take())
    if (P.Kind == ProblemKind::SyntaxError || !FA->onBrokenLine(P.Range))
      FA->Problems.push_back(std::move(P));
  return FA;
}

std::set<std::string> uncalledHelpers(const FileAnalysis &FA) {
  std::set<std::string> Out;
  for (const KernelRecord &Rec : FA.Records)
    if (Rec.Role.helper())
      Out.insert(Rec.Kernel);
  return Out;
}

RoleQuestions roleQuestions(const FileAnalysis &FA) {
  RoleQuestions Q;
  Q.Path = FA.File->text().path();
  for (const KernelRecord &Rec : FA.Records)
    if (Rec.Role.Asked)
      Q.Functions.emplace_back(Rec.Kernel, Rec.Role);
  return Q;
}

bool roleEvidenceChanged(RoleQuestions &Q, project::Project &P, const std::set<std::string> *Mentioned) {
  bool Changed = false;
  for (auto &[Name, Role] : Q.Functions) {
    // A "no" turns into a "yes" only through a file that writes the name;
    // a "yes" may turn into a "no" through any file that stopped.
    if (Mentioned && !Mentioned->count(Name) && !Role.Launched && !Role.Called)
      continue;
    bool WasHelper = Role.helper();
    Role.Launched = P.launchedElsewhere(Q.Path, Name);
    Role.AskedCalled = !Role.Launched && !Role.ReturnsValue;
    Role.Called = Role.AskedCalled && P.calledElsewhere(Q.Path, Name);
    Changed = Changed || Role.helper() != WasHelper;
  }
  return Changed;
}

const KernelAnalysis *FileAnalysis::kernelAt(uint32_t Offset) const {
  for (const KernelAnalysis &K : Kernels) {
    auto It = Info.Jit.find(K.Kernel);
    if (It != Info.Jit.end() && It->second.Def && It->second.Def->Range.contains(Offset))
      return &K;
  }
  return nullptr;
}

std::string typeWithDimNames(const TileType &Type, const std::vector<std::string> &Names) {
  if (!Type.isBlock() || Names.size() != Type.Shape.size())
    return Type.str();
  std::string S = "[";
  for (size_t I = 0; I < Type.Shape.size(); ++I) {
    int64_t D = Type.Shape[I];
    S += (I ? ", " : "") + (D != TileType::UnknownDim ? std::to_string(D)
                            : Names[I].empty()        ? std::string("?")
                                                      : Names[I]);
  }
  return S + "] " + Type.Elem.str();
}

const ValueFact *FileAnalysis::valueAt(uint32_t Offset) const {
  for (const KernelAnalysis &K : Kernels)
    for (const ValueFact &V : K.Values)
      if (V.Range.contains(Offset) || (V.Range.End == Offset && !V.Range.empty()))
        return &V;
  return nullptr;
}

} // namespace tessel::sema
