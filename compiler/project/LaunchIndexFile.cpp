//===- LaunchIndexFile.cpp - a project's launch index, kept on disk -------===//
#include "compiler/project/LaunchIndexFile.h"

#include "compiler/project/FileSet.h"
#include "compiler/support/ByteCodec.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace tessel::project {

namespace {

constexpr char Magic[4] = {'T', 'S', 'L', 'X'};
constexpr size_t HeaderBytes = 4 + 4 + 8;
/// No project's index comes near this; a bigger file is not ours.
constexpr uint64_t MaxIndexBytes = 1ull << 30;

/// A row path must stay under the root it is joined to.
bool plausibleRelativePath(std::string_view P) {
  if (P.empty() || P.front() == '/' || P.find('\0') != std::string_view::npos)
    return false;
  for (size_t At = 0; At <= P.size();) {
    size_t End = std::min(P.find('/', At), P.size());
    std::string_view Part = P.substr(At, End - At);
    if (Part.empty() || Part == "." || Part == "..")
      return false;
    At = End + 1;
  }
  return true;
}

} // namespace

std::span<const IndexPosting> LaunchIndexFile::postingsAt(size_t I) const {
  return std::span<const IndexPosting>(Postings).subspan(Starts[I], Starts[I + 1] - Starts[I]);
}

std::span<const IndexPosting> LaunchIndexFile::postings(std::string_view Name) const {
  size_t Lo = 0, Hi = Names.size();
  while (Lo < Hi) {
    size_t Mid = Lo + (Hi - Lo) / 2;
    if (name(Mid) < Name)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (Lo == Names.size() || name(Lo) != Name)
    return {};
  return postingsAt(Lo);
}

std::string LaunchIndexFile::encode(std::string_view Root, int64_t WrittenNs, const std::vector<IndexRow> &Rows,
                                    const std::map<std::string, std::vector<IndexPosting>> &Names) {
  ByteWriter Body;
  Body.i64(WrittenNs);
  Body.str(Root);
  Body.u32(static_cast<uint32_t>(Rows.size()));
  for (const IndexRow &R : Rows) {
    Body.str(R.Path);
    Body.u64(R.Size);
    Body.i64(R.MtimeNs);
    Body.u64(R.Hash);
  }
  Body.u32(static_cast<uint32_t>(Names.size()));
  for (const auto &[Name, Posts] : Names) {
    Body.str(Name);
    Body.u32(static_cast<uint32_t>(Posts.size()));
    for (const IndexPosting &P : Posts) {
      Body.u32(P.Row);
      Body.u8(P.Marks);
    }
  }
  ByteWriter Head;
  Head.Out.assign(Magic, sizeof(Magic));
  Head.u32(FormatVersion);
  Head.u64(contentHash(Body.Out));
  std::string Out = std::move(Head.Out);
  Out += Body.Out;
  return Out;
}

std::optional<LaunchIndexFile> LaunchIndexFile::decode(std::string Bytes) {
  if (Bytes.size() < HeaderBytes || std::memcmp(Bytes.data(), Magic, sizeof(Magic)) != 0)
    return std::nullopt;
  ByteReader Head(std::string_view(Bytes).substr(0, HeaderBytes), 4);
  if (Head.u32() != FormatVersion)
    return std::nullopt;
  uint64_t Sum = Head.u64();
  LaunchIndexFile F;
  F.Storage = std::move(Bytes);
  std::string_view Body = std::string_view(F.Storage).substr(HeaderBytes);
  if (contentHash(Body) != Sum)
    return std::nullopt;
  ByteReader R(Body);
  F.WrittenNs = R.i64();
  F.Root = std::string(R.str());
  uint32_t NRows = R.u32();
  // Each row takes at least 28 bytes: a count beyond what is left is corrupt
  // (and must not reserve gigabytes).
  if (R.bad() || NRows > Body.size() / 28)
    return std::nullopt;
  F.Rows.reserve(NRows);
  for (uint32_t I = 0; I < NRows; ++I) {
    IndexRow Row;
    Row.Path = std::string(R.str());
    Row.Size = R.u64();
    Row.MtimeNs = R.i64();
    Row.Hash = R.u64();
    if (R.bad() || !plausibleRelativePath(Row.Path))
      return std::nullopt;
    F.Rows.push_back(std::move(Row));
  }
  uint32_t NNames = R.u32();
  if (R.bad() || NNames > Body.size() / 8)
    return std::nullopt;
  F.Names.reserve(NNames);
  F.Starts.reserve(size_t(NNames) + 1);
  for (uint32_t I = 0; I < NNames; ++I) {
    std::string_view Name = R.str();
    uint32_t NPosts = R.u32();
    if (R.bad() || Name.empty() || (!F.Names.empty() && !(F.name(F.Names.size() - 1) < Name)) ||
        !R.has(uint64_t(NPosts) * 5))
      return std::nullopt;
    F.Names.emplace_back(static_cast<uint32_t>(Name.data() - F.Storage.data()), static_cast<uint32_t>(Name.size()));
    F.Starts.push_back(static_cast<uint32_t>(F.Postings.size()));
    for (uint32_t J = 0; J < NPosts; ++J) {
      IndexPosting P;
      P.Row = R.u32();
      P.Marks = R.u8();
      if (P.Row >= NRows || P.Marks == 0)
        return std::nullopt;
      F.Postings.push_back(P);
    }
  }
  if (!R.done() || F.Postings.size() > UINT32_MAX)
    return std::nullopt;
  F.Starts.push_back(static_cast<uint32_t>(F.Postings.size()));
  return F;
}

std::string launchIndexPath(const std::string &Dir, const std::string &Root) {
  char Hex[17];
  std::snprintf(Hex, sizeof(Hex), "%016llx", static_cast<unsigned long long>(contentHash(Root)));
  return Dir + "/" + Hex + ".tslx";
}

std::optional<LaunchIndexFile> loadLaunchIndex(const std::string &Dir, const std::string &Root) {
  std::string Path = launchIndexPath(Dir, Root);
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return std::nullopt;
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode) || static_cast<uint64_t>(St.st_size) > MaxIndexBytes) {
    ::close(Fd);
    return std::nullopt;
  }
  std::string Bytes(static_cast<size_t>(St.st_size), '\0');
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::read(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Done += static_cast<size_t>(N);
  }
  ::close(Fd);
  Bytes.resize(Done);
  std::optional<LaunchIndexFile> F = LaunchIndexFile::decode(std::move(Bytes));
  if (!F || F->Root != Root)
    return std::nullopt;
  return F;
}

bool saveLaunchIndex(const std::string &Dir, const std::string &Root, const std::string &Bytes) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  std::string Final = launchIndexPath(Dir, Root);
  // A name no other process picks: two runs at once each write their own
  // temporary file, and each rename replaces the index whole.
  std::string Tmp = Final + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(std::random_device{}());
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (Fd < 0)
    return false;
  size_t Done = 0;
  bool Ok = true;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Ok = false;
      break;
    }
    Done += static_cast<size_t>(N);
  }
  Ok = ::close(Fd) == 0 && Ok;
  if (!Ok || ::rename(Tmp.c_str(), Final.c_str()) != 0) {
    ::unlink(Tmp.c_str());
    return false;
  }
  return true;
}

} // namespace tessel::project
