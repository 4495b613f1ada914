//===- Toolkit.h - where the CUDA toolkit's pieces are ----------*- C++ -*-===//
/// \file
/// The parts of a CUDA toolkit the JIT uses, found once per process:
/// libdevice (math functions as LLVM bitcode), nvJitLink (PTX -> cubin in
/// process), ptxas (the same as a subprocess), nvdisasm / cuobjdump (SASS).
/// Each is searched in, in order: $CUDA_HOME (and $CUDA_PATH), /usr/local/cuda,
/// the toolkit around the `nvcc` on PATH, PATH itself (ptxas and the
/// disassemblers), and for ptxas also $TRITON_PTXAS_PATH and the copy a
/// triton wheel bundles (site-packages/triton/backends/nvidia/bin/ptxas).
/// Anything absent is an empty path; what needs it says so in its error.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_TOOLKIT_H
#define TESSEL_COMPILER_BACKEND_TOOLKIT_H

#include <string>
#include <vector>

namespace tessel::backend {

struct Toolkit {
  std::vector<std::string> Roots; ///< toolkit folders searched, in order
  std::string Libdevice;          ///< nvvm/libdevice/libdevice.10.bc
  /// The first root with include/cuda_runtime.h: the headers a CUDA C++
  /// reference kernel is compiled with (compiler/reference).
  std::string CudaRoot;
  std::string NvJitLink; ///< lib64/libnvJitLink.so
  std::string Ptxas;
  std::string Nvdisasm, Cuobjdump;
  /// The toolkit's release (13.0) from `ptxas --version`, or nvJitLink's when
  /// there is no ptxas; 0.0 when neither was found.
  unsigned Major = 0, Minor = 0;

  std::string version() const { return std::to_string(Major) + "." + std::to_string(Minor); }
  /// Where the search looked, for "not found" messages.
  std::string searched() const;
};

/// The toolkit of this process's environment (searched once, then shared).
const Toolkit &toolkit();

/// Searches afresh with these roots first (tests), then the usual places
/// unless OnlyThese.
Toolkit findToolkit(const std::vector<std::string> &ExtraRoots, bool OnlyThese);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_TOOLKIT_H
