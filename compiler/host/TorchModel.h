//===- TorchModel.h - host tensors as a launch sees them --------*- C++ -*-===//
/// \file
/// What the host code around a kernel does with PyTorch tensors, modelled as
/// far as a launch needs it: shapes, strides, dtypes and the allocation a
/// view still reaches, never contents beyond how a factory fills them
/// (`torch.randint(0, 8, ...)` holds integers in [0, 8)).
/// `torch.randn(M, N)`, `torch.empty_like(x)`, `x.view(-1)`, `x.stride(0)`,
/// `x.numel()`, `x.shape`, `x.to(torch.float16)`, `x.t()`, `x[:, 28:]` are
/// exact; anything that needs the values (`x.max().item()`, `x + 1`,
/// indexing by a tensor) is Unknown.
/// ConstEval calls these only in host mode (ConstEval::setHostMode), when it
/// runs a wrapper to find the launch it makes.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_TORCHMODEL_H
#define TESSEL_COMPILER_HOST_TORCHMODEL_H

#include "compiler/frontend/PyValue.h"

#include <optional>
#include <string>
#include <vector>

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
/// Elements T reaches from its first one: 1 + the offset of its last
/// element, or the rest of its base's allocation for a view (Extent); 0
/// when empty and not a view.
int64_t reach(const PyTensor &T);
/// `t[0]`, `t[:, 28:]`, `t[..., None]`: the view basic indexing makes (no
/// copy: its strides, and the allocation it still reaches past its own
/// span, PyTensor::Extent). Unknown for an index out of range, a negative
/// step, or more indices than dimensions.
PyValue tensorIndex(const PyTensor &T, const std::vector<TensorIndexPart> &Parts);
/// An arithmetic operator with a tensor operand (`torch.rand(n) - 0.5`,
/// `x * w`): the broadcast shape and PyTorch's result dtype (a Python float
/// with an integer tensor gives float32; true division of integers too).
/// Unknown when the shapes do not broadcast or a dtype is not known.
PyValue elementwise(const PyValue &A, const PyValue &B, bool TrueDivision);

} // namespace tessel::torchmodel

#endif // TESSEL_COMPILER_HOST_TORCHMODEL_H
