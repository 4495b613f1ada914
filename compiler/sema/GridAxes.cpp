//===- GridAxes.cpp - grid axes whose last program covers a whole block ---===//
#include "compiler/sema/GridAxes.h"

#include "compiler/sema/HostFacts.h"

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
  std::optional<std::set<int64_t>> floorDividedAxes(const ast::Expr *Grid, int Depth = 0) {
    if (!Grid || Depth > 2)
      return std::nullopt;
    if (const auto *L = dyn_cast<ast::LambdaExpr>(Grid))
      return floorDividedAxes(L->Body, Depth + 1);
    if (const auto *N = dyn_cast<ast::NameExpr>(Grid))
      return Host ? floorDividedAxes(hostLocalDefinition(*Host, N->Id, Launch.Range), Depth + 1) : std::nullopt;
    const std::vector<ast::Expr *> *Elts = nullptr;
    if (const auto *T = dyn_cast<ast::TupleExpr>(Grid))
      Elts = &T->Elts;
    else if (const auto *L = dyn_cast<ast::ListExpr>(Grid))
      Elts = &L->Elts;
    if (!Elts)
      return std::nullopt;
    std::set<int64_t> Axes;
    for (size_t I = 0; I < 3; ++I)
      if (I >= Elts->size() || !roundsUp((*Elts)[I]))
        Axes.insert(static_cast<int64_t>(I));
    return Axes;
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
        const ast::Expr *F = C->Func;
        std::string Name = isa<ast::AttributeExpr>(F) ? cast<ast::AttributeExpr>(F)->Attr
                           : isa<ast::NameExpr>(F)    ? cast<ast::NameExpr>(F)->Id
                                                      : std::string();
        Found = Name == "cdiv" || Name == "ceil" || Name == "ceildiv" || Name == "div_up" || Name == "ceil_div";
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

} // namespace tessel::sema
