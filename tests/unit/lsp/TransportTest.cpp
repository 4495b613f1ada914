//===- TransportTest.cpp - framing and dispatch of JSON-RPC messages ------===//
/// \file
/// Drives the framing through the in-memory transport: standard and
/// delimited input, notifications, calls and replies reaching the handler,
/// recovery after invalid JSON and oversized messages, and the framing of
/// what the transport writes.
//===----------------------------------------------------------------------===//
#include "lsp/Transport.h"

#include <gtest/gtest.h>

using namespace tessel::lsp;
using nlohmann::json;

namespace {

struct Recorder : MessageHandler {
  std::vector<std::string> Seen;
  bool StopOnExit = true;
  bool onNotify(const std::string &Method, json Params) override {
    Seen.push_back("notify " + Method + " " + Params.dump());
    return !(StopOnExit && Method == "exit");
  }
  bool onCall(const std::string &Method, json Params, json Id) override {
    Seen.push_back("call " + Method + " " + Id.dump());
    return true;
  }
  bool onReply(json Id, Expected<json> Result) override {
    Seen.push_back("reply " + Id.dump() + " " + (Result ? Result->dump() : "error"));
    return true;
  }
};

std::string frame(const std::string &Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

TEST(Transport, StandardFramingDispatchesEveryKind) {
  std::string Out;
  std::string In = frame(R"({"jsonrpc":"2.0","method":"a","params":[1]})") +
                   frame(R"({"jsonrpc":"2.0","id":"x","method":"b"})") +
                   frame(R"({"jsonrpc":"2.0","id":7,"result":5})") + frame(R"({"jsonrpc":"2.0","method":"exit"})") +
                   frame(R"({"jsonrpc":"2.0","method":"never"})");
  auto T = newMemoryTransport(In, Out, {});
  Recorder R;
  EXPECT_TRUE(T->loop(R)); // stopped by the handler, not by the end of input
  EXPECT_EQ(R.Seen, (std::vector<std::string>{"notify a [1]", "call b \"x\"", "reply 7 5", "notify exit null"}));
  EXPECT_TRUE(Out.empty());
}

TEST(Transport, InvalidJsonGetsParseErrorAndTheLoopGoesOn) {
  std::string Out;
  std::string In = frame("{oops") + frame(R"({"jsonrpc":"2.0","method":"after"})");
  auto T = newMemoryTransport(In, Out, {});
  Recorder R;
  EXPECT_FALSE(T->loop(R)); // the input ended
  EXPECT_EQ(R.Seen, (std::vector<std::string>{"notify after null"}));
  EXPECT_NE(Out.find(R"("code":-32700)"), std::string::npos);
  EXPECT_NE(Out.find(R"("id":null)"), std::string::npos);
}

TEST(Transport, OversizedMessageIsSkippedExactly) {
  std::string Out;
  TransportOptions Opts;
  Opts.MaxMessageBytes = 20;
  std::string Big = R"({"jsonrpc":"2.0","method":"big","params":"xxxxxxxxxxxxxxxx"})";
  std::string In = frame(Big) + frame(R"({"method":"ok"})");
  auto T = newMemoryTransport(In, Out, Opts);
  Recorder R;
  T->loop(R);
  EXPECT_EQ(R.Seen, (std::vector<std::string>{"notify ok null"}));
}

TEST(Transport, DelimitedInputSkipsCommentsAndSeparators) {
  std::string Out;
  TransportOptions Opts;
  Opts.InputStyle = FramingStyle::Delimited;
  std::string In =
      "# a comment\n{\"method\":\"a\",\n \"params\":1}\n---\n---\n# only comments\n---\n{\"method\":\"b\"}\n";
  auto T = newMemoryTransport(In, Out, Opts);
  Recorder R;
  T->loop(R);
  EXPECT_EQ(R.Seen, (std::vector<std::string>{"notify a 1", "notify b null"}));
}

TEST(Transport, WritesAreContentLengthFramed) {
  std::string Out;
  auto T = newMemoryTransport("", Out, {});
  T->reply(3, LspError{ErrorCode::ContentModified, "changed"});
  T->notify("n", json::object());
  std::string First = R"({"error":{"code":-32801,"message":"changed"},"id":3,"jsonrpc":"2.0"})";
  EXPECT_EQ(Out.substr(0, frame(First).size()), frame(First));
  EXPECT_NE(Out.find(R"("method":"n")"), std::string::npos);
}

TEST(Transport, TruncatedBodyEndsTheLoop) {
  std::string Out;
  auto T = newMemoryTransport("Content-Length: 50\r\n\r\n{\"method\"", Out, {});
  Recorder R;
  EXPECT_FALSE(T->loop(R));
  EXPECT_TRUE(R.Seen.empty());
}

} // namespace
