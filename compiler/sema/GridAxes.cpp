//===- GridAxes.cpp - grid axes whose last program covers a whole block ---===//
#include "compiler/sema/GridAxes.h"

#include "compiler/sema/HostFacts.h"

#include "compiler/frontend/AstDump.h"
#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <vector>

namespace tessel::sema {

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

namespace {

/// The values a grid's `meta["NAME"]` takes: NAME in every autotune config,
/// or else the launch's own keyword; empty when some value is unknown.
static std::vector<int64_t> metaValues(const ast::Expr *B, const JitFunction &Fn, const LaunchSite &L) {
  const auto *Sub = dyn_cast<ast::SubscriptExpr>(B);
  const auto *Name = Sub ? dyn_cast<ast::ConstantExpr>(Sub->Index) : nullptr;
  if (!Name || Name->CK != ast::ConstantKind::String)
    return {};
  std::vector<int64_t> Out;
  for (const AutotuneConfig &C : Fn.Configs) {
    bool Found = false;
    for (const auto &[K, V] : C.Config.Kwargs)
      if (K.isStr() && K.asStr() == Name->StrValue && V.isInt()) {
        Out.push_back(V.asInt());
        Found = true;
      }
    if (!Found)
      return {};
  }
  if (!Out.empty() || Fn.ConfigsUnknown)
    return Out;
  for (const auto &[K, V] : L.Keywords)
    if (K == Name->StrValue && V.isInt())
      return {V.asInt()};
  return {};
}

/// The name a call calls: `cdiv` of `triton.cdiv(...)` or `cdiv(...)`, else
/// "".
static std::string calleeName(const ast::CallExpr &C) {
  const ast::Expr *F = C.Func;
  return isa<ast::AttributeExpr>(F) ? cast<ast::AttributeExpr>(F)->Attr
         : isa<ast::NameExpr>(F)    ? cast<ast::NameExpr>(F)->Id
                                    : std::string();
}

/// Names of the rounding-up divisions a grid is written with (`math.ceil`
/// takes one quotient, the others two operands).
static bool isCdivName(const std::string &Name) {
  return Name == "cdiv" || Name == "ceildiv" || Name == "div_up" || Name == "ceil_div";
}

/// Reads the grids of one launch site.
class GridReader {
public:
  GridReader(const JitFunction &Fn, const LaunchSite &L, const ast::FunctionDefStmt *Host, const HostNames &Names)
      : Fn(Fn), Launch(L), Host(Host), Names(Names) {}

  /// Grid axes whose last program covers a whole block: an entry that is a
  /// plain count (`n_rows`, `B * H`, `N // BLOCK`, `1`) rather than a
  /// rounded-up `cdiv`, and the axes the grid leaves out (one program there);
  /// nullopt when the grid is not a tuple written out (a call, a lookup, a
  /// value from elsewhere).
  std::optional<std::set<int64_t>> floorDividedAxes(const ast::Expr *Grid) {
    const std::vector<ast::Expr *> *Elts = gridEntries(Grid);
    if (!Elts)
      return std::nullopt;
    std::set<int64_t> Axes;
    for (size_t I = 0; I < 3; ++I)
      if (I >= Elts->size() || !roundsUp((*Elts)[I]))
        Axes.insert(static_cast<int64_t>(I));
    return Axes;
  }

  /// (axis, parameter) where the grid sizes the axis `cdiv(N, B)` and the
  /// launch passes the parameter as N rounded up to a multiple C of every B:
  /// `math.ceil(N / C) * C`, `cdiv(N, C) * C` or `(N + C - 1) // C * C`,
  /// through local names.
  std::set<std::pair<int64_t, std::string>> paddedRowPitches(const ast::Expr *Grid) {
    std::set<std::pair<int64_t, std::string>> Out;
    const std::vector<ast::Expr *> *Elts = gridEntries(Grid);
    if (!Elts || !Launch.Call)
      return Out;
    for (size_t Axis = 0; Axis < Elts->size() && Axis < 3; ++Axis) {
      const auto *C = cdivCall(resolve((*Elts)[Axis]));
      if (!C)
        continue;
      std::vector<int64_t> Blocks;
      if (std::optional<int64_t> B = hostConstant(C->Args[1]))
        Blocks = {*B};
      else
        Blocks = metaValues(C->Args[1], Fn, Launch);
      if (Blocks.empty())
        continue;
      const auto &Params = Fn.Def->Params;
      for (size_t I = 0; I < Params.size(); ++I)
        if (roundsUpTo(argument(I, Params[I].Name), C->Args[0], Blocks))
          Out.insert({static_cast<int64_t>(Axis), Params[I].Name});
    }
    return Out;
  }

private:
  const JitFunction &Fn;
  const LaunchSite &Launch;
  const ast::FunctionDefStmt *Host;
  const HostNames &Names;
  std::optional<HostFacts> Facts; ///< read on the first cdiv

