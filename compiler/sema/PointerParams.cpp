//===- PointerParams.cpp - which kernel parameters are pointers -----------===//
#include "compiler/sema/PointerParams.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace tessel::sema {

using namespace ast;

static bool nameSaysPointer(const std::string &N) {
  auto EndsWith = [&](std::string_view S) {
    return N.size() >= S.size() && N.compare(N.size() - S.size(), S.size(), S) == 0;
  };
  return EndsWith("ptr") || EndsWith("Ptr") || EndsWith("PTR") || EndsWith("_ptrs") || EndsWith("_pointer") ||
         EndsWith("Pointer") || EndsWith("_pointers");
}

static bool isPointerOpName(std::string_view Name) {
  static const char *Ops[] = {"load",        "store",      "atomic_add",     "atomic_max",
                              "atomic_min",  "atomic_and", "atomic_or",      "atomic_xor",
                              "atomic_xchg", "atomic_cas", "make_block_ptr", "make_tensor_descriptor"};
  for (const char *Op : Ops)
    if (Name == Op)
      return true;
  return false;
}

/// Is Callee tl.load, tl.store, an atomic, tl.make_block_ptr or
/// tl.make_tensor_descriptor?
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
  // `for i in range(...)` / `tl.range(...)`: the loop variable is an index.
  if (const auto *F = dyn_cast<ForStmt>(S))
    if (const auto *N = dyn_cast<NameExpr>(F->Target); N && isa<CallExpr>(F->Iter))
      Defs[N->Id].push_back(F->Iter);
}

/// Is E an index computation rather than a pointer: a literal, a call
/// (`tl.program_id(0)`, `tl.arange(0, B)`, `x.to(tl.int64)`), a product, or
/// a local defined as one? Parameters are not: their kind is what is asked.
static bool isIndexLike(const Expr *E, const Definitions &Defs, int Depth = 0) {
  if (!E || Depth > 6)
    return false;
  if (const auto *K = dyn_cast<ConstantExpr>(E))
    return K->CK == ConstantKind::Int;
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const auto *A = dyn_cast<AttributeExpr>(C->Func);
    // `tl.where(c, a, b)` is whichever of a and b it picks.
    if (A && A->Attr == "where" && C->Args.size() == 3)
      return isIndexLike(C->Args[1], Defs, Depth + 1) && isIndexLike(C->Args[2], Defs, Depth + 1);
    return !(A && (isPointerOpName(A->Attr) || A->Attr == "advance"));
  }
  if (const auto *S = dyn_cast<SubscriptExpr>(E))
    return isIndexLike(S->Value, Defs, Depth + 1);
  if (const auto *B = dyn_cast<BinOpExpr>(E)) {
    if (B->Op != BinOpKind::Add && B->Op != BinOpKind::Sub)
      return true;
    return isIndexLike(B->Lhs, Defs, Depth + 1) && isIndexLike(B->Rhs, Defs, Depth + 1);
  }
  if (const auto *N = dyn_cast<NameExpr>(E)) {
    auto It = Defs.find(N->Id);
    if (It == Defs.end() || It->second.empty())
      return false;
    return std::all_of(It->second.begin(), It->second.end(),
                       [&](const Expr *D) { return isIndexLike(D, Defs, Depth + 1); });
  }
  return false;
}

/// The base of a pointer expression with its additive offsets stripped:
/// `base + a - b` -> base, and `pid + ptr` -> ptr (Triton's add swaps an
/// offset + pointer). The offsets go to Offsets when given.
static const Expr *pointerBase(const Expr *E, const Definitions &Defs, std::vector<const Expr *> *Offsets) {
  while (const auto *B = dyn_cast<BinOpExpr>(E)) {
    if (B->Op != BinOpKind::Add && B->Op != BinOpKind::Sub)
      break;
    bool RightIsBase = B->Op == BinOpKind::Add && isIndexLike(B->Lhs, Defs) && !isIndexLike(B->Rhs, Defs);
    if (Offsets)
      Offsets->push_back(RightIsBase ? B->Lhs : B->Rhs);
    E = RightIsBase ? B->Rhs : B->Lhs;
  }
  return E;
}

