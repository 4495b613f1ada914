//===- CudaReference.h - the CUDA C++ reference of a kernel, for the tools -*- C++ -*-===//
/// \file
/// What `tessel compile --reference` and `tessel run --reference` share: the
/// `# tessel: reference` directive of a kernel (compiler/reference), its .cu
/// file found beside the Python file, its errors and Clang's diagnostics
/// printed as compilers print them (`file:line:col: error: ...`), and the
/// compile through Clang and the back end, once per architecture.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_CUDAREFERENCE_H
#define TESSEL_TOOLS_CUDAREFERENCE_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/reference/ReferenceCompile.h"
#include "compiler/reference/ReferenceDirective.h"

#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace tessel::tools {

struct CudaReferenceTarget {
  reference::ReferenceDirective Directive;
  std::string Path;  ///< the .cu file, resolved against the Python file's folder
  std::string Label; ///< `softmax_ref.cu::softmax_rows<__half, 256, 4>`
};

/// The reference of Kernel in File (read from FilePath). nullopt with Error
/// (one line, or the directive's errors as `file:line:col: error:` lines) when
/// the kernel has none or its directive does not parse.
std::optional<CudaReferenceTarget> findCudaReference(const ParsedFile &File, const ModuleInfo &Info,
                                                     const std::string &FilePath, const std::string &Kernel,
                                                     std::string &Error);

/// Clang's diagnostics, one per line, as Clang prints them.
void printClangDiagnostics(std::ostream &OS, const reference::ReferenceSource &S);

/// The reference compiled once per architecture.
class CudaReferenceCompiler {
public:
  explicit CudaReferenceCompiler(CudaReferenceTarget T) : Target(std::move(T)) {}
  const CudaReferenceTarget &target() const { return Target; }
  /// Threads is the block's thread count (the occupancy's input).
  const reference::CompiledReference &compile(const backend::GpuArch &Arch, unsigned Threads, bool Assemble = true,
                                              bool KeepLlvm = false);

private:
  CudaReferenceTarget Target;
  std::map<std::string, reference::CompiledReference> Done;
};

} // namespace tessel::tools

#endif // TESSEL_TOOLS_CUDAREFERENCE_H
