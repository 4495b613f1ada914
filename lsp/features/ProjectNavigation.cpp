//===- ProjectNavigation.cpp - definition, hover, completion through imports ===//
/// \file
/// Every answer starts from F's imports (ModuleInfo::Imports, the names of
/// its import statements) and asks the project what the dotted path means;
/// `triton.*` and `math.*` stay with the single-file features, which model
/// them, and Unknown (torch, a module chosen at run time) gets no answer.
//===----------------------------------------------------------------------===//
#include "lsp/features/ProjectNavigation.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <regex>
#include <set>

namespace tessel::lsp {

using namespace ast;

project::ModuleRef moduleRefOf(const AnalyzedFile &F, project::Project &P) {
  const std::string &Path = F.Doc.Text->path();
  if (Path.empty() || Path[0] != '/')
    return {}; // a buffer with no file (untitled:, test:): no package around it
  return P.refOf(Path);
}

/// Does a function around Offset bind Name itself (a parameter or a local),
/// hiding the module-level import of that name?
static bool shadowedAt(const ast::Module &M, uint32_t Offset, const std::string &Name) {
  const FunctionDefStmt *Fn = functionAt(M, Offset);
  if (!Fn || Offset < Fn->DefKeywordRange.Begin)
    return false;
  std::set<std::string> Bound;
  for (const Param &P : Fn->Params)
    Bound.insert(P.Name);
  for (const Stmt *S : Fn->Body)
    boundNames(S, Bound);
  return Bound.count(Name) > 0;
}

static std::optional<ImportedName> resolved(project::Project &P, const project::ModuleRef &From, SourceRange R,
                                            const std::string &Dotted) {
  if (Dotted.empty())
    return std::nullopt;
  size_t Lead = Dotted.find_first_not_of('.');
  std::string Head = Lead == std::string::npos ? "" : Dotted.substr(Lead, Dotted.find('.', Lead) - Lead);
  if (Lead == 0 && project::isExternalRoot(Head))
    return std::nullopt;
  project::Symbol S = P.resolve(Dotted, From);
  if (S.K == project::Symbol::Kind::Unknown || S.K == project::Symbol::Kind::External)
    return std::nullopt;
  return ImportedName{R, std::move(S)};
}

std::optional<ImportedName> importedNameAt(const AnalyzedFile &F, uint32_t Offset, project::Project &P) {
  if (!F.Parsed || !F.Report.Analysis)
    return std::nullopt;
  project::ModuleRef From = moduleRefOf(F, P);
  if (From.Path.empty())
    return std::nullopt;
  const ast::Module &M = F.Parsed->module();
  const ModuleInfo &Info = F.Report.Analysis->Info;
  if (const Stmt *S = topLevelStmtAt(M, Offset)) {
    if (auto *I = dyn_cast<ImportFromStmt>(S)) {
      std::string Base = std::string(static_cast<size_t>(std::max(I->Level, 0)), '.') + I->Module;
      for (const ImportAlias &A : I->Names) {
        SourceRange Tok{A.Range.Begin, A.Range.Begin + static_cast<uint32_t>(A.Name.size())};
        if (A.Name == "*" || !touches(Tok, Offset) || F.Doc.Text->slice(Tok) != A.Name)
          continue;
        return resolved(P, From, Tok, Base.empty() || Base.back() == '.' ? Base + A.Name : Base + "." + A.Name);
      }
      return std::nullopt;
    }
    if (auto *I = dyn_cast<ImportStmt>(S)) {
      for (const ImportAlias &A : I->Names) {
        SourceRange Tok{A.Range.Begin, A.Range.Begin + static_cast<uint32_t>(A.Name.size())};
        if (!touches(Tok, Offset) || F.Doc.Text->slice(Tok) != A.Name)
          continue;
        // `import pkg.ops.utils`: the component under the cursor and those before it.
        size_t End = A.Name.find('.', Offset - Tok.Begin);
        std::string Prefix = A.Name.substr(0, End);
        size_t Dot = Prefix.rfind('.');
        uint32_t Begin = Tok.Begin + static_cast<uint32_t>(Dot == std::string::npos ? 0 : Dot + 1);
        return resolved(P, From, {Begin, Tok.Begin + static_cast<uint32_t>(Prefix.size())}, Prefix);
      }
      return std::nullopt;
    }
  }
  const Expr *E = innermostExprAt(M, Offset);
  if (auto *N = dyn_cast<NameExpr>(E)) {
    auto It = Info.Imports.find(N->Id);
    if (It == Info.Imports.end() || shadowedAt(M, Offset, N->Id))
      return std::nullopt;
    return resolved(P, From, N->Range, It->second);
  }
  if (auto *A = dyn_cast<AttributeExpr>(E); A && touches(A->AttrRange, Offset)) {
    const Expr *Head = A;
    while (auto *X = dyn_cast<AttributeExpr>(Head))
      Head = X->Value;
    auto *N = dyn_cast<NameExpr>(Head);
    if (!N || !Info.Imports.count(N->Id) || shadowedAt(M, Offset, N->Id))
      return std::nullopt;
    return resolved(P, From, A->AttrRange, Info.qualify(A));
  }
  return std::nullopt;
}

std::optional<ProjectLocation> definitionInProject(const AnalyzedFile &F, uint32_t Offset, project::Project &P) {
  auto N = importedNameAt(F, Offset, P);
  if (!N || !N->Sym.Mod)
    return std::nullopt; // a namespace package has no file to go to
  const project::Symbol &S = N->Sym;
  ProjectLocation L{S.Mod->Ref.Path, {0, 0}, S.Mod->File->textPtr()};
  if (S.K == project::Symbol::Kind::Function && S.Def)
    L.Range = S.Def->NameRange;
  else if (S.K == project::Symbol::Kind::Global && S.Global)
    L.Range = S.Global->Range;
  return L;
}

static std::string paramList(const FunctionDefStmt &Fn, const SourceText &Text) {
  std::string S;
  for (const Param &P : Fn.Params)
    S += (S.empty() ? "" : ", ") + std::string(Text.slice(P.Range));
  return S;
}

/// "a `@triton.jit` helper" / "kernel" / "a plain Python function", as the
/// defining module's discovery saw it.
static std::string roleOf(const project::Module &M, const FunctionDefStmt &Def) {
  const JitFunction *J = M.Info.jit(Def.Name);
  if (!J || J->Def != &Def)
    return "a plain Python function (not `@triton.jit`)";
  if (J->Launched || J->HasAutotune)
    return "`@triton.jit` kernel";
  return "`@triton.jit` function: inlined with the caller's arguments where a kernel calls it";
}

static std::string whereDefined(const project::Module &M, SourceRange R) {
  LineCol LC = M.File->text().lineCol(R.Begin);
  return "defined in `" + M.Ref.Name + "` (" + M.Ref.Path + ":" + std::to_string(LC.Line + 1) + ")";
}

std::optional<HoverInfo> hoverInProject(const AnalyzedFile &F, uint32_t Offset, project::Project &P) {
  auto N = importedNameAt(F, Offset, P);
  if (!N)
    return std::nullopt;
  const project::Symbol &S = N->Sym;
  HoverInfo H;
  H.Range = N->Range;
  if (S.K == project::Symbol::Kind::Function && S.Def && S.Mod) {
    H.Code = "def " + S.Def->Name + "(" + paramList(*S.Def, S.Mod->File->text()) + ")";
    H.Notes.push_back(roleOf(*S.Mod, *S.Def));
    H.Notes.push_back(whereDefined(*S.Mod, S.Def->NameRange));
    if (const ConstantExpr *Doc = S.Def->docstring())
      H.Doc = Doc->StrValue;
    return H;
  }
  if (S.K == project::Symbol::Kind::Global && S.Global && S.Mod) {
    std::string Name(F.Doc.Text->slice(N->Range));
    H.Code = Name + (S.Global->Value.isKnown() ? " = " + S.Global->Value.repr() : std::string());
    H.Notes.push_back(S.Global->IsConstexpr ? "module-level `tl.constexpr` global" : "module-level global");
    H.Notes.push_back(whereDefined(*S.Mod, S.Global->Range));
    return H;
  }
  if (S.K == project::Symbol::Kind::Module) {
    H.Code = "module " + S.Path;
    H.Notes.push_back(S.Mod ? S.Mod->Ref.Path : "namespace package (a directory without `__init__.py`)");
    return H;
  }
  return std::nullopt;
}

std::optional<SignatureInfo> signatureInProject(const AnalyzedFile &F, const std::string &Callee, bool IsLaunch,
                                                project::Project &P) {
  if (!F.Report.Analysis || Callee.empty())
    return std::nullopt;
  project::ModuleRef From = moduleRefOf(F, P);
  if (From.Path.empty())
    return std::nullopt;
  std::string Dotted = qualifyDotted(F.Report.Analysis->Info, Callee);
  auto N = resolved(P, From, {}, Dotted);
  if (!N || N->Sym.K != project::Symbol::Kind::Function || !N->Sym.Def || !N->Sym.Mod)
    return std::nullopt;
  const project::Module &M = *N->Sym.Mod;
  const JitFunction *J = M.Info.jit(N->Sym.Def->Name);
  if (!J || J->Def != N->Sym.Def)
    return std::nullopt; // a plain Python function: no launch, no constexpr
  return jitSignature(M.Info, M.File->text(), *J, IsLaunch);
}

namespace {

class ModuleCompleter {
public:
  ModuleCompleter(project::Project &P, const project::ModuleRef &From) : P(P), From(From) {}

