//===- Child.cpp - a process with piped stdin, stdout and stderr ----------===//
#include "runners/Child.h"

#include "runners/LineIo.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace tessel::runners {

static void closeFd(int &Fd) {
  if (Fd >= 0)
    ::close(Fd);
  Fd = -1;
}

Child::Child(const std::vector<std::string> &Argv, const std::vector<std::pair<std::string, std::string>> &Env) {
  int InP[2], OutP[2], ErrP[2];
  if (::pipe2(InP, O_CLOEXEC) || ::pipe2(OutP, O_CLOEXEC) || ::pipe2(ErrP, O_CLOEXEC)) {
    Error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return;
  }
  std::vector<std::string> EnvText;
  for (char **E = environ; *E; ++E) {
    std::string Entry = *E;
    bool Replaced = false;
    for (const auto &[Name, Value] : Env)
      Replaced |= Entry.rfind(Name + "=", 0) == 0;
    if (!Replaced)
      EnvText.push_back(std::move(Entry));
  }
  for (const auto &[Name, Value] : Env)
    EnvText.push_back(Name + "=" + Value);
  std::vector<char *> EnvP, ArgP;
  for (std::string &S : EnvText)
    EnvP.push_back(S.data());
  EnvP.push_back(nullptr);
  std::vector<std::string> ArgCopy = Argv;
  for (std::string &S : ArgCopy)
    ArgP.push_back(S.data());
  ArgP.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, InP[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, OutP[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, ErrP[1], STDERR_FILENO);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  // Its own process group, and SIGPIPE back to its default (this process ignores it).
  sigset_t Default;
  sigemptyset(&Default);
  sigaddset(&Default, SIGPIPE);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&Attr, 0);
  pid_t P = -1;
  int Rc = ::posix_spawnp(&P, ArgP[0], &Actions, &Attr, ArgP.data(), EnvP.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  ::close(InP[0]);
  ::close(OutP[1]);
  ::close(ErrP[1]);
  if (Rc != 0) {
    ::close(InP[1]);
    ::close(OutP[0]);
    ::close(ErrP[0]);
    Error = "cannot run " + Argv[0] + ": " + std::strerror(Rc);
    return;
  }
  Pid = P;
  In = InP[1];
  Out = OutP[0];
  Err = ErrP[0];
  ::fcntl(Err, F_SETFL, ::fcntl(Err, F_GETFL) | O_NONBLOCK);
}

Child::~Child() {
  if (started() && !Reaped)
    stop();
  closeFd(In);
  closeFd(Out);
  closeFd(Err);
}

void Child::closeIn() { closeFd(In); }

static ChildEnd fromStatus(int Status, const rusage &U) {
  ChildEnd E;
  E.Usage = U;
  if (WIFEXITED(Status))
    E.Exit = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    E.Signal = WTERMSIG(Status);
  return E;
}

bool Child::ended(ChildEnd &End) {
  if (Reaped) {
    End = Last;
    return true;
  }
  int Status = 0;
  rusage U{};
  pid_t R = ::wait4(Pid, &Status, WNOHANG, &U);
  if (R != Pid)
    return false;
  Reaped = true;
  Last = End = fromStatus(Status, U);
  return true;
}

ChildEnd Child::wait() {
  if (Reaped)
    return Last;
  int Status = 0;
  rusage U{};
  while (::wait4(Pid, &Status, 0, &U) < 0 && errno == EINTR) {
  }
  Reaped = true;
  return Last = fromStatus(Status, U);
}

ChildEnd Child::stop() {
  if (!started() || Reaped)
    return Last;
  closeIn();
  ::killpg(Pid, SIGTERM);
  ChildEnd E;
  // ssh and srun pass SIGTERM on and end at once; a child that does not is killed.
  for (int I = 0; I < 30; ++I) {
    if (ended(E))
      return E;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::killpg(Pid, SIGKILL);
  return wait();
}

Captured captureOutput(const std::vector<std::string> &Argv) {
  Captured C;
  Child P(Argv);
  if (!P.started()) {
    C.Err = P.error();
    return C;
  }
  P.closeIn();
  LineReader R(P.out());
  std::atomic<bool> Never{false};
  auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (std::string Line; R.read(Line, Until, &Never, P.err(), &C.Err) == ReadStatus::Line;)
    C.Out += Line + "\n";
  ChildEnd E = P.stop();
  drainInto(P.err(), C.Err);
  C.Ran = true;
  C.Exit = E.Exit;
  return C;
}

std::string describeEnd(const ChildEnd &E) {
  if (E.Signal) {
    const char *Abbrev = sigabbrev_np(E.Signal);
    return "killed by signal " + std::to_string(E.Signal) + (Abbrev ? std::string(" (SIG") + Abbrev + ")" : "");
  }
  return "exit status " + std::to_string(E.Exit);
}

} // namespace tessel::runners
