//===- ForkedCallTest.cpp - work in a child process, and how it ends ------===//
/// \file
/// What the child returns comes back whole, large or empty; and each way a
/// child can end without an answer (its memory budget spent, a signal, a
/// hang, an exception, a cancel) is a status with words for it while the
/// caller goes on: a second call after each failure runs as the first did.
//===----------------------------------------------------------------------===//
#include "compiler/support/ForkedCall.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace tessel;

namespace {

ForkLimits limits(uint64_t MiB, unsigned Ms) {
  ForkLimits L;
  L.MemoryBytes = MiB << 20;
  L.TimeoutMs = Ms;
  return L;
}

/// A library's own out-of-memory type, not derived from std::bad_alloc (Z3's).
struct out_of_memory_error {};

[[noreturn]] void throwOutOfMemory() { throw out_of_memory_error(); }

/// Touches every page, so that the allocation is real whatever the allocator defers.
size_t allocateAndTouch(size_t Bytes) {
  std::vector<char> V(Bytes);
  std::memset(V.data(), 1, V.size());
  return V.size();
}

void expectStillWorks() {
  ForkedResult R = runForked([] { return std::string("again"); }, limits(256, 10000));
  EXPECT_TRUE(R.ok()) << R.Detail;
  EXPECT_EQ(R.Output, "again");
}

} // namespace

TEST(ForkedCall, ReturnsTheOutputWhole) {
  std::string Big(3 << 20, 'x'); // larger than a pipe's buffer
  for (size_t I = 0; I < Big.size(); I += 4097)
    Big[I] = static_cast<char>(I % 251);
  ForkedResult R = runForked([&] { return Big; }, limits(512, 20000));
  ASSERT_TRUE(R.ok()) << R.Detail;
  EXPECT_EQ(R.Output, Big);

  ForkedResult Empty = runForked([] { return std::string(); }, {});
  ASSERT_TRUE(Empty.ok());
  EXPECT_EQ(Empty.Output, "");
}

TEST(ForkedCall, SeesTheCallersMemoryAndDoesNotChangeIt) {
  int Value = 41;
  ForkedResult R = runForked(
      [&] {
        ++Value;
        return std::to_string(Value);
      },
      {});
  ASSERT_TRUE(R.ok());
  EXPECT_EQ(R.Output, "42");
  EXPECT_EQ(Value, 41);
}

TEST(ForkedCall, AnAllocationPastTheBudgetIsOutOfMemory) {
  ForkLimits L = limits(64, 20000);
  ForkedResult R = runForked([] { return std::to_string(allocateAndTouch(size_t(1) << 30)); }, L);
  EXPECT_EQ(R.S, ForkedResult::Status::OutOfMemory) << R.Detail;
  EXPECT_EQ(describeFailure(R, L), "ran out of memory (its limit: 64 MiB)");
  expectStillWorks();
}

TEST(ForkedCall, ACrashAtTheLimitIsOutOfMemory) {
  // A library given null by a refused allocation dereferences it (Z3 does).
  ForkedResult R = runForked(
      []() -> std::string {
        std::vector<void *> Held;
        while (void *P = std::malloc(8 << 20))
          Held.push_back(P);
        std::raise(SIGSEGV);
        return "unreachable";
      },
      limits(128, 20000));
  EXPECT_EQ(R.S, ForkedResult::Status::OutOfMemory) << R.Detail;
  expectStillWorks();
}

TEST(ForkedCall, ALibrarysOwnOutOfMemoryTypeIsOutOfMemory) {
  ForkedResult R = runForked([]() -> std::string { throwOutOfMemory(); }, {});
  EXPECT_EQ(R.S, ForkedResult::Status::OutOfMemory) << R.Detail;
  // Thrown where nothing may throw (a destructor, a noexcept function): std::terminate.
  ForkedResult T = runForked(
      []() -> std::string {
        []() noexcept { throwOutOfMemory(); }();
        return "unreachable";
      },
      {});
  EXPECT_EQ(T.S, ForkedResult::Status::OutOfMemory) << T.Detail;
  expectStillWorks();
}

TEST(ForkedCall, ASignalIsACrashNamingIt) {
  ForkLimits L = limits(256, 20000);
  ForkedResult R = runForked(
      []() -> std::string {
        std::raise(SIGSEGV);
        return "unreachable";
      },
      L);
  EXPECT_EQ(R.S, ForkedResult::Status::Crashed);
  EXPECT_NE(R.Detail.find("signal 11"), std::string::npos) << R.Detail;
  EXPECT_EQ(describeFailure(R, L).rfind("crashed (signal 11", 0), 0u) << describeFailure(R, L);
  expectStillWorks();
}

TEST(ForkedCall, AnExceptionIsACrashWithItsMessage) {
  ForkedResult R = runForked([]() -> std::string { throw std::runtime_error("the solver failed"); }, {});
  EXPECT_EQ(R.S, ForkedResult::Status::Crashed);
  EXPECT_NE(R.Detail.find("std::runtime_error: the solver failed"), std::string::npos) << R.Detail;
}

TEST(ForkedCall, AHangIsKilledAtItsTimeLimit) {
  ForkLimits L = limits(0, 300);
  auto Start = std::chrono::steady_clock::now();
  ForkedResult R = runForked(
      [] {
        for (;;)
          std::this_thread::sleep_for(std::chrono::seconds(1));
        return std::string();
      },
      L);
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - Start).count();
  EXPECT_EQ(R.S, ForkedResult::Status::TimedOut);
  EXPECT_EQ(describeFailure(R, L), "ran past its time limit (300 ms)");
  EXPECT_LT(Ms, 5000);
  expectStillWorks();
}

TEST(ForkedCall, ACancelEndsTheChild) {
  std::atomic<bool> Cancel{false};
  std::thread Canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    Cancel = true;
  });
  ForkedResult R = runForked(
      [] {
        for (;;)
          std::this_thread::sleep_for(std::chrono::seconds(1));
        return std::string();
      },
      {}, &Cancel);
  Canceller.join();
  EXPECT_EQ(R.S, ForkedResult::Status::Cancelled);
}

TEST(ForkedCall, WorksFromAThreadWhileOthersAllocate) {
  // The language server forks from its proof thread while its other threads
  // keep parsing: the child must not inherit their locks mid-allocation.
  std::atomic<bool> Stop{false};
  std::vector<std::thread> Busy;
  for (int T = 0; T < 2; ++T)
    Busy.emplace_back([&] {
      while (!Stop)
        allocateAndTouch(1 << 16);
    });
  int Ok = 0;
  for (int I = 0; I < 50; ++I) {
    ForkedResult R = runForked([] { return std::to_string(allocateAndTouch(1 << 20)); }, limits(256, 10000));
    Ok += R.ok() && R.Output == std::to_string(1 << 20);
  }
  Stop = true;
  for (std::thread &T : Busy)
    T.join();
  EXPECT_EQ(Ok, 50);
}