/// What the parameter inference reads from a body, gathered in one walk.
struct Uses {
  Definitions Defs;
  /// Pointer arguments of tl.load / tl.store / atomics / make_block_ptr.
  std::vector<const Expr *> Bases;
  /// Expressions used as integers: range bounds, operands compared with an
  /// int literal, offsets added to a pointer base.
  std::vector<const Expr *> IntExprs;
  /// Names whose tensor-descriptor methods are called (`desc.load([m, k])`),
  /// or handed to tl.load_tensor_descriptor and its kin.
  std::set<std::string> DescriptorNames;
  std::map<std::string, size_t> DescriptorRanks; ///< from the offsets of `desc.load([m, k])`
  /// Names that size a tile: `tl.arange(0, BLOCK)`'s bounds, the shapes of
  /// tl.zeros / tl.full / tl.empty and of reshapes.
  std::set<std::string> SizeNames;
  /// Calls of the module's @jit helpers: their parameters' kinds are those
  /// of the arguments passed to them.
  std::vector<const CallExpr *> HelperCalls;
};

void forEachBoundArgument(const CallExpr &C, const FunctionDefStmt &Callee,
                          const std::function<void(const std::string &Param, const Expr *Arg)> &F) {
  for (size_t I = 0; I < C.Args.size() && I < Callee.Params.size(); ++I) {
    if (isa<StarredExpr>(C.Args[I]))
      break;
    F(Callee.Params[I].Name, C.Args[I]);
  }
  for (const Keyword &KW : C.Keywords)
    if (!KW.Name.empty())
      F(KW.Name, KW.Value);
}

bool isTensorDescriptorMember(std::string_view Name) {
  for (const char *M : {"load", "store", "atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or",
                        "atomic_xor", "gather", "scatter", "block_shape", "shape", "strides"})
    if (Name == M)
      return true;
  return false;
}

static Uses collectUses(const FunctionDefStmt &Fn, const ModuleInfo &Info) {
  Uses U;
  Walker W;
  W.OnStmt = [&](const Stmt *S) {
    recordDefinition(S, U.Defs);
    if (const auto *F = dyn_cast<ForStmt>(S))
      if (const auto *C = dyn_cast<CallExpr>(F->Iter))
        for (const Expr *A : C->Args)
          U.IntExprs.push_back(A);
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
        U.IntExprs.push_back(Cmp->Lhs);
      else if (IsIntLiteral(Cmp->Lhs))
        U.IntExprs.push_back(Cmp->Comparators[0]);
    }
    // `X.dtype.element_ty`: only a pointer's dtype has an element type.
    if (const auto *A = dyn_cast<AttributeExpr>(E); A && A->Attr == "element_ty")
      if (const auto *D = dyn_cast<AttributeExpr>(A->Value); D && D->Attr == "dtype" && isa<NameExpr>(D->Value))
        U.Bases.push_back(D->Value);
    const auto *C = dyn_cast<CallExpr>(E);
    if (const auto *N = C ? dyn_cast<NameExpr>(C->Func) : nullptr)
      if (const JitFunction *J = Info.jit(N->Id); J && J->Def)
        U.HelperCalls.push_back(C);
    if (const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr; A && isTensorDescriptorMember(A->Attr))
      if (const auto *N = dyn_cast<NameExpr>(A->Value); N && N->Id != "tl" && N->Id != "triton") {
        U.DescriptorNames.insert(N->Id);
        const Expr *Offsets = C->Args.empty() ? nullptr : C->Args[0];
        if (const auto *L = Offsets ? dyn_cast<ListExpr>(Offsets) : nullptr; L && A->Attr != "gather")
          U.DescriptorRanks[N->Id] = L->Elts.size();
        else if (const auto *T = Offsets ? dyn_cast<TupleExpr>(Offsets) : nullptr; T && A->Attr != "gather")
          U.DescriptorRanks[N->Id] = T->Elts.size();
      }
    if (C && !C->Args.empty())
      if (std::string Q = Info.qualify(C->Func);
          Q.find("descriptor_load") != std::string::npos || Q.find("descriptor_store") != std::string::npos ||
          Q == "triton.language.load_tensor_descriptor" || Q == "triton.language.store_tensor_descriptor")
        if (const auto *N = dyn_cast<NameExpr>(C->Args[0]))
          U.DescriptorNames.insert(N->Id);
    if (const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr) {
      auto Sizes = [&](const Expr *E) {
        std::vector<const Expr *> Dims{E};
        if (const auto *T = E ? dyn_cast<TupleExpr>(E) : nullptr) {
          Dims.assign(T->Elts.begin(), T->Elts.end());
        } else if (const auto *L = E ? dyn_cast<ListExpr>(E) : nullptr) {
          Dims.assign(L->Elts.begin(), L->Elts.end());
        }
        for (const Expr *D : Dims)
          if (const auto *N = D ? dyn_cast<NameExpr>(D) : nullptr)
            U.SizeNames.insert(N->Id);
      };
      if (A->Attr == "arange")
        for (const Expr *X : C->Args)
          Sizes(X);
      else if ((A->Attr == "zeros" || A->Attr == "full" || A->Attr == "empty") && !C->Args.empty())
        Sizes(C->Args[0]);
    }
    if (!C || !isPointerOp(Info, C->Func))
      return;
    if (C->Args.empty()) {
      if (const Keyword *K = C->keyword("pointer"))
        U.Bases.push_back(K->Value);
      else if (const Keyword *K = C->keyword("base"))
        U.Bases.push_back(K->Value);
      return;
    }
    U.Bases.push_back(C->Args[0]);
    // Everything added to the base of a pointer is an offset.
    pointerBase(C->Args[0], U.Defs, &U.IntExprs);
  };
  W.walk(Fn.Body);
  return U;
}

