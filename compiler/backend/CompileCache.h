//===- CompileCache.h - compiled kernels kept in memory and on disk -*- C++ -*-===//
/// \file
/// The JIT's cache. A key is a BLAKE3 hash over length-prefixed fields
/// (CacheKeyBuilder): for a kernel, the text of its `def` and of everything
/// it reaches (sema's KernelInputs: helpers, configs, launch sites, the
/// module-level names it resolves), its specialization, the architecture,
/// the toolkit and assembler versions and tessel's own version (see
/// JitKey.h). An entry is an opaque payload (a serialized CompiledKernel).
///
/// In memory: a bounded map, least recently used out first (the server).
/// On disk (the CLI): one file per key under the `jit/` folder of the user's
/// cache (support/CacheDirectory.h: `~/.cache/tessel/jit`), written to a
/// temporary file in the same folder and renamed into place, so concurrent
/// processes never see half an entry (the last writer of equal bytes wins).
/// Each file carries a magic, a format version, the payload size and an
/// xxh3 checksum of the payload; a truncated or corrupt file is a miss and is
/// removed.
///
/// Thread safety: every member may be called from several threads.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_COMPILECACHE_H
#define TESSEL_COMPILER_BACKEND_COMPILECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"

#include <array>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tessel::backend {

struct CacheKey {
  std::array<uint8_t, 32> Hash{};
  std::string hex() const;
  friend bool operator==(const CacheKey &A, const CacheKey &B) = default;
};

/// Hashes fields so that ("ab", "c") and ("a", "bc") differ.
class CacheKeyBuilder {
public:
  CacheKeyBuilder &add(llvm::StringRef Field);
  CacheKeyBuilder &add(uint64_t N);
  CacheKey finish();

private:
  llvm::BLAKE3 Hasher;
};

class CompileCache {
public:
  /// Dir empty: memory only. The memory copy keeps at most MemoryEntries
  /// payloads and MemoryBytes bytes of them, the least recently used going
  /// first: a compiled kernel is about 90 KB (PTX, cubin, LLVM text), so a
  /// count alone let a long-running server hold tens of megabytes of them.
  explicit CompileCache(std::string Dir = "", size_t MemoryEntries = 512, size_t MemoryBytes = size_t(64) << 20);

  /// `jit/` under userCacheDirectory(); empty when the environment names
  /// no cache folder.
  static std::string defaultDirectory();

  std::optional<std::string> lookup(const CacheKey &K);
  /// Stores in memory and, with a folder, on disk; a disk failure (read-only
  /// folder, full disk) only loses the disk copy.
  void store(const CacheKey &K, llvm::StringRef Payload);

  const std::string &directory() const { return Dir; }
  /// The file of K under the folder.
  std::string pathFor(const CacheKey &K) const;

  struct Stats {
    size_t MemoryHits = 0, DiskHits = 0, Misses = 0, CorruptEntries = 0;
  };
  Stats stats() const;

  /// The bytes of an entry file for Payload, and the payload of such bytes
  /// (nullopt when truncated or corrupt): the on-disk format, for tests.
  static std::string encodeEntry(llvm::StringRef Payload);
  static std::optional<std::string> decodeEntry(llvm::StringRef Bytes);

private:
  struct KeyHash {
    size_t operator()(const CacheKey &K) const;
  };
  std::string Dir;
  size_t Capacity, ByteBudget;
  size_t Bytes = 0; ///< of the payloads in Lru
  mutable std::mutex Mu;
  std::list<std::pair<CacheKey, std::string>> Lru; ///< most recent first
  std::unordered_map<CacheKey, decltype(Lru)::iterator, KeyHash> Index;
  Stats Counts;

  void remember(const CacheKey &K, std::string Payload);
};

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_COMPILECACHE_H
