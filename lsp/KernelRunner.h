//===- KernelRunner.h - `tessel run` in a subprocess ------------*- C++ -*-===//
/// \file
/// The editor's Run action. The server never executes a kernel itself (a
/// GPU fault must not take the editor down): it spawns `tessel run FILE
/// --kernel K --cpu|--gpu` from its own executable, in its own process group,
/// captures stdout and stderr together, and reports the exit code and output
/// when the process ends. Only one run at a time: starting a second kills
/// the first (its result comes back with Cancelled set).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_KERNELRUNNER_H
#define TESSEL_LSP_KERNELRUNNER_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace tessel::lsp {

struct RunRequest {
  std::string Uri;
  std::string Path; ///< the file on disk that is run
  std::string Kernel;
  std::string Device; ///< "cpu" or "gpu": the device the run uses (the server resolves "auto")
  std::optional<int64_t> Config;
  /// Timed runs on the GPU (`--iters`): the run's time and % of peak; 0 on the CPU.
  size_t Iters = 0;
  /// Also through Triton (`--triton`: the `run.triton` setting), compared
  /// with tessel's run and, on the GPU, timed beside it.
  bool Triton = false;
  /// Also the kernel's CUDA C++ reference (`--reference`, on the GPU only): the report's gap.
  bool Reference = false;
  /// Why the run is not on the device asked for ("no GPU on this machine"); "" when it is.
  std::string Fallback;
  /// The editor's unsaved text, written to a scratch file: run that instead
  /// of the file on disk (`--text-from`). Empty: the file on disk.
  std::string TextFile;
  /// Where `tessel run` writes its JSON report (`--json-out`), whose
  /// TS301-TS303 diagnostics the server publishes. Empty: none.
  std::string JsonFile;
  int64_t Version = 0; ///< the document version the text is
  /// Where it runs (`--runner`, the `tessel.defaultRunner` setting); "":
  /// in the run's own process on this machine.
  std::string Runner;
  /// `tessel tune` instead of `tessel run`: every autotune config under
  /// every instance, over Runners (`tessel.runners`; none: the default
  /// runner, else local), the JSON report in JsonFile.
  bool Tune = false;
  std::vector<std::string> Runners;
};

struct RunResult {
  RunRequest Request;
  int ExitCode = -1;      ///< -1 when the process could not start or was killed
  std::string Output;     ///< stdout and stderr interleaved, truncated at 1 MiB
  bool Cancelled = false; ///< killed because another run started (or the server stopped)
};

/// What the editor shows of a finished run (the code lens after it, the
/// notification), from `tessel run`'s JSON report: a JSON object with
/// `text` (one line: "GPU ✓ 3 instances match the interpreter · n=98432:
/// 0.0123 ms, 98 GB/s (2% of peak)"), `ok`, `device`, and for the GPU the
/// figures of the largest timed instance (`medianMillis`, `gbPerSecond`,
/// `fractionOfPeakBandwidth`, `tflopsPerSecond`, `fractionOfPeakTflops`).
/// With `--triton`, `triton`: `{version, error, ran, differ, refused,
/// speedVsTriton}` and the text ends with Triton's verdict ("· Triton 3.6.0 ✓
/// 3 match, tessel at 0.98x its speed").
/// Null when the report is not one (the run failed before writing it).
nlohmann::json summarizeRunReport(const nlohmann::json &Report);

class KernelRunner {
public:
  using DoneFn = std::function<void(RunResult)>;
  explicit KernelRunner(std::string Executable) : Executable(std::move(Executable)) {}
  ~KernelRunner();

  /// The command line a request runs.
  std::vector<std::string> commandLine(const RunRequest &R) const;
  /// Kills any run in progress, then starts R. Done runs on a runner thread
  /// once the process has ended. False (with Error) when spawning failed.
  bool start(RunRequest R, DoneFn Done, std::string &Error);
  /// Kills the run in progress, if any, and waits for its thread.
  void stop();
  /// Waits for the run in progress, if any, to end on its own.
  void wait();

private:
  std::string Executable;
  std::mutex M;
  pid_t Running = 0;
  bool KillRequested = false;
  std::thread Waiter;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_KERNELRUNNER_H
