//===- PointerParams.cpp - which kernel parameters are pointers -----------===//
#include "compiler/sema/PointerParams.h"

#include "compiler/frontend/AstWalk.h"

#include <map>
#include <vector>

namespace tessel::sema {

using namespace ast;

static bool nameSaysPointer(const std::string &N) {
  auto EndsWith = [&](std::string_view S) {
    return N.size() >= S.size() && N.compare(N.size() - S.size(), S.size(), S) == 0;
  };
  return EndsWith("ptr") || EndsWith("Ptr") || EndsWith("PTR") || EndsWith("_ptrs");
}

static bool isPointerOpName(std::string_view Name) {
  static const char *Ops[] = {"load",      "store",      "atomic_add",  "atomic_max", "atomic_min",    "atomic_and",
                              "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas", "make_block_ptr"};
  for (const char *Op : Ops)
    if (Name == Op)
      return true;
  return false;
}

/// Is Callee tl.load, tl.store, an atomic or tl.make_block_ptr?
static bool isPointerOp(const ModuleInfo &Info, const Expr *Callee) {
  // Qualifying allocates; `tl.foo` keeps its attribute as the last part of
  // its qualified name, so most calls are ruled out before that.
  if (const auto *A = dyn_cast<AttributeExpr>(Callee); A && !isPointerOpName(A->Attr))
    return false;
  std::string Q = Info.qualify(Callee);
  std::string_view Prefix = "triton.language.";
  return std::string_view(Q).substr(0, Prefix.size()) == Prefix &&
         isPointerOpName(std::string_view(Q).substr(Prefix.size()));
}

using Definitions = std::map<std::string, std::vector<const Expr *>>;

/// Remembers what `name = value` assigns, so uses of the name can be traced
/// back to the expressions that define it.
static void recordDefinition(const Stmt *S, Definitions &Defs) {
  if (const auto *A = dyn_cast<AssignStmt>(S))
    for (const Expr *T : A->Targets)
      if (const auto *N = dyn_cast<NameExpr>(T))
        Defs[N->Id].push_back(A->Value);
}

std::set<std::string> inferPointerParams(const FunctionDefStmt &Fn, const ModuleInfo &Info) {
  std::set<std::string> Params, Out;
  for (const Param &P : Fn.Params) {
    Params.insert(P.Name);
    if (nameSaysPointer(P.Name))
      Out.insert(P.Name);
  }
  Definitions Defs;
  std::vector<const Expr *> Bases;
  Walker W;
  W.OnStmt = [&](const Stmt *S) {
    recordDefinition(S, Defs);
    return !isa<FunctionDefStmt>(S);
  };
  W.OnExpr = [&](const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C || !isPointerOp(Info, C->Func))
      return;
    if (!C->Args.empty())
      Bases.push_back(C->Args[0]);
    else if (const Keyword *K = C->keyword("pointer"))
      Bases.push_back(K->Value);
    else if (const Keyword *K = C->keyword("base"))
      Bases.push_back(K->Value);
  };
  W.walk(Fn.Body);
  std::set<std::string> Visited;
  while (!Bases.empty()) {
    const Expr *E = Bases.back();
    Bases.pop_back();
    while (const auto *B = dyn_cast<BinOpExpr>(E)) {
      if (B->Op != BinOpKind::Add && B->Op != BinOpKind::Sub)
        break;
      E = B->Lhs;
    }
    const auto *N = dyn_cast<NameExpr>(E);
    if (!N || !Visited.insert(N->Id).second)
      continue;
    if (Params.count(N->Id))
      Out.insert(N->Id);
    for (const Expr *D : Defs[N->Id])
      Bases.push_back(D);
  }
  return Out;
}

/// Every name inside E, following local assignments.
static void namesIn(const Expr *E, const Definitions &Defs, std::set<std::string> &Seen, std::set<std::string> &Out) {
  Walker W;
  W.OnExpr = [&](const Expr *X) {
    const auto *N = dyn_cast<NameExpr>(X);
    if (!N || !Seen.insert(N->Id).second)
      return;
    Out.insert(N->Id);
    if (auto It = Defs.find(N->Id); It != Defs.end())
      for (const Expr *D : It->second)
        namesIn(D, Defs, Seen, Out);
  };
  W.walk(E);
}

ParamKinds inferParamKinds(const FunctionDefStmt &Fn, const ModuleInfo &Info) {
  ParamKinds K;
  K.Pointers = inferPointerParams(Fn, Info);
  K.Ints = inferIntParams(Fn, Info, K.Pointers);
  return K;
}

std::set<std::string> inferIntParams(const FunctionDefStmt &Fn, const ModuleInfo &Info,
                                     const std::set<std::string> &Pointers) {
  Definitions Defs;
  std::vector<const Expr *> IntExprs;
  Walker W;
  W.OnStmt = [&](const Stmt *S) {
    recordDefinition(S, Defs);
    if (const auto *F = dyn_cast<ForStmt>(S))
      if (const auto *C = dyn_cast<CallExpr>(F->Iter))
        for (const Expr *A : C->Args)
          IntExprs.push_back(A);
    return !isa<FunctionDefStmt>(S);
  };
  W.OnExpr = [&](const Expr *E) {
    // `n > 1`, `step == 0`: compared with an int literal.
    if (const auto *Cmp = dyn_cast<CompareExpr>(E); Cmp && Cmp->Comparators.size() == 1) {
      auto IsIntLiteral = [](const Expr *X) {
        const auto *K = dyn_cast<ConstantExpr>(X);
        return K && K->CK == ConstantKind::Int;
      };
      if (IsIntLiteral(Cmp->Comparators[0]))
        IntExprs.push_back(Cmp->Lhs);
      else if (IsIntLiteral(Cmp->Lhs))
        IntExprs.push_back(Cmp->Comparators[0]);
    }
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C || C->Args.empty() || !isPointerOp(Info, C->Func))
      return;
    // Everything added to the base of a pointer is an offset.
    const Expr *P = C->Args[0];
    while (const auto *B = dyn_cast<BinOpExpr>(P)) {
      if (B->Op != BinOpKind::Add && B->Op != BinOpKind::Sub)
        break;
      IntExprs.push_back(B->Rhs);
      P = B->Lhs;
    }
  };
  W.walk(Fn.Body);
  std::set<std::string> Params;
  for (const Param &P : Fn.Params)
    Params.insert(P.Name);
  std::set<std::string> Seen, Names, Out;
  for (const Expr *E : IntExprs)
    namesIn(E, Defs, Seen, Names);
  for (const std::string &N : Names)
    if (Params.count(N) && !Pointers.count(N))
      Out.insert(N);
  return Out;
}

} // namespace tessel::sema
