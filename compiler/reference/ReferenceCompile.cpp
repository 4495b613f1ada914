//===- ReferenceCompile.cpp - a CUDA reference kernel to PTX and cubin ----===//
/// \file
/// Clang's module goes through the same compileModule as tessel's kernels,
/// with LLVM's O3 as the middle end: a CUDA kernel is written for what clang
/// -O3 (or nvcc) does to it, loop unrolling included, which tessel's kernel
/// pipeline leaves out because its own code generator unrolls tiles itself.
//===----------------------------------------------------------------------===//

#include "compiler/reference/ReferenceCompile.h"

#include "llvm/IR/Module.h"

#include <chrono>

namespace tessel::reference {

CompiledReference compileReference(const std::string &Path, const std::string &Function,
                                   const std::string &TemplateArgs, const ReferenceCompileOptions &Opts) {
  CompiledReference Out;
  CudaOptions CO;
  CO.Arch = Opts.Arch;
  CO.Text = Opts.Text;
  Out.Source = readReference(Path, Function, TemplateArgs, CO);
  Out.FrontendMs = Out.Source.Ms;
  if (!Out.Source.Error.empty()) {
    Out.Error = Out.Source.Error;
    return Out;
  }
  if (!Out.Source.Module) {
    Out.Error = Path + " does not compile (Clang's diagnostics above)";
    return Out;
  }
  auto T0 = std::chrono::steady_clock::now();
  backend::JitOptions JO;
  JO.Arch = Opts.Arch;
  JO.Assemble = Opts.Assemble;
  JO.KeepLlvm = Opts.KeepLlvm;
  JO.Pipeline = backend::LlvmPipeline::O3;
  backend::LaunchShape Shape;
  Shape.Threads = Opts.Threads;
  auto K = backend::compileModule(*Out.Source.Module, Shape, JO);
  Out.BackendMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
  Out.Source.Module.reset();
  if (!K) {
    Out.Error = "the reference kernel " + Function + " did not compile: " + llvm::toString(K.takeError());
    return Out;
  }
  Out.Kernel = std::move(*K);
  return Out;
}

} // namespace tessel::reference
