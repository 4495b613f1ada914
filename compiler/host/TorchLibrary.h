//===- TorchLibrary.h - torch and the device for ConstEval's host mode -*- C++ -*-===//
/// \file
/// The HostLibrary that host-mode evaluation calls: PyTorch's tensors
/// (TorchModel.h) and the device they live on (DeviceModel.h), one object
/// for every evaluator of the process.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_TORCHLIBRARY_H
#define TESSEL_COMPILER_HOST_TORCHLIBRARY_H

#include "compiler/frontend/ConstEval.h"

namespace tessel::host {

/// Stateless: the device it answers for is DeviceModel's target.
const HostLibrary &torchLibrary();

} // namespace tessel::host

#endif // TESSEL_COMPILER_HOST_TORCHLIBRARY_H