  /// The value of a host integer the function fixes before the launch: a
  /// literal, a local name bound to one, or a product, sum or difference of
  /// those (gemlite's `BLOCK_M = 1; UNROLL = 1; cdiv(M, BLOCK_M * UNROLL)`).
  std::optional<int64_t> hostConstant(const ast::Expr *E, int Depth = 0) {
    if (!E || Depth > 4)
      return std::nullopt;
    if (std::optional<int64_t> V = hostIntLiteral(E))
      return V;
    if (const auto *N = dyn_cast<ast::NameExpr>(E); N && Host)
      return hostConstant(hostLocalDefinition(*Host, N->Id, Launch.Range), Depth + 1);
    const auto *B = dyn_cast<ast::BinOpExpr>(E);
    if (!B)
      return std::nullopt;
    std::optional<int64_t> L = hostConstant(B->Lhs, Depth + 1), R = hostConstant(B->Rhs, Depth + 1);
    if (!L || !R || std::abs(*L) > (1 << 30) || std::abs(*R) > (1 << 30))
      return std::nullopt;
    switch (B->Op) {
    case ast::BinOpKind::Mult:
      return *L * *R;
    case ast::BinOpKind::Add:
      return *L + *R;
    case ast::BinOpKind::Sub:
      return *L - *R;
    default:
      return std::nullopt;
    }
  }

  /// E through the local names that bind it (three at most).
  const ast::Expr *resolve(const ast::Expr *E) {
    for (int Depth = 0; E && Host && Depth < 3; ++Depth) {
      const auto *N = dyn_cast<ast::NameExpr>(E);
      const ast::Expr *D = N ? hostLocalDefinition(*Host, N->Id, Launch.Range) : nullptr;
      if (!D)
        break;
      E = D;
    }
    return E;
  }

  /// The entries of a grid written out as a tuple or list, through at most
  /// two lambdas or local names (`grid = lambda META: (...)`); null for any
  /// other grid (a call, a lookup, a value from elsewhere).
  const std::vector<ast::Expr *> *gridEntries(const ast::Expr *Grid) {
    for (int Depth = 0; Grid; ++Depth) {
      if (const auto *T = dyn_cast<ast::TupleExpr>(Grid))
        return &T->Elts;
      if (const auto *L = dyn_cast<ast::ListExpr>(Grid))
        return &L->Elts;
      if (Depth == 2)
        return nullptr;
      if (const auto *L = dyn_cast<ast::LambdaExpr>(Grid))
        Grid = L->Body;
      else if (const auto *N = dyn_cast<ast::NameExpr>(Grid); N && Host)
        Grid = hostLocalDefinition(*Host, N->Id, Launch.Range);
      else
        return nullptr;
    }
    return nullptr;
  }

  /// The call when E is `cdiv(n, b)` (triton.cdiv, ceil_div, ...).
  static const ast::CallExpr *cdivCall(const ast::Expr *E) {
    const auto *C = dyn_cast<ast::CallExpr>(E);
    return C && C->Args.size() == 2 && isCdivName(calleeName(*C)) ? C : nullptr;
  }

  /// How many values `*E` passes: a tuple written out, or a conditional
  /// whose arms are tuples of one length (`(s0, s1) if bias else (0, 0)`).
  std::optional<size_t> starredLength(const ast::Expr *E) {
    E = resolve(E);
    if (const auto *T = dyn_cast<ast::TupleExpr>(E))
      return T->Elts.size();
    if (const auto *C = dyn_cast<ast::IfExpExpr>(E)) {
      std::optional<size_t> A = starredLength(C->Body), B = starredLength(C->OrElse);
      return A && A == B ? A : std::nullopt;
    }
    return std::nullopt;
  }

  /// The launch's argument for parameter I (positional, past any `*args` of
  /// known length, or by keyword).
  const ast::Expr *argument(size_t I, const std::string &Name) {
    size_t Position = 0;
    for (const ast::Expr *A : Launch.Call->Args) {
      if (const auto *S = dyn_cast<ast::StarredExpr>(A)) {
        std::optional<size_t> N = starredLength(S->Value);
        if (!N || Position + *N > I)
          return nullptr;
        Position += *N;
        continue;
      }
      if (Position++ == I)
        return A;
    }
    for (const ast::Keyword &K : Launch.Call->Keywords)
      if (K.Name == Name)
        return K.Value;
    return nullptr;
  }

