//===- KernelRunnerTest.cpp - Run actions as subprocesses -----------------===//
/// \file
/// Runs a stand-in for `tessel` (a shell script written by the test) to check
/// the command line, the captured output and exit code, and that a second
/// run kills the first, which then reports Cancelled.
//===----------------------------------------------------------------------===//
#include "lsp/KernelRunner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tessel::lsp;

namespace {

/// Writes an executable script that prints its arguments and exits 3, or
/// sleeps for a minute when the kernel is called "slow".
std::string writeStandIn() {
  char Dir[] = "/tmp/tessel-runner-XXXXXX";
  EXPECT_NE(::mkdtemp(Dir), nullptr);
  std::string Path = std::string(Dir) + "/tessel";
  std::ofstream(Path) << "#!/bin/sh\n"
                         "echo \"args: $*\"\n"
                         "echo oops >&2\n"
                         "if [ \"$4\" = slow ]; then exec sleep 60; fi\n"
                         "exit 3\n";
  ::chmod(Path.c_str(), 0755);
  return Path;
}

struct Results {
  std::mutex M;
  std::condition_variable CV;
  std::vector<RunResult> All;
  KernelRunner::DoneFn sink() {
    return [this](RunResult R) {
      std::lock_guard<std::mutex> L(M);
      All.push_back(std::move(R));
      CV.notify_all();
    };
  }
  bool waitFor(size_t N) {
    std::unique_lock<std::mutex> L(M);
    return CV.wait_for(L, std::chrono::seconds(20), [&] { return All.size() >= N; });
  }
};

TEST(KernelRunner, CommandLine) {
  KernelRunner K("/bin/tessel");
  RunRequest R{"file:///k.py", "/k.py", "add", "gpu", 2};
  EXPECT_EQ(K.commandLine(R),
            (std::vector<std::string>{"/bin/tessel", "run", "/k.py", "--kernel", "add", "--gpu", "--config", "2"}));
}

TEST(KernelRunner, CapturesOutputAndExitCode) {
  KernelRunner K(writeStandIn());
  Results Res;
  std::string Error;
  ASSERT_TRUE(K.start({"file:///k.py", "/k.py", "add", "cpu", std::nullopt}, Res.sink(), Error)) << Error;
  ASSERT_TRUE(Res.waitFor(1));
  K.wait();
  EXPECT_EQ(Res.All[0].ExitCode, 3);
  EXPECT_FALSE(Res.All[0].Cancelled);
  EXPECT_NE(Res.All[0].Output.find("args: run /k.py --kernel add --cpu"), std::string::npos);
  EXPECT_NE(Res.All[0].Output.find("oops"), std::string::npos);
}

TEST(KernelRunner, ASecondRunKillsTheFirst) {
  KernelRunner K(writeStandIn());
  Results Res;
  std::string Error;
  auto Start = std::chrono::steady_clock::now();
  ASSERT_TRUE(K.start({"file:///k.py", "/k.py", "slow", "cpu", std::nullopt}, Res.sink(), Error));
  ASSERT_TRUE(K.start({"file:///k.py", "/k.py", "fast", "cpu", std::nullopt}, Res.sink(), Error));
  ASSERT_TRUE(Res.waitFor(2));
  K.wait();
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(30));
  EXPECT_EQ(Res.All[0].Request.Kernel, "slow");
  EXPECT_TRUE(Res.All[0].Cancelled);
  EXPECT_EQ(Res.All[1].Request.Kernel, "fast");
  EXPECT_FALSE(Res.All[1].Cancelled);
  EXPECT_EQ(Res.All[1].ExitCode, 3);
}

TEST(KernelRunner, MissingExecutableIsAnExitCodeNotACrash) {
  KernelRunner K("/nonexistent/tessel");
  Results Res;
  std::string Error;
  bool Started = K.start({"file:///k.py", "/k.py", "add", "cpu", std::nullopt}, Res.sink(), Error);
  if (!Started) {
    EXPECT_NE(Error.find("cannot start"), std::string::npos);
    return;
  }
  ASSERT_TRUE(Res.waitFor(1));
  EXPECT_NE(Res.All[0].ExitCode, 0);
}

} // namespace
