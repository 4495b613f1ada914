//===- RunnerSpecTest.cpp - where tasks run: local, ssh://, slurm:// ------===//
#include "runners/RunnerSpec.h"
#include "runners/Session.h"
#include "runners/SlurmArray.h"

#include <gtest/gtest.h>

using namespace tessel::runners;

static RunnerSpec parse(const std::string &Text) {
  std::string Error;
  std::optional<RunnerSpec> S = parseRunnerSpec(Text, Error);
  EXPECT_TRUE(S) << Error;
  return S.value_or(RunnerSpec{});
}

static std::string error(const std::string &Text) {
  std::string Error;
  EXPECT_FALSE(parseRunnerSpec(Text, Error)) << Text;
  return Error;
}

TEST(RunnerSpec, ParsesEachKind) {
  EXPECT_EQ(parse("local").Kind, RunnerKind::Local);
  RunnerSpec S = parse("ssh://alice@gpu7.example.org:2222?workers=3&tessel=/opt/tessel/bin/tessel");
  EXPECT_EQ(S.Kind, RunnerKind::Ssh);
  EXPECT_EQ(S.User, "alice");
  EXPECT_EQ(S.Host, "gpu7.example.org");
  EXPECT_EQ(S.Port, std::optional<unsigned>(2222));
  EXPECT_EQ(S.Workers, std::optional<unsigned>(3));
  EXPECT_EQ(S.Tessel, "/opt/tessel/bin/tessel");
  RunnerSpec L = parse("slurm://gpu?gpus=2&queue-timeout=5&time=30");
  EXPECT_EQ(L.Partition, "gpu");
  EXPECT_EQ(L.Gpus, std::optional<unsigned>(2));
  EXPECT_EQ(L.QueueTimeoutSeconds, 5u);
}

TEST(RunnerSpec, RefusesWhatSshOrAShellWouldMisread) {
  EXPECT_NE(error("ssh://-oProxyCommand=x").find("not a host name"), std::string::npos);
  EXPECT_NE(error("ssh://host?tessel=/bin/tessel;rm").find("shell characters"), std::string::npos);
  EXPECT_NE(error("ssh://host:0").find("not a port"), std::string::npos);
  EXPECT_NE(error("ssh://").find("no host"), std::string::npos);
  EXPECT_NE(error("slurm://gpu?workers=0").find("workers"), std::string::npos);
  EXPECT_NE(error("ssh://h?gpus=1").find("unknown setting 'gpus'"), std::string::npos);
  EXPECT_NE(error("http://h").find("expected local"), std::string::npos);
}

TEST(RunnerSpec, CommandsUseTheToolsOwnClients) {
  SessionOptions O;
  O.Self = "/usr/bin/tessel";
  std::vector<std::string> Ssh = runnerCommand(parse("ssh://bob@h:22"), O);
  EXPECT_EQ(Ssh.front(), "ssh");
  EXPECT_EQ(Ssh.back(), "tessel runner --device 0");
  EXPECT_NE(std::find(Ssh.begin(), Ssh.end(), "BatchMode=yes"), Ssh.end());
  O.Gpu = true;
  std::vector<std::string> Srun = runnerCommand(parse("slurm://gpu?gpus=2"), O);
  EXPECT_EQ(Srun.front(), "srun");
  EXPECT_NE(std::find(Srun.begin(), Srun.end(), "--gres=gpu:2"), Srun.end());
  EXPECT_EQ(runnerCommand(parse("local"), O).front(), "/usr/bin/tessel");
}

TEST(RunnerSpec, AJobArrayReadsAndWritesItsShardsThroughTheSpool) {
  RunnerSpec S = parse("slurm://gpu?array=1&workers=3&gpus=2&spool=/shared/tessel");
  EXPECT_TRUE(S.Array);
  EXPECT_EQ(S.Spool, "/shared/tessel");
  SessionOptions O;
  O.Gpu = true;
  std::vector<std::string> Cmd = arrayCommand(S, O, "/shared/tessel/array-1-0", 3);
  EXPECT_EQ(Cmd.front(), "sbatch");
  for (const char *Want :
       {"--array=0-2", "--input=/shared/tessel/array-1-0/in-%a.jsonl", "--output=/shared/tessel/array-1-0/out-%a.jsonl",
        "--gres=gpu:2", "--wrap=tessel runner --device 0"})
    EXPECT_NE(std::find(Cmd.begin(), Cmd.end(), Want), Cmd.end()) << Want;
  EXPECT_NE(error("slurm://gpu?spool=relative").find("absolute"), std::string::npos);
  EXPECT_NE(error("slurm://gpu?array=yes").find("array takes 0 or 1"), std::string::npos);
}
