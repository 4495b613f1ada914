//===- Dispatch.h - spreading tasks over every worker the runners give -*- C++ -*-===//
/// \file
/// A sweep's tasks go to every worker of every runner: a runner's first
/// session says how many GPUs and cores it has, and the runner gets one
/// worker per GPU for GPU work, one per core for CPU work (or `workers=N`).
/// Each worker is a thread with its own session that takes the next task
/// from one shared queue, so a slow host takes fewer tasks. A worker whose
/// session is lost puts its task back for the others (at most twice per
/// task), and its failure line is kept; tasks no worker could run are
/// reported as missing, never dropped in silence.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_DISPATCH_H
#define TESSEL_RUNNERS_DISPATCH_H

#include "runners/Protocol.h"
#include "runners/RunnerSpec.h"
#include "runners/Session.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::runners {

struct DispatchOptions {
  SessionOptions Session;
  /// Caps every runner's worker count (tessel tune --workers).
  std::optional<unsigned> MaxWorkersPerRunner;
  /// Called (from worker threads, one at a time) after each result.
  std::function<void(size_t Done, size_t Total)> Progress;
  const std::atomic<bool> *Cancel = nullptr;
};

struct WorkerSummary {
  std::string Runner; ///< the runner's text
  std::string Host;   ///< as its hello named it
  unsigned Index = 0;
  size_t Tasks = 0; ///< results it returned
};

struct DispatchResult {
  /// Results[i] is task i's; nullopt when no worker ran it.
  std::vector<std::optional<Result>> Results;
  std::vector<std::string> Failures; ///< one line per failed worker, in the order they failed
  std::vector<WorkerSummary> Workers;
  bool Cancelled = false;

  size_t missing() const;
};

/// Runs every task (their ids are their indices) over the runners' workers.
DispatchResult dispatch(const std::vector<RunnerSpec> &Runners, const std::vector<Task> &Tasks,
                        const DispatchOptions &Opts);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_DISPATCH_H
