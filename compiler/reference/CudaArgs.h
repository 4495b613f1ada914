//===- CudaArgs.h - how Clang 19 compiles a CUDA file against CUDA 13 -*- C++ -*-===//
/// \file
/// The driver arguments of an in-process device-only compile of a CUDA C++
/// reference kernel, and the headers tessel supplies that the toolkit lacks.
/// Each flag is here for a reason Clang 19 and CUDA 13 give (CudaArgs.cpp says
/// which); docs/reference-kernels.md repeats them for the user.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_CUDAARGS_H
#define TESSEL_COMPILER_REFERENCE_CUDAARGS_H

#include "compiler/backend/Target.h"

#include <string>
#include <utility>
#include <vector>

namespace tessel::reference {

/// The folder of the virtual headers (cudaShimHeaders) in the compile's file system.
inline constexpr const char *ShimFolder = "/tessel-cuda-shims";

/// Headers Clang 19's CUDA wrapper includes that CUDA 13 no longer ships:
/// (path under ShimFolder, contents).
const std::vector<std::pair<std::string, std::string>> &cudaShimHeaders();

/// Clang's resource folder (its CUDA wrapper headers): $TESSEL_CLANG_RESOURCE_DIR,
/// the build's (TESSEL_CLANG_RESOURCE_DIR), or lib/clang/19 beside the binary
/// (scripts/gpu_bundle.sh); empty when none holds the wrapper.
std::string clangResourceDir();

/// The driver's argument list (argv[0] included) for the device half of File
/// for Arch, against the toolkit at CudaRoot.
std::vector<std::string> cudaDriverArgs(const std::string &File, const backend::GpuArch &Arch,
                                        const std::string &CudaRoot, const std::string &ResourceDir);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_CUDAARGS_H
