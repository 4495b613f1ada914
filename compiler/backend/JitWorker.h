//===- JitWorker.h - the JIT's LLVM stages in a worker process --*- C++ -*-===//
/// \file
/// LLVM reports some errors (a selection failure in the NVPTX back end, an
/// invalid intrinsic) by ending the process, and an assembler may crash or
/// hang. Callers that must outlive one kernel's compile (`tessel check
/// --jit`, the language server) run compileModule in a worker process: the
/// module goes to it as bitcode on stdin, and the CompiledKernel comes back
/// on stdout, serialized (Jit.h). A worker that crashes, hangs past its
/// time limit or answers garbage becomes an error value naming what
/// happened, never a crash of the caller.
///
/// Protocol: `PROGRAM jit-worker --arch A --threads N --shared N --assemble
/// 0|1 --keep-llvm 0|1`, bitcode on stdin; the reply is "OK\n" followed by
/// serialize(kernel), or "ERR\n" followed by a message.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_JITWORKER_H
#define TESSEL_COMPILER_BACKEND_JITWORKER_H

#include "compiler/backend/Jit.h"

#include <string>
#include <vector>

namespace tessel::backend {

/// The caller's side: runs Program as a worker on M.
llvm::Expected<CompiledKernel> compileInWorker(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts,
                                               const std::string &Program, unsigned TimeoutSeconds);

/// The worker's side: Args are the arguments after `jit-worker`, Stdin the
/// bitcode; returns the reply to write to stdout.
std::string runJitWorker(const std::vector<std::string> &Args, llvm::StringRef Stdin);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_JITWORKER_H
