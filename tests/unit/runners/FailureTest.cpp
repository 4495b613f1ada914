//===- FailureTest.cpp - one line for each way a runner fails -------------===//
/// The stderr texts are what OpenSSH 9.2 and Slurm 22.05 print (the runner
/// tests in tests/runners provoke them from the real tools).
//===----------------------------------------------------------------------===//
#include "runners/Failure.h"

#include <gtest/gtest.h>

using namespace tessel::runners;

static std::string describe(const std::string &Spec, int Exit, const std::string &Stderr,
                            FailureStage Stage = FailureStage::Connect) {
  std::string Error;
  RunnerSpec S = *parseRunnerSpec(Spec, Error);
  ChildEnd E;
  E.Exit = Exit;
  return describeFailure(S, Stage, E, Stderr);
}

TEST(RunnerFailure, SshSaysWhichKind) {
  EXPECT_EQ(describe("ssh://h", 255,
                     "Warning: Permanently added 'h' (ED25519) to the list of known hosts.\r\n"
                     "alice@h: Permission denied (publickey).\r\n"),
            "ssh://h: authentication refused: alice@h: Permission denied (publickey).");
  EXPECT_EQ(describe("ssh://h", 255, "ssh: connect to host h port 22: Connection refused\n"),
            "ssh://h: host unreachable: ssh: connect to host h port 22: Connection refused");
  EXPECT_EQ(describe("ssh://h", 127, "bash: line 1: tessel: command not found\n"),
            "ssh://h: no tessel there at 'tessel' (bash: line 1: tessel: command not found): install it or name it "
            "with ?tessel=PATH");
}

TEST(RunnerFailure, SlurmSaysWhichKind) {
  EXPECT_NE(describe("slurm://gpu", 1,
                     "srun: job 41 queued and waiting for resources\n"
                     "slurmstepd: error: *** STEP 41.0 ON n1 CANCELLED AT 2026-12-04T23:10:02 ***\n",
                     FailureStage::Task)
                .find("job killed: *** STEP 41.0 ON n1 CANCELLED AT 2026-12-04T23:10:02 ***"),
            std::string::npos);
  EXPECT_NE(describe("slurm://cpu", 1,
                     "srun: error: Unable to allocate resources: Requested node configuration is not available\n")
                .find("no GPU: no node of partition cpu has the GPUs asked for (--gres=gpu:1)"),
            std::string::npos);
  EXPECT_NE(describe("slurm://x", 1, "srun: error: Unable to allocate resources: Invalid partition name specified\n")
                .find("no such partition 'x'"),
            std::string::npos);
}

TEST(RunnerFailure, AnUnknownEndStillNamesTheToolAndHowItEnded) {
  ChildEnd E;
  E.Signal = 9;
  std::string Error;
  std::string Line = describeFailure(*parseRunnerSpec("ssh://h", Error), FailureStage::Task, E, "");
  EXPECT_EQ(Line, "ssh://h: job killed: ssh ended during a task (killed by signal 9 (SIGKILL))");
}
