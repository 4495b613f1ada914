//===- ProjectLibrary.h - what host code calls, across the project -*- C++ -*-===//
/// \file
/// Host code sizes its launches with helpers from other modules of its
/// project (`BLOCK_SIZE, num_warps = calculate_settings(n_cols)` from
/// Liger's utils.py, attorch's config helpers). The host library of one
/// module answers torch and the device as TorchLibrary does, and runs a
/// plain-Python function another module of the project defines in that
/// module (its globals, its imports): the module is imported once per
/// library, as Python imports it once per process.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_PROJECTLIBRARY_H
#define TESSEL_COMPILER_HOST_PROJECTLIBRARY_H

#include "compiler/frontend/ConstEval.h"
#include "compiler/project/Project.h"

#include <map>
#include <memory>
#include <string>

namespace tessel::host {

class ModuleRun;

class ProjectLibrary final : public HostLibrary {
public:
  /// From: the module whose host code runs. Depth: how many imports deep it
  /// is (a chain of helpers stops at MaxDepth).
  ProjectLibrary(project::Project &P, project::ModuleRef From, int Depth = 0);
  ~ProjectLibrary() override;
  ProjectLibrary(const ProjectLibrary &) = delete;
  ProjectLibrary &operator=(const ProjectLibrary &) = delete;

  std::optional<PyValue> call(const std::string &Path, const PyList &Args, const PyDict &Kwargs) const override;
  std::optional<PyValue> attribute(const PyValue &V, const std::string &Attr) const override;
  bool setAttribute(const PyValue &V, const std::string &Attr, const PyValue &X) const override;
  PyValue tensorMethod(const PyTensor &T, const std::string &Name, const PyList &Args,
                       const PyDict &Kwargs) const override;
  PyValue elementwise(const PyValue &A, const PyValue &B, bool TrueDivision) const override;
  PyValue tensorIndex(const PyTensor &T, const std::vector<TensorIndexPart> &Parts) const override;

  static constexpr int MaxDepth = 3;

private:
  struct Imported;
  /// The module at Path imported (its module-level code run), or null.
  Imported *imported(const std::shared_ptr<const project::Module> &M) const;

  project::Project &P;
  project::ModuleRef From;
  int Depth;
  mutable std::map<std::string, std::unique_ptr<Imported>> Modules; ///< by path
};

} // namespace tessel::host

#endif // TESSEL_COMPILER_HOST_PROJECTLIBRARY_H
