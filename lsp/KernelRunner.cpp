//===- KernelRunner.cpp - `tessel run` in a subprocess --------------------===//
/// \file
/// posix_spawn with a pipe on fds 1 and 2 and a new process group, so a kill
/// reaches whatever the run itself spawned (the GPU runner process).
//===----------------------------------------------------------------------===//
#include "lsp/KernelRunner.h"
#include "lsp/Logger.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tessel::lsp {

static constexpr size_t MaxOutput = size_t(1) << 20;

KernelRunner::~KernelRunner() { stop(); }

std::vector<std::string> KernelRunner::commandLine(const RunRequest &R) const {
  std::vector<std::string> Args = {
      Executable, R.Tune ? "tune" : "run", R.Path, "--kernel", R.Kernel, R.Device == "gpu" ? "--gpu" : "--cpu"};
  if (R.Tune) {
    for (const std::string &Runner : R.Runners)
      Args.insert(Args.end(), {"--runner", Runner});
    if (R.Runners.empty() && !R.Runner.empty())
      Args.insert(Args.end(), {"--runner", R.Runner});
    if (!R.TextFile.empty())
      Args.insert(Args.end(), {"--text-from", R.TextFile});
    if (!R.JsonFile.empty())
      Args.insert(Args.end(), {"--json-out", R.JsonFile});
    return Args;
  }
  if (!R.Runner.empty())
    Args.insert(Args.end(), {"--runner", R.Runner});
  if (R.Config) {
    Args.push_back("--config");
    Args.push_back(std::to_string(*R.Config));
  }
  if (R.Device == "gpu" && R.Iters) {
    Args.push_back("--iters");
    Args.push_back(std::to_string(R.Iters));
  }
  if (R.Triton)
    Args.push_back("--triton");
  if (R.Reference && R.Device == "gpu")
    Args.push_back("--reference");
  if (!R.TextFile.empty()) {
    Args.push_back("--text-from");
    Args.push_back(R.TextFile);
  }
  if (!R.JsonFile.empty()) {
    Args.push_back("--json-out");
    Args.push_back(R.JsonFile);
  }
  return Args;
}

/// "98%" of a fraction, or "" when the report has none.
static std::string percent(const nlohmann::json &F) {
  if (!F.is_number())
    return "";
  char Buf[16];
  std::snprintf(Buf, sizeof Buf, "%.0f%%", 100 * F.get<double>());
  return Buf;
}

static std::string number(double V, const char *Format) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}

/// " · Triton 3.6.0 ✓ 3 match, tessel at 0.98x its speed" (Best: the timed
/// instance the GPU part of the summary names), and Out the figures.
static std::string summarizeTriton(const nlohmann::json &Report, const nlohmann::json *Best, nlohmann::json &Out) {
  using nlohmann::json;
  const json &T = Report["triton"];
  std::string Version = T.value("version", json(nullptr)).is_string() ? T["version"].get<std::string>() : "";
  std::string Name = "Triton" + (Version.empty() ? "" : " " + Version);
  Out = {{"version", Version.empty() ? json(nullptr) : json(Version)}, {"error", T.value("error", json(nullptr))}};
  if (T.value("error", json(nullptr)).is_string()) {
    std::string E = T["error"].get<std::string>();
    return " · " + Name + " ✗ " + (E.size() > 100 ? E.substr(0, 99) + "…" : E);
  }
  size_t Ran = 0, Differ = 0, Refused = 0;
  std::string FirstVerdict;
  for (const json &I : Report["instances"]) {
    const json *Tr = I.is_object() && I.contains("triton") && I["triton"].is_object() ? &I["triton"] : nullptr;
    if (!Tr)
      continue;
    if (!Tr->value("ran", false)) {
      if (Refused++ == 0 && (*Tr).value("error", json(nullptr)).is_string())
        FirstVerdict = (*Tr)["error"].get<std::string>();
      continue;
    }
    ++Ran;
    bool Mismatch = Tr->value("compareError", json(nullptr)).is_string();
    for (const json &O : Tr->value("outputs", json::array()))
      Mismatch |= O.is_object() && O.value("mismatches", int64_t(0)) > 0;
    Differ += Mismatch;
  }
  Out["ran"] = Ran;
  Out["differ"] = Differ;
  Out["refused"] = Refused;
  std::string Text =
      " · " + Name + (Differ ? " ✗ " + std::to_string(Differ) + " differ" : " ✓ " + std::to_string(Ran) + " match");
  if (Refused)
    Text += ", " + std::to_string(Refused) + " not run" +
            (FirstVerdict.empty()
                 ? ""
                 : " (" + (FirstVerdict.size() > 80 ? FirstVerdict.substr(0, 79) + "…" : FirstVerdict) + ")");
  const json *Time =
      Best && Best->contains("triton") && (*Best)["triton"].is_object() ? &(*Best)["triton"]["time"] : nullptr;
  if (Time && Time->is_object() && Time->contains("tesselSpeedVsTriton")) {
    double Speed = (*Time)["tesselSpeedVsTriton"].get<double>();
    Out["speedVsTriton"] = Speed;
    Text += ", tessel at " + number(Speed, "%.2f") + "x its speed";
  }
  return Text;
}