static std::set<std::string> pointersIn(const FunctionDefStmt &Fn, const Uses &U);
static std::set<std::string> intsIn(const FunctionDefStmt &Fn, const Uses &U, const std::set<std::string> &Pointers);

/// The kinds of a helper's parameters, found once per helper and inference.
using HelperKinds = std::map<const FunctionDefStmt *, std::optional<ParamKinds>>;

static Uses usesOf(const FunctionDefStmt &Fn, const ModuleInfo &Info, HelperKinds &Memo, int Depth);

/// Adds to U what the helpers it calls do with the arguments passed to
/// them: an argument bound to a pointer parameter is a pointer base, one
/// bound to an integer parameter is an integer.
static void addHelperUses(Uses &U, const ModuleInfo &Info, HelperKinds &Memo, int Depth) {
  for (const CallExpr *C : U.HelperCalls) {
    const JitFunction *J = Info.jit(cast<NameExpr>(C->Func)->Id);
    const FunctionDefStmt &H = *J->Def;
    auto [It, New] = Memo.try_emplace(&H);
    if (New && Depth < 4) {
      Uses HU = usesOf(H, Info, Memo, Depth + 1);
      ParamKinds K;
      K.Pointers = pointersIn(H, HU);
      K.Ints = intsIn(H, HU, K.Pointers);
      It->second = std::move(K); // a map's iterators outlive insertions
    }
    const std::optional<ParamKinds> &K = It->second;
    if (!K) // a recursive call: still being inferred
      continue;
    forEachBoundArgument(*C, H, [&](const std::string &Param, const Expr *Arg) {
      if (K->Pointers.count(Param))
        U.Bases.push_back(Arg);
      else if (K->Ints.count(Param))
        U.IntExprs.push_back(Arg);
    });
  }
}

static Uses usesOf(const FunctionDefStmt &Fn, const ModuleInfo &Info, HelperKinds &Memo, int Depth) {
  Uses U = collectUses(Fn, Info);
  addHelperUses(U, Info, Memo, Depth);
  return U;
}

static Uses usesOf(const FunctionDefStmt &Fn, const ModuleInfo &Info) {
  HelperKinds Memo;
  Memo.emplace(&Fn, std::nullopt); // a helper calling back into Fn adds nothing
  return usesOf(Fn, Info, Memo, 0);
}

