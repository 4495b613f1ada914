//===- Child.h - a process with piped stdin, stdout and stderr --*- C++ -*-===//
/// \file
/// The processes the runner layer starts: `ssh`, `srun`, a local
/// `tessel runner`, and on the runner's side each `tessel run`. Each gets its
/// own process group, so ending it ends what it started too (a `tessel run`'s
/// GPU child, ssh's ProxyCommand), and its stderr is drained while its
/// stdout is read, so a chatty child never blocks on a full pipe.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_CHILD_H
#define TESSEL_RUNNERS_CHILD_H

#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace tessel::runners {

/// How a child ended.
struct ChildEnd {
  int Exit = -1;  ///< exit status; -1 when a signal ended it
  int Signal = 0; ///< the signal, 0 when it exited
  rusage Usage{};
};

class Child {
public:
  /// Starts Argv[0] (searched on PATH) with Env added to this process's
  /// environment. Not started (started() false, Error says why) when the
  /// program cannot be run.
  Child(const std::vector<std::string> &Argv, const std::vector<std::pair<std::string, std::string>> &Env = {});
  ~Child();
  Child(const Child &) = delete;
  Child &operator=(const Child &) = delete;

  bool started() const { return Pid > 0; }
  const std::string &error() const { return Error; }
  int in() const { return In; }
  int out() const { return Out; }
  int err() const { return Err; }
  pid_t pid() const { return Pid; }

  /// Closes the child's stdin: a runner takes it as the end of its work.
  void closeIn();
  /// SIGTERM to its process group, SIGKILL after a grace period, then reaps it.
  ChildEnd stop();
  /// Waits for it to end by itself.
  ChildEnd wait();
  /// Whether it has ended; reaps it when so (End then holds how).
  bool ended(ChildEnd &End);

private:
  pid_t Pid = -1;
  int In = -1, Out = -1, Err = -1;
  std::string Error;
  bool Reaped = false;
  ChildEnd Last;
};

/// What a short command (squeue, scontrol, sbatch) printed, read within 30 s.
struct Captured {
  bool Ran = false; ///< it started and ended
  int Exit = -1;
  std::string Out, Err;
};
Captured captureOutput(const std::vector<std::string> &Argv);

/// "exit status 3", "killed by signal 9 (SIGKILL)".
std::string describeEnd(const ChildEnd &E);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_CHILD_H
