//===- CacheDirectory.h - where tessel keeps what it may throw away -*- C++ -*-===//
/// \file
/// The one folder under which every cache of tessel lives (the JIT's
/// compiled kernels in `jit/`, the project launch indexes in `index/`, the
/// device's measured peaks in `gpu-peak.tsv`), as XDG's base-directory
/// specification places a user's caches: `$TESSEL_CACHE_DIR` when set (a
/// test's or CI's throwaway folder), else `$XDG_CACHE_HOME/tessel` (an
/// absolute path only, as the specification asks), else
/// `$HOME/.cache/tessel`.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_CACHEDIRECTORY_H
#define TESSEL_COMPILER_SUPPORT_CACHEDIRECTORY_H

#include <string>
#include <string_view>

namespace tessel {

/// The folder (not created here), or "" when the environment names none.
std::string userCacheDirectory();
/// Sub under userCacheDirectory(), or "" when there is none.
std::string userCacheDirectory(std::string_view Sub);

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_CACHEDIRECTORY_H
