//===- SlurmArray.h - a sweep as one Slurm job array ------------*- C++ -*-===//
/// \file
/// `slurm://P?array=1`: instead of one job step per worker speaking over
/// srun's stdio, a share of the sweep goes out as one job array (`sbatch
/// --array=0-(W-1)`): array task `a` runs `tessel runner` with its shard of
/// the tasks as stdin (`--input`, a file in the spool directory, which
/// every node must see) and its results as stdout (`--output`). One
/// submission queues W workers at once, as a cluster's scheduler prefers;
/// the price is a fixed share (no task moves between array tasks) and
/// results read from files as they are written (polled every second).
///
/// Failures are the session's: the queue timeout (every array task still
/// pending: the array is cancelled), another version or no GPU (the array
/// task's hello), an array task that ended without all its results (its
/// state from `scontrol`: CANCELLED, TIMEOUT, FAILED...): one line each;
/// the tasks it did not answer go back to the other workers.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_SLURMARRAY_H
#define TESSEL_RUNNERS_SLURMARRAY_H

#include "runners/Protocol.h"
#include "runners/RunnerSpec.h"
#include "runners/Session.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::runners {

struct ArrayRun {
  /// Per task of the share, in its order: the result, or nullopt.
  std::vector<std::optional<Result>> Results;
  std::vector<std::string> Failures;
  std::string Host; ///< the first array task's node
  unsigned ArrayTasks = 0;
};

/// The sbatch command for Spec (exposed for tests).
std::vector<std::string> arrayCommand(const RunnerSpec &Spec, const SessionOptions &Opts, const std::string &Dir,
                                      unsigned ArrayTasks);

/// Runs Share (tasks, with their ids) as one job array of Workers tasks;
/// OnResult is called for each result as it is read.
ArrayRun runSlurmArray(const RunnerSpec &Spec, const SessionOptions &Opts, const std::vector<Task> &Share,
                       unsigned Workers, const std::atomic<bool> &Cancel,
                       const std::function<void(size_t Index, const Result &)> &OnResult);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_SLURMARRAY_H
