//===- References.cpp - every occurrence of a name, Triton-aware ---------===//
/// \file
/// Resolution follows Python's rule for a module of functions: a name bound
/// anywhere in a function (parameter, assignment, loop or `with` target,
/// import) is local to all of that function; otherwise it is the module's.
/// A lambda parameter shadows the name inside the lambda. Anything the file
/// does not bind (imports, builtins, attributes) is refused, never guessed.
//===----------------------------------------------------------------------===//
#include "lsp/features/References.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"
#include "lsp/features/KernelContext.h"
#include "lsp/features/Signatures.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace tessel::lsp {

using namespace ast;

namespace {

constexpr std::string_view PythonKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

constexpr std::string_view PythonBuiltins[] = {
    "abs", "all",        "any",   "bool", "dict",  "enumerate", "float",  "getattr", "hasattr",
    "int", "isinstance", "len",   "list", "max",   "min",       "print",  "range",   "round",
    "str", "sum",        "tuple", "zip",  "super", "type",      "object", "set"};

bool isIdentifier(const std::string &S) {
  if (S.empty() || !(std::isalpha(static_cast<unsigned char>(S[0])) || S[0] == '_'))
    return false;
  return std::all_of(S.begin(), S.end(),
                     [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; });
}

/// Every name a function binds: its parameters and what its body binds.
std::set<std::string> namesBoundIn(const FunctionDefStmt &Fn) {
  std::set<std::string> Out;
  for (const Param &P : Fn.Params)
    Out.insert(P.Name);
  for (const Stmt *S : Fn.Body)
    boundNames(S, Out);
  return Out;
}

/// The range between a simple string literal's quotes, when it spells Name.
std::optional<SourceRange> stringInner(const AnalyzedFile &F, const Expr *E, const std::string &Name) {
  auto *C = dyn_cast<ConstantExpr>(E);
  if (!C || C->CK != ConstantKind::String || C->StrValue != Name || C->Range.End < C->Range.Begin + 2)
    return std::nullopt;
  SourceRange Inner{C->Range.Begin + 1, C->Range.End - 1};
  if (F.Doc.Text->slice(Inner) != Name)
    return std::nullopt; // a prefix, triple quotes or escapes: not a plain key
  return Inner;
}

class Finder {
public:
  Finder(const AnalyzedFile &F, const RenameTarget &T) : F(F), Info(F.Report.Analysis->Info), T(T) {}

  std::vector<Occurrence> run() {
    const Module &M = F.Parsed->module();
    if (T.Scope == SymbolScope::Local || T.Scope == SymbolScope::Parameter) {
      auto It = Info.Functions.find(T.Owner);
      if (It == Info.Functions.end() || !It->second)
        return {};
      const FunctionDefStmt &Fn = *It->second;
      for (const Param &P : Fn.Params)
        if (P.Name == T.Name)
          add(P.NameRange, OccurrenceRole::Definition);
      for (const Stmt *S : Fn.Body)
        namesIn(*S);
      if (T.Scope == SymbolScope::Parameter)
        parameterElsewhere(Fn);
    } else {
      for (const Stmt *S : M.Body) {
        if (auto *Fn = dyn_cast<FunctionDefStmt>(S)) {
          if (T.Scope == SymbolScope::Function && Fn->Name == T.Name)
            add(Fn->NameRange, OccurrenceRole::Definition);
          for (const Expr *D : Fn->Decorators)
            namesIn(*D);
          for (const Param &P : Fn->Params) {
            if (P.Default)
              namesIn(*P.Default);
            if (P.Annotation)
              namesIn(*P.Annotation);
          }
          if (!namesBoundIn(*Fn).count(T.Name))
            for (const Stmt *B : Fn->Body)
              namesIn(*B);
          continue;
        }
        namesIn(*S);
      }
    }
    std::sort(Out.begin(), Out.end(), [](const Occurrence &A, const Occurrence &B) { return A.Range < B.Range; });
    Out.erase(std::unique(Out.begin(), Out.end(),
                          [](const Occurrence &A, const Occurrence &B) { return A.Range == B.Range; }),
              Out.end());
    // A Python local is declared where it is first assigned.
    if (T.Scope == SymbolScope::Local || T.Scope == SymbolScope::Global)
      for (Occurrence &O : Out)
        if (O.Role == OccurrenceRole::Write) {
          O.Role = OccurrenceRole::Definition;
          break;
        }
    return std::move(Out);
  }

private:
  void add(SourceRange R, OccurrenceRole Role) { Out.push_back({R, Role}); }

