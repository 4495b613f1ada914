//===- InputFile.cpp - reading a user's source file safely ----------------===//
/// \file
/// Implements readInputFile with POSIX calls, so that errno gives the exact
/// reason (permission denied, no such file) and the size is known before a
/// single byte is read.
//===----------------------------------------------------------------------===//
#include "tools/InputFile.h"

#include "lsp/LineIndex.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace tessel::tools {

std::optional<size_t> firstInvalidUtf8(const std::string &Text) {
  std::string_view S = Text;
  for (size_t I = 0; I < S.size();) {
    if (static_cast<unsigned char>(S[I]) < 0x80) {
      ++I;
      continue;
    }
    lsp::DecodedChar C = lsp::decodeUtf8(S.substr(I));
    if (!C.Valid)
      return I;
    I += C.Bytes;
  }
  return std::nullopt;
}

static std::string lineColOf(const std::string &Text, size_t Offset) {
  size_t Line = 1, LineStart = 0;
  for (size_t I = 0; I < Offset; ++I)
    if (Text[I] == '\n')
      ++Line, LineStart = I + 1;
  return "line " + std::to_string(Line) + ", byte " + std::to_string(Offset - LineStart + 1);
}

static std::string megabytes(uint64_t Bytes) {
  constexpr uint64_t MiB = uint64_t(1) << 20;
  uint64_t Tenths = (Bytes * 10 + MiB / 2) / MiB;
  if (Tenths % 10 == 0)
    return std::to_string(Tenths / 10) + " MB";
  return std::to_string(Tenths / 10) + "." + std::to_string(Tenths % 10) + " MB";
}

InputFile readInputFile(const std::string &Path, uint64_t MaxBytes) {
  auto Fail = [](std::string Why) { return InputFile{std::nullopt, std::move(Why)}; };
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0)
    return Fail(std::strerror(errno));
  if (S_ISDIR(St.st_mode))
    return Fail("is a directory");
  if (!S_ISREG(St.st_mode))
    return Fail("not a regular file");
  if (static_cast<uint64_t>(St.st_size) > MaxBytes)
    return Fail("file is " + megabytes(St.st_size) + ", over the " + megabytes(MaxBytes) + " limit for checked files");

  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return Fail(std::strerror(errno));
  std::string Text;
  Text.reserve(static_cast<size_t>(St.st_size));
  char Buf[1 << 16];
  while (true) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      int Err = errno;
      ::close(Fd);
      return Fail(std::strerror(Err));
    }
    if (N == 0)
      break;
    Text.append(Buf, static_cast<size_t>(N));
    // The file may have grown since stat.
    if (Text.size() > MaxBytes) {
      ::close(Fd);
      return Fail("file is over the " + megabytes(MaxBytes) + " limit for checked files");
    }
  }
  ::close(Fd);

  if (size_t Nul = Text.find('\0'); Nul != std::string::npos)
    return Fail("binary file (NUL byte at " + lineColOf(Text, Nul) + "), not checked");
  if (std::optional<size_t> Bad = firstInvalidUtf8(Text))
    return Fail("not valid UTF-8 (at " + lineColOf(Text, *Bad) + "); tessel reads Python source as UTF-8");
  return InputFile{std::move(Text), {}};
}

} // namespace tessel::tools
