//===- SharedMapTest.cpp - SharedMap against std::map, and its copies -----===//
/// \file
/// Random inserts, lookups and erasures give what std::map gives; a copy and
/// its original never see each other's writes; a copy shares every entry
/// until one is written, and then shares all the others still; references
/// to values survive insertions of other keys, as std::map's do.
//===----------------------------------------------------------------------===//
#include "compiler/support/SharedMap.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

using namespace tessel;

namespace {

using Map = SharedMap<std::string, int>;

std::map<std::string, int> asStdMap(const Map &M) {
  std::map<std::string, int> Out;
  for (const auto &[K, V] : M)
    Out.emplace(K, V);
  return Out;
}

std::string key(unsigned N) { return "kernel_" + std::to_string(N); }

} // namespace

TEST(SharedMap, RandomWritesMatchStdMap) {
  std::mt19937 Rng(7);
  Map M;
  std::map<std::string, int> Ref;
  for (int Step = 0; Step < 20000; ++Step) {
    std::string K = key(Rng() % 3000);
    switch (Rng() % 5) {
    case 0:
    case 1:
      M[K] = Step;
      Ref[K] = Step;
      break;
    case 2:
      EXPECT_EQ(M.emplace(K, -Step), Ref.emplace(K, -Step).second);
      break;
    case 3:
      EXPECT_EQ(M.erase(K), Ref.erase(K));
      break;
    case 4:
      if (int *V = M.mutate(K))
        *V += 1, Ref.at(K) += 1;
      else
        EXPECT_FALSE(Ref.count(K));
      break;
    }
    ASSERT_EQ(M.size(), Ref.size());
    ASSERT_EQ(M.count(K), Ref.count(K));
  }
  EXPECT_EQ(asStdMap(M), Ref);
  // In order, each key once.
  std::vector<std::string> Keys;
  for (const auto &[K, V] : M)
    Keys.push_back(K);
  EXPECT_TRUE(std::is_sorted(Keys.begin(), Keys.end()));
  EXPECT_EQ(std::adjacent_find(Keys.begin(), Keys.end()), Keys.end());
  for (const auto &[K, V] : Ref) {
    ASSERT_NE(M.find(K), M.end());
    EXPECT_EQ(M.find(K)->second, V);
    EXPECT_EQ(M.at(K), V);
  }
  EXPECT_EQ(M.find(std::string("absent")), M.end());
  EXPECT_THROW(M.at(std::string("absent")), std::out_of_range);
}

TEST(SharedMap, ACopyAndItsOriginalNeverSeeEachOthersWrites) {
  Map A;
  for (unsigned I = 0; I < 1000; ++I)
    A[key(I)] = static_cast<int>(I);
  std::map<std::string, int> Before = asStdMap(A);
  Map B = A;
  B[key(5)] = -1;
  *B.mutate(key(600)) = -2;
  B.erase(key(999));
  B.emplace(key(1000), 1000);
  EXPECT_EQ(asStdMap(A), Before);
  EXPECT_EQ(B.at(key(5)), -1);
  EXPECT_EQ(B.at(key(600)), -2);
  EXPECT_EQ(B.count(key(999)), 0u);
  EXPECT_EQ(B.size(), 1000u);
  A[key(7)] = -3;
  EXPECT_EQ(B.at(key(7)), 7);
  EXPECT_NE(A, B);
}

TEST(SharedMap, ACopySharesEveryEntryItDidNotWrite) {
  Map A;
  for (unsigned I = 0; I < 5000; ++I)
    A[key(I)] = static_cast<int>(I);
  Map B = A;
  EXPECT_EQ(A, B);
  for (unsigned I = 0; I < 5000; I += 97)
    EXPECT_EQ(&A.at(key(I)), &B.at(key(I)));
  *B.mutate(key(2500)) = 0;
  EXPECT_NE(&A.at(key(2500)), &B.at(key(2500)));
  for (unsigned I = 0; I < 5000; ++I)
    if (I != 2500)
      ASSERT_EQ(&A.at(key(I)), &B.at(key(I))) << key(I);
  // Writing every entry of the copy shares none.
  B.forEachMutable([](const std::string &, int &V) { ++V; });
  for (unsigned I = 0; I < 5000; I += 97)
    EXPECT_NE(&A.at(key(I)), &B.at(key(I)));
  EXPECT_EQ(A.at(key(10)), 10);
  EXPECT_EQ(B.at(key(10)), 11);
}

TEST(SharedMap, ValuesStayPutWhenOtherKeysComeAndGo) {
  Map M;
  int &First = M[key(0)];
  First = 42;
  for (unsigned I = 1; I < 2000; ++I)
    M[key(I)] = 1; // splits the chunk holding key(0) many times
  for (unsigned I = 1; I < 2000; I += 2)
    M.erase(key(I));
  EXPECT_EQ(&First, &M.at(key(0)));
  EXPECT_EQ(First, 42);
}
