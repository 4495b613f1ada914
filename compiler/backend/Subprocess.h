//===- Subprocess.h - run a tool with a time limit --------------*- C++ -*-===//
/// \file
/// Runs an external program (ptxas, nvdisasm, cuobjdump, tessel's own JIT
/// worker) with its output captured through temporary files and a limit on
/// its wall time, so that a tool that hangs or crashes becomes an error value
/// with the program's name in it, never a hang or a crash of tessel.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_SUBPROCESS_H
#define TESSEL_COMPILER_BACKEND_SUBPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tessel::backend {

struct ProgramOutput {
  int ExitCode = 0;
  std::string Stdout, Stderr;
};

/// Writes Bytes to a new temporary file (its name in Path), for a program
/// to read: an error naming the cause when the file cannot be created or
/// written whole (a full disk, a file-size limit), with nothing left behind.
llvm::Error writeTemporaryFile(llvm::StringRef Suffix, llvm::StringRef Bytes, llvm::SmallVectorImpl<char> &Path);

/// Runs Program (a path) with Args (Args[0] is the program's name as it
/// sees it), feeding it Stdin when given. An error when it cannot start,
/// runs past TimeoutSeconds (then it is killed) or ends by a signal; a
/// nonzero exit status is not an error here (ExitCode says it).
llvm::Expected<ProgramOutput> runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                                         unsigned TimeoutSeconds, std::optional<llvm::StringRef> Stdin = std::nullopt);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_SUBPROCESS_H
