//===- JitWorkerTest.cpp - the JIT in a worker process --------------------===//
/// \file
/// The worker's reply for a kernel, a bad argument and bad bitcode; and the
/// caller's side against workers that crash, hang or answer garbage (shell
/// scripts standing in for a `tessel jit-worker` that LLVM or ptxas killed):
/// each is an error naming what happened, and the caller goes on.
//===----------------------------------------------------------------------===//
#include "compiler/backend/JitWorker.h"
#include "compiler/backend/Toolkit.h"

#include "BackendTestUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tessel::backend;
using namespace tessel::backend::test;

namespace {
/// An executable shell script in a temporary file.
struct Script {
  llvm::SmallString<128> Path;
  explicit Script(const std::string &Body) {
    int Fd = -1;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("tessel-worker", "sh", Fd, Path));
    {
      llvm::raw_fd_ostream OS(Fd, true);
      OS << "#!/bin/sh\n" << Body << "\n";
    }
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read | llvm::sys::fs::all_exe | llvm::sys::fs::owner_write);
  }
  ~Script() { llvm::sys::fs::remove(Path); }
};

std::string bitcodeOf(const char *Ir) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(Ir, Ctx);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::WriteBitcodeToFile(*M, OS);
  return Out;
}

std::string errorOf(const std::string &Body, unsigned Timeout = 30) {
  Script S(Body);
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  JitOptions O;
  auto K = compileInWorker(*M, {128, 0}, O, std::string(S.Path), Timeout);
  if (K)
    return "compiled";
  return llvm::toString(K.takeError());
}
} // namespace

TEST(JitWorker, RepliesWithTheSerializedKernel) {
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit";
  std::string Reply =
      runJitWorker({"--arch", "sm_80", "--threads", "128", "--shared", "0", "--assemble", "0", "--keep-llvm", "0"},
                   bitcodeOf(AddExpKernel));
  ASSERT_EQ(Reply.substr(0, 3), "OK\n") << Reply;
  auto K = deserialize(llvm::StringRef(Reply).drop_front(3));
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Entry, "add_kernel");
  EXPECT_NE(K->Ptx.find(".target sm_80"), std::string::npos);
}

TEST(JitWorker, RejectsBadArgumentsAndBitcode) {
  EXPECT_EQ(runJitWorker({"--arch", "sm_75"}, ""), "ERR\njit-worker: unknown architecture sm_75");
  EXPECT_EQ(runJitWorker({"--threads"}, ""), "ERR\njit-worker: arguments come in pairs (--flag value)");
  std::string Reply = runJitWorker({}, "not bitcode");
  EXPECT_EQ(Reply.rfind("ERR\njit-worker: the kernel's bitcode does not read", 0), 0u) << Reply;
}

TEST(JitWorker, ACrashedWorkerIsAnError) {
  std::string E = errorOf("cat >/dev/null; echo 'LLVM ERROR: Cannot select' >&2; kill -SEGV $$");
  EXPECT_NE(E.find("the JIT worker failed"), std::string::npos) << E;
  EXPECT_NE(E.find("crashed"), std::string::npos) << E;
  EXPECT_NE(E.find("LLVM ERROR: Cannot select"), std::string::npos) << E;
}

TEST(JitWorker, AHangingWorkerIsStopped) {
  std::string E = errorOf("sleep 30", 1);
  EXPECT_NE(E.find("did not finish within 1 s"), std::string::npos) << E;
}

TEST(JitWorker, GarbageAndErrorRepliesAreErrors) {
  EXPECT_NE(errorOf("cat >/dev/null; echo nonsense; exit 3").find("the JIT worker ended (exit status 3)"),
            std::string::npos);
  EXPECT_EQ(errorOf("cat >/dev/null; printf 'ERR\\nptxas exploded'"), "ptxas exploded");
  EXPECT_EQ(errorOf("cat >/dev/null; printf 'OK\\ntruncated'"), "not a compiled kernel of this tessel version");
}

TEST(JitWorker, AMissingWorkerProgramIsAnError) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  auto K = compileInWorker(*M, {128, 0}, JitOptions(), "/nonexistent/tessel", 5);
  ASSERT_FALSE(bool(K));
  EXPECT_NE(llvm::toString(K.takeError()).find("cannot run tessel"), std::string::npos);
}
