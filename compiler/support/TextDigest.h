//===- TextDigest.h - 128-bit digests of texts for cache keys ---*- C++ -*-===//
/// \file
/// Caches keyed by the text of a kernel (its `def`, its helpers, its
/// specialization) held every key in full: a real library's kernel is
/// kilobytes, and a cache of thousands of entries filled over an hour of
/// typing grew the language server by tens of megabytes. A digest keeps 16
/// bytes a key. Two independent 64-bit hashes (libstdc++'s Murmur-based
/// std::hash and a word-at-a-time multiply-xorshift mix): no attacker picks
/// these texts, and a collision among a few thousand keys is ~2^-100.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_TEXTDIGEST_H
#define TESSEL_COMPILER_SUPPORT_TEXTDIGEST_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tessel {

struct TextDigest {
  uint64_t A = 0, B = 0;
  friend bool operator==(const TextDigest &X, const TextDigest &Y) = default;
  friend auto operator<=>(const TextDigest &X, const TextDigest &Y) = default;
};

TextDigest textDigest(std::string_view Text);

/// For unordered containers: the digest is already well mixed.
struct TextDigestHash {
  size_t operator()(const TextDigest &D) const { return static_cast<size_t>(D.A ^ D.B); }
};

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_TEXTDIGEST_H
