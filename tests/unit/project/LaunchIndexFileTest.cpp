//===- LaunchIndexFileTest.cpp - the launch index kept between runs -------===//
/// \file
/// The on-disk format (every truncation, a flipped byte, another version,
/// unsorted names: nullopt, never a crash) and Project's use of it: a later
/// run answers from the saved index without reading the files that stat as
/// they did, reads again those that changed, were written too close to the
/// save, or were deleted, recovers from a corrupt file, and runs saving at
/// once never leave a broken one.
//===----------------------------------------------------------------------===//
#include "compiler/project/LaunchIndexFile.h"

#include "TempTree.h"
#include "compiler/project/FileSet.h"
#include "compiler/project/Project.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace tessel::project {
namespace {

using testing::TempTree;
namespace fs = std::filesystem;

std::string sample() {
  std::vector<IndexRow> Rows = {{"pkg/a.py", 10, 1000, 77}, {"pkg/b.py", 20, 2000, 88}};
  std::map<std::string, std::vector<IndexPosting>> Names = {{"k", {{0, 1}, {1, 3}}}, {"helper", {{1, 2}}}};
  return LaunchIndexFile::encode("/root", 5000, Rows, Names);
}

/// Bytes with the header's checksum made right for a hand-edited body.
std::string resealed(std::string Bytes) {
  uint64_t Sum = contentHash(std::string_view(Bytes).substr(16));
  for (int I = 0; I < 8; ++I)
    Bytes[8 + I] = static_cast<char>(Sum >> (8 * I));
  return Bytes;
}

TEST(LaunchIndexFile, RoundTrip) {
  std::optional<LaunchIndexFile> F = LaunchIndexFile::decode(sample());
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Root, "/root");
  EXPECT_EQ(F->WrittenNs, 5000);
  ASSERT_EQ(F->Rows.size(), 2u);
  EXPECT_EQ(F->Rows[1].Path, "pkg/b.py");
  EXPECT_EQ(F->Rows[1].Size, 20u);
  EXPECT_EQ(F->Rows[1].MtimeNs, 2000);
  EXPECT_EQ(F->Rows[1].Hash, 88u);
  auto K = F->postings("k");
  ASSERT_EQ(K.size(), 2u);
  EXPECT_EQ(K[1].Row, 1u);
  EXPECT_EQ(K[1].Marks, 3);
  EXPECT_EQ(F->postings("helper").size(), 1u);
  EXPECT_TRUE(F->postings("absent").empty());
  EXPECT_TRUE(F->postings("").empty());
  // Moved (as Project keeps it), the names still read.
  LaunchIndexFile G = std::move(*F);
  EXPECT_EQ(G.name(0), "helper");
  EXPECT_EQ(G.postings("k").size(), 2u);
}

TEST(LaunchIndexFile, DamagedBytesAreRefused) {
  std::string Good = sample();
  for (size_t N = 0; N < Good.size(); ++N)
    EXPECT_FALSE(LaunchIndexFile::decode(Good.substr(0, N))) << "truncated to " << N;
  for (size_t I = 0; I < Good.size(); ++I) {
    std::string Bad = Good;
    Bad[I] = static_cast<char>(Bad[I] ^ 0x40);
    EXPECT_FALSE(LaunchIndexFile::decode(Bad)) << "byte " << I << " flipped";
  }
  std::string Older = Good;
  Older[4] = static_cast<char>(LaunchIndexFile::FormatVersion + 1);
  EXPECT_FALSE(LaunchIndexFile::decode(Older));
  EXPECT_FALSE(LaunchIndexFile::decode(Good + "x"));
}

