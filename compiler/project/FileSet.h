//===- FileSet.h - the files of a project, by id, with open buffers -*- C++ -*-===//
/// \file
/// The input layer of the project model (rust-analyzer's vfs): every file the
/// analysis reads has a FileId, and its contents come from an open buffer
/// (an overlay the language server sets) when there is one, else from disk.
/// Contents are read once and kept until the file changes (setOverlay,
/// clearOverlay, invalidate), so "what changed" is explicit and every cache
/// above keys on an id and a content hash.
///
/// Thread-safe: kernels checked on several threads resolve imports at once.
/// Paths are made absolute and lexically normal once, so the same file has
/// one id whatever spelling reached it.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_PROJECT_FILESET_H
#define TESSEL_COMPILER_PROJECT_FILESET_H

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessel::project {

using FileId = uint32_t;

/// A 64-bit hash of Text (not cryptographic); never 0 (0 means "absent").
uint64_t contentHash(std::string_view Text);

/// Path made absolute (against the working directory) and lexically normal.
std::string normalPath(std::string_view Path);

class FileSet {
public:
  /// What a file holds now: Text is null (and Hash 0) when it does not
  /// exist, is not a regular file, is larger than MaxBytes or not UTF-8.
  struct Contents {
    std::shared_ptr<const std::string> Text;
    uint64_t Hash = 0;
    /// For text read from disk, the file's size and modification time as
    /// fstat gave them right before the read (a later change stats
    /// differently); MtimeNs 0 for a buffer's text.
    uint64_t Size = 0;
    int64_t MtimeNs = 0;
  };
  /// Files larger than this are taken as absent (no module is that big).
  static constexpr uint64_t MaxBytes = 8u << 20;

  FileId id(std::string_view Path);
  std::string path(FileId Id) const;
  Contents contents(FileId Id);
  Contents contents(std::string_view Path) { return contents(id(Path)); }
  /// The hash of what contents(Path) would give, when that is already known
  /// (a buffer, or a disk read since the last invalidate), without reading.
  /// Normal: a path as normalPath gives it (the launch index asks for every
  /// file of a root at each update, and its paths are normal already).
  std::optional<uint64_t> knownHash(const std::string &Normal);
  bool isFile(std::string_view Path);
  bool isDirectory(std::string_view Path);

  /// An open buffer replaces the disk contents of Path until cleared.
  void setOverlay(std::string_view Path, std::string Text);
  void clearOverlay(std::string_view Path);
  /// Forgets what was read from disk for Path (a watched file changed,
  /// appeared or was deleted).
  void invalidate(std::string_view Path);
  /// Forgets every stat result (a file or directory was created or deleted
  /// somewhere: any "absent" answer may now be wrong).
  void forgetStats();
  /// Bumped by every change above: caches built from the set compare it.
  uint64_t generation() const;

private:
  struct Entry {
    std::string Path;
    bool Read = false;
    Contents Disk;
    bool HasOverlay = false;
    Contents Overlay;
  };
  FileId idLocked(const std::string &Normal);

  mutable std::mutex Mu;
  std::vector<Entry> Entries;
  std::unordered_map<std::string, FileId> Ids;
  std::unordered_map<std::string, int> Kinds; ///< stat results: 0 absent, 1 file, 2 directory
  uint64_t Generation = 0;
};

} // namespace tessel::project

#endif // TESSEL_COMPILER_PROJECT_FILESET_H