static std::set<std::string> pointersIn(const FunctionDefStmt &Fn, const Uses &U) {
  std::set<std::string> Params, Out;
  for (const Param &P : Fn.Params) {
    Params.insert(P.Name);
    if (nameSaysPointer(P.Name))
      Out.insert(P.Name);
  }
  std::vector<const Expr *> Bases = U.Bases;
  std::set<std::string> Visited;
  while (!Bases.empty()) {
    const Expr *E = pointerBase(Bases.back(), U.Defs, nullptr);
    Bases.pop_back();
    // A pointer chosen per program or per tile (`A = tl.where(t < k1, A1,
    // A2)`, `a if c else b`): both choices are pointers.
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const auto *F = dyn_cast<AttributeExpr>(C->Func);
      if (F && F->Attr == "where" && C->Args.size() == 3 && C->Keywords.empty()) {
        Bases.push_back(C->Args[1]);
        Bases.push_back(C->Args[2]);
      }
      continue;
    }
    if (const auto *I = dyn_cast<IfExpExpr>(E)) {
      Bases.push_back(I->Body);
      Bases.push_back(I->OrElse);
      continue;
    }
    const auto *N = dyn_cast<NameExpr>(E);
    if (!N || !Visited.insert(N->Id).second)
      continue;
    if (Params.count(N->Id))
      Out.insert(N->Id);
    if (auto It = U.Defs.find(N->Id); It != U.Defs.end())
      Bases.insert(Bases.end(), It->second.begin(), It->second.end());
  }
  return Out;
}

/// Every name inside E, following local assignments. A value converted with
/// `.to(...)` has the type the conversion gives, whatever it was before
/// (`(x * scale).to(tl.int32)` says nothing of `scale`): its names are skipped.
/// So is a name indexed with an integer (`strides[0]`): a tuple argument
/// (Triton 3.3+), whose elements are the integers, not itself.
static void namesIn(const Expr *E, const Definitions &Defs, std::set<std::string> &Seen, std::set<std::string> &Out) {
  std::set<const Expr *> Converted;
  Walker Skip;
  Skip.OnExpr = [&](const Expr *X) {
    if (const auto *S = dyn_cast<SubscriptExpr>(X); S && isa<NameExpr>(S->Value))
      if (const auto *K = dyn_cast<ConstantExpr>(S->Index); K && K->CK == ConstantKind::Int)
        Converted.insert(S->Value);
    const auto *C = dyn_cast<CallExpr>(X);
    const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr;
    if (!A || A->Attr != "to")
      return;
    Walker Inner;
    Inner.OnExpr = [&](const Expr *Y) { Converted.insert(Y); };
    Inner.walk(A->Value);
  };
  Skip.walk(E);
  Walker W;
  W.OnExpr = [&](const Expr *X) {
    const auto *N = dyn_cast<NameExpr>(X);
    if (!N || Converted.count(X) || !Seen.insert(N->Id).second)
      return;
    Out.insert(N->Id);
    if (auto It = Defs.find(N->Id); It != Defs.end())
      for (const Expr *D : It->second)
        namesIn(D, Defs, Seen, Out);
  };
  W.walk(E);
}

static std::set<std::string> intsIn(const FunctionDefStmt &Fn, const Uses &U, const std::set<std::string> &Pointers) {
  std::set<std::string> Params;
  for (const Param &P : Fn.Params)
    Params.insert(P.Name);
  std::set<std::string> Seen, Names, Out;
  for (const Expr *E : U.IntExprs)
    namesIn(E, U.Defs, Seen, Names);
  for (const std::string &N : Names)
    if (Params.count(N) && !Pointers.count(N))
      Out.insert(N);
  return Out;
}

std::set<std::string> inferPointerParams(const FunctionDefStmt &Fn, const ModuleInfo &Info) {
  return pointersIn(Fn, usesOf(Fn, Info));
}

std::set<std::string> inferIntParams(const FunctionDefStmt &Fn, const ModuleInfo &Info,
                                     const std::set<std::string> &Pointers) {
  return intsIn(Fn, usesOf(Fn, Info), Pointers);
}

ParamKinds inferParamKinds(const FunctionDefStmt &Fn, const ModuleInfo &Info) {
  Uses U = usesOf(Fn, Info);
  ParamKinds K;
  K.Pointers = pointersIn(Fn, U);
  K.Ints = intsIn(Fn, U, K.Pointers);
  for (const Param &P : Fn.Params)
    if (U.DescriptorNames.count(P.Name) && !K.Pointers.count(P.Name)) {
      K.Descriptors.insert(P.Name);
      if (auto R = U.DescriptorRanks.find(P.Name); R != U.DescriptorRanks.end() && R->second > 0)
        K.DescriptorRanks[P.Name] = R->second;
    }
  for (const Param &P : Fn.Params)
    if (U.SizeNames.count(P.Name))
      K.Sizes.insert(P.Name);
  return K;
}

} // namespace tessel::sema
