//===- CacheDirectory.cpp - where tessel keeps what it may throw away -----===//
#include "compiler/support/CacheDirectory.h"

#include <cstdlib>

namespace tessel {

std::string userCacheDirectory() {
  if (const char *D = std::getenv("TESSEL_CACHE_DIR"); D && *D)
    return D;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X == '/')
    return std::string(X) + "/tessel";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/tessel";
  return "";
}

std::string userCacheDirectory(std::string_view Sub) {
  std::string Root = userCacheDirectory();
  if (Root.empty())
    return Root;
  while (Root.size() > 1 && Root.back() == '/')
    Root.pop_back();
  return Root + "/" + std::string(Sub);
}

} // namespace tessel
