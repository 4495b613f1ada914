//===- ReferenceCompile.h - a CUDA reference kernel to PTX and cubin -*- C++ -*-===//
/// \file
/// The whole in-process path of a reference kernel: Clang's front end
/// (CudaFrontend.h) to an llvm::Module, then tessel's own back end
/// (backend::compileModule: libdevice linked and internalized, LLVM's O3 as
/// clang -O3 runs it, NVPTX to PTX with Triton's PTX ISA, nvJitLink or ptxas
/// to a cubin, the resource report and occupancy). No nvcc, no subprocess
/// but the assembler tessel's own kernels use.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_REFERENCECOMPILE_H
#define TESSEL_COMPILER_REFERENCE_REFERENCECOMPILE_H

#include "compiler/backend/Jit.h"
#include "compiler/reference/CudaFrontend.h"

#include <optional>

namespace tessel::reference {

struct ReferenceCompileOptions {
  backend::GpuArch Arch;
  bool Assemble = true; ///< off: stop at the PTX
  bool KeepLlvm = false;
  unsigned Threads = 128;          ///< the block's threads (the directive's block), for occupancy
  std::optional<std::string> Text; ///< the .cu file's text when not the disk's
};

struct CompiledReference {
  ReferenceSource Source; ///< diagnostics and the kernel's signature (its Module is consumed)
  std::optional<backend::CompiledKernel> Kernel;
  std::string Error; ///< the front end's, or the back end's; empty when Kernel is set
  double FrontendMs = 0, BackendMs = 0;
};

CompiledReference compileReference(const std::string &Path, const std::string &Function,
                                   const std::string &TemplateArgs, const ReferenceCompileOptions &Opts);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_REFERENCECOMPILE_H
