//===- Specializations.cpp - the ways a file launches a kernel ------------===//
#include "compiler/sema/Specializations.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace tessel::sema {

namespace {
/// What one source (a config, a launch site) contributes.
struct Source {
  std::vector<std::pair<std::string, PyValue>> Values;
  std::optional<int64_t> NumWarps, NumStages;
  SourceRange Range;
};
} // namespace

static bool isParam(const JitFunction &Fn, const std::string &Name) {
  for (const ast::Param &P : Fn.Def->Params)
    if (P.Name == Name)
      return true;
  return false;
}

/// A value a launch or a config gives a parameter: an imported name tessel
/// did not resolve (`BLOCK=MAX_FUSED_SIZE` from `.utils`) is a qualified
/// path outside triton, whose value is unknown, not the path itself.
static PyValue argumentValue(const PyValue &V) {
  if (V.kind() == PyValue::Kind::Qualified && V.qualifiedPath().rfind("triton.", 0) != 0)
    return PyValue();
  return V;
}

static void takeOption(Source &S, const std::string &Name, const PyValue &V) {
  if (!V.isIntLike())
    return;
  if (Name == "num_warps")
    S.NumWarps = V.asInt();
  else if (Name == "num_stages")
    S.NumStages = V.asInt();
}

static Source fromConfig(const JitFunction &Fn, const AutotuneConfig &C) {
  Source S;
  S.Range = C.Range;
  for (const auto &[K, V] : C.Config.Kwargs)
    if (K.isStr() && isParam(Fn, K.asStr()))
      S.Values.emplace_back(K.asStr(), argumentValue(V));
  S.NumWarps = C.Config.NumWarps;
  S.NumStages = C.Config.NumStages;
  return S;
}

static Source fromLaunch(const JitFunction &Fn, const LaunchSite &L) {
  Source S;
  S.Range = L.Range;
  for (const auto &[K, V] : L.Keywords) {
    takeOption(S, K, V);
    if (isParam(Fn, K) && V.isKnown())
      S.Values.emplace_back(K, argumentValue(V));
  }
  return S;
}

static std::string describe(const Specialization &S, bool Options) {
  std::string D;
  for (const auto &[K, V] : S.Constexprs) {
    if (V.isUnknown())
      continue;
    D += (D.empty() ? "" : ", ") + K + "=" + V.repr();
  }
  if (Options)
    D += (D.empty() ? "" : ", ") + std::string("num_warps=") + std::to_string(S.NumWarps) +
         ", num_stages=" + std::to_string(S.NumStages);
  return D;
}