nlohmann::json summarizeRunReport(const nlohmann::json &Report) {
  using nlohmann::json;
  if (!Report.is_object() || !Report.contains("instances") || !Report["instances"].is_array())
    return nullptr;
  bool Gpu = Report.value("device", "cpu") == "cpu+gpu";
  size_t Instances = 0, Differ = 0, GpuErrors = 0;
  uint64_t Errors = Report.value("errors", uint64_t(0));
  std::string FirstGpuError;
  const json *Best = nullptr; // the timed instance with the most tensor bytes
  for (const json &I : Report["instances"]) {
    if (!I.is_object())
      continue;
    ++Instances;
    const json *G = I.contains("gpu") && I["gpu"].is_object() ? &I["gpu"] : nullptr;
    if (!G)
      continue;
    if ((*G).value("error", json(nullptr)).is_string()) {
      if (GpuErrors++ == 0)
        FirstGpuError = (*G)["error"].get<std::string>();
    }
    bool Mismatch = false;
    for (const json &O : (*G).value("outputs", json::array()))
      Mismatch |= O.is_object() && O.value("mismatches", int64_t(0)) > 0;
    Differ += Mismatch;
    if (G->contains("time") && (*G)["time"].is_object()) {
      const json &T = (*G)["time"];
      if (!Best || T.value("tensorBytes", uint64_t(0)) > (*Best)["gpu"]["time"].value("tensorBytes", uint64_t(0)))
        Best = &I;
    }
  }
  json S = {{"device", Gpu ? "gpu" : "cpu"}, {"instances", Instances}, {"errors", Errors}};
  std::string Text;
  if (!Gpu) {
    Text = Errors ? "CPU ✗ " + std::to_string(Errors) + (Errors == 1 ? " error" : " errors")
                  : "CPU ✓ " + std::to_string(Instances) + (Instances == 1 ? " instance" : " instances") + " ran clean";
  } else if (GpuErrors) {
    Text = "GPU ✗ " + (FirstGpuError.size() > 100 ? FirstGpuError.substr(0, 99) + "…" : FirstGpuError);
  } else if (Differ) {
    Text = "GPU ✗ " + std::to_string(Differ) + " of " + std::to_string(Instances) +
           " instances differ from the interpreter";
  } else {
    Text = "GPU ✓ " + std::to_string(Instances) + (Instances == 1 ? " instance matches" : " instances match") +
           " the interpreter";
  }
  S["mismatchingInstances"] = Differ;
  S["gpuErrors"] = GpuErrors;
  if (Best) {
    const json &T = (*Best)["gpu"]["time"];
    double Ms = T.value("medianMillis", 0.0), GB = T.value("gbPerSecond", 0.0);
    std::string Label = Best->value("label", "");
    Text += " · " + (Label.empty() ? "" : Label + ": ") + number(Ms, "%.4g") + " ms, " + number(GB, "%.0f") + " GB/s";
    if (std::string P = percent(T.value("fractionOfPeakBandwidth", json(nullptr))); !P.empty())
      Text += " (" + P + " of peak)";
    S["medianMillis"] = Ms;
    S["gbPerSecond"] = GB;
    S["fractionOfPeakBandwidth"] = T.value("fractionOfPeakBandwidth", json(nullptr));
    if (T.contains("tflopsPerSecond")) {
      double TF = T.value("tflopsPerSecond", 0.0);
      Text += ", " + number(TF, "%.3g") + " TFLOP/s";
      if (std::string P = percent(T.value("fractionOfPeakTflops", json(nullptr))); !P.empty())
        Text += " (" + P + " of peak)";
      S["tflopsPerSecond"] = TF;
      S["fractionOfPeakTflops"] = T.value("fractionOfPeakTflops", json(nullptr));
    }
  }
  if (Report.contains("triton") && Report["triton"].is_object())
    Text += summarizeTriton(Report, Best, S["triton"]);
  // The gap the lens keeps showing: the CUDA reference's median over tessel's, on the timed instance.
  if (Best && Best->contains("cudaReference") && (*Best)["cudaReference"].is_object()) {
    const json &Gap = (*Best)["cudaReference"].value("gap", json(nullptr));
    if (Gap.is_number()) {
      Text += " · Triton kernel at " + number(Gap.get<double>(), "%.2f") + "× the CUDA reference";
      S["referenceGap"] = Gap;
    }
  }
  S["ok"] = Errors == 0;
  S["text"] = Text;
  return S;
}

