//===- TextDigestTest.cpp - digests that tell texts apart ----------------===//
/// \file
/// Equal texts give equal digests; texts one edit apart (a character
/// changed, added or removed anywhere, as typing makes them), across all
/// lengths around the 8-byte steps, give distinct ones; so do many
/// kernel-like texts, in both halves of the digest.
//===----------------------------------------------------------------------===//
#include "compiler/support/TextDigest.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace tessel;

TEST(TextDigest, EqualTextsAreEqual) {
  std::string A = "@triton.jit\ndef k(x):\n    pass\n";
  EXPECT_EQ(textDigest(A), textDigest(std::string(A)));
  EXPECT_EQ(textDigest(""), textDigest(std::string()));
}

TEST(TextDigest, OneEditApartDiffers) {
  std::string Base = "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n    o = tl.arange(0, BLOCK)\n";
  std::set<std::string> Texts;
  for (size_t Len = 0; Len <= Base.size(); ++Len) {
    std::string T = Base.substr(0, Len);
    Texts.insert(T);
    for (size_t I = 0; I < T.size(); ++I) {
      std::string Changed = T, Removed = T;
      Changed[I] = Changed[I] == 'z' ? 'y' : 'z';
      Removed.erase(I, 1);
      Texts.insert(Changed);
      Texts.insert(Removed);
      Texts.insert(T.substr(0, I) + std::string(1, '\0') + T.substr(I));
    }
  }
  std::set<TextDigest> Both;
  std::set<uint64_t> A, B;
  for (const std::string &T : Texts) {
    TextDigest D = textDigest(T);
    Both.insert(D);
    A.insert(D.A);
    B.insert(D.B);
  }
  ASSERT_GT(Texts.size(), 5000u);
  EXPECT_EQ(Both.size(), Texts.size());
  EXPECT_EQ(A.size(), Texts.size());
  EXPECT_EQ(B.size(), Texts.size());
}

TEST(TextDigest, ManyKernelTextsDifferInBothHalves) {
  std::set<uint64_t> A, B;
  const int N = 20000;
  for (int I = 0; I < N; ++I) {
    TextDigest D = textDigest("def k" + std::to_string(I) + "(x):\n    return x * " + std::to_string(I % 7) + "\n");
    A.insert(D.A);
    B.insert(D.B);
  }
  EXPECT_EQ(A.size(), size_t(N));
  EXPECT_EQ(B.size(), size_t(N));
}
