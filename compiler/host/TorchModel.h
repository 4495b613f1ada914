//===- TorchModel.h - host tensors as a launch sees them --------*- C++ -*-===//
/// \file
/// What the host code around a kernel does with PyTorch tensors, modelled as
/// far as a launch needs it: shapes, strides and dtypes, never contents.
/// `torch.randn(M, N)`, `torch.empty_like(x)`, `x.view(-1)`, `x.stride(0)`,
/// `x.numel()`, `x.shape`, `x.to(torch.float16)`, `x.t()` are exact; anything
/// that needs the values (`x.max().item()`, `x + 1`, indexing) is Unknown.
/// ConstEval calls these only in host mode (ConstEval::setHostMode), when it
/// runs a wrapper to find the launch it makes.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_TORCHMODEL_H
#define TESSEL_COMPILER_HOST_TORCHMODEL_H

#include "compiler/frontend/PyValue.h"

#include <optional>
#include <string>

namespace tessel::torchmodel {

/// Largest tensor modelled, in elements: bigger ones are Unknown, so that a
/// benchmark's sizes never become a run on the CPU interpreter.
constexpr int64_t MaxElements = int64_t(1) << 28;

/// A call of a `torch.*` function that makes or describes a tensor, or
/// nullopt when Path is no such function (the caller then tries others).
std::optional<PyValue> callTorch(const std::string &Path, const PyList &Args, const PyDict &Kwargs);
/// `t.shape`, `t.dtype` (as `torch.float16`), `t.ndim`, `t.T`, `t.mT`, `t.data`.
PyValue tensorAttribute(const PyTensor &T, const std::string &Attr);
/// `t.stride(0)`, `t.numel()`, `t.view(-1, N)`, `t.contiguous()`, `t.to(dtype)`...
PyValue tensorMethod(const PyTensor &T, const std::string &Name, const PyList &Args, const PyDict &Kwargs);
/// An arithmetic operator with a tensor operand (`torch.rand(n) - 0.5`,
/// `x * w`): the broadcast shape and PyTorch's result dtype (a Python float
/// with an integer tensor gives float32; true division of integers too).
/// Unknown when the shapes do not broadcast or a dtype is not known.
PyValue elementwise(const PyValue &A, const PyValue &B, bool TrueDivision);

} // namespace tessel::torchmodel

#endif // TESSEL_COMPILER_HOST_TORCHMODEL_H
