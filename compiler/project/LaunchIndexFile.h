//===- LaunchIndexFile.h - a project's launch index, kept on disk -*- C++ -*-===//
/// \file
/// The launch index of one project root (Project.h: the identifiers each
/// file writes before a `[` or a `(`) as it is saved between runs, so that
/// `tessel check FILE` in a large project reads only the files that changed
/// since the last run, as ruff's and mypy's caches do. A file's row holds its
/// size and modification time at the read its names came from and its
/// content hash; Project trusts a row whose file stats the same and was not
/// written in the last moments before the index was (a change within the
/// clock's granularity would keep both: those are hashed again, git's "racy
/// clean" rule).
///
/// One file per root, named after the root's hash, under the `index/` folder
/// of the user's cache. Format: "TSLX", the format version (u32), the
/// contentHash of the body (u64), then the body: the time it was
/// written (ns), the root, the rows, and the names sorted bytewise, each with
/// its postings (row number, marks); integers little-endian. decode() checks
/// every length and number, so a truncated, corrupt, foreign or older file is
/// nullopt, never a crash; writes go to a temporary file renamed into place,
/// so runs at once never see half a file (the last one's index stays).
///
/// Invariant: nothing here decides what is current; it stores what Project
/// measured.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_PROJECT_LAUNCHINDEXFILE_H
#define TESSEL_COMPILER_PROJECT_LAUNCHINDEXFILE_H

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::project {

/// One file of the root as it was when its names were read.
struct IndexRow {
  std::string Path; ///< relative to the root
  uint64_t Size = 0;
  int64_t MtimeNs = 0;
  uint64_t Hash = 0;
};

/// A file (a row number) that writes a name, and before which marks.
struct IndexPosting {
  uint32_t Row = 0;
  uint8_t Marks = 0;
};

class LaunchIndexFile {
public:
  /// Bumped whenever the layout, contentHash or the scan that finds the
  /// names changes: an index from another version is ignored.
  static constexpr uint32_t FormatVersion = 1;

  std::string Root;
  int64_t WrittenNs = 0;
  std::vector<IndexRow> Rows;

  /// The files that write Name (empty when none).
  std::span<const IndexPosting> postings(std::string_view Name) const;
  size_t nameCount() const { return Names.size(); }
  std::string_view name(size_t I) const { return std::string_view(Storage).substr(Names[I].first, Names[I].second); }
  std::span<const IndexPosting> postingsAt(size_t I) const;

  /// Names: sorted (std::map's order is bytewise for std::string).
  static std::string encode(std::string_view Root, int64_t WrittenNs, const std::vector<IndexRow> &Rows,
                            const std::map<std::string, std::vector<IndexPosting>> &Names);
  /// nullopt when Bytes are not a whole index of this format version.
  static std::optional<LaunchIndexFile> decode(std::string Bytes);

private:
  std::string Storage;                              ///< the file's bytes, which the names are offsets into
  std::vector<std::pair<uint32_t, uint32_t>> Names; ///< offset and length
  std::vector<uint32_t> Starts;                     ///< Names.size() + 1 offsets into Postings
  std::vector<IndexPosting> Postings;
};

/// The file that holds Root's index under Dir.
std::string launchIndexPath(const std::string &Dir, const std::string &Root);
/// Root's index under Dir; nullopt when absent, unreadable, corrupt or
/// written for another root.
std::optional<LaunchIndexFile> loadLaunchIndex(const std::string &Dir, const std::string &Root);
/// Writes Bytes as Root's index under Dir (creating Dir); false when it
/// could not (a read-only or full disk: the index is only a cache).
bool saveLaunchIndex(const std::string &Dir, const std::string &Root, const std::string &Bytes);

} // namespace tessel::project

#endif // TESSEL_COMPILER_PROJECT_LAUNCHINDEXFILE_H
