//===- RunnerFuzzer.cpp - libFuzzer target for the runner protocol --------===//
/// \file
/// The bytes are what the far side of a runner sends (a `tessel runner` at
/// the end of an ssh channel or a Slurm job step, or whatever answers
/// there instead): they go through a pipe into runners::LineReader, and each
/// line through runners::decode, as tessel's client reads them. Neither may
/// crash, hang or trip a sanitizer; a line decode accepts must encode and
/// decode to the same message (what the client relays is what it read), and
/// a peer's hello must give a version verdict, else the target traps.
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzSupport.h"

#include "runners/LineIo.h"
#include "runners/Protocol.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unistd.h>

using namespace tessel;
using namespace tessel::runners;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A pipe holds 64 KiB without a reader; the target's inputs are smaller.
  if (Size > 60000)
    return 0;
  int Fds[2];
  if (::pipe(Fds) != 0)
    return 0;
  size_t Done = 0;
  while (Done < Size) {
    ssize_t N = ::write(Fds[1], Data + Done, Size - Done);
    if (N <= 0)
      break;
    Done += static_cast<size_t>(N);
  }
  ::close(Fds[1]);
  LineReader Reader(Fds[0]);
  std::string Line;
  while (Reader.read(Line, std::nullopt, nullptr) == ReadStatus::Line) {
    std::string Error;
    std::optional<Message> M = decode(Line, Error);
    if (!M) {
      if (Error.empty())
        fuzz::requireSame("a refused line says why", "an error", "none");
      continue;
    }
    std::string Once = encode(*M), Why;
    std::optional<Message> Again = decode(Once, Why);
    fuzz::requireSame("an accepted message encodes and decodes to itself", Once,
                      Again ? encode(*Again) : "(refused: " + Why + ")");
    if (const auto *H = std::get_if<Hello>(&*M))
      (void)versionMismatch(*H);
  }
  ::close(Fds[0]);
  return 0;
}
