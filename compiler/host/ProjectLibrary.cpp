//===- ProjectLibrary.cpp - what host code calls, across the project ------===//
#include "compiler/host/ProjectLibrary.h"

#include "compiler/host/TorchLibrary.h"
#include "compiler/host/Wrappers.h"

namespace tessel::host {

struct ProjectLibrary::Imported {
  std::shared_ptr<const project::Module> Mod; ///< keeps the tree ModuleRun reads alive
  std::unique_ptr<ProjectLibrary> Library;
  std::unique_ptr<ModuleRun> Run;
};

ProjectLibrary::ProjectLibrary(project::Project &P, project::ModuleRef From, int Depth)
    : P(P), From(std::move(From)), Depth(Depth) {}

ProjectLibrary::~ProjectLibrary() = default;

ProjectLibrary::Imported *ProjectLibrary::imported(const std::shared_ptr<const project::Module> &M) const {
  if (!M || !M->File || Depth >= MaxDepth)
    return nullptr;
  std::unique_ptr<Imported> &Slot = Modules[M->Ref.Path];
  if (!Slot) {
    Slot = std::make_unique<Imported>();
    Slot->Mod = M;
    Slot->Library = std::make_unique<ProjectLibrary>(P, M->Ref, Depth + 1);
    Slot->Run = std::make_unique<ModuleRun>(*M->File, M->Info, *Slot->Library);
  }
  return Slot.get();
}

std::optional<PyValue> ProjectLibrary::call(const std::string &Path, const PyList &Args, const PyDict &Kwargs) const {
  if (std::optional<PyValue> R = torchLibrary().call(Path, Args, Kwargs))
    return R;
  if (project::isExternalRoot(Path.substr(0, Path.find('.'))))
    return std::nullopt;
  project::Symbol S = P.resolve(Path, From);
  // A @jit function called from host code is no helper to run (and the
  // module's own launches are found where it is checked).
  if (S.K != project::Symbol::Kind::Function || !S.Def || !S.Mod || S.Mod->Info.Jit.count(S.Def->Name))
    return std::nullopt;
  Imported *I = imported(S.Mod);
  if (!I)
    return std::nullopt;
  return I->Run->eval().call(S.Def, Args, Kwargs);
}

std::optional<PyValue> ProjectLibrary::attribute(const PyValue &V, const std::string &Attr) const {
  return torchLibrary().attribute(V, Attr);
}

bool ProjectLibrary::setAttribute(const PyValue &V, const std::string &Attr, const PyValue &X) const {
  return torchLibrary().setAttribute(V, Attr, X);
}

PyValue ProjectLibrary::tensorMethod(const PyTensor &T, const std::string &Name, const PyList &Args,
                                     const PyDict &Kwargs) const {
  return torchLibrary().tensorMethod(T, Name, Args, Kwargs);
}

PyValue ProjectLibrary::elementwise(const PyValue &A, const PyValue &B, bool TrueDivision) const {
  return torchLibrary().elementwise(A, B, TrueDivision);
}

PyValue ProjectLibrary::tensorIndex(const PyTensor &T, const std::vector<TensorIndexPart> &Parts) const {
  return torchLibrary().tensorIndex(T, Parts);
}

} // namespace tessel::host
