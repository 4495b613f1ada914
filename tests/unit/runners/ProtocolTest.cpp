//===- ProtocolTest.cpp - the runner protocol's messages ------------------===//
#include "runners/Protocol.h"

#include <gtest/gtest.h>

using namespace tessel::runners;

TEST(RunnerProtocol, TaskRoundTrips) {
  Task T;
  T.Id = 7;
  T.File = "k.py";
  T.Text = "print('\xc3\xa9')\n";
  T.Kernel = "add";
  T.Gpu = true;
  T.Seed = 3;
  T.Config = 2;
  T.Iters = 20;
  T.Spec = "n=4";
  std::string Error;
  std::optional<Message> M = decode(encode(T), Error);
  ASSERT_TRUE(M) << Error;
  const Task &U = std::get<Task>(*M);
  EXPECT_EQ(U.Id, 7u);
  EXPECT_EQ(U.Text, T.Text);
  EXPECT_TRUE(U.Gpu);
  EXPECT_EQ(U.Config, std::optional<uint64_t>(2));
  EXPECT_FALSE(U.Instance);
  EXPECT_EQ(U.Spec, std::optional<std::string>("n=4"));
}

TEST(RunnerProtocol, ResultRoundTripsAndIsOneLine) {
  Result R;
  R.Id = 1;
  R.Exit = 1;
  R.Stdout = "line 1\nline 2\n";
  R.Millis = 12.5;
  std::string Line = encode(R);
  EXPECT_EQ(Line.find('\n'), std::string::npos);
  std::string Error;
  std::optional<Message> M = decode(Line, Error);
  ASSERT_TRUE(M) << Error;
  EXPECT_EQ(std::get<Result>(*M).Stdout, R.Stdout);
  EXPECT_EQ(std::get<Result>(*M).Millis, 12.5);
}

TEST(RunnerProtocol, MalformedLinesAreErrorsNotExceptions) {
  for (const char *Bad :
       {"", "{", "[1]", "{\"type\":3}", "{\"type\":\"task\"}", "{\"type\":\"nope\"}",
        "{\"type\":\"task\",\"id\":-1,\"file\":\"f\",\"text\":\"\",\"kernel\":\"k\"}",
        "{\"type\":\"task\",\"id\":1,\"file\":\"f\",\"text\":\"\",\"kernel\":\"k\",\"device\":\"tpu\"}",
        "{\"type\":\"hello\",\"protocol\":1e30,\"tessel\":\"x\"}",
        "{\"type\":\"result\",\"id\":1,\"exit\":\"0\",\"stdout\":\"\",\"millis\":0,\"cpuMillis\":0}"}) {
    std::string Error;
    EXPECT_FALSE(decode(Bad, Error)) << Bad;
    EXPECT_FALSE(Error.empty()) << Bad;
  }
}

TEST(RunnerProtocol, AnotherVersionIsNamed) {
  Hello Peer = ownHello();
  EXPECT_EQ(versionMismatch(Peer), "");
  Peer.Tessel = "0.0.1";
  std::string Why = versionMismatch(Peer);
  EXPECT_NE(Why.find("remote tessel is 0.0.1"), std::string::npos) << Why;
  Peer = ownHello();
  Peer.Protocol = 99;
  EXPECT_NE(versionMismatch(Peer).find("protocol 99"), std::string::npos);
}
