//===- Assemble.h - PTX -> cubin through nvJitLink or ptxas -----*- C++ -*-===//
/// \file
/// The second half of the JIT: ptxas's work, done in process by nvJitLink
/// when the toolkit has libnvJitLink.so (opened with dlopen, so that tessel
/// starts and runs everywhere else), or by running ptxas as Triton does
/// (`ptxas -lineinfo -v --gpu-name=sm_90a`) with a time limit. Either way
/// the result carries the assembler's verbose log, from which ResourceReport
/// reads registers and spills.
///
/// Every failure (no assembler, a PTX error, a crash, a timeout) is an
/// llvm::Error whose message says what and where, never a crash.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_ASSEMBLE_H
#define TESSEL_COMPILER_BACKEND_ASSEMBLE_H

#include "compiler/backend/Target.h"
#include "compiler/backend/Toolkit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tessel::backend {

enum class AssemblerKind { NvJitLink, Ptxas };

const char *assemblerName(AssemblerKind K);

struct AssembleOptions {
  GpuArch Arch;
  /// nullopt: nvJitLink when present, else ptxas.
  std::optional<AssemblerKind> Use;
  /// ptxas' wall-time limit (nvJitLink runs in this process: no limit; the
  /// callers that must survive it run in a worker process).
  unsigned TimeoutSeconds = 120;
  /// The toolkit to take the assembler from (default: toolkit()).
  const Toolkit *Tools = nullptr;
};

struct Assembled {
  std::string Cubin;
  std::string Log; ///< ptxas -v's report / nvJitLink's info log
  AssemblerKind Used = AssemblerKind::Ptxas;
};

/// Is an assembler of kind K available in Tools?
bool hasAssembler(const Toolkit &Tools, AssemblerKind K);

llvm::Expected<Assembled> assemble(llvm::StringRef Ptx, const AssembleOptions &Opts);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_ASSEMBLE_H
