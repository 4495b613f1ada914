//===- HostLaunches.cpp - the launches a file's host code makes -----------===//
/// \file
/// The observer ConstEval calls at each launch binds the arguments and
/// evaluates the grid right there, inside the host function that launches:
/// a grid lambda's free names are that function's locals. hostLaunchTable
/// compares the host code's text with the previous version's and moves the
/// previous launches when it is unchanged.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/HostLaunches.h"

#include "compiler/frontend/ConstEval.h"

#include <algorithm>
#include <functional>

namespace tessel {

const HostArgument *HostLaunch::arg(const std::string &Param) const {
  for (const HostArgument &A : Args)
    if (A.Param == Param)
      return &A;
  return nullptr;
}

/// Python's binding of a call's arguments to the kernel's parameters.
static void bindArguments(const ast::FunctionDefStmt &Kernel, const ConstEval::HostLaunchCall &Call, ConstEval &Eval,
                          HostLaunch &Out) {
  const ast::CallExpr &C = *Call.Call;
  size_t Next = 0;
  std::vector<bool> KeywordUsed(Call.Kwargs.size(), false);
  for (const ast::Param &P : Kernel.Params) {
    if (P.PKind == ast::Param::ParamKind::VarArgs || P.PKind == ast::Param::ParamKind::VarKeywords)
      continue;
    HostArgument A;
    A.Param = P.Name;
    bool Bound = false;
    if (P.PKind == ast::Param::ParamKind::Positional && Next < Call.Args.size()) {
      if (Next < C.Args.size() && isa<ast::StarredExpr>(C.Args[Next])) {
        Out.BindError = "the launch passes `*` arguments";
        return;
      }
      A.Value = Call.Args[Next];
      A.Range = C.Args[Next]->Range;
      ++Next;
      Bound = true;
    }
    for (size_t I = 0; !Bound && I < Call.Kwargs.size(); ++I) {
      const PyValue &Key = Call.Kwargs[I].first;
      if (!Key.isStr() || Key.asStr() != P.Name)
        continue;
      A.Value = Call.Kwargs[I].second;
      if (const ast::Keyword *K = C.keyword(P.Name))
        A.Range = K->Value->Range;
      KeywordUsed[I] = Bound = true;
    }
    if (!Bound && P.Default) {
      A.Value = Eval.eval(P.Default);
      A.FromDefault = Bound = true;
    }
    if (Bound)
      Out.Args.push_back(std::move(A));
  }
  for (size_t I = 0; I < Call.Kwargs.size(); ++I)
    if (!KeywordUsed[I] && Call.Kwargs[I].first.isStr())
      Out.Options.emplace_back(Call.Kwargs[I].first.asStr(), Call.Kwargs[I].second);
  if (Next < Call.Args.size())
    Out.BindError = "the launch passes " + std::to_string(Call.Args.size()) + " positional arguments to " +
                    std::to_string(Next) + " parameters";
}

/// The grid as Triton reads it: a tuple of up to three ints, an int, or a
/// callable of META returning one of those.
static std::vector<int64_t> evaluateGrid(const PyValue &G, const HostLaunch &L, const PyDict &ConfigKwargs,
                                         ConstEval &Eval) {
  PyValue Grid = G;
  if (G.kind() == PyValue::Kind::Lambda || G.kind() == PyValue::Kind::Function) {
    PyDict Meta;
    for (const HostArgument &A : L.Args)
      Meta.emplace_back(PyValue::string(A.Param), A.Value);
    for (const auto &[K, V] : L.Options)
      Meta.emplace_back(PyValue::string(K), V);
    for (const auto &KV : ConfigKwargs)
      Meta.push_back(KV);
    Grid = Eval.callValue(G, {PyValue::dict(std::move(Meta))}, {});
  }
  PyList Dims;
  if (Grid.isIntLike())
    Dims.push_back(Grid);
  else if (Grid.isSequence())
    Dims = Grid.elements();
  if (Dims.empty() || Dims.size() > 3)
    return {};
  std::vector<int64_t> Out;
  for (const PyValue &D : Dims) {
    if (!D.isIntLike() || D.asInt() < 0)
      return {};
    Out.push_back(D.asInt());
  }
  return Out;
}

/// The arguments of the first case of a pytest test function: every
/// `@pytest.mark.parametrize("a, b", [(1, 2), ...])` contributes its first
/// tuple. Nullopt when a parameter gets no value (a fixture, say).
static std::optional<PyDict> firstTestCase(const ast::FunctionDefStmt &Fn, ConstEval &Eval) {
  PyDict Kwargs;
  for (const ast::Expr *D : Fn.Decorators) {
    const auto *C = dyn_cast<ast::CallExpr>(D);
    const auto *A = C ? dyn_cast<ast::AttributeExpr>(C->Func) : nullptr;
    if (!A || A->Attr != "parametrize" || C->Args.size() < 2)
      continue;
    PyValue Names = Eval.eval(C->Args[0]), Cases = Eval.eval(C->Args[1]);
    std::vector<std::string> Params;
    if (Names.isStr()) {
      std::string S = Names.asStr();
      for (size_t B = 0; B <= S.size();) {
        size_t E = std::min(S.find(',', B), S.size());
        std::string N = S.substr(B, E - B);
        N.erase(0, N.find_first_not_of(" \t"));
        N.erase(N.find_last_not_of(" \t") + 1);
        if (!N.empty())
          Params.push_back(N);
        B = E + 1;
      }
    } else if (Names.isSequence()) {
      for (const PyValue &N : Names.elements())
        if (N.isStr())
          Params.push_back(N.asStr());
    }
    if (Params.empty() || !Cases.isSequence() || Cases.elements().empty())
      return std::nullopt;
    const PyValue &First = Cases.elements().front();
    if (Params.size() == 1) {
      Kwargs.emplace_back(PyValue::string(Params[0]), First);
      continue;
    }
    if (!First.isSequence() || First.elements().size() != Params.size())
      return std::nullopt;
    for (size_t I = 0; I < Params.size(); ++I)
      Kwargs.emplace_back(PyValue::string(Params[I]), First.elements()[I]);
  }
  for (const ast::Param &P : Fn.Params) {
    bool Given = std::any_of(Kwargs.begin(), Kwargs.end(),
                             [&P](const auto &KV) { return KV.first.isStr() && KV.first.asStr() == P.Name; });
    if (!Given && !P.Default && P.PKind != ast::Param::ParamKind::VarArgs &&
        P.PKind != ast::Param::ParamKind::VarKeywords)
      return std::nullopt;
  }
  return Kwargs;
}

/// Runs File's module-level code, then its pytest test functions, handing
/// each launch to Take (with the evaluator, which must not outlive this
/// call) until Done says enough.
static void runHostCode(const ParsedFile &File, const ModuleInfo &Info,
                        const std::function<void(const ConstEval::HostLaunchCall &, ConstEval &)> &Take,
                        const std::function<bool()> &Done) {
  // After the module has run, its namespace (Scope) is what functions
  // called from here read as their globals.
  std::map<std::string, PyValue> Scope;
  ConstEval Eval(Info, [&Info, &Scope](const std::string &Name) {
    if (auto It = Scope.find(Name); It != Scope.end())
      return It->second;
    auto F = Info.Functions.find(Name);
    return F == Info.Functions.end() ? PyValue() : PyValue::function(F->second);
  });
  Eval.setHostMode([&](const ConstEval::HostLaunchCall &Call) { Take(Call, Eval); });
  Scope["__name__"] = PyValue::string("__main__");
  Eval.exec(File.module().Body, Scope);
  // A test file is run by pytest, not as a script: its test functions are
  // called with their first parametrized case.
  for (const ast::Stmt *St : File.module().Body) {
    const auto *Fn = dyn_cast<ast::FunctionDefStmt>(St);
    if (Done() || !Fn || Fn->Name.rfind("test", 0) != 0 || Info.Jit.count(Fn->Name))
      continue;
    if (std::optional<PyDict> Case = firstTestCase(*Fn, Eval))
      Eval.call(Fn, {}, *Case);
  }
}

static HostLaunch hostLaunch(const ConstEval::HostLaunchCall &Call, const PyDict &ConfigKwargs, ConstEval &Eval) {
  HostLaunch L;
  L.Range = Call.Call->Range;
  if (const auto *Sub = dyn_cast<ast::SubscriptExpr>(Call.Call->Func))
    L.GridRange = Sub->Index->Range;
  L.Callers = Call.Callers;
  bindArguments(*Call.Kernel, Call, Eval, L);
  L.Grid = evaluateGrid(Call.Grid, L, ConfigKwargs, Eval);
  return L;
}

std::vector<HostLaunch> findHostLaunches(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Kernel,
                                         const PyDict &ConfigKwargs, size_t Max) {
  std::vector<HostLaunch> Out;
  if (!Kernel.Def || Max == 0)
    return Out;
  runHostCode(
      File, Info,
      [&](const ConstEval::HostLaunchCall &Call, ConstEval &Eval) {
        if (Call.Kernel == Kernel.Def && Out.size() < Max)
          Out.push_back(hostLaunch(Call, ConfigKwargs, Eval));
      },
      [&] { return Out.size() >= Max; });
  return Out;
}

std::map<std::string, HostLaunch> firstHostLaunches(const ParsedFile &File, const ModuleInfo &Info) {
  std::map<std::string, HostLaunch> Out;
  size_t Kernels = Info.Jit.size();
  runHostCode(
      File, Info,
      [&](const ConstEval::HostLaunchCall &Call, ConstEval &Eval) {
        if (!Out.count(Call.Kernel->Name))
          Out.emplace(Call.Kernel->Name, hostLaunch(Call, {}, Eval));
      },
      [&] { return Out.size() >= Kernels; });
  return Out;
}

/// The text the host code's run reads (HostLaunchTable::Segments).
static std::vector<SourceRange> hostSegments(const ParsedFile &File, const ModuleInfo &Info) {
  std::vector<SourceRange> Out;
  Out.reserve(File.module().Body.size());
  for (const ast::Stmt *St : File.module().Body) {
    const auto *Fn = dyn_cast<ast::FunctionDefStmt>(St);
    const JitFunction *J = Fn ? Info.jit(Fn->Name) : nullptr;
    if (J && J->Def == Fn && !Fn->Body.empty())
      Out.push_back({Fn->Range.Begin, Fn->Body.front()->Range.Begin});
    else
      Out.push_back(St->Range);
  }
  return Out;
}

/// Does a syntax error of File touch one of Segments (sorted)? The parser's
/// recovery there depends on the text around it, so equal text no longer
/// means an equal tree.
static bool touchesSyntaxError(const ParsedFile &File, const std::vector<SourceRange> &Segments) {
  for (const ast::SyntaxError &E : File.module().SyntaxErrors) {
    auto It = std::lower_bound(Segments.begin(), Segments.end(), E.Range.Begin,
                               [](const SourceRange &S, uint32_t At) { return S.End < At; });
    if (It != Segments.end() && It->Begin <= E.Range.End)
      return true;
  }
  return false;
}

static bool holdsTree(const HostLaunch &L) {
  for (const HostArgument &A : L.Args)
    if (A.Value.refersToTree())
      return true;
  for (const auto &[Name, V] : L.Options)
    if (V.refersToTree())
      return true;
  return false;
}

/// Moves R from the old segment that contains it to the same place in the
/// new one; false when no segment contains it.
static bool moveRange(SourceRange &R, const std::vector<SourceRange> &Old, const std::vector<SourceRange> &New) {
  if (R == SourceRange{})
    return true; // "no range": a parameter's default
  auto It =
      std::upper_bound(Old.begin(), Old.end(), R.Begin, [](uint32_t At, const SourceRange &S) { return At < S.Begin; });
  if (It == Old.begin())
    return false;
  --It;
  if (!It->contains(R))
    return false;
  const SourceRange &N = New[static_cast<size_t>(It - Old.begin())];
  int64_t Shift = int64_t(N.Begin) - int64_t(It->Begin);
  R = {static_cast<uint32_t>(R.Begin + Shift), static_cast<uint32_t>(R.End + Shift)};
  return true;
}

static std::optional<std::map<std::string, HostLaunch>> moveTable(const HostLaunchTable &Previous,
                                                                  const ParsedFile &PreviousFile,
                                                                  const std::vector<SourceRange> &Segments,
                                                                  const ParsedFile &File) {
  if (!Previous.Reusable || Previous.Segments.size() != Segments.size())
    return std::nullopt;
  for (size_t I = 0; I < Segments.size(); ++I)
    if (PreviousFile.text().slice(Previous.Segments[I]) != File.text().slice(Segments[I]))
      return std::nullopt;
  if (touchesSyntaxError(PreviousFile, Previous.Segments) || touchesSyntaxError(File, Segments))
    return std::nullopt;
  std::map<std::string, HostLaunch> Out = Previous.Launches;
  for (auto &[Name, L] : Out) {
    bool Ok = moveRange(L.Range, Previous.Segments, Segments) && moveRange(L.GridRange, Previous.Segments, Segments);
    for (HostArgument &A : L.Args)
      Ok = Ok && moveRange(A.Range, Previous.Segments, Segments);
    if (!Ok)
      return std::nullopt;
  }
  return Out;
}

std::shared_ptr<const HostLaunchTable> hostLaunchTable(const ParsedFile &File, const ModuleInfo &Info,
                                                       const HostLaunchTable *Previous,
                                                       const ParsedFile *PreviousFile) {
  auto T = std::make_shared<HostLaunchTable>();
  T->Segments = hostSegments(File, Info);
  std::optional<std::map<std::string, HostLaunch>> Moved;
  if (Previous && PreviousFile)
    Moved = moveTable(*Previous, *PreviousFile, T->Segments, File);
  T->Reused = Moved.has_value();
  T->Launches = Moved ? std::move(*Moved) : firstHostLaunches(File, Info);
  for (const auto &[Name, L] : T->Launches)
    T->Reusable = T->Reusable && !holdsTree(L);
  return T;
}

} // namespace tessel
