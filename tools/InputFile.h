//===- InputFile.h - reading a user's source file safely --------*- C++ -*-===//
/// \file
/// Reads a file named on the command line, refusing what tessel cannot check
/// before the compiler sees it: a missing or unreadable path, a directory or
/// other non-regular file, a file over the size limit (checked with stat, so
/// a huge file is never read), a binary file (NUL bytes) and text that is not
/// UTF-8. Each refusal is a one-line reason, for a `tessel: error: PATH: ...`
/// message; it is an environment problem, never a finding.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_INPUTFILE_H
#define TESSEL_TOOLS_INPUTFILE_H

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::tools {

/// Files larger than this are refused: no kernel file is that big, and the
/// line tables and trees of one would take a lot of memory.
constexpr uint64_t MaxInputBytes = 50ull * 1024 * 1024;

struct InputFile {
  std::optional<std::string> Text; ///< set when the file can be checked
  std::string Error;               ///< why not, otherwise ("is a directory")
};

InputFile readInputFile(const std::string &Path, uint64_t MaxBytes = MaxInputBytes);

/// Where Text stops being valid UTF-8, as 0-based byte offset, or nullopt.
std::optional<size_t> firstInvalidUtf8(const std::string &Text);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_INPUTFILE_H
