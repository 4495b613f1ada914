//===- Failure.h - one line for each way a runner fails ---------*- C++ -*-===//
/// \file
/// ssh and srun say what went wrong on stderr, in their own words, among
/// other lines; this turns what a runner's transport left (its stderr, how
/// it ended, what it was doing) into the one line users read: the runner
/// first, then the kind of failure, then the tool's own sentence.
///
///   ssh://gpu7: host unreachable: ssh: connect to host gpu7 port 22: Connection refused
///   ssh://gpu7: authentication refused: alice@gpu7: Permission denied (publickey)
///   slurm://gpu: queue timeout: job 41 still pending after 60 s (Resources)
///   slurm://cpu: no GPU: no node of the partition has the GPUs asked for (--gres=gpu:1) ...
///   slurm://gpu: job killed: *** STEP 41.0 ON node1 CANCELLED AT 2026-12-04T23:10:02 ***
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_FAILURE_H
#define TESSEL_RUNNERS_FAILURE_H

#include "runners/Child.h"
#include "runners/RunnerSpec.h"

#include <string>

namespace tessel::runners {

/// When the transport ended: before the runner's hello, or during a task.
enum class FailureStage { Connect, Task };

/// The line for a transport (ssh, srun, a local runner) that ended at Stage
/// with End, having written Stderr.
std::string describeFailure(const RunnerSpec &R, FailureStage Stage, const ChildEnd &End, const std::string &Stderr);

/// The last non-empty line of Text that is not ssh's or srun's noise
/// ("Warning: Permanently added ..."); "" when none.
std::string lastMeaningfulLine(const std::string &Text);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_FAILURE_H