TEST(LaunchIndexFile, WellSealedNonsenseIsRefused) {
  // Checksums right, contents wrong: what a bug or another writer could leave.
  auto With = [](std::vector<IndexRow> Rows, std::map<std::string, std::vector<IndexPosting>> Names) {
    return LaunchIndexFile::decode(LaunchIndexFile::encode("/r", 1, Rows, Names));
  };
  EXPECT_FALSE(With({{"../etc/passwd", 1, 1, 1}}, {}));
  EXPECT_FALSE(With({{"/abs.py", 1, 1, 1}}, {}));
  EXPECT_FALSE(With({{"a//b.py", 1, 1, 1}}, {}));
  EXPECT_FALSE(With({{"a.py", 1, 1, 1}}, {{"k", {{1, 1}}}})); // a row that is not there
  EXPECT_FALSE(With({{"a.py", 1, 1, 1}}, {{"k", {{0, 0}}}})); // no marks
  EXPECT_FALSE(With({{"a.py", 1, 1, 1}}, {{"", {{0, 1}}}}));
  // Names out of order (binary search would miss them): swap two names of equal length.
  std::string Bytes = LaunchIndexFile::encode("/r", 1, {{"a.py", 1, 1, 1}}, {{"ka", {{0, 1}}}, {"kb", {{0, 1}}}});
  size_t A = Bytes.find("ka"), B = Bytes.find("kb");
  ASSERT_NE(A, std::string::npos);
  std::swap(Bytes[A + 1], Bytes[B + 1]);
  EXPECT_FALSE(LaunchIndexFile::decode(resealed(Bytes)));
  // A count of rows beyond the bytes left must not allocate for it.
  std::string Huge = LaunchIndexFile::encode("/r", 1, {}, {});
  size_t Count = 16 + 8 + 4 + 2; // header, time, root "/r"
  for (int I = 0; I < 4; ++I)
    Huge[Count + I] = '\xff';
  EXPECT_FALSE(LaunchIndexFile::decode(resealed(Huge)));
}

/// Sets Path's modification time an hour back: out of the racy window.
void age(const std::string &Path) {
  fs::last_write_time(Path, fs::file_time_type::clock::now() - std::chrono::hours(1));
}

const char *Jit = "import triton\n@triton.jit\ndef k(p):\n    pass\n";

struct IndexedTree {
  TempTree T;
  std::string Index = T.path("cache/index");
  std::string Lib, Host, Other;
  IndexedTree() {
    age(T.write("pyproject.toml", ""));
    age(T.write("pkg/__init__.py", ""));
    Lib = T.write("pkg/lib.py", Jit);
    Host = T.write("pkg/host.py", "from .lib import k\ndef run(p):\n    k[(1,)](p)\n");
    Other = T.write("pkg/other.py", "def unrelated(p):\n    return p\n");
    for (const std::string &P : {Lib, Host, Other})
      age(P);
  }
  /// A fresh run (a new process, as far as the project knows).
  std::unique_ptr<Project> run() {
    auto P = std::make_unique<Project>();
    P->setIndexDirectory(Index);
    return P;
  }
};

TEST(LaunchIndexProject, LaterRunReadsOnlyWhatChanged) {
  IndexedTree X;
  {
    auto P = X.run();
    EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
    EXPECT_TRUE(P->files().knownHash(X.Other)); // the first run reads everything
    P->saveIndexes();
  }
  EXPECT_TRUE(fs::exists(launchIndexPath(X.Index, X.T.Root)));
  {
    auto P = X.run();
    EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
    EXPECT_FALSE(P->files().knownHash(X.Other)); // answered by the saved index
    EXPECT_FALSE(P->calledElsewhere(X.Lib, "k"));
  }
  // Host stops launching k; its size changes, so its stat does.
  X.T.write("pkg/host.py", "from .lib import k\ndef run(p):\n    return p\n");
  age(X.Host);
  {
    auto P = X.run();
    EXPECT_FALSE(P->launchedElsewhere(X.Lib, "k"));
    EXPECT_TRUE(P->files().knownHash(X.Host));
    EXPECT_FALSE(P->files().knownHash(X.Other));
    P->saveIndexes();
  }
  // A new file launches it, and then is deleted.
  std::string New = X.T.write("pkg/new.py", "from pkg.lib import k\nk[(2,)](None)\n");
  age(New);
  EXPECT_TRUE(X.run()->launchedElsewhere(X.Lib, "k"));
  fs::remove(New);
  EXPECT_FALSE(X.run()->launchedElsewhere(X.Lib, "k"));
}