  /// Whether Arg is N rounded up to a multiple of a constant every block of
  /// Blocks divides.
  bool roundsUpTo(const ast::Expr *Arg, const ast::Expr *N, const std::vector<int64_t> &Blocks) {
    const auto *M = dyn_cast<ast::BinOpExpr>(resolve(Arg));
    if (!M || M->Op != ast::BinOpKind::Mult)
      return false;
    for (auto [Count, Mult] : {std::pair{M->Lhs, M->Rhs}, std::pair{M->Rhs, M->Lhs}}) {
      std::optional<int64_t> C = hostConstant(Mult);
      if (!C || *C <= 0 || std::any_of(Blocks.begin(), Blocks.end(), [&](int64_t B) { return B <= 0 || *C % B; }))
        continue;
      const ast::Expr *X = resolve(Count);
      const ast::Expr *Over = nullptr; // the rounded quantity, if X divides it by C rounding up
      if (const auto *D = cdivCall(X); D && hostConstant(D->Args[1]) == C)
        Over = D->Args[0];
      if (const auto *Ceil = dyn_cast<ast::CallExpr>(X);
          !Over && Ceil && Ceil->Args.size() == 1 && calleeName(*Ceil) == "ceil") {
        const auto *Div = dyn_cast<ast::BinOpExpr>(Ceil->Args[0]);
        if (Div && Div->Op == ast::BinOpKind::Div && hostConstant(Div->Rhs) == C)
          Over = Div->Lhs;
      }
      if (const auto *F = dyn_cast<ast::BinOpExpr>(X);
          !Over && F && F->Op == ast::BinOpKind::FloorDiv && hostConstant(F->Rhs) == C) {
        const auto *Add = dyn_cast<ast::BinOpExpr>(F->Lhs);
        if (Add && Add->Op == ast::BinOpKind::Add && hostConstant(Add->Rhs) == *C - 1)
          Over = Add->Lhs;
      }
      if (Over && ast::dump(resolve(Over)) == ast::dump(resolve(N)))
        return true;
    }
    return false;
  }

  bool assertedExact(const ast::Expr *N, const ast::Expr *B) {
    if (!Host)
      return false;
    if (!Facts)
      Facts.emplace(Host, Launch.Range, Names);
    return Facts->exact(N, B, metaValues(B, Fn, Launch));
  }

  /// Whether a grid entry rounds up: a `cdiv` call (`triton.cdiv`, `cdiv`,
  /// `math.ceil`...) or `(n + b - 1) // b`, seen through local names, unless
  /// the host states that the division is exact. Such an axis has a last
  /// program that covers a partial block.
  bool roundsUp(const ast::Expr *E, int Depth = 0) {
    if (!E || Depth > 3)
      return false;
    bool Found = false;
    ast::Walker W;
    W.OnExpr = [&](const ast::Expr *X) {
      if (Found)
        return;
      if (const auto *C = dyn_cast<ast::CallExpr>(X)) {
        std::string Name = calleeName(*C);
        Found = Name == "ceil" || isCdivName(Name);
        // `cdiv(n, 1)` is n programs, and a stated `n % b == 0` makes
        // `cdiv(n, b)` exact.
        if (Found && Name != "ceil" && C->Args.size() == 2 &&
            (hostConstant(C->Args[1]) == 1 || assertedExact(C->Args[0], C->Args[1])))
          Found = false;
        return;
      }
      if (const auto *B = dyn_cast<ast::BinOpExpr>(X); B && B->Op == ast::BinOpKind::FloorDiv) {
        const auto *L = dyn_cast<ast::BinOpExpr>(B->Lhs);
        Found = L && (L->Op == ast::BinOpKind::Add || L->Op == ast::BinOpKind::Sub);
        return;
      }
      if (const auto *N = dyn_cast<ast::NameExpr>(X); N && Host)
        Found = roundsUp(hostLocalDefinition(*Host, N->Id, Launch.Range), Depth + 1);
    };
    W.walk(E);
    return Found;
  }
};

} // namespace

std::set<int64_t> floorDividedGridAxes(const JitFunction &Fn, const ast::Module &M, const HostNames &Names) {
  std::optional<std::set<int64_t>> Common;
  for (const LaunchSite &L : Fn.Launches) {
    const auto *Sub = L.Call ? dyn_cast<ast::SubscriptExpr>(L.Call->Func) : nullptr;
    if (!Sub)
      return {};
    GridReader Reader(Fn, L, enclosingFunction(M.Body, L.Range), Names);
    std::optional<std::set<int64_t>> Axes = Reader.floorDividedAxes(Sub->Index);
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

std::set<std::pair<int64_t, std::string>> paddedRowPitches(const JitFunction &Fn, const ast::Module &M,
                                                           const HostNames &Names) {
  std::optional<std::set<std::pair<int64_t, std::string>>> Common;
  for (const LaunchSite &L : Fn.Launches) {
    const auto *Sub = L.Call ? dyn_cast<ast::SubscriptExpr>(L.Call->Func) : nullptr;
    if (!Sub)
      return {};
    GridReader Reader(Fn, L, enclosingFunction(M.Body, L.Range), Names);
    std::set<std::pair<int64_t, std::string>> Here = Reader.paddedRowPitches(Sub->Index);
    if (Common) {
      std::set<std::pair<int64_t, std::string>> Both;
      std::set_intersection(Common->begin(), Common->end(), Here.begin(), Here.end(),
                            std::inserter(Both, Both.begin()));
      Here = std::move(Both);
    }
    Common = std::move(Here);
  }
  return Common.value_or(std::set<std::pair<int64_t, std::string>>{});
}

} // namespace tessel::sema
