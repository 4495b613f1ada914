//===- ProjectReferences.cpp - references and rename across the project ---===//
/// \file
/// Each candidate file is read as the project's Module (the same ParsedFile
/// and ModuleInfo its importers see) and searched only when its text holds
/// the name at all, so a rename in a large workspace parses only the files
/// that may mention it. Within a file, the single-file Finder
/// (occurrencesIn) does the scoping: an unaliased import binds the name at
/// module level exactly as a `def` would.
//===----------------------------------------------------------------------===//
#include "lsp/features/ProjectReferences.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"
#include "lsp/features/ProjectNavigation.h"

#include <algorithm>

namespace tessel::lsp {

using namespace ast;

/// Module M seen as an analysed file, for the single-file searches.
static AnalyzedFile asAnalyzedFile(const project::Module &M) {
  AnalyzedFile A;
  A.Doc.Text = M.File->textPtr();
  A.Parsed = M.File;
  auto FA = std::make_shared<sema::FileAnalysis>();
  FA->File = M.File;
  FA->Info = M.Info;
  A.Report.Analysis = std::move(FA);
  return A;
}

static bool isTarget(const project::Symbol &S, const ProjectFunction &Fn) {
  return S.K == project::Symbol::Kind::Function && S.Mod && S.Def && S.Mod->Ref.Path == Fn.DefPath &&
         S.Def->Name == Fn.Name;
}

std::optional<ProjectFunction> projectFunctionAt(const AnalyzedFile &F, uint32_t Offset, project::Project &P,
                                                 std::string &Why) {
  project::ModuleRef Ref = moduleRefOf(F, P);
  if (Ref.Path.empty()) {
    Why = "the document has no file, so it belongs to no project";
    return std::nullopt;
  }
  if (auto T = targetAt(F, Offset, Why)) {
    if (T->Scope != SymbolScope::Function)
      return std::nullopt;
    return ProjectFunction{Ref.Path, T->Name, T->At};
  }
  std::string Own = Why;
  auto N = importedNameAt(F, Offset, P);
  if (!N || N->Sym.K != project::Symbol::Kind::Function || !N->Sym.Def || !N->Sym.Mod) {
    Why = Own;
    return std::nullopt;
  }
  return ProjectFunction{N->Sym.Mod->Ref.Path, N->Sym.Def->Name, N->Range};
}

/// The occurrences of Fn in the module M of another file: import names,
/// the uses they bind, attribute uses through module imports.
static std::vector<Occurrence> importerOccurrences(const std::shared_ptr<const project::Module> &M,
                                                   const ProjectFunction &Fn, project::Project &P) {
  std::vector<Occurrence> Out;
  const SourceText &Text = M->File->text();
  bool BindsName = false;
  for (const Stmt *S : M->File->module().Body) {
    auto *I = dyn_cast<ImportFromStmt>(S);
    if (!I)
      continue;
    std::string Base = std::string(static_cast<size_t>(std::max(I->Level, 0)), '.') + I->Module;
    for (const ImportAlias &A : I->Names) {
      if (A.Name != Fn.Name)
        continue;
      SourceRange Tok{A.Range.Begin, A.Range.Begin + static_cast<uint32_t>(A.Name.size())};
      if (Text.slice(Tok) != A.Name)
        continue;
      std::string Dotted = Base.empty() || Base.back() == '.' ? Base + A.Name : Base + "." + A.Name;
      if (!isTarget(P.resolve(Dotted, M->Ref), Fn))
        continue;
      Out.push_back({Tok, OccurrenceRole::Definition});
      BindsName |= A.AsName.empty();
    }
  }
  AnalyzedFile A = asAnalyzedFile(*M);
  if (BindsName) {
    RenameTarget T{Fn.Name, SymbolScope::Function, {}, false, {}};
    for (const Occurrence &O : occurrencesIn(A, T))
      Out.push_back({O.Range, O.Role == OccurrenceRole::Definition ? OccurrenceRole::Write : O.Role});
  }
  // `utils.helper(...)`, `pkg.utils.helper[grid](...)`.
  forEachExpr(M->File->module(), [&](const Expr &E) {
    auto *Attr = dyn_cast<AttributeExpr>(&E);
    if (!Attr || Attr->Attr != Fn.Name)
      return;
    std::string Q = M->Info.qualify(Attr);
    if (!Q.empty() && isTarget(P.resolve(Q, M->Ref), Fn))
      Out.push_back({Attr->AttrRange, OccurrenceRole::Read});
  });
  std::sort(Out.begin(), Out.end(), [](const Occurrence &X, const Occurrence &Y) { return X.Range < Y.Range; });
  Out.erase(
      std::unique(Out.begin(), Out.end(), [](const Occurrence &X, const Occurrence &Y) { return X.Range == Y.Range; }),
      Out.end());
  return Out;
}

std::vector<FileOccurrences> projectOccurrences(const ProjectFunction &Fn, const std::vector<std::string> &Candidates,
                                                project::Project &P) {
  std::vector<FileOccurrences> Out;
  std::shared_ptr<const project::Module> Def = P.moduleAt(Fn.DefPath);
  if (!Def)
    return Out;
  {
    AnalyzedFile A = asAnalyzedFile(*Def);
    RenameTarget T{Fn.Name, SymbolScope::Function, {}, false, {}};
    FileOccurrences Own{Def->Ref.Path, Def->File->textPtr(), occurrencesIn(A, T)};
    // The defining file may also reach the function through its own module
    // (`import pkg.utils as u` inside pkg/utils.py is rare but legal).
    Out.push_back(std::move(Own));
  }
  for (const std::string &Path : Candidates) {
    std::string Normal = project::normalPath(Path);
    if (Normal == Def->Ref.Path)
      continue;
    project::FileSet::Contents C = P.files().contents(Normal);
    if (!C.Text || C.Text->find(Fn.Name) == std::string::npos)
      continue;
    std::shared_ptr<const project::Module> M = P.moduleAt(Normal);
    if (!M)
      continue;
    std::vector<Occurrence> Found = importerOccurrences(M, Fn, P);
    if (!Found.empty())
      Out.push_back({M->Ref.Path, M->File->textPtr(), std::move(Found)});
  }
  return Out;
}

std::vector<FileOccurrences> projectKeywordOccurrences(const ProjectFunction &Fn, const std::string &Param,
                                                       const std::vector<std::string> &Candidates,
                                                       project::Project &P) {
  std::vector<FileOccurrences> Out;
  std::string DefPath = project::normalPath(Fn.DefPath);
  for (const std::string &Path : Candidates) {
    std::string Normal = project::normalPath(Path);
    if (Normal == DefPath)
      continue;
    project::FileSet::Contents C = P.files().contents(Normal);
    if (!C.Text || C.Text->find(Fn.Name) == std::string::npos || C.Text->find(Param) == std::string::npos)
      continue;
    std::shared_ptr<const project::Module> M = P.moduleAt(Normal);
    if (!M)
      continue;
    std::vector<Occurrence> Found;
    forEachExpr(M->File->module(), [&](const Expr &E) {
      auto *Call = dyn_cast<CallExpr>(&E);
      if (!Call)
        return;
      const Expr *Callee = Call->Func;
      if (auto *Sub = dyn_cast<SubscriptExpr>(Callee))
        Callee = Sub->Value; // `k[grid](...)`
      const Keyword *K = Call->keyword(Param);
      if (!K || !(isa<NameExpr>(Callee) || isa<AttributeExpr>(Callee)))
        return;
      std::string Q = M->Info.qualify(Callee);
      if (!Q.empty() && isTarget(P.resolve(Q, M->Ref), Fn))
        Found.push_back({K->NameRange, OccurrenceRole::Keyword});
    });
    if (!Found.empty())
      Out.push_back({M->Ref.Path, M->File->textPtr(), std::move(Found)});
  }
  return Out;
}

std::string projectRenameProblem(const ProjectFunction &Fn, const std::vector<FileOccurrences> &Files,
                                 const std::string &NewName, project::Project &P) {
  for (const FileOccurrences &FO : Files) {
    std::shared_ptr<const project::Module> M = P.moduleAt(FO.Path);
    if (!M)
      continue;
    AnalyzedFile A = asAnalyzedFile(*M);
    RenameTarget T{Fn.Name, SymbolScope::Function, {}, false, {}};
    if (std::string Why = renameProblem(A, T, NewName); !Why.empty())
      return Why + " (`" + M->Ref.Name + "`)";
  }
  return {};
}

} // namespace tessel::lsp
