//===- Wrappers.cpp - host wrappers run with arguments nobody passed ------===//
#include "compiler/host/Wrappers.h"

#include "compiler/frontend/AstWalk.h"

namespace tessel::host {

/// Does Fn's body launch something (`name[grid](...)`)?
static bool launchesSomething(const ast::FunctionDefStmt &Fn) {
  bool Found = false;
  ast::Walker W;
  W.OnExpr = [&](const ast::Expr *E) {
    if (const auto *C = dyn_cast<ast::CallExpr>(E))
      Found = Found || isa<ast::SubscriptExpr>(C->Func);
  };
  W.walk(Fn.Body);
  return Found;
}

std::vector<std::pair<std::string, const ast::FunctionDefStmt *>> hostWrappers(const ParsedFile &File,
                                                                               const ModuleInfo &Info) {
  std::vector<std::pair<std::string, const ast::FunctionDefStmt *>> Wrappers;
  auto Consider = [&](const std::string &Name, const ast::FunctionDefStmt *Fn) {
    const JitFunction *J = Info.jit(Fn->Name);
    if ((J && J->Def == Fn) || Wrappers.size() >= MaxWrappers || !launchesSomething(*Fn))
      return;
    Wrappers.emplace_back(Name, Fn);
  };
  for (const ast::Stmt *St : File.module().Body) {
    if (const auto *Fn = dyn_cast<ast::FunctionDefStmt>(St))
      Consider(Fn->Name, Fn);
    else if (const auto *C = dyn_cast<ast::ClassDefStmt>(St))
      for (const ast::Stmt *M : C->Body)
        if (const auto *Fn = dyn_cast<ast::FunctionDefStmt>(M))
          Consider(C->Name + "." + Fn->Name, Fn);
  }
  return Wrappers;
}

ModuleRun::ModuleRun(const ParsedFile &File, const ModuleInfo &Info, const HostLibrary &Library, PyConfig C)
    : Config(std::move(C)), Eval(Info, [&Info, this](const std::string &Name) {
        if (auto It = Scope.find(Name); It != Scope.end())
          return It->second;
        auto F = Info.Functions.find(Name);
        return F == Info.Functions.end() ? PyValue() : PyValue::function(F->second);
      }) {
  Eval.setHostMode(
      [this](const ConstEval::HostLaunchCall &Call) {
        if (Sink && Sink->size() < 16)
          Sink->emplace_back(Call.Kernel->Name, recordLaunch(Call, Config, Eval));
      },
      Library);
  // Launches the module-level code makes are the host launch table's
  // business: here it runs as an import, for the namespace it leaves.
  Scope["__name__"] = PyValue::string("__imported__");
  Eval.exec(File.module().Body, Scope);
}

std::vector<std::pair<std::string, HostLaunch>> ModuleRun::call(const ast::FunctionDefStmt *Fn, const PyList &Args) {
  std::vector<std::pair<std::string, HostLaunch>> Launches;
  Sink = &Launches;
  Eval.call(Fn, Args, {});
  Sink = nullptr;
  return Launches;
}

std::optional<PyList> wrapperArguments(const ast::FunctionDefStmt &Fn, ConstEval &Eval,
                                       const std::function<std::optional<int64_t>(const std::string &)> &Int,
                                       const std::function<PyValue(const std::string &)> &Tensor) {
  PyList Args;
  bool AnyTensor = false;
  for (const ast::Param &P : Fn.Params) {
    if (P.PKind != ast::Param::ParamKind::Positional)
      continue;
    if (P.Default) {
      Args.push_back(Eval.eval(P.Default));
      continue;
    }
    if (&P == &Fn.Params.front() && (P.Name == "self" || P.Name == "ctx" || P.Name == "cls")) {
      Args.push_back(PyValue());
      continue;
    }
    const auto *Ann = P.Annotation ? dyn_cast<ast::NameExpr>(P.Annotation) : nullptr;
    if (Ann && Ann->Id == "int") {
      std::optional<int64_t> V = Int(P.Name);
      if (!V)
        return std::nullopt;
      Args.push_back(PyValue::integer(*V));
      continue;
    }
    if (Ann && (Ann->Id == "float" || Ann->Id == "bool" || Ann->Id == "str")) {
      Args.push_back(PyValue());
      continue;
    }
    Args.push_back(Tensor(P.Name));
    AnyTensor = AnyTensor || Args.back().isTensor();
  }
  if (!AnyTensor)
    return std::nullopt;
  return Args;
}

std::set<std::string> tensorParameters(const ast::FunctionDefStmt &Fn) {
  static const std::set<std::string, std::less<>> TensorOnly = {
      "shape",     "stride",     "strides",       "view",           "reshape",      "numel",   "dtype",     "device",
      "size",      "contiguous", "is_contiguous", "data_ptr",       "element_size", "t",       "T",         "mT",
      "transpose", "permute",    "expand",        "flatten",        "unsqueeze",    "squeeze", "ndim",      "dim",
      "is_cuda",   "new_empty",  "new_zeros",     "storage_offset", "unflatten",    "view_as", "expand_as", "to"};
  std::set<std::string> Params, Out;
  for (const ast::Param &P : Fn.Params)
    Params.insert(P.Name);
  ast::Walker W;
  W.OnExpr = [&](const ast::Expr *E) {
    if (const auto *A = dyn_cast<ast::AttributeExpr>(E)) {
      const auto *N = dyn_cast<ast::NameExpr>(A->Value);
      if (N && Params.count(N->Id) && TensorOnly.count(A->Attr))
        Out.insert(N->Id);
      return;
    }
    const auto *C = dyn_cast<ast::CallExpr>(E);
    const auto *F = C ? dyn_cast<ast::AttributeExpr>(C->Func) : nullptr;
    if (!F)
      return;
    // `TensorDescriptor.from_tensor(tensor=w, ...)`: w is a tensor.
    if (F->Attr == "from_tensor")
      if (const ast::Keyword *K = C->keyword("tensor"))
        if (const auto *N = dyn_cast<ast::NameExpr>(K->Value); N && Params.count(N->Id))
          Out.insert(N->Id);
    bool Like = F->Attr.size() >= 5 && F->Attr.compare(F->Attr.size() - 5, 5, "_like") == 0;
    if (C->Args.empty() || !(Like || F->Attr == "from_tensor"))
      return;
    if (const auto *N = dyn_cast<ast::NameExpr>(C->Args[0]); N && Params.count(N->Id))
      Out.insert(N->Id);
  };
  W.walk(Fn.Body);
  return Out;
}

PyValue madeUpTensor(const std::vector<int64_t> &Shape, const std::string &DType, const std::string &Origin) {
  PyTensor T;
  T.Shape = Shape;
  T.Strides.assign(Shape.size(), 1);
  for (size_t D = Shape.size(); D-- > 1;)
    T.Strides[D - 1] = T.Strides[D] * Shape[D];
  T.DType = DType;
  T.Init = PyTensor::Fill::Randn;
  T.Origin = Origin;
  return PyValue::tensor(std::move(T));
}

} // namespace tessel::host