std::vector<Specialization> specializationsOf(const JitFunction &Fn, size_t Max) {
  std::vector<Source> Configs, Launches;
  for (const AutotuneConfig &C : Fn.Configs)
    Configs.push_back(fromConfig(Fn, C));
  for (const LaunchSite &L : Fn.Launches)
    Launches.push_back(fromLaunch(Fn, L));
  if (Configs.empty())
    Configs.emplace_back();
  if (Launches.empty())
    Launches.emplace_back();
  bool HasSources = !Fn.Configs.empty() || !Fn.Launches.empty();

  std::vector<Specialization> Out;
  std::set<std::string> Seen;
  for (const Source &C : Configs) {
    for (const Source &L : Launches) {
      Specialization S;
      for (const std::string &H : Fn.HeuristicNames)
        S.Constexprs[H] = PyValue();
      for (const auto &[K, V] : L.Values)
        S.Constexprs[K] = V;
      for (const auto &[K, V] : C.Values) // the autotuner's values win over the call's
        S.Constexprs[K] = V;
      S.NumWarps = C.NumWarps.value_or(L.NumWarps.value_or(4));
      S.NumStages = C.NumStages.value_or(L.NumStages.value_or(3));
      S.Source = !C.Range.empty() ? C.Range : L.Range;
      S.Description = HasSources ? describe(S, true) : std::string();
      std::string Key = describe(S, true);
      if (!Seen.insert(Key).second)
        continue;
      Out.push_back(std::move(S));
      if (Out.size() >= Max)
        return Out;
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Floor-divided grids
//===----------------------------------------------------------------------===//

/// The innermost function whose body holds R (the launching host function).
/// The module's statements are in source order: the one holding R is found
/// by binary search, so a file of many launches stays linear.
static const ast::FunctionDefStmt *enclosingFunction(const ast::Block &B, SourceRange R) {
  auto It = std::upper_bound(B.begin(), B.end(), R.Begin,
                             [](uint32_t Offset, const ast::Stmt *S) { return Offset < S->Range.Begin; });
  if (It == B.begin())
    return nullptr;
  const ast::Stmt *Top = *std::prev(It);
  if (!Top->Range.contains(R))
    return nullptr;
  const ast::FunctionDefStmt *Found = nullptr;
  ast::Walker W;
  W.OnStmt = [&](const ast::Stmt *S) {
    if (!S->Range.contains(R))
      return false;
    if (const auto *F = dyn_cast<ast::FunctionDefStmt>(S))
      Found = F;
    return true;
  };
  W.walk(Top);
  return Found;
}

/// The value the last `Name = ...` (or `def Name(...): return ...`) before R
/// in F binds, or null.
static const ast::Expr *localDefinition(const ast::FunctionDefStmt &F, const std::string &Name, SourceRange R) {
  const ast::Expr *Value = nullptr;
  ast::Walker W;
  W.OnStmt = [&](const ast::Stmt *S) {
    if (S->Range.Begin >= R.Begin)
      return false;
    if (const auto *A = dyn_cast<ast::AssignStmt>(S)) {
      const auto *T = A->Targets.size() == 1 ? dyn_cast<ast::NameExpr>(A->Targets[0]) : nullptr;
      if (T && T->Id == Name)
        Value = A->Value;
    }
    if (const auto *D = dyn_cast<ast::FunctionDefStmt>(S); D && D != &F) {
      if (D->Name == Name && D->Body.size() == 1)
        if (const auto *Ret = dyn_cast<ast::ReturnStmt>(D->Body[0]))
          Value = Ret->Value;
      return false;
    }
    return true;
  };
  W.walk(F.Body);
  return Value;
}

/// The same name, attribute path or integer: what `assert n % b == 0` and
/// `cdiv(n, b)` must both say for the one to tell about the other.
static bool sameSimpleExpr(const ast::Expr *A, const ast::Expr *B) {
  if (!A || !B)
    return false;
  if (const auto *NA = dyn_cast<ast::NameExpr>(A))
    if (const auto *NB = dyn_cast<ast::NameExpr>(B))
      return NA->Id == NB->Id;
  if (const auto *AA = dyn_cast<ast::AttributeExpr>(A))
    if (const auto *AB = dyn_cast<ast::AttributeExpr>(B))
      return AA->Attr == AB->Attr && sameSimpleExpr(AA->Value, AB->Value);
  if (const auto *CA = dyn_cast<ast::ConstantExpr>(A))
    if (const auto *CB = dyn_cast<ast::ConstantExpr>(B))
      return CA->CK == ast::ConstantKind::Int && CB->CK == ast::ConstantKind::Int && CA->IntValue == CB->IntValue;
  return false;
}

/// The tensor and index E names a dimension of: `x.size(k)`, `x.shape[k]`,
/// `x.size()[k]`, or a name that `a, b = x.shape` (or `x.size()`) unpacks
/// in Host before At.
struct Dimension {
  const ast::Expr *Tensor = nullptr;
  int64_t Index = 0;
};

static std::optional<int64_t> intLiteral(const ast::Expr *E) {
  if (const auto *C = dyn_cast<ast::ConstantExpr>(E); C && C->CK == ast::ConstantKind::Int && !C->IntOverflow)
    return C->IntValue;
  if (const auto *U = dyn_cast<ast::UnaryOpExpr>(E); U && U->Op == ast::UnaryOpKind::USub)
    if (std::optional<int64_t> V = intLiteral(U->Operand))
      return -*V;
  return std::nullopt;
}

/// `x.shape` or `x.size()`: x.
static const ast::Expr *shapeOf(const ast::Expr *E) {
  if (const auto *A = dyn_cast<ast::AttributeExpr>(E); A && A->Attr == "shape")
    return A->Value;
  if (const auto *C = dyn_cast<ast::CallExpr>(E); C && C->Args.empty())
    if (const auto *A = dyn_cast<ast::AttributeExpr>(C->Func); A && A->Attr == "size")
      return A->Value;
  return nullptr;
}

static std::optional<Dimension> dimensionOf(const ast::Expr *E, const ast::FunctionDefStmt *Host, SourceRange At) {
  if (const auto *C = dyn_cast<ast::CallExpr>(E); C && C->Args.size() == 1)
    if (const auto *A = dyn_cast<ast::AttributeExpr>(C->Func); A && A->Attr == "size")
      if (std::optional<int64_t> K = intLiteral(C->Args[0]))
        return Dimension{A->Value, *K};
  if (const auto *S = dyn_cast<ast::SubscriptExpr>(E))
    if (const ast::Expr *T = shapeOf(S->Value))
      if (std::optional<int64_t> K = intLiteral(S->Index))
        return Dimension{T, *K};
  const auto *N = dyn_cast<ast::NameExpr>(E);
  if (!N || !Host)
    return std::nullopt;
  std::optional<Dimension> Found;
  for (const ast::Stmt *St : Host->Body) {
    if (St->Range.Begin >= At.Begin)
      break;
    const auto *A = dyn_cast<ast::AssignStmt>(St);
    const auto *T = A && A->Targets.size() == 1 ? dyn_cast<ast::TupleExpr>(A->Targets[0]) : nullptr;
    const ast::Expr *Tensor = T ? shapeOf(A->Value) : nullptr;
    if (!Tensor)
      continue;
    for (size_t I = 0; I < T->Elts.size(); ++I)
      if (const auto *X = dyn_cast<ast::NameExpr>(T->Elts[I]); X && X->Id == N->Id)
        Found = Dimension{Tensor, static_cast<int64_t>(I)};
  }
  return Found;
}

/// Is N a multiple of A in Host before At: the same expression, a product
/// with such a factor, `x.numel()` where A is a dimension of x, or a local
/// name whose definition is one of these.
static bool multipleOf(const ast::Expr *N, const ast::Expr *A, const ast::FunctionDefStmt *Host, SourceRange At,
                       int Depth = 0) {
  if (!N || !A || Depth > 4)
    return false;
  if (sameSimpleExpr(N, A))
    return true;
  std::optional<Dimension> DA = dimensionOf(A, Host, At);
  if (DA) {
    std::optional<Dimension> DN = dimensionOf(N, Host, At);
    if (DN && DN->Index == DA->Index && sameSimpleExpr(DN->Tensor, DA->Tensor))
      return true;
    if (const auto *C = dyn_cast<ast::CallExpr>(N); C && C->Args.empty())
      if (const auto *F = dyn_cast<ast::AttributeExpr>(C->Func); F && F->Attr == "numel")
        if (sameSimpleExpr(F->Value, DA->Tensor))
          return true;
  }
  if (const auto *B = dyn_cast<ast::BinOpExpr>(N); B && B->Op == ast::BinOpKind::Mult)
    return multipleOf(B->Lhs, A, Host, At, Depth + 1) || multipleOf(B->Rhs, A, Host, At, Depth + 1);
  if (const auto *Name = dyn_cast<ast::NameExpr>(N); Name && Host)
    if (const ast::Expr *Def = localDefinition(*Host, Name->Id, At))
      return multipleOf(Def, A, Host, At, Depth + 1);
  return false;
}

/// The `A % B == 0` facts a test states: itself, or each term of an `and`.
static void divisibilityFacts(const ast::Expr *Test, std::vector<std::pair<const ast::Expr *, const ast::Expr *>> &Out,
                              bool Negated) {
  if (const auto *B = dyn_cast<ast::BoolOpExpr>(Test)) {
    // `assert a and b`, or `if a or b: raise` (both must be false to go on).
    if (B->Op == (Negated ? ast::BoolOpKind::Or : ast::BoolOpKind::And))
      for (const ast::Expr *V : B->Values)
        divisibilityFacts(V, Out, Negated);
    return;
  }
  const auto *C = dyn_cast<ast::CompareExpr>(Test);
  if (!C || C->Ops.size() != 1 || C->Ops[0] != (Negated ? ast::CmpOpKind::NotEq : ast::CmpOpKind::Eq))
    return;
  const auto *Mod = dyn_cast<ast::BinOpExpr>(C->Lhs);
  std::optional<int64_t> Zero = intLiteral(C->Comparators[0]);
  if (Mod && Mod->Op == ast::BinOpKind::Mod && Zero && *Zero == 0)
    Out.emplace_back(Mod->Lhs, Mod->Rhs);
}

/// Whether Host states `A % B == 0` at its top level before At, with N a
/// multiple of A: then `cdiv(N, B)` programs cover whole blocks. Stated as
/// `assert A % B == 0` (lmdeploy's `assert hidden_size % BLOCK_D == 0`
/// before `cdiv(hidden_size, BLOCK_D)`; `assert x.size(-1) % block == 0`
/// before `cdiv(x.numel(), block)`) or `if A % B != 0: raise ...`.
static bool assertedDivisible(const ast::FunctionDefStmt *Host, const ast::Expr *N, const ast::Expr *B,
                              SourceRange At) {
  if (!Host)
    return false;
  std::vector<std::pair<const ast::Expr *, const ast::Expr *>> Facts;
  for (const ast::Stmt *S : Host->Body) {
    if (S->Range.Begin >= At.Begin)
      break;
    if (const auto *A = dyn_cast<ast::AssertStmt>(S))
      divisibilityFacts(A->Test, Facts, false);
    else if (const auto *I = dyn_cast<ast::IfStmt>(S); I && I->OrElse.empty() && I->Body.size() == 1)
      if (const auto *R = dyn_cast<ast::UnsupportedStmt>(I->Body[0]); R && R->PyName == "Raise")
        divisibilityFacts(I->Test, Facts, true);
  }
  for (const auto &[A, Divisor] : Facts)
    if (sameSimpleExpr(Divisor, B) && multipleOf(N, A, Host, At))
      return true;
  return false;
}

/// Whether a grid entry rounds up: a `cdiv` call (`triton.cdiv`, `cdiv`,
/// `math.ceil`...) or `(n + b - 1) // b`, seen through local names, unless
/// the host asserts that the division is exact. Such an axis has a last
/// program that covers a partial block.
static bool roundsUp(const ast::Expr *E, const ast::FunctionDefStmt *Host, SourceRange At, int Depth = 0) {
  if (!E || Depth > 3)
    return false;
  bool Found = false;
  ast::Walker W;
  W.OnExpr = [&](const ast::Expr *X) {
    if (Found)
      return;
    if (const auto *C = dyn_cast<ast::CallExpr>(X)) {
      const ast::Expr *F = C->Func;
      std::string Name = isa<ast::AttributeExpr>(F) ? cast<ast::AttributeExpr>(F)->Attr
                         : isa<ast::NameExpr>(F)    ? cast<ast::NameExpr>(F)->Id
                                                    : std::string();
      Found = Name == "cdiv" || Name == "ceil" || Name == "ceildiv" || Name == "div_up" || Name == "ceil_div";
      if (Found && Name != "ceil" && C->Args.size() == 2 && assertedDivisible(Host, C->Args[0], C->Args[1], At))
        Found = false;
      return;
    }
    if (const auto *B = dyn_cast<ast::BinOpExpr>(X); B && B->Op == ast::BinOpKind::FloorDiv) {
      const auto *L = dyn_cast<ast::BinOpExpr>(B->Lhs);
      Found = L && (L->Op == ast::BinOpKind::Add || L->Op == ast::BinOpKind::Sub);
      return;
    }
    if (const auto *N = dyn_cast<ast::NameExpr>(X); N && Host)
      Found = roundsUp(localDefinition(*Host, N->Id, At), Host, At, Depth + 1);
  };
  W.walk(E);
  return Found;
}

/// Grid axes whose last program covers a whole block: an entry that is a
/// plain count (`n_rows`, `B * H`, `N // BLOCK`, `1`) rather than a rounded-up
/// `cdiv`, and the axes the grid leaves out (one program there); nullopt when
/// the grid is not a tuple written out (a call, a lookup, a value from
/// elsewhere).
static std::optional<std::set<int64_t>> floorDividedAxes(const ast::Expr *Grid, const ast::FunctionDefStmt *Host,
                                                         SourceRange At, int Depth = 0) {
  if (!Grid || Depth > 2)
    return std::nullopt;
  if (const auto *L = dyn_cast<ast::LambdaExpr>(Grid))
    return floorDividedAxes(L->Body, Host, At, Depth + 1);
  if (const auto *N = dyn_cast<ast::NameExpr>(Grid))
    return Host ? floorDividedAxes(localDefinition(*Host, N->Id, At), Host, At, Depth + 1) : std::nullopt;
  const std::vector<ast::Expr *> *Elts = nullptr;
  if (const auto *T = dyn_cast<ast::TupleExpr>(Grid))
    Elts = &T->Elts;
  else if (const auto *L = dyn_cast<ast::ListExpr>(Grid))
    Elts = &L->Elts;
  if (!Elts)
    return std::nullopt;
  std::set<int64_t> Axes;
  for (size_t I = 0; I < 3; ++I) {
    if (I >= Elts->size()) {
      Axes.insert(static_cast<int64_t>(I));
      continue;
    }
    if (!roundsUp((*Elts)[I], Host, At))
      Axes.insert(static_cast<int64_t>(I));
  }
  return Axes;
}

std::set<int64_t> floorDividedGridAxes(const JitFunction &Fn, const ast::Module &M) {
  std::optional<std::set<int64_t>> Common;
  for (const LaunchSite &L : Fn.Launches) {
    const auto *Sub = L.Call ? dyn_cast<ast::SubscriptExpr>(L.Call->Func) : nullptr;
    if (!Sub)
      return {};
    std::optional<std::set<int64_t>> Axes = floorDividedAxes(Sub->Index, enclosingFunction(M.Body, L.Range), L.Range);
    if (!Axes)
      return {};
    if (!Common) {
      Common = std::move(*Axes);
      continue;
    }
    std::set<int64_t> Both;
    for (int64_t A : *Common)
      if (Axes->count(A))
        Both.insert(A);
    Common = std::move(Both);
  }
  return Common.value_or(std::set<int64_t>{});
}

} // namespace tessel::sema
