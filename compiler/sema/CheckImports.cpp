//===- CheckImports.cpp - names a kernel takes from other modules ---------===//
/// \file
/// The cross-module half of KernelChecker's name lookup. An imported name
/// resolves through the project model (compiler/project) to a function, a
/// module-level value or a module of another file; a @jit function found so
/// is inlined as Triton does, and its body then runs in its own module's
/// scope (its globals, imports and constexprs, its own further imports), as
/// Triton evaluates a JITFunction against its `__globals__`. Whatever the
/// project cannot resolve (torch, a module chosen at run time, a file outside
/// the roots) is an Unknown constexpr, on which every check is silent.
///
/// A problem found inside another module's helper is reported at the call
/// in the checked file that entered that module, with the helper's own
/// token first among the related locations (in its file): a finding never
/// carries a range of another file as if it were in this one.
//===----------------------------------------------------------------------===//
#include "compiler/sema/KernelChecker.h"

#include <algorithm>

namespace tessel::sema {

const ModuleScope *KernelChecker::scopeFor(const std::shared_ptr<const project::Module> &M) {
  Reads[M->Ref.Path] = M->Hash;
  // A module importing back from the checked file sees the version being
  // checked (the open buffer), not the one on disk.
  if (!Root.Ref.Path.empty() && M->Ref.Path == Root.Ref.Path)
    return &Root;
  std::unique_ptr<ModuleScope> &Slot = Imported[M.get()];
  if (!Slot) {
    Slot = std::make_unique<ModuleScope>();
    Slot->File = M->File.get();
    Slot->Info = &M->Info;
    Slot->Ref = M->Ref;
    Slot->Mod = M;
  }
  return Slot.get();
}

const ModuleScope *KernelChecker::ownerOf(const ast::FunctionDefStmt *Fn) const {
  auto It = Owners.find(Fn);
  return It == Owners.end() ? Scope : It->second;
}

Value KernelChecker::functionIn(const ModuleScope &S, const ast::FunctionDefStmt *Fn) {
  Owners.emplace(Fn, &S);
  return Value::constant(PyValue::function(Fn));
}

Value KernelChecker::symbolValue(const project::Symbol &Sym, SourceRange R) {
  using K = project::Symbol::Kind;
  switch (Sym.K) {
  case K::Unknown:
    return Value::constant(PyValue());
  case K::External:
    // `from triton.language import *` names only what triton.language has.
    if (Sym.ViaStar && Sym.Path.rfind("triton.language.", 0) == 0 &&
        !languageMember(std::string_view(Sym.Path).substr(16)))
      return Value::constant(PyValue());
    return Value::constant(PyValue::qualified(Sym.Path));
  case K::Module:
    if (Sym.Mod)
      Reads[Sym.Mod->Ref.Path] = Sym.Mod->Hash;
    return Value::constant(PyValue::qualified(Sym.Path));
  case K::Function:
    return functionIn(*scopeFor(Sym.Mod), Sym.Def);
  case K::Global:
    // The global's own module decides what it is (a constexpr, an alias).
    return evalGlobalIn(*scopeFor(Sym.Mod), Sym.Global->Name, R);
  }
  return Value::constant(PyValue());
}

/// `triton.language.math.exp2` (an import or alias of a submodule's member)
/// is the builtin `tl.exp2` that evalAttribute gives for `tl.math.exp2`.
static PyValue externalValue(const std::string &Path) {
  for (std::string_view Sub :
       {"triton.language.math.", "triton.language.core.", "triton.language.standard.", "triton.language.random."})
    if (Path.size() > Sub.size() && Path.compare(0, Sub.size(), Sub) == 0 &&
        Path.find('.', Sub.size()) == std::string::npos)
      if (const PyValue *Member = languageMember(std::string_view(Path).substr(Sub.size())))
        return *Member;
  return PyValue::qualified(Path);
}

Value KernelChecker::importedValue(const ModuleScope &S, const std::string &Path, SourceRange R) {
  std::string_view Head = std::string_view(Path).substr(0, Path.find('.'));
  if (project::isExternalRoot(Head))
    return Value::constant(externalValue(Path));
  Value V = Opts.Project ? symbolValue(Opts.Project->resolve(Path, S.Ref, &Reads), R) : Value::constant(PyValue());
  // `import torch` outside PyTorch's own tree: the module, whose few members
  // kernels read at compile time evalAttribute knows (the rest stay Unknown).
  if (Path == "torch" && V.isConstexpr() && V.Const.isUnknown())
    return Value::constant(PyValue::qualified(Path));
  return V;
}

Value KernelChecker::moduleAttribute(const std::string &Path, const std::string &Attr, SourceRange R) {
  if (!Opts.Project)
    return Value::constant(PyValue());
  // Module values hold absolute names, so any importer's roots find them.
  return symbolValue(Opts.Project->resolve(Path + "." + Attr, Scope->Ref, &Reads), R);
}

Value KernelChecker::starImported(const ModuleScope &S, const std::string &Name, SourceRange R) {
  for (const std::string &Star : S.Info->StarImports) {
    std::string Abs = project::Project::absolute(Star, S.Ref);
    if (Abs.empty())
      continue;
    if (Abs == "triton.language" || Abs.rfind("triton.language.", 0) == 0) {
      if (languageMember(Name))
        return Value::constant(PyValue::qualified("triton.language." + Name));
      continue;
    }
    if (!Opts.Project)
      continue;
    project::Symbol From = Opts.Project->resolve(Abs, S.Ref, &Reads);
    if (From.K != project::Symbol::Kind::Module || !From.Mod)
      continue;
    bool Exported = From.Mod->All ? std::count(From.Mod->All->begin(), From.Mod->All->end(), Name) > 0
                                  : !Name.empty() && Name[0] != '_';
    if (!Exported)
      continue;
    project::Symbol Sym = Opts.Project->member(From.Mod, Name, &Reads);
    if (Sym.K != project::Symbol::Kind::Unknown)
      return symbolValue(Sym, R);
  }
  return Value::constant(PyValue());
}

void KernelChecker::placeProblem(Problem &P) const {
  if (Scope == &Root)
    return;
  // The innermost call made from the checked file into another module.
  const Frame *Entry = nullptr;
  for (size_t I = Frames.size(); I-- > 1;)
    if (Frames[I].Scope != &Root && Frames[I - 1].Scope == &Root && Frames[I].CallSite) {
      Entry = &Frames[I];
      break;
    }
  if (!Entry)
    return;
  const ModuleScope &Where = *Scope;
  std::string Helper = Frames.back().Fn ? Frames.back().Fn->Name : std::string("helper");
  RelatedLocation Inner{P.Range, "in `" + Helper + "` (" + Where.Ref.Name + ")", Where.File->textPtr()};
  P.Range = Entry->CallSite->Range;
  // The call that became the problem's range needs no note of its own.
  std::erase_if(P.Related, [&](const RelatedLocation &L) { return !L.File && L.Range == P.Range; });
  P.Related.insert(P.Related.begin(), std::move(Inner));
}

} // namespace tessel::sema
