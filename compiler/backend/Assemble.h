//===- Assemble.h - PTX -> cubin through nvJitLink or ptxas -----*- C++ -*-===//
/// \file
/// The second half of the JIT: ptxas run as Triton runs it (`ptxas -lineinfo
/// -v --gpu-name=sm_90a`, with a time limit) when the toolkit has it, else
/// the same work in process by nvJitLink (libnvJitLink.so, opened with
/// dlopen, so that tessel starts and runs everywhere else). ptxas first:
/// the figures are Triton's only from Triton's assembler; CUDA 13.0's
/// nvJitLink allocates registers differently for the same PTX (tutorial
/// 05's layer norm: 48 registers where ptxas and Triton take 32), at the same
/// speed. Either way the result carries the assembler's verbose log, from
/// which ResourceReport reads registers and spills.
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
  /// nullopt: defaultAssembler(Tools).
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

/// The assembler used when none is asked for: ptxas when Tools has it, else
/// nvJitLink (the file comment says why).
AssemblerKind defaultAssembler(const Toolkit &Tools);

llvm::Expected<Assembled> assemble(llvm::StringRef Ptx, const AssembleOptions &Opts);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_ASSEMBLE_H
