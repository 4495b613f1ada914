//===- CompileCache.cpp - compiled kernels kept in memory and on disk -----===//
/// \file
/// Entry file: "TSLJ" (4 bytes), format version (u32), payload size (u64),
/// xxh3 of the payload (u64), the payload; integers little-endian.
//===----------------------------------------------------------------------===//
#include "compiler/backend/CompileCache.h"

#include "compiler/support/CacheDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <cstring>

namespace tessel::backend {

namespace fs = llvm::sys::fs;

static constexpr char Magic[4] = {'T', 'S', 'L', 'J'};
static constexpr uint32_t FormatVersion = 1;
static constexpr size_t HeaderSize = 4 + 4 + 8 + 8;

std::string CacheKey::hex() const {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  for (uint8_t B : Hash) {
    S += Digits[B >> 4];
    S += Digits[B & 15];
  }
  return S;
}

CacheKeyBuilder &CacheKeyBuilder::add(llvm::StringRef Field) {
  add(uint64_t(Field.size()));
  Hasher.update(Field);
  return *this;
}

CacheKeyBuilder &CacheKeyBuilder::add(uint64_t N) {
  uint8_t B[8];
  for (int I = 0; I < 8; ++I)
    B[I] = uint8_t(N >> (8 * I));
  Hasher.update(llvm::ArrayRef<uint8_t>(B, 8));
  return *this;
}

CacheKey CacheKeyBuilder::finish() {
  CacheKey K;
  K.Hash = Hasher.final();
  return K;
}

size_t CompileCache::KeyHash::operator()(const CacheKey &K) const {
  size_t H;
  std::memcpy(&H, K.Hash.data(), sizeof(H));
  return H;
}

CompileCache::CompileCache(std::string Dir, size_t MemoryEntries, size_t MemoryBytes)
    : Dir(std::move(Dir)), Capacity(MemoryEntries), ByteBudget(MemoryBytes) {}

std::string CompileCache::defaultDirectory() { return userCacheDirectory("jit"); }

std::string CompileCache::pathFor(const CacheKey &K) const {
  std::string Hex = K.hex();
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Hex.substr(0, 2), Hex + ".tsj");
  return std::string(P);
}

static void putLE(std::string &S, uint64_t V, int Bytes) {
  for (int I = 0; I < Bytes; ++I)
    S += char(uint8_t(V >> (8 * I)));
}

static uint64_t getLE(llvm::StringRef S, size_t At, int Bytes) {
  uint64_t V = 0;
  for (int I = 0; I < Bytes; ++I)
    V |= uint64_t(uint8_t(S[At + I])) << (8 * I);
  return V;
}

std::string CompileCache::encodeEntry(llvm::StringRef Payload) {
  std::string S(Magic, 4);
  putLE(S, FormatVersion, 4);
  putLE(S, Payload.size(), 8);
  putLE(S, llvm::xxh3_64bits(Payload), 8);
  S += Payload;
  return S;
}

std::optional<std::string> CompileCache::decodeEntry(llvm::StringRef Bytes) {
  if (Bytes.size() < HeaderSize || std::memcmp(Bytes.data(), Magic, 4) != 0 || getLE(Bytes, 4, 4) != FormatVersion)
    return std::nullopt;
  uint64_t Size = getLE(Bytes, 8, 8);
  if (Size != Bytes.size() - HeaderSize)
    return std::nullopt;
  llvm::StringRef Payload = Bytes.substr(HeaderSize);
  if (llvm::xxh3_64bits(Payload) != getLE(Bytes, 16, 8))
    return std::nullopt;
  return Payload.str();
}

void CompileCache::remember(const CacheKey &K, std::string Payload) {
  if (auto It = Index.find(K); It != Index.end()) {
    Bytes -= It->second->second.size();
    Lru.erase(It->second);
    Index.erase(It);
  }
  // A payload over the whole budget is not kept at all (the disk has it).
  if (Payload.size() > ByteBudget || Capacity == 0)
    return;
  Bytes += Payload.size();
  Lru.emplace_front(K, std::move(Payload));
  Index[K] = Lru.begin();
  while (Lru.size() > Capacity || Bytes > ByteBudget) {
    Bytes -= Lru.back().second.size();
    Index.erase(Lru.back().first);
    Lru.pop_back();
  }
}

std::optional<std::string> CompileCache::lookup(const CacheKey &K) {
  {
    std::lock_guard<std::mutex> Lock(Mu);
    if (auto It = Index.find(K); It != Index.end()) {
      Lru.splice(Lru.begin(), Lru, It->second);
      ++Counts.MemoryHits;
      return It->second->second;
    }
  }
  if (Dir.empty()) {
    std::lock_guard<std::mutex> Lock(Mu);
    ++Counts.Misses;
    return std::nullopt;
  }
  std::string Path = pathFor(K);
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  std::optional<std::string> Payload;
  if (Buf)
    Payload = decodeEntry((*Buf)->getBuffer());
  std::lock_guard<std::mutex> Lock(Mu);
  if (!Payload) {
    if (Buf) {
      // Truncated by a crash or a full disk, or altered: drop it so that the
      // next store writes a good one.
      ++Counts.CorruptEntries;
      fs::remove(Path);
    }
    ++Counts.Misses;
    return std::nullopt;
  }
  ++Counts.DiskHits;
  remember(K, *Payload);
  return Payload;
}

void CompileCache::store(const CacheKey &K, llvm::StringRef Payload) {
  {
    std::lock_guard<std::mutex> Lock(Mu);
    remember(K, Payload.str());
  }
  if (Dir.empty())
    return;
  std::string Path = pathFor(K);
  llvm::StringRef Folder = llvm::sys::path::parent_path(Path);
  if (fs::create_directories(Folder))
    return;
  // A unique temporary name in the same folder (so rename is atomic), then
  // rename over whatever is there.
  llvm::SmallString<256> Model(Folder);
  llvm::sys::path::append(Model, K.hex() + ".tmp-%%%%%%%%");
  int Fd = -1;
  llvm::SmallString<256> Temp;
  if (fs::createUniqueFile(Model, Fd, Temp))
    return;
  bool Ok;
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << encodeEntry(Payload);
    OS.flush();
    Ok = !OS.has_error();
    if (!Ok)
      OS.clear_error();
  }
  if (!Ok || fs::rename(Temp, Path))
    fs::remove(Temp);
}

CompileCache::Stats CompileCache::stats() const {
  std::lock_guard<std::mutex> Lock(Mu);
  return Counts;
}

} // namespace tessel::backend
