//===- JitWorker.cpp - the JIT's LLVM stages in a worker process ----------===//
/// \file
/// Both sides of the protocol of JitWorker.h.
//===----------------------------------------------------------------------===//
#include "compiler/backend/JitWorker.h"

#include "compiler/backend/Subprocess.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace tessel::backend {

llvm::Expected<CompiledKernel> compileInWorker(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts,
                                               const std::string &Program, unsigned TimeoutSeconds) {
  std::string Bitcode;
  {
    llvm::raw_string_ostream OS(Bitcode);
    llvm::WriteBitcodeToFile(M, OS);
  }
  std::vector<std::string> Args = {"tessel",      "jit-worker",
                                   "--arch",      Opts.Arch.name(),
                                   "--threads",   std::to_string(Launch.Threads),
                                   "--shared",    std::to_string(Launch.DynamicShared),
                                   "--assemble",  Opts.Assemble ? "1" : "0",
                                   "--keep-llvm", Opts.KeepLlvm ? "1" : "0"};
  auto T0 = std::chrono::steady_clock::now();
  auto Out = runProgram(Program, Args, TimeoutSeconds, llvm::StringRef(Bitcode));
  if (!Out)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the JIT worker failed: %s",
                                   llvm::toString(Out.takeError()).c_str());
  llvm::StringRef Reply(Out->Stdout);
  if (Reply.consume_front("ERR\n"))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Reply.str().c_str());
  if (Reply.consume_front("OK\n")) {
    auto K = deserialize(Reply);
    if (K)
      K->Times = {{"worker", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count()}};
    return K;
  }
  std::string Why = Out->Stderr.empty() ? "no reply" : Out->Stderr;
  if (Why.size() > 2000)
    Why.resize(2000);
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "the JIT worker ended (exit status %d): %s",
                                 Out->ExitCode, Why.c_str());
}

std::string runJitWorker(const std::vector<std::string> &Args, llvm::StringRef Stdin) {
  JitOptions JO;
  LaunchShape Launch;
  auto Fail = [](const std::string &Why) { return "ERR\n" + Why; };
  if (Args.size() % 2)
    return Fail("jit-worker: arguments come in pairs (--flag value)");
  for (size_t I = 0; I + 1 < Args.size(); I += 2) {
    const std::string &Flag = Args[I], &V = Args[I + 1];
    unsigned N = 0;
    bool IsNumber = !llvm::StringRef(V).getAsInteger(10, N);
    if (Flag == "--arch") {
      std::optional<GpuArch> A = parseArch(V);
      if (!A)
        return Fail("jit-worker: unknown architecture " + V);
      JO.Arch = *A;
    } else if (Flag == "--threads" && IsNumber) {
      Launch.Threads = N;
    } else if (Flag == "--shared" && IsNumber) {
      Launch.DynamicShared = N;
    } else if (Flag == "--assemble" && IsNumber) {
      JO.Assemble = N != 0;
    } else if (Flag == "--keep-llvm" && IsNumber) {
      JO.KeepLlvm = N != 0;
    } else {
      return Fail("jit-worker: bad argument " + Flag + " " + V);
    }
  }
  llvm::LLVMContext Ctx;
  auto Buf = llvm::MemoryBuffer::getMemBuffer(Stdin, "kernel.bc", /*RequiresNullTerminator=*/false);
  auto M = llvm::parseBitcodeFile(Buf->getMemBufferRef(), Ctx);
  if (!M)
    return Fail("jit-worker: the kernel's bitcode does not read: " + llvm::toString(M.takeError()));
  auto K = compileModule(**M, Launch, JO);
  if (!K)
    return Fail(llvm::toString(K.takeError()));
  return "OK\n" + serialize(*K);
}

} // namespace tessel::backend