  void submodules(const std::string &Package) {
    for (const std::string &Name : P.submodules(Package, From))
      add({Name, CompletionKind::Module, Package.empty() ? "module" : "module of " + Package, "", "", false});
  }

  void members(const project::Symbol &S) {
    if (S.K != project::Symbol::Kind::Module)
      return;
    if (!S.Mod) {
      submodules(S.Path);
      return;
    }
    const project::Module &M = *S.Mod;
    auto Public = [&](const std::string &Name) {
      if (M.All && std::count(M.All->begin(), M.All->end(), Name))
        return true;
      return !Name.empty() && Name[0] != '_';
    };
    const SourceText &Text = M.File->text();
    for (const auto &[Name, Def] : M.Info.Functions) {
      if (!Def || !Public(Name))
        continue;
      CompletionInfo I{Name, CompletionKind::Function, "def " + Name + "(" + paramList(*Def, Text) + ")", "", "",
                       false};
      if (const ConstantExpr *Doc = Def->docstring())
        I.Doc = Doc->StrValue;
      add(std::move(I));
    }
    for (const auto &[Name, G] : M.Info.Globals)
      if (Public(Name))
        add({Name, G.IsConstexpr ? CompletionKind::Constant : CompletionKind::Variable,
             G.IsConstexpr ? (G.Value.isKnown() ? "constexpr = " + G.Value.repr() : std::string("constexpr global"))
                           : std::string("global"),
             "", "", false});
    for (const auto &[Name, Path] : M.Info.Imports)
      if (Public(Name) && Name != "triton" && Name != "tl")
        add({Name, CompletionKind::Module, "re-exported from " + Path, "", "", false});
    if (M.Ref.IsPackage)
      submodules(M.Ref.Name);
  }

