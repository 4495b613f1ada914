//===- CompileCacheTest.cpp - the JIT cache in memory and on disk ---------===//
/// \file
/// Keys separate their fields; memory keeps within its entries and bytes;
/// entries survive a new process (a new cache
/// object on the same folder); a truncated or altered file is a miss and is
/// removed; concurrent writer processes never leave a torn entry.
//===----------------------------------------------------------------------===//
#include "compiler/backend/CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace tessel::backend;

namespace {
struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tessel-cache-test", Path)); }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
};
} // namespace

static CacheKey key(llvm::StringRef A, llvm::StringRef B = "") { return CacheKeyBuilder().add(A).add(B).finish(); }

static void writeFile(const std::string &Path, llvm::StringRef Bytes) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC);
  OS << Bytes;
}

TEST(CompileCache, KeysSeparateTheirFields) {
  EXPECT_FALSE(key("ab", "c") == key("a", "bc"));
  EXPECT_TRUE(key("ab", "c") == key("ab", "c"));
  EXPECT_EQ(key("x").hex().size(), 64u);
}

TEST(CompileCache, MemoryOnlyEvictsTheLeastRecentlyUsed) {
  CompileCache C("", 2);
  C.store(key("1"), "one");
  C.store(key("2"), "two");
  EXPECT_EQ(C.lookup(key("1")), "one"); // 1 is now the most recent
  C.store(key("3"), "three");
  EXPECT_FALSE(C.lookup(key("2")));
  EXPECT_EQ(C.lookup(key("1")), "one");
  EXPECT_EQ(C.lookup(key("3")), "three");
}

TEST(CompileCache, MemoryKeepsWithinItsByteBudget) {
  // Ten entries allowed, but 10 bytes: the oldest go as soon as the bytes
  // are over, an entry stored again counts once, and one over the whole
  // budget is not kept.
  CompileCache C("", 10, 10);
  C.store(key("a"), "aaaa");
  C.store(key("b"), "bbbb");
  C.store(key("b"), "bbbb");
  EXPECT_EQ(C.lookup(key("a")), "aaaa");
  C.store(key("c"), "cccc"); // 12 bytes: b, the least recent, goes
  EXPECT_FALSE(C.lookup(key("b")));
  EXPECT_EQ(C.lookup(key("a")), "aaaa");
  EXPECT_EQ(C.lookup(key("c")), "cccc");
  C.store(key("big"), std::string(11, 'x'));
  EXPECT_FALSE(C.lookup(key("big")));
  EXPECT_EQ(C.lookup(key("c")), "cccc");
}

TEST(CompileCache, EntriesOutliveTheProcessThatWroteThem) {
  TempDir D;
  CompileCache(std::string(D.Path)).store(key("k"), std::string("payload\0with nul", 16));
  CompileCache Fresh{std::string(D.Path)};
  EXPECT_EQ(Fresh.lookup(key("k")), std::string("payload\0with nul", 16));
  EXPECT_EQ(Fresh.stats().DiskHits, 1u);
  EXPECT_EQ(Fresh.lookup(key("k")), std::string("payload\0with nul", 16));
  EXPECT_EQ(Fresh.stats().MemoryHits, 1u);
  EXPECT_FALSE(Fresh.lookup(key("other")));
}

TEST(CompileCache, ATruncatedOrAlteredEntryIsAMissAndIsRemoved) {
  TempDir D;
  std::string Dir(D.Path);
  CompileCache(Dir).store(key("k"), "the compiled kernel");
  std::string Path = CompileCache(Dir).pathFor(key("k"));
  std::string Good = CompileCache::encodeEntry("the compiled kernel");
  ASSERT_EQ(CompileCache::decodeEntry(Good), "the compiled kernel");

  writeFile(Path, llvm::StringRef(Good).drop_back(3)); // a crash mid-write
  CompileCache A(Dir);
  EXPECT_FALSE(A.lookup(key("k")));
  EXPECT_EQ(A.stats().CorruptEntries, 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(Path));

  std::string Flipped = Good;
  Flipped.back() ^= 1; // one bit of the payload
  writeFile(Path, Flipped);
  CompileCache B(Dir);
  EXPECT_FALSE(B.lookup(key("k")));
  EXPECT_EQ(B.stats().CorruptEntries, 1u);

  writeFile(Path, ""); // empty file
  EXPECT_FALSE(CompileCache(Dir).lookup(key("k")));
  // The next store repairs it.
  CompileCache(Dir).store(key("k"), "again");
  EXPECT_EQ(CompileCache(Dir).lookup(key("k")), "again");
}

TEST(CompileCache, ConcurrentWriterProcessesNeverLeaveATornEntry) {
  TempDir D;
  std::string Dir(D.Path);
  // Large payloads make a torn write likely if writes were not atomic.
  auto Payload = [](int Writer) { return std::string(256 * 1024 + Writer, char('a' + Writer)); };
  constexpr int Writers = 4, Rounds = 20;
  std::vector<pid_t> Kids;
  for (int W = 0; W < Writers; ++W) {
    pid_t P = fork();
    ASSERT_GE(P, 0);
    if (P == 0) {
      for (int R = 0; R < Rounds; ++R)
        CompileCache(Dir).store(key("shared"), Payload(W));
      _exit(0);
    }
    Kids.push_back(P);
  }
  for (int R = 0; R < 200; ++R) {
    std::optional<std::string> Got = CompileCache(Dir).lookup(key("shared"));
    if (!Got)
      continue;
    bool Valid = false;
    for (int W = 0; W < Writers; ++W)
      Valid |= *Got == Payload(W);
    ASSERT_TRUE(Valid) << "a reader saw a torn entry of " << Got->size() << " bytes";
  }
  for (pid_t P : Kids) {
    int Status = 0;
    waitpid(P, &Status, 0);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  std::optional<std::string> Final = CompileCache(Dir).lookup(key("shared"));
  ASSERT_TRUE(Final);
  EXPECT_GE(Final->size(), 256u * 1024);
  // No temporary file is left behind.
  std::error_code EC;
  int Files = 0;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; !EC && It != End; It.increment(EC))
    Files += llvm::sys::fs::is_regular_file(It->path());
  EXPECT_EQ(Files, 1);
}

TEST(CompileCache, DefaultFolderFollowsXdg) {
  const char *Old = getenv("XDG_CACHE_HOME");
  const char *OldT = getenv("TESSEL_CACHE_DIR");
  std::string SaveX = Old ? Old : "", SaveT = OldT ? OldT : "";
  unsetenv("TESSEL_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(CompileCache::defaultDirectory(), "/xdg/tessel/jit");
  setenv("TESSEL_CACHE_DIR", "/over", 1);
  EXPECT_EQ(CompileCache::defaultDirectory(), "/over/jit");
  Old ? setenv("XDG_CACHE_HOME", SaveX.c_str(), 1) : unsetenv("XDG_CACHE_HOME");
  OldT ? setenv("TESSEL_CACHE_DIR", SaveT.c_str(), 1) : unsetenv("TESSEL_CACHE_DIR");
}
