//===- Serve.h - the runner's side: `tessel runner` over stdio --*- C++ -*-===//
/// \file
/// The remote end of every runner: reads the client's hello on stdin,
/// answers with its own (host, cores, GPUs), and ends when the versions
/// differ; then runs each task as a `tessel run` child of this binary (the
/// text in a scratch file, --text-from) and writes its result. Faults stay
/// here: a run that crashes or is killed is a result with its signal. The
/// end of stdin (the client gone, ssh's channel closed, the job step
/// cancelled) stops the task in progress and ends the runner.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNNERS_SERVE_H
#define TESSEL_RUNNERS_SERVE_H

#include <functional>
#include <optional>
#include <string>

namespace tessel::runners {

struct GpuProbe {
  unsigned Count = 0;
  std::string Error; ///< why Count is 0
};

struct ServeOptions {
  std::string Self;                ///< this binary, which runs each task
  std::function<GpuProbe()> Probe; ///< the GPUs this host has
  /// The GPU this runner's runs use (--device): the index into
  /// CUDA_VISIBLE_DEVICES when set (Slurm sets it), else the device number.
  std::optional<unsigned> Device;
};

/// CUDA_VISIBLE_DEVICES for a runner's children when it serves GPU Device:
/// the Device-th entry of Visible (what this process may use; Slurm sets
/// it for a job step's GPUs), or the number itself when Visible is unset.
std::string visibleDevice(const char *Visible, unsigned Device);

/// Serves stdin/stdout until the client ends; the process's exit status.
int serveRunner(const ServeOptions &Opts);

} // namespace tessel::runners

#endif // TESSEL_RUNNERS_SERVE_H
