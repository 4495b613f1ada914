//===- CudaKernel.cpp - CUDA types in a launch spec's dtype names ---------===//
/// \file
/// The element types a CUDA kernel's parameters point to, named as Triton and
/// the launch spec name them, so that a parameter can be checked against the
/// tensor or scalar it is given. Spellings are Clang's canonical ones
/// (`int64_t` is `long` on the x86-64 host a CUDA compile pairs with).
//===----------------------------------------------------------------------===//

#include "compiler/reference/CudaKernel.h"

#include <map>

namespace tessel::reference {

std::string dtypeOfCudaType(const std::string &Spelling) {
  static const std::map<std::string, std::string> Names = {
      {"float", "fp32"},
      {"double", "fp64"},
      {"__half", "fp16"},
      {"half", "fp16"},
      {"_Float16", "fp16"},
      {"__nv_bfloat16", "bf16"},
      {"__bf16", "bf16"},
      {"bool", "i1"},
      {"signed char", "i8"},
      {"char", "i8"},
      {"unsigned char", "u8"},
      {"short", "i16"},
      {"unsigned short", "u16"},
      {"int", "i32"},
      {"unsigned int", "u32"},
      {"long", "i64"},
      {"long long", "i64"},
      {"unsigned long", "u64"},
      {"unsigned long long", "u64"},
  };
  auto It = Names.find(Spelling);
  return It == Names.end() ? std::string() : It->second;
}

} // namespace tessel::reference
