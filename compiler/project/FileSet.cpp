//===- FileSet.cpp - the files of a project, by id, with open buffers -----===//
/// \file
/// Disk reads and stat results are cached under one mutex; a read happens
/// outside it, so threads that read different files do not wait on each
/// other (two threads reading the same file both read it, and one result is
/// kept: the contents are equal).
//===----------------------------------------------------------------------===//
#include "compiler/project/FileSet.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace tessel::project {

uint64_t contentHash(std::string_view Text) {
  // Eight bytes a step (the launch index hashes every file of a project):
  // a multiply-xorshift mix, plenty to tell two versions of a file apart.
  uint64_t H = 1469598103934665603ull ^ Text.size();
  size_t I = 0;
  for (; I + 8 <= Text.size(); I += 8) {
    uint64_t W;
    std::memcpy(&W, Text.data() + I, 8);
    H = (H ^ W) * 0x9E3779B97F4A7C15ull;
    H ^= H >> 29;
  }
  for (; I < Text.size(); ++I)
    H = (H ^ static_cast<unsigned char>(Text[I])) * 1099511628211ull;
  return H ? H : 1;
}

std::string normalPath(std::string_view Path) {
  std::error_code EC;
  std::filesystem::path P(Path);
  if (!P.is_absolute()) {
    std::filesystem::path Abs = std::filesystem::absolute(P, EC);
    if (!EC)
      P = Abs;
  }
  std::string S = P.lexically_normal().string();
  while (S.size() > 1 && S.back() == '/')
    S.pop_back();
  return S;
}

/// True when Text is valid UTF-8 (modules that are not are taken as absent,
/// as `tessel check` refuses them).
static bool validUtf8(const std::string &Text) {
  size_t I = 0, N = Text.size();
  while (I < N) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    if (C < 0x80) {
      ++I;
      continue;
    }
    size_t Len = C < 0x80 ? 1 : (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3 : (C >> 3) == 30 ? 4 : 0;
    if (!Len || I + Len > N)
      return false;
    for (size_t J = 1; J < Len; ++J)
      if ((static_cast<unsigned char>(Text[I + J]) >> 6) != 2)
        return false;
    I += Len;
  }
  return true;
}

static FileSet::Contents readDisk(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return {};
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode) || static_cast<uint64_t>(St.st_size) > FileSet::MaxBytes) {
    ::close(Fd);
    return {};
  }
  // One read of the size stat gave (a loop, for short reads and growth).
  std::string Text(static_cast<size_t>(St.st_size), '\0');
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = ::read(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Done += static_cast<size_t>(N);
  }
  ::close(Fd);
  Text.resize(Done);
  if (Text.find('\0') != std::string::npos || !validUtf8(Text))
    return {};
  uint64_t H = contentHash(Text);
  int64_t Mtime = int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
  return {std::make_shared<const std::string>(std::move(Text)), H, static_cast<uint64_t>(St.st_size), Mtime};
}

FileId FileSet::idLocked(const std::string &Normal) {
  auto [It, New] = Ids.emplace(Normal, static_cast<FileId>(Entries.size()));
  if (New)
    Entries.push_back(Entry{Normal, false, {}, false, {}});
  return It->second;
}

FileId FileSet::id(std::string_view Path) {
  std::string Normal = normalPath(Path);
  std::lock_guard<std::mutex> L(Mu);
  return idLocked(Normal);
}

std::string FileSet::path(FileId Id) const {
  std::lock_guard<std::mutex> L(Mu);
  return Id < Entries.size() ? Entries[Id].Path : std::string();
}

FileSet::Contents FileSet::contents(FileId Id) {
  std::string Path;
  {
    std::lock_guard<std::mutex> L(Mu);
    if (Id >= Entries.size())
      return {};
    Entry &E = Entries[Id];
    if (E.HasOverlay)
      return E.Overlay;
    if (E.Read)
      return E.Disk;
    Path = E.Path;
  }
  Contents C = readDisk(Path);
  std::lock_guard<std::mutex> L(Mu);
  Entry &E = Entries[Id];
  if (E.HasOverlay)
    return E.Overlay;
  if (!E.Read) {
    E.Read = true;
    E.Disk = std::move(C);
  }
  return E.Disk;
}

std::optional<uint64_t> FileSet::knownHash(const std::string &Normal) {
  std::lock_guard<std::mutex> L(Mu);
  auto It = Ids.find(Normal);
  if (It == Ids.end())
    return std::nullopt;
  const Entry &E = Entries[It->second];
  if (E.HasOverlay)
    return E.Overlay.Hash;
  if (E.Read)
    return E.Disk.Hash;
  return std::nullopt;
}

bool FileSet::isFile(std::string_view Path) {
  std::string Normal = normalPath(Path);
  {
    std::lock_guard<std::mutex> L(Mu);
    if (auto It = Ids.find(Normal); It != Ids.end() && Entries[It->second].HasOverlay)
      return true;
    if (auto It = Kinds.find(Normal); It != Kinds.end())
      return It->second == 1;
  }
  struct stat St;
  int Kind = ::stat(Normal.c_str(), &St) != 0 ? 0 : S_ISREG(St.st_mode) ? 1 : S_ISDIR(St.st_mode) ? 2 : 0;
  std::lock_guard<std::mutex> L(Mu);
  Kinds.emplace(Normal, Kind);
  return Kind == 1;
}

bool FileSet::isDirectory(std::string_view Path) {
  std::string Normal = normalPath(Path);
  {
    std::lock_guard<std::mutex> L(Mu);
    if (auto It = Kinds.find(Normal); It != Kinds.end())
      return It->second == 2;
  }
  struct stat St;
  int Kind = ::stat(Normal.c_str(), &St) != 0 ? 0 : S_ISREG(St.st_mode) ? 1 : S_ISDIR(St.st_mode) ? 2 : 0;
  std::lock_guard<std::mutex> L(Mu);
  Kinds.emplace(Normal, Kind);
  return Kind == 2;
}

void FileSet::setOverlay(std::string_view Path, std::string Text) {
  std::string Normal = normalPath(Path);
  uint64_t H = contentHash(Text);
  std::lock_guard<std::mutex> L(Mu);
  Entry &E = Entries[idLocked(Normal)];
  E.HasOverlay = true;
  E.Overlay = Contents{std::make_shared<const std::string>(std::move(Text)), H};
  ++Generation;
}

void FileSet::clearOverlay(std::string_view Path) {
  std::string Normal = normalPath(Path);
  std::lock_guard<std::mutex> L(Mu);
  Entry &E = Entries[idLocked(Normal)];
  E.HasOverlay = false;
  E.Overlay = {};
  ++Generation;
}

void FileSet::invalidate(std::string_view Path) {
  std::string Normal = normalPath(Path);
  std::lock_guard<std::mutex> L(Mu);
  Entry &E = Entries[idLocked(Normal)];
  E.Read = false;
  E.Disk = {};
  Kinds.erase(Normal);
  ++Generation;
}

void FileSet::forgetStats() {
  std::lock_guard<std::mutex> L(Mu);
  Kinds.clear();
  ++Generation;
}

uint64_t FileSet::generation() const {
  std::lock_guard<std::mutex> L(Mu);
  return Generation;
}

} // namespace tessel::project
