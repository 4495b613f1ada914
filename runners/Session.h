//===- Session.h - one worker: a runner process and its channel -*- C++ -*-===//
/// \file
/// A session is one `tessel runner` reached through its runner's transport:
/// a local child, `ssh [user@]host tessel runner` (OpenSSH's own client, so
/// the user's ~/.ssh/config, keys, agent and ControlMaster apply; BatchMode,
/// so it never waits on a password prompt), or `srun --partition=P ...
/// tessel runner` (one job step, `--gres=gpu:N` for GPU work). It says
/// hello, checks the version, and then runs tasks one at a time. Every way
/// it can fail ends in one line (Failure.h); a session never blocks past
/// its deadline or a cancel.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_SESSION_H
#define TESSEL_RUNNERS_SESSION_H

#include "runners/Child.h"
#include "runners/Failure.h"
#include "runners/LineIo.h"
#include "runners/Protocol.h"
#include "runners/RunnerSpec.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace tessel::runners {

struct SessionOptions {
  std::string Self;    ///< this binary: the local runner
  bool Gpu = false;    ///< the tasks run on a GPU: ask Slurm for one, refuse a host without
  unsigned Device = 0; ///< which of the host's GPUs this session's runs use
  /// The ssh client and its fixed options, as GIT_SSH_COMMAND splits it
  /// (TESSEL_SSH, default "ssh"): a test points it at a config file.
  std::vector<std::string> Ssh = {"ssh"};
  unsigned ConnectTimeoutSeconds = 20;
};

/// The command that starts the runner for Spec; Tag marks a Slurm job step
/// (`--comment`), so its end can be asked of scontrol.
std::vector<std::string> runnerCommand(const RunnerSpec &Spec, const SessionOptions &Opts, const std::string &Tag = "");

class Session {
public:
  /// Starts the runner and waits for its hello. Null with Failure (one line)
  /// when it cannot: the transport failed, another version answered, or GPU
  /// work met a host without a GPU.
  static std::unique_ptr<Session> open(const RunnerSpec &Spec, const SessionOptions &Opts,
                                       const std::atomic<bool> &Cancel, std::string &Failure);

  const Hello &peer() const { return Peer; }

  /// Runs T; false with Failure when the runner is lost (the session is
  /// then unusable) or Cancel was set.
  bool run(const Task &T, Result &R, const std::atomic<bool> &Cancel, std::string &Failure);

  /// Ends the runner (closing its stdin, which it takes as the end of work).
  ~Session();

private:
  Session(const RunnerSpec &Spec, std::unique_ptr<Child> C) : Spec(Spec), Proc(std::move(C)), In(Proc->out()) {}
  std::string lost(FailureStage Stage);
  /// "job 41 JobState=CANCELLED Reason=None" of this session's Slurm job, "" when unknown.
  std::string slurmJobEnd();
  std::string queueTimeout();

  RunnerSpec Spec;
  std::unique_ptr<Child> Proc;
  LineReader In;
  Hello Peer;
  std::string Stderr; ///< the transport's stderr, its last 16 KiB
  std::string Tag;    ///< the Slurm job's comment
};

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_SESSION_H
