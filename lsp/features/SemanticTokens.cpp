//===- SemanticTokens.cpp - names coloured by what Triton makes them -----===//
/// \file
/// One pass over the AST. Sema's facts are bucketed once per request by the
/// top-level function they lie in (a binary search per fact), so a file of
/// thousands of kernels costs a pass over its facts, not kernels x facts. A
/// use takes the modifiers of the nearest definition of its name before it
/// under the first specialization that has one, as hover does.
//===----------------------------------------------------------------------===//
#include "lsp/features/SemanticTokens.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"
#include "lsp/features/KernelContext.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tessel::lsp {

using namespace ast;

const std::vector<std::string_view> &tokenTypes() {
  static const std::vector<std::string_view> T = {"namespace", "function", "parameter", "variable", "decorator"};
  return T;
}

const std::vector<std::string_view> &tokenModifiers() {
  static const std::vector<std::string_view> T = {"declaration", "defaultLibrary", "constexpr", "pointer", "tile"};
  return T;
}

namespace {

using FactsByName = std::unordered_map<std::string_view, std::vector<const sema::ValueFact *>>;

uint32_t factModifiers(const sema::ValueFact &F) {
  uint32_t M = 0;
  if (F.Constexpr.isKnown())
    M |= Constexpr;
  if (F.Type.Elem.isPointer())
    M |= Pointer;
  if (F.Type.isBlock())
    M |= Tile;
  return M;
}

class Tokenizer {
public:
  explicit Tokenizer(const AnalyzedFile &F) : F(F), Info(F.Report.Analysis->Info), M(F.Parsed->module()) {
    // Facts by top-level function, then by name, in source order; the first
    // specialization that records a range wins.
    std::set<uint32_t> SeenRange;
    for (const sema::KernelAnalysis &K : F.Report.Analysis->Kernels)
      for (const sema::ValueFact &V : K.Values) {
        auto *Fn = dyn_cast<FunctionDefStmt>(topLevelStmtAt(M, V.Range.Begin));
        if (!Fn || !SeenRange.insert(V.Range.Begin).second)
          continue;
        Facts[Fn][V.Name].push_back(&V);
      }
    for (auto &[Fn, ByName] : Facts)
      for (auto &[Name, List] : ByName)
        std::sort(List.begin(), List.end(),
                  [](const sema::ValueFact *A, const sema::ValueFact *B) { return A->Range.Begin < B->Range.Begin; });
  }

  std::vector<SemanticToken> run() {
    for (const Stmt *S : M.Body) {
      if (auto *Fn = dyn_cast<FunctionDefStmt>(S)) {
        function(*Fn);
        continue;
      }
      forEachExpr(*S, [&](const Expr &E) { expr(E, nullptr, {}); });
    }
    std::sort(Out.begin(), Out.end(), [](const SemanticToken &A, const SemanticToken &B) { return A.Range < B.Range; });
    Out.erase(
        std::unique(Out.begin(), Out.end(),
                    [](const SemanticToken &A, const SemanticToken &B) { return A.Range.Begin == B.Range.Begin; }),
        Out.end());
    return std::move(Out);
  }

private:
  void function(const FunctionDefStmt &Fn) {
    for (const Expr *D : Fn.Decorators)
      forEachExpr(*D, [&](const Expr &E) { expr(E, nullptr, {}); });
    bool Jit = Info.jit(Fn.Name) != nullptr;
    Out.push_back({Fn.NameRange, TokenType::Function, Declaration});
    std::set<std::string> Bound;
    std::set<std::string> Params;
    for (const Param &P : Fn.Params) {
      Params.insert(P.Name);
      Bound.insert(P.Name);
    }
    for (const Stmt *S : Fn.Body)
      boundNames(S, Bound);
    auto FactsIt = Facts.find(&Fn);
    const FactsByName *Mine = FactsIt == Facts.end() ? nullptr : &FactsIt->second;
    for (const Param &P : Fn.Params) {
      uint32_t Mods = Declaration;
      if (Jit && isConstexprParam(P, Info))
        Mods |= Constexpr;
      Mods |= modifiersAt(Mine, P.Name, P.NameRange.Begin);
      Out.push_back({P.NameRange, TokenType::Parameter, Mods});
      if (P.Annotation)
        forEachExpr(*P.Annotation, [&](const Expr &E) { expr(E, nullptr, {}); });
      if (P.Default)
        forEachExpr(*P.Default, [&](const Expr &E) { expr(E, nullptr, {}); });
    }
    Scope Sc{&Bound, &Params, Mine};
    for (const Stmt *S : Fn.Body)
      forEachExpr(*S, [&](const Expr &E) { expr(E, &Fn, Sc); });
  }

  struct Scope {
    const std::set<std::string> *Bound = nullptr, *Params = nullptr;
    const FactsByName *Facts = nullptr;
  };

  uint32_t modifiersAt(const FactsByName *Mine, const std::string &Name, uint32_t At) const {
    if (!Mine)
      return 0;
    auto It = Mine->find(Name);
    if (It == Mine->end())
      return 0;
    const sema::ValueFact *Best = nullptr;
    for (const sema::ValueFact *V : It->second) {
      if (V->Range.Begin > At)
        break;
      Best = V;
    }
    return Best ? factModifiers(*Best) : 0;
  }

  void expr(const Expr &E, const FunctionDefStmt *Fn, const Scope &Sc) {
    if (auto *A = dyn_cast<AttributeExpr>(&E)) {
      std::string Q = Info.qualify(A);
      if (Q.rfind("triton.", 0) == 0)
        Out.push_back({A->AttrRange, TokenType::Function, DefaultLibrary});
      return;
    }
    auto *N = dyn_cast<NameExpr>(&E);
    if (!N)
      return;
    if (Fn && Sc.Bound && Sc.Bound->count(N->Id)) {
      bool IsParam = Sc.Params->count(N->Id) != 0;
      uint32_t Mods = modifiersAt(Sc.Facts, N->Id, N->Range.Begin);
      if (IsParam && Info.jit(Fn->Name))
        for (const Param &P : Fn->Params)
          if (P.Name == N->Id && isConstexprParam(P, Info))
            Mods |= Constexpr;
      Out.push_back({N->Range, IsParam ? TokenType::Parameter : TokenType::Variable, Mods});
      return;
    }
    if (Info.Imports.count(N->Id)) {
      Out.push_back({N->Range, TokenType::Namespace, DefaultLibrary});
      return;
    }
    if (Info.Functions.count(N->Id)) {
      Out.push_back({N->Range, TokenType::Function, 0});
      return;
    }
    if (auto G = Info.Globals.find(N->Id); G != Info.Globals.end())
      Out.push_back({N->Range, TokenType::Variable, G->second.IsConstexpr ? uint32_t(Constexpr) : 0u});
  }

  const AnalyzedFile &F;
  const ModuleInfo &Info;
  const Module &M;
  std::map<const FunctionDefStmt *, FactsByName> Facts;
  std::vector<SemanticToken> Out;
};

} // namespace

std::vector<SemanticToken> semanticTokens(const AnalyzedFile &F) {
  if (!F.Parsed || !F.Report.Analysis)
    return {};
  return Tokenizer(F).run();
}

} // namespace tessel::lsp