  void collectWrites(const Stmt &S) {
    Walker W;
    auto Mark = [&](const Expr *Target) {
      if (!Target)
        return;
      forEachExpr(*Target, [&](const Expr &E) {
        if (auto *N = dyn_cast<NameExpr>(&E))
          Writes.insert(N->Range.Begin);
      });
    };
    W.OnStmt = [&](const Stmt *St) {
      if (auto *A = dyn_cast<AssignStmt>(St))
        for (const Expr *X : A->Targets)
          Mark(X);
      else if (auto *A = dyn_cast<AugAssignStmt>(St))
        Mark(A->Target);
      else if (auto *A = dyn_cast<AnnAssignStmt>(St))
        Mark(A->Target);
      else if (auto *L = dyn_cast<ForStmt>(St))
        Mark(L->Target);
      else if (auto *With = dyn_cast<WithStmt>(St))
        for (const WithItem &I : With->Items)
          Mark(I.OptionalVars);
      return !isa<FunctionDefStmt>(St) || St == &S;
    };
    W.walk(&S);
  }

  void namesIn(const Stmt &S) {
    collectWrites(S);
    std::vector<SourceRange> Shadowed = lambdasBinding(S);
    forEachExpr(S, [&](const Expr &E) { nameAt(E, Shadowed); });
  }
  void namesIn(const Expr &Root) {
    std::vector<SourceRange> Shadowed;
    forEachExpr(Root, [&](const Expr &E) {
      if (auto *L = dyn_cast<LambdaExpr>(&E))
        for (const Param &P : L->Params)
          if (P.Name == T.Name)
            Shadowed.push_back(L->Range);
    });
    forEachExpr(Root, [&](const Expr &E) { nameAt(E, Shadowed); });
  }
  std::vector<SourceRange> lambdasBinding(const Stmt &S) {
    std::vector<SourceRange> Out;
    forEachExpr(S, [&](const Expr &E) {
      if (auto *L = dyn_cast<LambdaExpr>(&E))
        for (const Param &P : L->Params)
          if (P.Name == T.Name)
            Out.push_back(L->Range);
    });
    return Out;
  }
  void nameAt(const Expr &E, const std::vector<SourceRange> &Shadowed) {
    auto *N = dyn_cast<NameExpr>(&E);
    if (!N || N->Id != T.Name)
      return;
    for (SourceRange L : Shadowed)
      if (L.contains(N->Range))
        return;
    add(N->Range, Writes.count(N->Range.Begin) ? OccurrenceRole::Write : OccurrenceRole::Read);
  }

  /// Strings that name Fn's parameter: dict keys, `key=[...]` entries and
  /// subscript indices under Root.
  void parameterStrings(const Expr &Root, bool DictKeys) {
    forEachExpr(Root, [&](const Expr &E) {
      if (auto *D = dyn_cast<DictExpr>(&E); D && DictKeys)
        for (const Expr *K : D->Keys)
          if (auto R = stringInner(F, K, T.Name))
            add(*R, OccurrenceRole::String);
      if (auto *S = dyn_cast<SubscriptExpr>(&E))
        if (auto R = stringInner(F, S->Index, T.Name))
          add(*R, OccurrenceRole::String);
      if (auto *C = dyn_cast<CallExpr>(&E))
        for (const Keyword &K : C->Keywords)
          if (K.Name == "key" && K.Value)
            forEachExpr(*K.Value, [&](const Expr &X) {
              if (auto R = stringInner(F, &X, T.Name))
                add(*R, OccurrenceRole::String);
            });
    });
  }