  std::vector<CompletionInfo> take() { return std::move(Out); }

private:
  void add(CompletionInfo I) {
    if (Seen.insert(I.Label).second)
      Out.push_back(std::move(I));
  }
  project::Project &P;
  const project::ModuleRef &From;
  std::vector<CompletionInfo> Out;
  std::set<std::string> Seen;
};

} // namespace

std::optional<std::vector<CompletionInfo>> completeInProject(const AnalyzedFile &F, uint32_t Offset,
                                                             project::Project &P) {
  const std::string &Text = F.Doc.Text->text();
  if (Offset > Text.size())
    return std::nullopt;
  project::ModuleRef From = moduleRefOf(F, P);
  if (From.Path.empty())
    return std::nullopt;
  size_t LineStart = Offset == 0 ? 0 : Text.rfind('\n', Offset - 1);
  LineStart = LineStart == std::string::npos || Offset == 0 ? 0 : LineStart + 1;
  std::string Line = Text.substr(LineStart, Offset - LineStart);
  ModuleCompleter C(P, From);
  std::smatch Mt;
  // `from pkg.mod import a, |` (or inside a parenthesised list on this line).
  static const std::regex FromImport(
      R"(^\s*from\s+(\.*[A-Za-z_][\w.]*|\.+)\s+import\s+\(?\s*(?:\w+(?:\s+as\s+\w+)?\s*,\s*)*\w*$)");
  if (std::regex_match(Line, Mt, FromImport)) {
    std::string Mod = Mt[1].str();
    if (project::isExternalRoot(Mod.substr(0, Mod.find('.'))))
      return std::nullopt;
    project::Symbol S = P.resolve(Mod, From);
    if (S.K == project::Symbol::Kind::Module)
      C.members(S);
    return C.take();
  }
  // `import pkg.|`, `from pkg.|`, `from .|`.
  static const std::regex ModulePath(R"(^\s*(?:from|import)\s+(\.*(?:[A-Za-z_]\w*\.)*)\w*$)");
  if (std::regex_match(Line, Mt, ModulePath)) {
    std::string Package = Mt[1].str();
    if (!Package.empty() && Package.back() == '.' && Package.find_first_not_of('.') != std::string::npos)
      Package.pop_back();
    if (project::isExternalRoot(Package.substr(0, Package.find('.'))))
      return std::nullopt;
    if (Package.empty() || Package.find_first_not_of('.') == std::string::npos) {
      if (Package.empty())
        C.submodules("");
      else if (std::string Abs = project::Project::absolute(Package, From); !Abs.empty())
        C.submodules(Abs);
    } else {
      C.submodules(Package);
    }
    return C.take();
  }
  // `mod.|` where mod is an imported module of the project.
  static const std::regex Member(R"(([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.\w*$)");
  if (!std::regex_search(Line, Mt, Member) || !F.Report.Analysis)
    return std::nullopt;
  std::string Dotted = Mt[1].str();
  if (Mt.position(0) > 0 && Line[Mt.position(0) - 1] == '.')
    return std::nullopt; // `x().mod.`: not a plain dotted name
  std::string Head = Dotted.substr(0, Dotted.find('.'));
  const ModuleInfo &Info = F.Report.Analysis->Info;
  auto It = Info.Imports.find(Head);
  if (It == Info.Imports.end() || (F.Parsed && shadowedAt(F.Parsed->module(), Offset, Head)))
    return std::nullopt;
  std::string Qualified = It->second + Dotted.substr(Head.size());
  size_t Lead = Qualified.find_first_not_of('.');
  if (Lead == 0 && project::isExternalRoot(Qualified.substr(0, Qualified.find('.'))))
    return std::nullopt;
  project::Symbol S = P.resolve(Qualified, From);
  if (S.K != project::Symbol::Kind::Module)
    return std::nullopt;
  C.members(S);
  return C.take();
}

} // namespace tessel::lsp