void KernelRunner::stop() {
  std::thread Old;
  {
    std::lock_guard<std::mutex> L(M);
    if (Running > 0) {
      KillRequested = true;
      ::kill(-Running, SIGKILL);
    }
    Old = std::move(Waiter);
  }
  if (Old.joinable())
    Old.join();
}

void KernelRunner::wait() {
  std::thread Old;
  {
    std::lock_guard<std::mutex> L(M);
    Old = std::move(Waiter);
  }
  if (Old.joinable())
    Old.join();
}

bool KernelRunner::start(RunRequest R, DoneFn Done, std::string &Error) {
  stop();
  int Pipe[2];
  if (::pipe2(Pipe, O_CLOEXEC) != 0) {
    Error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&Actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&Attr, 0);

  std::vector<std::string> Args = commandLine(R);
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  pid_t Pid = 0;
  int Rc = posix_spawn(&Pid, Executable.c_str(), &Actions, &Attr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  ::close(Pipe[1]);
  if (Rc != 0) {
    ::close(Pipe[0]);
    Error = "cannot start " + Executable + ": " + std::strerror(Rc);
    return false;
  }
  std::string Line;
  for (const std::string &A : Args)
    Line += (Line.empty() ? "" : " ") + A;
  logInfo("started run (pid " + std::to_string(Pid) + "): " + Line);

  std::lock_guard<std::mutex> L(M);
  Running = Pid;
  KillRequested = false;
  Waiter = std::thread([this, Fd = Pipe[0], Pid, R = std::move(R), Done = std::move(Done)]() mutable {
    RunResult Result;
    Result.Request = std::move(R);
    char Buf[4096];
    while (true) {
      ssize_t N = ::read(Fd, Buf, sizeof(Buf));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        break;
      if (Result.Output.size() < MaxOutput)
        Result.Output.append(Buf, std::min<size_t>(N, MaxOutput - Result.Output.size()));
    }
    ::close(Fd);
    int Status = 0;
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    Result.ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
    {
      std::lock_guard<std::mutex> L(M);
      Result.Cancelled = KillRequested;
      if (Running == Pid)
        Running = 0;
    }
    logInfo("run (pid " + std::to_string(Pid) + ") ended with exit code " + std::to_string(Result.ExitCode));
    Done(std::move(Result));
  });
  return true;
}

} // namespace tessel::lsp