TEST(LaunchIndexProject, SameStatWithinTheRacyWindowIsReadAgain) {
  IndexedTree X;
  // Written now: right before the save, so a change with an equal stat could hide.
  X.T.write("pkg/host.py", "from .lib import k\ndef run(p):\n    k[(1,)](p)\n");
  {
    auto P = X.run();
    EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
    P->saveIndexes();
  }
  // Same size, same modification time, other text.
  auto When = fs::last_write_time(X.Host);
  X.T.write("pkg/host.py", "from .lib import k\ndef run(p):\n    q[(1,)](p)\n");
  fs::last_write_time(X.Host, When);
  auto P = X.run();
  EXPECT_FALSE(P->launchedElsewhere(X.Lib, "k"));
  EXPECT_TRUE(P->files().knownHash(X.Host));
}

TEST(LaunchIndexProject, WatchedChangeAndBufferOverrideTheSavedRow) {
  IndexedTree X;
  X.run()->saveIndexes(); // nothing asked yet: nothing to save
  {
    auto P = X.run();
    P->launchedElsewhere(X.Lib, "k");
    P->saveIndexes();
  }
  auto P = X.run();
  EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
  EXPECT_TRUE(P->setBuffer(X.Host, std::string("from .lib import k\n")));
  EXPECT_FALSE(P->launchedElsewhere(X.Lib, "k"));
  P->setBuffer(X.Host, std::nullopt);
  EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
  X.T.write("pkg/host.py", "from .lib import k\ndef run(p):\n    return p\n");
  P->fileChanged(X.Host, /*Structural=*/false);
  EXPECT_FALSE(P->launchedElsewhere(X.Lib, "k"));
  // A buffer's text is not saved as if it were the file's.
  P->setBuffer(X.Other, std::string("from pkg.lib import k\nk[(1,)](0)\n"));
  EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
  P->saveIndexes();
  EXPECT_FALSE(X.run()->launchedElsewhere(X.Lib, "k"));
}

TEST(LaunchIndexProject, CorruptOrUnwritableIndexOnlyCostsTheHeadStart) {
  IndexedTree X;
  {
    auto P = X.run();
    P->launchedElsewhere(X.Lib, "k");
    P->saveIndexes();
  }
  std::string File = launchIndexPath(X.Index, X.T.Root);
  fs::resize_file(File, fs::file_size(File) / 2);
  {
    auto P = X.run();
    EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
    EXPECT_TRUE(P->files().knownHash(X.Other)); // scanned afresh
    P->saveIndexes();
  }
  EXPECT_TRUE(loadLaunchIndex(X.Index, X.T.Root)); // rewritten whole
  // An index folder that cannot be created: answers still right, nothing thrown.
  auto P = std::make_unique<Project>();
  P->setIndexDirectory(X.T.path("pyproject.toml") + "/index");
  EXPECT_TRUE(P->launchedElsewhere(X.Lib, "k"));
  P->saveIndexes();
}

TEST(LaunchIndexProject, RunsSavingAtOnceLeaveAWholeIndex) {
  IndexedTree X;
  for (int I = 0; I < 40; ++I)
    age(X.T.write("pkg/m" + std::to_string(I) + ".py", "from .lib import k\nk[(1,)](" + std::to_string(I) + ")\n"));
  std::atomic<bool> Stop{false};
  std::atomic<int> Loads{0}, Broken{0};
  std::thread Reader([&] {
    while (!Stop) {
      if (fs::exists(launchIndexPath(X.Index, X.T.Root))) {
        ++Loads;
        Broken += !loadLaunchIndex(X.Index, X.T.Root);
      }
    }
  });
  std::vector<std::thread> Writers;
  for (int W = 0; W < 4; ++W)
    Writers.emplace_back([&] {
      for (int I = 0; I < 15; ++I) {
        auto P = X.run();
        P->launchedElsewhere(X.Lib, "k");
        P->saveIndexes();
      }
    });
  for (std::thread &T : Writers)
    T.join();
  Stop = true;
  Reader.join();
  EXPECT_GT(Loads.load(), 0);
  EXPECT_EQ(Broken.load(), 0);
  // No temporary file left behind.
  size_t Files = 0;
  for (const auto &E : fs::directory_iterator(X.Index))
    Files += E.is_regular_file();
  EXPECT_EQ(Files, 1u);
}

} // namespace
} // namespace tessel::project
