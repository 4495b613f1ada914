//===- TensorDescriptorModel.h - host TensorDescriptors ---------*- C++ -*-===//
/// \file
/// `triton.tools.tensor_descriptor.TensorDescriptor` as host code builds and
/// changes it before a launch: `TensorDescriptor.from_tensor(t,
/// block_shape=[1, 1])` in a wrapper, then an autotune config's pre_hook
/// setting `nargs["a_desc"].block_shape = [BLOCK_M, BLOCK_K]` from the
/// config's constexprs (Triton's persistent-matmul tutorial, Liger-Kernel,
/// tritonbench, lmdeploy, vllm all do this). The constructor checks what
/// `TensorDescriptor.__post_init__` asserts that the model can know (rank,
/// a contiguous last dimension, the padding); a descriptor it rejects is
/// Unknown, as a raise ends the host path.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_TENSORDESCRIPTORMODEL_H
#define TESSEL_COMPILER_HOST_TENSORDESCRIPTORMODEL_H

#include "compiler/frontend/PyValue.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::descriptormodel {

/// `TensorDescriptor(base, shape, strides, block_shape, padding="zero")` or
/// `TensorDescriptor.from_tensor(tensor, block_shape, padding="zero")`;
/// nullopt when Path names neither.
std::optional<PyValue> callDescriptor(const std::string &Path, const PyList &Args, const PyDict &Kwargs);
/// `d.base`, `d.shape`, `d.strides`, `d.block_shape`, `d.padding`.
std::optional<PyValue> descriptorAttribute(const PyDescriptor &D, const std::string &Attr);
/// `d.block_shape = [...]` (and shape, strides, padding): false when Attr
/// is no field the model keeps, or the value is not one it can hold (the
/// field becomes Unknown then).
bool setDescriptorAttribute(PyDescriptor &D, const std::string &Attr, const PyValue &V);
/// A sequence of ints as a vector; nullopt when any is not known.
std::optional<std::vector<int64_t>> intsOf(const PyValue &V);

} // namespace tessel::descriptormodel

#endif // TESSEL_COMPILER_HOST_TENSORDESCRIPTORMODEL_H
