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
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

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

//===----------------------------------------------------------------------===//
// The long-lived worker (JitWorkerProcess), against scripts that speak the
// `--serve` protocol: a line "FLAGS... SIZE", SIZE bytes; the reply's size on
// a line, then the reply.
//===----------------------------------------------------------------------===//

namespace {
/// A script body that reads one request (and drops its bitcode).
constexpr const char *ReadRequest = "IFS= read -r header || exit 0; size=${header##* }; head -c \"$size\" > /dev/null";

std::string compileWith(JitWorkerProcess &W, unsigned Timeout = 30, const std::atomic<bool> *Cancel = nullptr) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  auto K = W.compile(*M, {128, 0}, JitOptions(), Timeout, Cancel);
  return K ? std::string("compiled") : llvm::toString(K.takeError());
}
} // namespace

TEST(JitWorkerProcess, OneProcessAnswersEveryRequest) {
  Script S(std::string("while true; do ") + ReadRequest + "; printf '18\\nERR\\nptxas exploded'; done");
  JitWorkerProcess W(std::string(S.Path));
  EXPECT_EQ(compileWith(W), "ptxas exploded");
  pid_t First = W.pid();
  EXPECT_GT(First, 0);
  EXPECT_EQ(compileWith(W), "ptxas exploded");
  EXPECT_EQ(W.pid(), First);
  EXPECT_EQ(W.starts(), 1u);
}

TEST(JitWorkerProcess, ACrashedWorkerIsAnErrorAndTheNextCompileStartsAnother) {
  Script S(std::string(ReadRequest) + "; echo 'LLVM ERROR: Cannot select' >&2; kill -SEGV $$");
  JitWorkerProcess W(std::string(S.Path));
  std::string E = compileWith(W);
  EXPECT_NE(E.find("the JIT worker crashed (Segmentation fault)"), std::string::npos) << E;
  EXPECT_NE(E.find("LLVM ERROR: Cannot select"), std::string::npos) << E;
  EXPECT_EQ(W.pid(), -1);
  compileWith(W);
  EXPECT_EQ(W.starts(), 2u);
}

TEST(JitWorkerProcess, AHangingWorkerIsStoppedWithWhatItRan) {
  // The worker's child (a stuck ptxas) is in its process group and goes too.
  llvm::SmallString<128> PidFile;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tessel-worker", "pid", PidFile));
  Script S(std::string(ReadRequest) + "; sleep 30 & echo $! > " + std::string(PidFile) + "; wait");
  JitWorkerProcess W(std::string(S.Path));
  auto T0 = std::chrono::steady_clock::now();
  std::string E = compileWith(W, 1);
  EXPECT_NE(E.find("did not finish within 1 s and was stopped"), std::string::npos) << E;
  EXPECT_LT(std::chrono::steady_clock::now() - T0, std::chrono::seconds(10));
  EXPECT_EQ(W.pid(), -1);
  auto Buf = llvm::MemoryBuffer::getFile(PidFile);
  ASSERT_TRUE(bool(Buf));
  int Child = std::atoi((*Buf)->getBuffer().str().c_str());
  ASSERT_GT(Child, 0);
  // Killed with the group: gone, or a zombie until whoever adopted it reaps
  // it (a container's first process may never do so).
  auto IsZombie = [Child] {
    auto Stat = llvm::MemoryBuffer::getFile("/proc/" + std::to_string(Child) + "/stat", /*IsText=*/true);
    if (!Stat)
      return false;
    llvm::StringRef Text = (*Stat)->getBuffer();
    size_t Paren = Text.rfind(')');
    return Paren != llvm::StringRef::npos && Text.drop_front(Paren + 1).ltrim().starts_with("Z");
  };
  bool Gone = false;
  for (int I = 0; I < 200 && !Gone; ++I) {
    Gone = ::kill(Child, 0) != 0 || IsZombie();
    if (!Gone)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(Gone) << "the worker's child " << Child << " outlived it";
  llvm::sys::fs::remove(PidFile);
}

TEST(JitWorkerProcess, ACancelledCompileEndsAtOnce) {
  Script S(std::string(ReadRequest) + "; sleep 30");
  JitWorkerProcess W(std::string(S.Path));
  std::atomic<bool> Cancel{false};
  std::thread Canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    Cancel = true;
  });
  auto T0 = std::chrono::steady_clock::now();
  std::string E = compileWith(W, 30, &Cancel);
  Canceller.join();
  EXPECT_EQ(E, "the compile was cancelled");
  EXPECT_LT(std::chrono::steady_clock::now() - T0, std::chrono::seconds(10));
}

TEST(JitWorkerProcess, GarbageAndAMissingProgramAreErrors) {
  Script S(std::string(ReadRequest) + "; echo 'not a size'; sleep 30");
  JitWorkerProcess W(std::string(S.Path));
  EXPECT_EQ(compileWith(W), "the JIT worker answered garbage");
  JitWorkerProcess Missing("/nonexistent/tessel");
  EXPECT_NE(compileWith(Missing).find("cannot run the JIT worker"), std::string::npos);
}
