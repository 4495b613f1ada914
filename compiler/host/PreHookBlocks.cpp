//===- PreHookBlocks.cpp - descriptor block shapes from pre_hooks ---------===//
#include "compiler/host/PreHookBlocks.h"

#include "compiler/host/TensorDescriptorModel.h"
#include "compiler/host/TorchLibrary.h"
#include "compiler/host/Wrappers.h"

#include <memory>

namespace tessel::host {

std::map<std::string, std::vector<int64_t>> preHookBlockShapes(const ParsedFile &File, const ModuleInfo &Info,
                                                               const PyConfig &Config,
                                                               const std::map<std::string, size_t> &Ranks,
                                                               const PyDict &Args) {
  std::map<std::string, std::vector<int64_t>> Out;
  if (!Config.PreHook || Ranks.empty())
    return Out;
  ModuleRun Module(File, Info, torchLibrary());
  // Descriptors whose block shape only the hook can give: Unknown until it does.
  std::map<std::string, PyValue> Descs;
  PyDict Nargs = Args;
  for (const auto &[Param, Rank] : Ranks) {
    auto D = std::make_shared<PyDescriptor>();
    D->Base = madeUpTensor(std::vector<int64_t>(Rank, 64), "", Param).asTensor();
    PyList Shape, Strides;
    for (size_t I = 0; I < Rank; ++I) {
      Shape.push_back(PyValue::integer(D->Base.Shape[I]));
      Strides.push_back(PyValue::integer(D->Base.Strides[I]));
    }
    D->Shape = PyValue::list(std::move(Shape));
    D->Strides = PyValue::list(std::move(Strides));
    PyValue V = PyValue::descriptor(std::move(D));
    Descs.emplace(Param, V);
    Nargs.emplace_back(PyValue::string(Param), V);
  }
  runPreHook(Config, std::move(Nargs), Module.eval());
  for (const auto &[Param, V] : Descs)
    if (std::optional<std::vector<int64_t>> Block = descriptormodel::intsOf(V.asDescriptor().BlockShape);
        Block && Block->size() == Ranks.at(Param))
      Out[Param] = *Block;
  return Out;
}

} // namespace tessel::host
