//===- HostLaunches.cpp - the launches a file's host code makes -----------===//
/// \file
/// The observer ConstEval calls at each launch binds the arguments and
/// evaluates the grid right there, inside the host function that launches:
/// a grid lambda's free names are that function's locals.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/HostLaunches.h"

#include "compiler/frontend/ConstEval.h"

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

std::vector<HostLaunch> findHostLaunches(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Kernel,
                                         const PyDict &ConfigKwargs, size_t Max) {
  std::vector<HostLaunch> Out;
  if (!Kernel.Def || Max == 0)
    return Out;
  ConstEval Eval(Info, [&Info](const std::string &Name) {
    auto F = Info.Functions.find(Name);
    return F == Info.Functions.end() ? PyValue() : PyValue::function(F->second);
  });
  Eval.setHostMode([&](const ConstEval::HostLaunchCall &Call) {
    if (Call.Kernel != Kernel.Def || Out.size() >= Max)
      return;
    HostLaunch L;
    L.Range = Call.Call->Range;
    if (const auto *Sub = dyn_cast<ast::SubscriptExpr>(Call.Call->Func))
      L.GridRange = Sub->Index->Range;
    L.Callers = Call.Callers;
    bindArguments(*Kernel.Def, Call, Eval, L);
    L.Grid = evaluateGrid(Call.Grid, L, ConfigKwargs, Eval);
    Out.push_back(std::move(L));
  });
  std::map<std::string, PyValue> Scope;
  Scope["__name__"] = PyValue::string("__main__");
  Eval.exec(File.module().Body, Scope);
  return Out;
}

} // namespace tessel
