//===- TextDigest.cpp - 128-bit digests of texts for cache keys ----------===//
#include "compiler/support/TextDigest.h"

#include <cstring>
#include <functional>

namespace tessel {

TextDigest textDigest(std::string_view Text) {
  TextDigest D;
  D.A = std::hash<std::string_view>{}(Text);
  uint64_t H = 0x27D4EB2F165667C5ull ^ (Text.size() * 0xC2B2AE3D27D4EB4Full);
  size_t I = 0;
  for (; I + 8 <= Text.size(); I += 8) {
    uint64_t W;
    std::memcpy(&W, Text.data() + I, 8);
    H = (H ^ (W * 0x9FB21C651E98DF25ull)) * 0xD6E8FEB86659FD93ull;
    H ^= H >> 32;
  }
  for (; I < Text.size(); ++I)
    H = (H ^ static_cast<unsigned char>(Text[I])) * 0x100000001B3ull;
  H ^= H >> 29;
  H *= 0xBF58476D1CE4E5B9ull;
  H ^= H >> 32;
  D.B = H;
  return D;
}

} // namespace tessel
