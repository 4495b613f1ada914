//===- HostLaunches.cpp - the launches a file's host code makes -----------===//
/// \file
/// The observer ConstEval calls at each launch binds the arguments and
/// evaluates the grid right there, inside the host function that launches:
/// a grid lambda's free names are that function's locals.
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

} // namespace tessel