  void parameterElsewhere(const FunctionDefStmt &Fn) {
    const JitFunction *J = Info.jit(Fn.Name);
    const Module &M = F.Parsed->module();
    if (J) {
      for (const Expr *D : Fn.Decorators) {
        parameterStrings(*D, true);
        // Configs returned by a helper: `configs=get_configs()`.
        forEachExpr(*D, [&](const Expr &E) {
          auto *N = dyn_cast<NameExpr>(&E);
          if (!N || Info.jit(N->Id))
            return;
          auto H = Info.Functions.find(N->Id);
          if (H != Info.Functions.end() && H->second)
            for (const Stmt *S : H->second->Body)
              forEachExpr(*S, [&](const Expr &X) {
                auto *C = dyn_cast<CallExpr>(&X);
                if (C && Info.qualify(C->Func) == "triton.Config")
                  parameterStrings(*C, true);
              });
        });
      }
      for (const LaunchSite &L : J->Launches) {
        if (!L.Call)
          continue;
        for (const Keyword &K : L.Call->Keywords)
          if (K.Name == T.Name)
            add(K.NameRange, OccurrenceRole::Keyword);
      }
      // Grid lambdas (`meta["BLOCK"]`) in the host functions that launch it.
      for (const Stmt *S : M.Body) {
        auto *Host = dyn_cast<FunctionDefStmt>(S);
        if (!Host || Info.jit(Host->Name))
          continue;
        bool Launches = std::any_of(J->Launches.begin(), J->Launches.end(),
                                    [&](const LaunchSite &L) { return Host->Range.contains(L.Range); });
        if (!Launches)
          continue;
        forEachExpr(*Host, [&](const Expr &E) {
          if (auto *Lambda = dyn_cast<LambdaExpr>(&E))
            parameterStrings(*Lambda->Body, false);
        });
      }
    }
    // Calls of a helper by keyword: `helper(x, BLOCK=BLOCK)`.
    for (const Stmt *S : M.Body)
      forEachExpr(*S, [&](const Expr &E) {
        auto *C = dyn_cast<CallExpr>(&E);
        auto *Callee = C ? dyn_cast<NameExpr>(C->Func) : nullptr;
        if (!Callee || Callee->Id != Fn.Name)
          return;
        for (const Keyword &K : C->Keywords)
          if (K.Name == T.Name)
            add(K.NameRange, OccurrenceRole::Keyword);
      });
  }

  const AnalyzedFile &F;
  const ModuleInfo &Info;
  const RenameTarget &T;
  std::set<uint32_t> Writes;
  std::vector<Occurrence> Out;
};

std::optional<RenameTarget> resolveName(const AnalyzedFile &F, const std::string &Name, const FunctionDefStmt *Fn,
                                        SourceRange At, std::string &Why) {
  const ModuleInfo &Info = F.Report.Analysis->Info;
  RenameTarget T;
  T.Name = Name;
  T.At = At;
  if (Fn) {
    std::set<std::string> Bound = namesBoundIn(*Fn);
    if (Bound.count(Name)) {
      if (Info.Imports.count(Name) &&
          !std::any_of(Fn->Params.begin(), Fn->Params.end(), [&](const Param &P) { return P.Name == Name; })) {
        // Imported inside the function: still an import.
      } else {
        bool IsParam =
            std::any_of(Fn->Params.begin(), Fn->Params.end(), [&](const Param &P) { return P.Name == Name; });
        T.Scope = IsParam ? SymbolScope::Parameter : SymbolScope::Local;
        T.Owner = Fn->Name;
        T.JitOwner = Info.jit(Fn->Name) != nullptr;
        return T;
      }
    }
  }
  if (auto It = Info.Imports.find(Name); It != Info.Imports.end()) {
    Why = "`" + Name + "` is imported (" + It->second + "): rename it where it is defined";
    return std::nullopt;
  }
  if (auto It = Info.Functions.find(Name); It != Info.Functions.end() && It->second) {
    T.Scope = SymbolScope::Function;
    return T;
  }
  if (Info.Globals.count(Name)) {
    T.Scope = SymbolScope::Global;
    return T;
  }
  if (std::find(std::begin(PythonBuiltins), std::end(PythonBuiltins), Name) != std::end(PythonBuiltins))
    Why = "`" + Name + "` is a Python builtin";
  else
    Why = "`" + Name + "` is not defined in this file";
  return std::nullopt;
}

} // namespace

