//===- CudaKernel.h - a `__global__` function as Clang's AST shows it -*- C++ -*-===//
/// \file
/// What tessel needs to know of a CUDA reference kernel to launch it on a
/// Triton kernel's inputs: its name (as written and as mangled), its template
/// arguments, and each parameter's name, type and what it points to, in the
/// terms of a launch spec (Triton's dtype names). Plain data, no Clang types.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_CUDAKERNEL_H
#define TESSEL_COMPILER_REFERENCE_CUDAKERNEL_H

#include <string>
#include <vector>

namespace tessel::reference {

struct CudaParam {
  std::string Name;
  std::string Type;          ///< as Clang prints it: `const float *__restrict`
  bool Pointer = false;      ///< a pointer parameter (a tensor's base)
  bool ConstPointee = false; ///< `const T *`: the kernel does not write through it
  /// The pointee's (pointer) or the value's (scalar) dtype in Triton's names
  /// ("fp32", "fp16", "bf16", "i32", "i64", "u8"...); empty when it has none
  /// (a struct, a vector type such as float4).
  std::string DType;
  unsigned Line = 0; ///< 1-based, in the .cu file
};

struct CudaKernel {
  std::string Name;         ///< as written: `softmax_rows`
  std::string Mangled;      ///< the PTX entry: `_Z12softmax_rowsILi256EEvPKfPfi`
  std::string TemplateArgs; ///< as Clang prints them: `256`
  std::vector<CudaParam> Params;
  unsigned Line = 0;
};

/// The dtype of a type Clang prints as Spelling (canonical, unqualified):
/// "float" -> fp32, "__half" -> fp16, "__nv_bfloat16" -> bf16, "int" -> i32...
std::string dtypeOfCudaType(const std::string &Spelling);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_CUDAKERNEL_H
