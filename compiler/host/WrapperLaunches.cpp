//===- WrapperLaunches.cpp - the launch an uncalled wrapper makes ---------===//
#include "compiler/host/WrapperLaunches.h"

#include "compiler/host/ProjectLibrary.h"
#include "compiler/host/TorchLibrary.h"
#include "compiler/host/Wrappers.h"

#include <memory>

namespace tessel::host {

/// The shape every tensor argument of a made-up call has, by rank, in the
/// order tried (WrapperLaunches.h).
static std::vector<std::vector<int64_t>> madeUpShapes(int64_t Size) {
  int64_t Quarter = std::max<int64_t>(Size / 4, 1);
  return {{Size, Size}, {Size}, {4, Quarter, Quarter}, {2, 4, Quarter, 64}};
}

static std::string shapeText(const std::vector<int64_t> &Shape) {
  std::string S;
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Shape[I]);
  return "[" + S + "]";
}

std::optional<HostLaunch> wrapperLaunch(const ParsedFile &File, const ModuleInfo &Info, project::Project *Project,
                                        const std::string &Kernel, const PyConfig &Config, int64_t Size) {
  std::vector<std::pair<std::string, const ast::FunctionDefStmt *>> Wrappers = hostWrappers(File, Info);
  if (Wrappers.empty())
    return std::nullopt;
  std::unique_ptr<ProjectLibrary> Imports;
  if (Project)
    Imports = std::make_unique<ProjectLibrary>(*Project, Project->refOf(File.text().path()));
  ModuleRun Module(File, Info, Imports ? static_cast<const HostLibrary &>(*Imports) : torchLibrary(), Config);
  for (const auto &[Name, Fn] : Wrappers) {
    std::set<std::string> Tensors = tensorParameters(*Fn);
    // Each shape in turn, until the wrapper launches something.
    for (const std::vector<int64_t> &Shape : madeUpShapes(Size)) {
      auto Int = [Size](const std::string &) -> std::optional<int64_t> { return Size; };
      // Parameters it never uses as tensors stay unknown: a flag or a mode
      // string made a tensor would send the wrapper down no real path.
      auto Tensor = [&](const std::string &Param) {
        return Tensors.count(Param) ? madeUpTensor(Shape, "", Param) : PyValue();
      };
      std::optional<PyList> Args = wrapperArguments(*Fn, Module.eval(), Int, Tensor);
      if (!Args)
        break;
      std::vector<std::pair<std::string, HostLaunch>> Launches = Module.call(Fn, *Args);
      for (auto &[K, L] : Launches)
        if (K == Kernel && L.BindError.empty()) {
          L.MadeUpCall = "`" + Name + "` (nothing in the file calls it) called with tensors of shape " +
                         shapeText(Shape) + " and unknown dtype";
          return std::move(L);
        }
      if (!Launches.empty())
        break; // the first rank it launches with
    }
  }
  return std::nullopt;
}

} // namespace tessel::host
