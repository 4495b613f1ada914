//===- RunnerSpec.h - where tasks run: local, ssh://, slurm:// --*- C++ -*-===//
/// \file
/// A runner named as users write it (the `--runner` option, `tessel.runners`
/// in the editors and tessel.toml):
///
///   local[?workers=N]
///   ssh://[user@]host[:port][?workers=N&tessel=PATH]
///   slurm://PARTITION[?workers=N&gpus=N&tessel=PATH&queue-timeout=S&time=MINUTES&array=1&spool=DIR]
///
/// `workers` is how many tasks run at once there (default: one per GPU for
/// GPU work, one per core for CPU work); `tessel` the binary on the remote
/// side (default `tessel` on its PATH); for Slurm, `gpus` the GPUs each job
/// step asks for (`--gres=gpu:N`, default 1 with --gpu), `queue-timeout` how
/// long a step may wait for its allocation (default 60 s) and `time` its
/// time limit; `array=1` sends a sweep as one job array (sbatch) instead of
/// job steps (SlurmArray.h), through files in `spool` (a directory every
/// node sees; default ~/.cache/tessel/slurm).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_RUNNERSPEC_H
#define TESSEL_RUNNERS_RUNNERSPEC_H

#include <optional>
#include <string>

namespace tessel::runners {

enum class RunnerKind { Local, Ssh, Slurm };

struct RunnerSpec {
  RunnerKind Kind = RunnerKind::Local;
  std::string Text; ///< as written: what every message about it names
  std::string User, Host;
  std::optional<unsigned> Port;
  std::string Partition;
  std::optional<unsigned> Workers;
  std::optional<unsigned> Gpus;
  std::string Tessel = "tessel";
  unsigned QueueTimeoutSeconds = 60;
  std::optional<unsigned> TimeMinutes;
  bool Array = false;
  std::string Spool; ///< "" for the default
};

/// The runner Text names, or nullopt with Error saying what is wrong in it.
std::optional<RunnerSpec> parseRunnerSpec(const std::string &Text, std::string &Error);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_RUNNERSPEC_H
