//===- WorkerPoolTest.cpp - parallelFor --------------------------------------===//
/// \file
/// Every item runs exactly once, on the caller alone when one thread is
/// allowed, and loops started from several threads at once (as the language
/// server does) all finish with their own items.
//===----------------------------------------------------------------------===//
#include "compiler/support/WorkerPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace tessel;

TEST(WorkerPool, EveryItemRunsExactlyOnce) {
  for (size_t N : {0u, 1u, 2u, 7u, 1000u}) {
    std::vector<std::atomic<int>> Seen(N);
    parallelFor(N, 8, [&](size_t I) { ++Seen[I]; });
    for (size_t I = 0; I < N; ++I)
      EXPECT_EQ(Seen[I].load(), 1) << "item " << I << " of " << N;
  }
}

TEST(WorkerPool, OneThreadMeansTheCaller) {
  std::thread::id Caller = std::this_thread::get_id();
  bool Elsewhere = false;
  parallelFor(100, 1, [&](size_t) { Elsewhere |= std::this_thread::get_id() != Caller; });
  EXPECT_FALSE(Elsewhere);
}

TEST(WorkerPool, ConcurrentLoopsShareThePool) {
  constexpr size_t Loops = 6, N = 500;
  std::vector<std::vector<std::atomic<int>>> Seen(Loops);
  for (auto &S : Seen)
    S = std::vector<std::atomic<int>>(N);
  std::vector<std::thread> Callers;
  for (size_t L = 0; L < Loops; ++L)
    Callers.emplace_back([&, L] {
      parallelFor(N, 4, [&](size_t I) {
        // Nested loops run too: a worker may start another loop.
        if (I % 100 == 0)
          parallelFor(3, 4, [](size_t) {});
        ++Seen[L][I];
      });
    });
  for (std::thread &T : Callers)
    T.join();
  for (size_t L = 0; L < Loops; ++L)
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Seen[L][I].load(), 1) << "loop " << L << " item " << I;
}
