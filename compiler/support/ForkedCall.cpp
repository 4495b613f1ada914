//===- ForkedCall.cpp - run a computation in a child process --------------===//
/// \file
/// The child reports through a pipe: one status byte, then the payload (the
/// work's output, or a failure's words). An empty pipe at the child's end
/// means it died before it could say anything, and its wait status tells how.
//===----------------------------------------------------------------------===//
#include "compiler/support/ForkedCall.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <system_error>
#include <typeinfo>
#include <unistd.h>

namespace tessel {

namespace {

constexpr char StatusOk = 'O', StatusMemory = 'M', StatusThrew = 'E';

int ReportFd = -1; ///< the child's end of the pipe (the child is single-threaded)
uint64_t Cap = 0;  ///< the child's address-space limit, 0 for none

void writeAll(int Fd, const char *P, size_t N) {
  while (N > 0) {
    ssize_t W = ::write(Fd, P, N);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      _exit(1); // the caller is gone
    P += W;
    N -= static_cast<size_t>(W);
  }
}

[[noreturn]] void report(char Status, const std::string &Payload) {
  writeAll(ReportFd, &Status, 1);
  writeAll(ReportFd, Payload.data(), Payload.size());
  _exit(0);
}

bool nearLimit();

/// The exception in flight, classified: a failed allocation is told apart
/// from the rest by its type, since a library's own out-of-memory type (Z3's
/// out_of_memory_error) need not derive from std::bad_alloc.
[[noreturn]] void reportCurrentException() {
  std::string What = "an exception";
  bool Memory = false;
  if (const std::type_info *T = abi::__cxa_current_exception_type()) {
    const char *Name = T->name();
    Memory = std::strstr(Name, "bad_alloc") || std::strstr(Name, "out_of_memory");
    int Status = 0;
    char *Pretty = abi::__cxa_demangle(Name, nullptr, nullptr, &Status);
    What = std::string("an exception of type ") + (Status == 0 && Pretty ? Pretty : Name);
    std::free(Pretty);
  }
  try {
    throw;
  } catch (const std::bad_alloc &) {
    Memory = true;
  } catch (const std::system_error &E) {
    // A thread whose stack could not be mapped: EAGAIN from pthread_create.
    What += std::string(": ") + E.what();
    Memory = E.code() == std::errc::not_enough_memory ||
             (E.code() == std::errc::resource_unavailable_try_again && nearLimit());
  } catch (const std::exception &E) {
    What += std::string(": ") + E.what();
    if (std::strstr(E.what(), "out of memory"))
      Memory = true;
  } catch (...) {
  }
  report(Memory ? StatusMemory : StatusThrew, What);
}

/// Bytes of address space the process maps now (/proc/self/statm's first
/// field), with system calls only: a signal handler calls it too.
uint64_t mappedBytes() {
  int Fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return 0;
  char Buf[64];
  ssize_t N = ::read(Fd, Buf, sizeof Buf);
  ::close(Fd);
  uint64_t Pages = 0;
  for (ssize_t I = 0; I < N && Buf[I] >= '0' && Buf[I] <= '9'; ++I)
    Pages = Pages * 10 + static_cast<uint64_t>(Buf[I] - '0');
  return Pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

/// A library handed null by a refused allocation often dereferences it (Z3
/// builds its context on what it was given) instead of throwing. Such a
/// crash comes with the process within one large request of its limit; a
/// crash far from it is a crash. One large request: a malloc arena's 64 MiB
/// reservation, or an eighth of a large budget.
bool nearLimit() {
  uint64_t Slack = std::max<uint64_t>(uint64_t(64) << 20, Cap / 8);
  uint64_t Mapped = mappedBytes();
  return Cap && Mapped && Mapped + Slack >= Cap;
}

void onFatalSignal(int Sig) {
  if (nearLimit()) {
    char Status = StatusMemory;
    const char Words[] = "a crash at its memory limit";
    if (::write(ReportFd, &Status, 1) == 1 && ::write(ReportFd, Words, sizeof Words - 1) >= 0)
      _exit(0);
  }
  ::signal(Sig, SIG_DFL);
  ::raise(Sig);
}

[[noreturn]] void runChild(const std::function<std::string()> &Work, const ForkLimits &Limits, int Fd) {
  ReportFd = Fd;
  // The caller's crash handlers describe the caller; in the child a signal
  // must end it plainly, for the caller to read from its wait status.
  for (int Sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL})
    std::signal(Sig, SIG_DFL);
  std::signal(SIGPIPE, SIG_IGN);
  if (Limits.MemoryBytes) {
    Cap = mappedBytes() + Limits.MemoryBytes;
    struct rlimit L {
      static_cast<rlim_t>(Cap), static_cast<rlim_t>(Cap)
    };
    ::setrlimit(RLIMIT_AS, &L);
    // On a stack of its own: the crash may be a stack that could not grow.
    static char AltStack[1 << 16];
    stack_t S{};
    S.ss_sp = AltStack;
    S.ss_size = sizeof AltStack;
    ::sigaltstack(&S, nullptr);
    struct sigaction A {};
    A.sa_handler = onFatalSignal;
    A.sa_flags = SA_ONSTACK | SA_RESETHAND;
    for (int Sig : {SIGSEGV, SIGBUS, SIGABRT})
      ::sigaction(Sig, &A, nullptr);
  }
  std::set_terminate([] {
    if (std::current_exception())
      reportCurrentException();
    report(StatusThrew, "std::terminate");
  });
  std::string Out;
  try {
    Out = Work();
  } catch (...) {
    reportCurrentException();
  }
  report(StatusOk, Out);
}

std::string signalWords(int Sig) {
  const char *Name = ::strsignal(Sig);
  return "signal " + std::to_string(Sig) + (Name ? std::string(" (") + Name + ")" : "");
}

} // namespace

ForkedResult runForked(const std::function<std::string()> &Work, const ForkLimits &Limits,
                       const std::atomic<bool> *Cancelled) {
  ForkedResult R;
  int Fds[2];
  if (::pipe2(Fds, O_CLOEXEC) != 0) {
    R.Detail = std::string("cannot create a pipe: ") + std::strerror(errno);
    return R;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    R.Detail = std::string("cannot fork: ") + std::strerror(errno);
    ::close(Fds[0]);
    ::close(Fds[1]);
    return R;
  }
  if (Pid == 0) {
    ::close(Fds[0]);
    runChild(Work, Limits, Fds[1]);
  }
  ::close(Fds[1]);

  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::milliseconds(Limits.TimeoutMs);
  std::string Bytes;
  bool Killed = false;
  char Buf[1 << 14];
  for (;;) {
    if (Cancelled && Cancelled->load()) {
      R.S = ForkedResult::Status::Cancelled;
      Killed = true;
      break;
    }
    int Wait = 50;
    if (Limits.TimeoutMs) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now()).count();
      if (Left <= 0) {
        R.S = ForkedResult::Status::TimedOut;
        R.Detail = "ran past its " + std::to_string(Limits.TimeoutMs) + " ms";
        Killed = true;
        break;
      }
      Wait = static_cast<int>(std::min<long long>(Wait, Left));
    }
    struct pollfd P {
      Fds[0], POLLIN, 0
    };
    int N = ::poll(&P, 1, Wait);
    if (N < 0 && errno != EINTR)
      break;
    if (N <= 0)
      continue;
    ssize_t Got = ::read(Fds[0], Buf, sizeof Buf);
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got <= 0)
      break; // the child closed its end: it has ended
    Bytes.append(Buf, static_cast<size_t>(Got));
  }
  ::close(Fds[0]);
  if (Killed)
    ::kill(Pid, SIGKILL);
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (Killed)
    return R;

  if (!Bytes.empty() && WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
    char Kind = Bytes[0];
    std::string Payload = Bytes.substr(1);
    if (Kind == StatusOk) {
      R.S = ForkedResult::Status::Ok;
      R.Output = std::move(Payload);
    } else {
      R.S = Kind == StatusMemory ? ForkedResult::Status::OutOfMemory : ForkedResult::Status::Crashed;
      R.Detail = std::move(Payload);
    }
    return R;
  }
  R.S = ForkedResult::Status::Crashed;
  if (WIFSIGNALED(Status))
    R.Detail = signalWords(WTERMSIG(Status));
  else if (WIFEXITED(Status))
    R.Detail = "exit status " + std::to_string(WEXITSTATUS(Status));
  else
    R.Detail = "ended without a result";
  return R;
}

std::string describeFailure(const ForkedResult &R, const ForkLimits &Limits) {
  switch (R.S) {
  case ForkedResult::Status::Ok:
    return "finished";
  case ForkedResult::Status::OutOfMemory:
    return Limits.MemoryBytes ? "ran out of memory (its limit: " + std::to_string(Limits.MemoryBytes >> 20) + " MiB)"
                              : "ran out of memory";
  case ForkedResult::Status::Crashed:
    return "crashed (" + R.Detail + ")";
  case ForkedResult::Status::TimedOut:
    return "ran past its time limit (" + std::to_string(Limits.TimeoutMs) + " ms)";
  case ForkedResult::Status::Cancelled:
    return "was cancelled";
  case ForkedResult::Status::NotStarted:
    return "could not start (" + R.Detail + ")";
  }
  return "failed";
}

} // namespace tessel
