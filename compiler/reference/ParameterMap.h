//===- ParameterMap.h - a launch's tensors and scalars onto CUDA parameters -*- C++ -*-===//
/// \file
/// Binds every parameter of a CUDA reference kernel to what a Triton launch
/// has: a pointer parameter to a tensor of the same element type, a scalar to
/// a size or scalar value. A parameter is looked up by its own name, or by the
/// name the directive gives it (`x=x_ptr`). The first parameter that cannot be
/// bound is the error, in one line that names it, its type and what to write.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_PARAMETERMAP_H
#define TESSEL_COMPILER_REFERENCE_PARAMETERMAP_H

#include "compiler/frontend/LaunchSpec.h"
#include "compiler/reference/CudaKernel.h"
#include "compiler/reference/ReferenceDirective.h"

#include <string>
#include <vector>

namespace tessel::reference {

/// One parameter's argument: the launch's tensor (its index in
/// ConcreteLaunch::Tensors) or value.
struct Binding {
  enum class Kind { Tensor, Int, Float };
  Kind K = Kind::Int;
  std::string Param;  ///< the CUDA parameter
  std::string Source; ///< the launch's name
  size_t Tensor = 0;  ///< Kind::Tensor
  std::string DType;  ///< the parameter's dtype (a scalar's width: i32, i64, fp32, fp64)
  int64_t Int = 0;
  double Float = 0;
};

struct ParameterMap {
  std::vector<Binding> Args; ///< in parameter order
  std::string Error;         ///< one line; empty when every parameter is bound
  /// Output tensors of the launch that no non-const pointer parameter gets:
  /// the reference cannot be compared on them.
  std::vector<std::string> UnwrittenOutputs;
};

ParameterMap mapParameters(const CudaKernel &K, const ReferenceDirective &D, const launch::ConcreteLaunch &L);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_PARAMETERMAP_H
