//===- CudaFrontend.h - a CUDA C++ reference kernel read by Clang -*- C++ -*-===//
/// \file
/// Reads a `.cu` file with Clang's own libraries, in process: the driver
/// builds the device-only compile (CudaArgs.h), one parse feeds both an
/// ASTMatchers finder (the `__global__` function named by the directive, its
/// parameters and template arguments: CudaKernel) and Clang's code generator
/// (the llvm::Module of the device code, optimization left to the back end).
///
/// Nothing here throws or exits: a malformed file comes back as Clang's own
/// diagnostics at its lines (Clang stops after 20 errors), a missing kernel or
/// resource folder as Error. Clang recovers from every syntax error by
/// design, so a malformed file cannot hang the parse; templates are bounded
/// by Clang's instantiation depth and constexpr step limits.
///
/// Thread safety: each call builds its own CompilerInstance and LLVMContext.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_CUDAFRONTEND_H
#define TESSEL_COMPILER_REFERENCE_CUDAFRONTEND_H

#include "compiler/backend/Target.h"
#include "compiler/reference/CudaKernel.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tessel::reference {

/// One of Clang's diagnostics, where Clang puts it.
struct ClangDiagnostic {
  enum class Level { Note, Remark, Warning, Error, Fatal };
  Level Severity = Level::Error;
  std::string File;              ///< as Clang names it (the .cu file, a header, or `<tessel: reference directive>`)
  unsigned Line = 0, Column = 0; ///< 1-based; Column counts bytes; 0 when Clang gives no place
  std::string Message;
  std::string Flag; ///< `-Wunused-variable` where a warning option controls it
};

/// `file:line:col: error: message [-Wflag]`, as Clang prints it.
std::string formatDiagnostic(const ClangDiagnostic &D);

struct CudaOptions {
  backend::GpuArch Arch;
  std::string CudaRoot; ///< the toolkit (its include/); empty: backend::toolkit()'s
  /// Generate the module (off: parse and match only, as the editor's diagnostics need).
  bool Generate = true;
  /// The file's text when it is not the disk's (an editor's unsaved buffer); nullopt: read the disk.
  std::optional<std::string> Text;
};

struct ReferenceSource {
  std::vector<ClangDiagnostic> Diagnostics;
  std::optional<CudaKernel> Kernel;
  std::unique_ptr<llvm::LLVMContext> Context; ///< owns Module's types
  std::unique_ptr<llvm::Module> Module;       ///< the device code with only Kernel as an entry
  /// Why there is no kernel or module beyond the diagnostics: no such
  /// function, a template without arguments, no toolkit or resource folder.
  std::string Error;
  double Ms = 0; ///< the whole front end: parse, match, generate

  ReferenceSource();
  ReferenceSource(ReferenceSource &&);
  ReferenceSource &operator=(ReferenceSource &&);
  ~ReferenceSource();
  bool hasErrors() const;
};

/// Reads Path and finds Function (with TemplateArgs, when a template) in it.
ReferenceSource readReference(const std::string &Path, const std::string &Function, const std::string &TemplateArgs,
                              const CudaOptions &Opts);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_CUDAFRONTEND_H
