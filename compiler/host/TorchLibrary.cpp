//===- TorchLibrary.cpp - torch and the device for ConstEval's host mode --===//
#include "compiler/host/TorchLibrary.h"

#include "compiler/host/DeviceModel.h"
#include "compiler/host/TensorDescriptorModel.h"
#include "compiler/host/TorchModel.h"

namespace tessel::host {
namespace {

class TorchLibrary final : public HostLibrary {
public:
  std::optional<PyValue> call(const std::string &Path, const PyList &Args, const PyDict &Kwargs) const override {
    if (std::optional<PyValue> D = devicemodel::callDevice(Path, Args))
      return D;
    if (std::optional<PyValue> D = descriptormodel::callDescriptor(Path, Args, Kwargs))
      return D;
    return torchmodel::callTorch(Path, Args, Kwargs);
  }

  std::optional<PyValue> attribute(const PyValue &V, const std::string &Attr) const override {
    if (V.isTensor())
      return torchmodel::tensorAttribute(V.asTensor(), Attr);
    if (V.isDescriptor())
      return descriptormodel::descriptorAttribute(V.asDescriptor(), Attr);
    if (V.kind() == PyValue::Kind::Qualified && V.qualifiedPath() == devicemodel::TorchProperties)
      return devicemodel::torchPropertiesAttribute(Attr);
    return std::nullopt;
  }

  bool setAttribute(const PyValue &V, const std::string &Attr, const PyValue &X) const override {
    return V.isDescriptor() && descriptormodel::setDescriptorAttribute(V.asDescriptor(), Attr, X);
  }

  PyValue tensorMethod(const PyTensor &T, const std::string &Name, const PyList &Args,
                       const PyDict &Kwargs) const override {
    return torchmodel::tensorMethod(T, Name, Args, Kwargs);
  }

  PyValue elementwise(const PyValue &A, const PyValue &B, bool TrueDivision) const override {
    return torchmodel::elementwise(A, B, TrueDivision);
  }
  PyValue tensorIndex(const PyTensor &T, const std::vector<TensorIndexPart> &Parts) const override {
    return torchmodel::tensorIndex(T, Parts);
  }
};

} // namespace

const HostLibrary &torchLibrary() {
  static const TorchLibrary L;
  return L;
}

} // namespace tessel::host