std::optional<RenameTarget> targetAt(const AnalyzedFile &F, uint32_t Offset, std::string &Why) {
  Why = "nothing that can be renamed is here";
  if (!F.Parsed || !F.Report.Analysis)
    return std::nullopt;
  const Module &M = F.Parsed->module();
  const ModuleInfo &Info = F.Report.Analysis->Info;
  const FunctionDefStmt *Fn = functionAt(M, Offset);
  if (Fn && touches(Fn->NameRange, Offset)) {
    RenameTarget T{Fn->Name, SymbolScope::Function, {}, false, Fn->NameRange};
    return T;
  }
  if (Fn)
    for (const Param &P : Fn->Params)
      if (touches(P.NameRange, Offset))
        return RenameTarget{P.Name, SymbolScope::Parameter, Fn->Name, Info.jit(Fn->Name) != nullptr, P.NameRange};
  // A keyword at a call or launch names the callee's parameter.
  const Stmt *S = topLevelStmtAt(M, Offset);
  std::optional<RenameTarget> FromKeyword;
  if (S)
    forEachExpr(*S, [&](const Expr &E) {
      auto *C = dyn_cast<CallExpr>(&E);
      if (!C || FromKeyword)
        return;
      for (const Keyword &K : C->Keywords) {
        if (K.Name.empty() || !touches(K.NameRange, Offset))
          continue;
        const Expr *Callee = C->Func;
        if (auto *Sub = dyn_cast<SubscriptExpr>(Callee))
          Callee = Sub->Value;
        auto *N = dyn_cast<NameExpr>(Callee);
        auto It = N ? Info.Functions.find(N->Id) : Info.Functions.end();
        if (It == Info.Functions.end() || !It->second) {
          Why = "`" + K.Name + "=` is a keyword of a function tessel does not know";
          return;
        }
        for (const Param &P : It->second->Params)
          if (P.Name == K.Name)
            FromKeyword = RenameTarget{P.Name, SymbolScope::Parameter, It->second->Name,
                                       Info.jit(It->second->Name) != nullptr, K.NameRange};
        if (!FromKeyword)
          Why = "`" + K.Name + "=` is a launch option, not a parameter of `" + N->Id + "`";
      }
    });
  if (FromKeyword)
    return FromKeyword;
  const Expr *E = innermostExprAt(M, Offset);
  if (!E)
    return std::nullopt;
  if (auto *N = dyn_cast<NameExpr>(E)) {
    // A lambda's own parameter is not renamed (it is local to one expression).
    return resolveName(F, N->Id, Fn && Offset > Fn->DefKeywordRange.Begin ? Fn : nullptr, N->Range, Why);
  }
  if (auto *A = dyn_cast<AttributeExpr>(E); A && touches(A->AttrRange, Offset)) {
    Why = "`." + A->Attr + "` is an attribute: tessel cannot see every object that has it";
    return std::nullopt;
  }
  if (auto *C = dyn_cast<ConstantExpr>(E); C && C->CK == ConstantKind::String) {
    for (const JitFunction *J : kernelsAround(*F.Parsed, Info, Offset)) {
      if (!J->Def)
        continue;
      for (const Param &P : J->Def->Params)
        if (auto R = stringInner(F, C, P.Name))
          return RenameTarget{P.Name, SymbolScope::Parameter, J->Name, true, *R};
    }
    Why = "this string names no parameter of a kernel configured here";
  }
  return std::nullopt;
}

std::vector<Occurrence> occurrencesIn(const AnalyzedFile &F, const RenameTarget &T) {
  if (!F.Parsed || !F.Report.Analysis)
    return {};
  return Finder(F, T).run();
}

std::string renameProblem(const AnalyzedFile &F, const RenameTarget &T, const std::string &NewName) {
  if (!isIdentifier(NewName))
    return "`" + NewName + "` is not a Python identifier";
  if (std::find(std::begin(PythonKeywords), std::end(PythonKeywords), NewName) != std::end(PythonKeywords))
    return "`" + NewName + "` is a Python keyword";
  if (NewName == T.Name)
    return {};
  const ModuleInfo &Info = F.Report.Analysis->Info;
  if (T.Scope == SymbolScope::Local || T.Scope == SymbolScope::Parameter) {
    auto It = Info.Functions.find(T.Owner);
    if (It != Info.Functions.end() && It->second && namesBoundIn(*It->second).count(NewName))
      return "`" + NewName + "` is already a name in `" + T.Owner + "`";
    if (T.Scope == SymbolScope::Parameter && T.JitOwner) {
      for (const ParamInfo &O : launchOptions())
        if (O.Name == NewName)
          return "`" + NewName + "` is a launch option: a kernel parameter of that name would be shadowed at launch";
      if (const JitFunction *J = Info.jit(T.Owner))
        for (const LaunchSite &L : J->Launches)
          if (L.Call)
            for (const Keyword &K : L.Call->Keywords)
              if (K.Name.empty())
                return "a launch of `" + T.Owner + "` passes `**` keywords, which may name `" + T.Name +
                       "`: tessel cannot rename inside them";
    }
    return {};
  }
  if (Info.Functions.count(NewName) || Info.Globals.count(NewName) || Info.Imports.count(NewName))
    return "`" + NewName + "` is already defined in this file";
  return {};
}

} // namespace tessel::lsp
