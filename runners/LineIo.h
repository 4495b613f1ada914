//===- LineIo.h - newline-delimited messages over file descriptors -*- C++ -*-===//
/// \file
/// Reading and writing the protocol's lines on pipes, with a deadline and a
/// cancel flag checked every 100 ms, so neither a silent peer nor a user
/// who gave up leaves a thread blocked in read(2). A line longer than
/// MaxLineBytes ends the reading: the peer is broken.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_LINEIO_H
#define TESSEL_RUNNERS_LINEIO_H

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace tessel::runners {

enum class ReadStatus {
  Line,      ///< a whole line, without its newline
  Closed,    ///< end of file (a partial last line is dropped)
  Timeout,   ///< the deadline passed
  Cancelled, ///< the cancel flag was set
  TooLong,   ///< longer than MaxLineBytes
  Failed,    ///< read(2) failed
};

using Deadline = std::optional<std::chrono::steady_clock::time_point>;

class LineReader {
public:
  explicit LineReader(int Fd) : Fd(Fd) {}

  /// The next line. While waiting, Drain (when >= 0) is read too and its
  /// bytes kept at the end of DrainTail (the last 16 KiB): a child's stderr,
  /// which would block the child once its pipe filled.
  ReadStatus read(std::string &Line, Deadline Until, const std::atomic<bool> *Cancel, int Drain = -1,
                  std::string *DrainTail = nullptr);

  /// Bytes of Fd that another loop read (the runner watching its stdin
  /// while a task runs): they come after those this reader holds.
  void append(const std::string &Bytes) { Buffer += Bytes; }
  /// Marks the end of file seen elsewhere.
  void setEof() { Eof = true; }

private:
  int Fd;
  std::string Buffer;
  bool Eof = false;
};

/// Writes Line and a newline; false when the peer has gone (EPIPE) or
/// writing failed. SIGPIPE must be ignored (ignoreSigpipe).
bool writeLine(int Fd, const std::string &Line);

/// Reads what is there to read on Fd now, without blocking, onto the end of
/// Tail (kept to its last 16 KiB); false at end of file.
bool drainInto(int Fd, std::string &Tail);

/// Writes to a closed pipe become EPIPE errors instead of ending the process.
void ignoreSigpipe();

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_LINEIO_H
