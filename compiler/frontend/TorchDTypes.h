//===- TorchDTypes.h - torch dtype names and Triton's -----------*- C++ -*-===//
/// \file
/// `torch.float16` and Triton's "fp16" for one another: what host code
/// passes as a dtype (compiler/host's tensor model) and what compile-time
/// Python reads from one (`torch.finfo(torch.float16)`).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_TORCHDTYPES_H
#define TESSEL_COMPILER_FRONTEND_TORCHDTYPES_H

#include "compiler/frontend/PyValue.h"

#include <string>

namespace tessel::torchdtypes {

/// Triton's short name of a torch dtype value (`torch.float16` -> "fp16"),
/// or "" when V names none.
std::string tritonDType(const PyValue &V);
/// The `torch.X` spelling of a Triton short name (the canonical one), or
/// Unknown.
PyValue torchDType(const std::string &Triton);
/// The size of an element of a Triton short name's type; 0 when unknown.
int elementBytes(const std::string &Triton);

} // namespace tessel::torchdtypes

#endif // TESSEL_COMPILER_FRONTEND_TORCHDTYPES_H
