//===- HostFacts.cpp - the integer facts host code states before a launch -===//
#include "compiler/sema/HostFacts.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>

namespace tessel::sema {

/// The value the last `Name = ...` (or `def Name(...): return ...`) before R
/// in F binds, or null.
const ast::Expr *hostLocalDefinition(const ast::FunctionDefStmt &F, const std::string &Name, SourceRange R) {
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

std::optional<int64_t> hostIntLiteral(const ast::Expr *E) {
  if (const auto *C = dyn_cast<ast::ConstantExpr>(E); C && C->CK == ast::ConstantKind::Int && !C->IntOverflow)
    return C->IntValue;
  if (const auto *U = dyn_cast<ast::UnaryOpExpr>(E); U && U->Op == ast::UnaryOpKind::USub)
    if (std::optional<int64_t> V = hostIntLiteral(U->Operand))
      return -*V;
  return std::nullopt;
}

struct HostFacts::Impl {
  /// A body whose statements state facts about the launch: the launching
  /// function up to the launch, or a function it calls first, whole, with its
  /// parameters bound to the caller's argument expressions.
  struct Scope {
    const ast::FunctionDefStmt *Fn = nullptr;
    SourceRange At; ///< its statements before At.Begin
    const HostNames *Names = nullptr;
    std::map<std::string, const ast::Expr *> Args;
    const Scope *Caller = nullptr; ///< null for the launching function
  };

  Impl(const ast::FunctionDefStmt *Host, SourceRange At, const HostNames &Names) {
    Top.Fn = Host;
    Top.At = At;
    Top.Names = &Names;
    if (Host)
      collect(Top, 0);
  }

  /// Whether `cdiv(N, B)` in the launching function is exact: a stated
  /// `A % D == 0` with N a multiple of A, and B the same term as D or each
  /// of B's values (Values, when B is no one term) a divisor of D's value.
  bool exact(const ast::Expr *N, const ast::Expr *B, const std::vector<int64_t> &Values) {
    std::optional<std::string> KB = key(B, Top);
    std::vector<int64_t> Vs = Values;
    if (KB)
      if (std::optional<int64_t> C = constant(find(*KB)))
        Vs = {*C};
    for (const auto &[A, D] : Divisible) {
      if (!multiple(N, find(A), 0))
        continue;
      if (KB && find(*KB) == find(D))
        return true;
      std::optional<int64_t> C = constant(find(D));
      if (C && *C != 0 && !Vs.empty() &&
          std::all_of(Vs.begin(), Vs.end(), [&](int64_t V) { return V > 0 && *C % V == 0; }))
        return true;
    }
    return false;
  }

  Scope Top;
  std::deque<Scope> Callees;                 ///< stable addresses: keys of callee terms read their callers
  std::deque<HostFunction> Functions;        ///< the callees' definitions and names
  std::map<std::string, std::string> Parent; ///< union-find over equal terms
  std::vector<std::pair<std::string, std::string>> Divisible;

  static std::optional<int64_t> constant(const std::string &K) {
    if (K.size() < 2 || K[0] != '#')
      return std::nullopt;
    return std::strtoll(K.c_str() + 1, nullptr, 10);
  }

  std::string find(const std::string &K) {
    auto It = Parent.find(K);
    if (It == Parent.end() || It->second == K)
      return K;
    std::string Root = find(It->second);
    Parent[K] = Root;
    return Root;
  }

  /// X == Y; a class holding a constant is named by it.
  void unite(const std::string &X, const std::string &Y) {
    std::string A = find(X), B = find(Y);
    if (A == B)
      return;
    if (constant(A) && constant(B))
      return; // two different constants: a test that always raises, no fact
    if (constant(A))
      std::swap(A, B);
    Parent[A] = B;
    Parent.emplace(B, B);
  }

  /// The statements of S before S.At: asserts, `if ...: raise`, and calls
  /// into functions whose own statements say more (two calls deep).
  void collect(const Scope &S, int Depth) {
    for (const ast::Stmt *St : S.Fn->Body) {
      if (St->Range.Begin >= S.At.Begin)
        break;
      // A callee that may return here says nothing about what follows.
      if (S.Caller && mayReturn(St))
        break;
      // What a statement says is about the values its names have there.
      const Scope &Here = at(S, St->Range);
      if (const auto *A = dyn_cast<ast::AssertStmt>(St))
        facts(A->Test, Here, false);
      else if (const auto *I = dyn_cast<ast::IfStmt>(St); I && I->OrElse.empty() && I->Body.size() == 1) {
        if (const auto *R = dyn_cast<ast::UnsupportedStmt>(I->Body[0]); R && R->PyName == "Raise")
          facts(I->Test, Here, true);
      } else if (Depth < 2) {
        const ast::Expr *V = nullptr;
        if (const auto *E = dyn_cast<ast::ExprStmt>(St))
          V = E->Value;
        else if (const auto *As = dyn_cast<ast::AssignStmt>(St))
          V = As->Value;
        if (const auto *C = V ? dyn_cast<ast::CallExpr>(V) : nullptr)
          call(*C, Here, Depth);
      }
    }
  }

  /// S read at the statement At (stable: callees' scopes point at it).
  const Scope &at(const Scope &S, SourceRange At) {
    Scope Copy = S;
    Copy.At = At;
    Callees.push_back(std::move(Copy));
    return Callees.back();
  }

  static bool mayReturn(const ast::Stmt *St) {
    bool Found = false;
    ast::Walker W;
    W.OnStmt = [&](const ast::Stmt *X) {
      if (isa<ast::FunctionDefStmt>(X) || isa<ast::ClassDefStmt>(X))
        return false;
      Found = Found || isa<ast::ReturnStmt>(X);
      return !Found;
    };
    W.walk(St);
    return Found;
  }

  void call(const ast::CallExpr &C, const Scope &S, int Depth) {
    const auto *F = dyn_cast<ast::NameExpr>(C.Func);
    HostFunction Callee;
    if (!F || !S.Names || !S.Names->Function || !S.Names->Function(F->Id, Callee) || !Callee.Def || Callee.Def == S.Fn)
      return;
    Functions.push_back(std::move(Callee));
    Scope Inner;
    Inner.Fn = Functions.back().Def;
    Inner.At = SourceRange{Inner.Fn->Range.End, Inner.Fn->Range.End};
    Inner.Names = &Functions.back().Names;
    Inner.Caller = &S;
    size_t Next = 0;
    for (const ast::Expr *A : C.Args) {
      if (isa<ast::StarredExpr>(A))
        break;
      while (Next < Inner.Fn->Params.size() && Inner.Fn->Params[Next].PKind != ast::Param::ParamKind::Positional)
        ++Next;
      if (Next >= Inner.Fn->Params.size())
        break;
      Inner.Args.emplace(Inner.Fn->Params[Next++].Name, A);
    }
    for (const ast::Keyword &K : C.Keywords)
      if (!K.Name.empty())
        Inner.Args.emplace(K.Name, K.Value);
    Callees.push_back(std::move(Inner));
    collect(Callees.back(), Depth + 1);
  }

  /// `A % B == 0` and `X == Y` in a test that must hold to go on: itself or
  /// each term of an `and` (`assert`), `!=` and `or` when it raises.
  void facts(const ast::Expr *Test, const Scope &S, bool Negated) {
    if (const auto *B = dyn_cast<ast::BoolOpExpr>(Test)) {
      if (B->Op == (Negated ? ast::BoolOpKind::Or : ast::BoolOpKind::And))
        for (const ast::Expr *V : B->Values)
          facts(V, S, Negated);
      return;
    }
    const auto *C = dyn_cast<ast::CompareExpr>(Test);
    if (!C || C->Ops.size() != 1 || C->Ops[0] != (Negated ? ast::CmpOpKind::NotEq : ast::CmpOpKind::Eq))
      return;
    const auto *Mod = dyn_cast<ast::BinOpExpr>(C->Lhs);
    std::optional<int64_t> Zero = hostIntLiteral(C->Comparators[0]);
    if (Mod && Mod->Op == ast::BinOpKind::Mod && Zero && *Zero == 0) {
      std::optional<std::string> A = key(Mod->Lhs, S), D = key(Mod->Rhs, S);
      if (A && D)
        Divisible.emplace_back(*A, *D);
      return;
    }
    std::optional<std::string> X = key(C->Lhs, S), Y = key(C->Comparators[0], S);
    if (X && Y)
      unite(*X, *Y);
  }

  /// `a, b = x.shape` (or `x.size()`) in S's function before S.At: the
  /// dimension Name unpacks.
  std::optional<std::string> unpackedDimension(const std::string &Name, const Scope &S, int Depth) {
    std::optional<std::string> Found;
    for (const ast::Stmt *St : S.Fn->Body) {
      if (St->Range.Begin >= S.At.Begin)
        break;
      const auto *A = dyn_cast<ast::AssignStmt>(St);
      const auto *T = A && A->Targets.size() == 1 ? dyn_cast<ast::TupleExpr>(A->Targets[0]) : nullptr;
      const ast::Expr *Tensor = T ? shapeOf(A->Value) : nullptr;
      if (!Tensor)
        continue;
      for (size_t I = 0; I < T->Elts.size(); ++I)
        if (const auto *X = dyn_cast<ast::NameExpr>(T->Elts[I]); X && X->Id == Name)
          if (std::optional<std::string> K = key(Tensor, S, Depth + 1))
            Found = "dim(" + *K + "," + std::to_string(I) + ")";
    }
    return Found;
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

  /// A name for the value E has in S, the same in every scope; nullopt for
  /// what S alone cannot name (a callee's local the caller never sees).
  std::optional<std::string> key(const ast::Expr *E, const Scope &S, int Depth = 0) {
    if (!E || Depth > 8)
      return std::nullopt;
    if (std::optional<int64_t> V = hostIntLiteral(E))
      return "#" + std::to_string(*V);
    if (const auto *N = dyn_cast<ast::NameExpr>(E))
      return nameKey(N->Id, S, Depth);
    if (const auto *A = dyn_cast<ast::AttributeExpr>(E)) {
      std::optional<std::string> Base = key(A->Value, S, Depth + 1);
      return Base ? std::optional<std::string>(*Base + "." + A->Attr) : std::nullopt;
    }
    if (const auto *Sub = dyn_cast<ast::SubscriptExpr>(E))
      if (const ast::Expr *T = shapeOf(Sub->Value))
        if (std::optional<int64_t> I = hostIntLiteral(Sub->Index))
          if (std::optional<std::string> K = key(T, S, Depth + 1))
            return "dim(" + *K + "," + std::to_string(*I) + ")";
    if (const auto *C = dyn_cast<ast::CallExpr>(E))
      if (const auto *F = dyn_cast<ast::AttributeExpr>(C->Func)) {
        std::optional<std::string> K = key(F->Value, S, Depth + 1);
        if (K && F->Attr == "size" && C->Args.size() == 1)
          if (std::optional<int64_t> I = hostIntLiteral(C->Args[0]))
            return "dim(" + *K + "," + std::to_string(*I) + ")";
        if (K && F->Attr == "numel" && C->Args.empty())
          return "numel(" + *K + ")";
      }
    if (const auto *B = dyn_cast<ast::BinOpExpr>(E)) {
      std::optional<std::string> L = key(B->Lhs, S, Depth + 1), R = key(B->Rhs, S, Depth + 1);
      if (!L || !R)
        return std::nullopt;
      std::optional<int64_t> CL = constant(find(*L)), CR = constant(find(*R));
      if (CL && CR && std::abs(*CL) < (1 << 30) && std::abs(*CR) < (1 << 30)) {
        if (B->Op == ast::BinOpKind::Mult)
          return "#" + std::to_string(*CL * *CR);
        if (B->Op == ast::BinOpKind::Add)
          return "#" + std::to_string(*CL + *CR);
        if (B->Op == ast::BinOpKind::Sub)
          return "#" + std::to_string(*CL - *CR);
        if (B->Op == ast::BinOpKind::FloorDiv && *CR > 0 && *CL >= 0)
          return "#" + std::to_string(*CL / *CR);
      }
      return "(" + *L + std::string(ast::spelling(B->Op)) + *R + ")";
    }
    return std::nullopt;
  }

  std::optional<std::string> nameKey(const std::string &Id, const Scope &S, int Depth) {
    if (auto It = S.Args.find(Id); It != S.Args.end())
      return S.Caller ? key(It->second, *S.Caller, Depth + 1) : std::nullopt;
    if (const ast::Expr *Def = hostLocalDefinition(*S.Fn, Id, S.At)) {
      if (mentions(Def, Id))
        return std::nullopt; // `n = n // 2`: not the n an earlier fact named
      if (std::optional<std::string> K = key(Def, S, Depth + 1))
        return K;
      // Bound to what no key names: the name itself, in the launching
      // function only (a callee's local means nothing to its caller).
      return S.Caller ? std::nullopt : std::optional<std::string>("n:" + Id);
    }
    if (std::optional<std::string> K = unpackedDimension(Id, S, Depth))
      return K;
    for (const ast::Param &P : S.Fn->Params)
      if (P.Name == Id) {
        if (!S.Caller)
          return "n:" + Id;
        // A callee's parameter the call leaves to its default.
        return P.Default ? key(P.Default, S, Depth + 1) : std::nullopt;
      }
    if (S.Names && S.Names->Integer)
      if (std::optional<int64_t> V = S.Names->Integer(Id))
        return "#" + std::to_string(*V);
    return S.Caller ? std::nullopt : std::optional<std::string>("n:" + Id);
  }

  static bool mentions(const ast::Expr *E, const std::string &Id) {
    bool Found = false;
    ast::Walker W;
    W.OnExpr = [&](const ast::Expr *X) {
      if (const auto *N = dyn_cast<ast::NameExpr>(X); N && N->Id == Id)
        Found = true;
    };
    W.walk(E);
    return Found;
  }

  /// Is N (an expression of the launching function) a multiple of the
  /// class A: equal to it, a product with a factor that is, `x.numel()` with
  /// A a dimension of x, or a local name bound to one of these.
  bool multiple(const ast::Expr *N, const std::string &A, int Depth) {
    if (!N || Depth > 4)
      return false;
    if (std::optional<std::string> K = key(N, Top)) {
      if (find(*K) == A)
        return true;
      if (K->rfind("numel(", 0) == 0) {
        std::string T = K->substr(6, K->size() - 7);
        for (int I = -4; I < 8; ++I)
          if (find("dim(" + T + "," + std::to_string(I) + ")") == A)
            return true;
      }
    }
    if (const auto *B = dyn_cast<ast::BinOpExpr>(N); B && B->Op == ast::BinOpKind::Mult)
      return multiple(B->Lhs, A, Depth + 1) || multiple(B->Rhs, A, Depth + 1);
    if (const auto *Name = dyn_cast<ast::NameExpr>(N); Name && Top.Fn)
      if (const ast::Expr *Def = hostLocalDefinition(*Top.Fn, Name->Id, Top.At))
        return multiple(Def, A, Depth + 1);
    return false;
  }
};

HostFacts::HostFacts(const ast::FunctionDefStmt *Host, SourceRange At, const HostNames &Names)
    : P(std::make_unique<Impl>(Host, At, Names)) {}

HostFacts::~HostFacts() = default;

bool HostFacts::exact(const ast::Expr *N, const ast::Expr *B, const std::vector<int64_t> &Values) {
  return P->exact(N, B, Values);
}

} // namespace tessel::sema
