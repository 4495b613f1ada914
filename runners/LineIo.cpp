//===- LineIo.cpp - newline-delimited messages over file descriptors ------===//
#include "runners/LineIo.h"

#include "runners/Protocol.h"

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <unistd.h>

namespace tessel::runners {

static constexpr size_t TailBytes = 16 << 10;

static void keepTail(std::string &Tail) {
  if (Tail.size() > TailBytes)
    Tail.erase(0, Tail.size() - TailBytes);
}

bool drainInto(int Fd, std::string &Tail) {
  char Buf[4096];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N > 0) {
      Tail.append(Buf, static_cast<size_t>(N));
      keepTail(Tail);
      if (static_cast<size_t>(N) < sizeof Buf)
        return true;
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    return N < 0; // 0: end of file; EAGAIN: nothing more now
  }
}

ReadStatus LineReader::read(std::string &Line, Deadline Until, const std::atomic<bool> *Cancel, int Drain,
                            std::string *DrainTail) {
  for (;;) {
    if (size_t Nl = Buffer.find('\n'); Nl != std::string::npos) {
      Line = Buffer.substr(0, Nl);
      Buffer.erase(0, Nl + 1);
      return ReadStatus::Line;
    }
    if (Buffer.size() > MaxLineBytes)
      return ReadStatus::TooLong;
    if (Eof)
      return ReadStatus::Closed;
    if (Cancel && Cancel->load())
      return ReadStatus::Cancelled;
    int WaitMs = 100;
    if (Until) {
      auto Left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*Until - std::chrono::steady_clock::now()).count();
      if (Left <= 0)
        return ReadStatus::Timeout;
      WaitMs = static_cast<int>(std::min<long long>(Left, WaitMs));
    }
    pollfd P[2] = {{Fd, POLLIN, 0}, {Drain, POLLIN, 0}};
    int Count = Drain >= 0 ? 2 : 1;
    int R = ::poll(P, static_cast<nfds_t>(Count), WaitMs);
    if (R < 0 && errno != EINTR)
      return ReadStatus::Failed;
    if (R <= 0)
      continue;
    if (Count == 2 && (P[1].revents & (POLLIN | POLLHUP))) {
      std::string Ignored;
      if (!drainInto(Drain, DrainTail ? *DrainTail : Ignored))
        Drain = -1; // its end: stop polling it
    }
    if (!(P[0].revents & (POLLIN | POLLHUP | POLLERR)))
      continue;
    char Buf[65536];
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (N < 0)
      return ReadStatus::Failed;
    if (N == 0)
      Eof = true;
    else
      Buffer.append(Buf, static_cast<size_t>(N));
  }
}

bool writeLine(int Fd, const std::string &Line) {
  std::string Data = Line + "\n";
  size_t Done = 0;
  while (Done < Data.size()) {
    ssize_t N = ::write(Fd, Data.data() + Done, Data.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += static_cast<size_t>(N);
  }
  return true;
}

void ignoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }

} // namespace tessel::runners
