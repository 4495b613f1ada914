//===- Serve.cpp - the runner's side: `tessel runner` over stdio ----------===//
#include "runners/Serve.h"

#include "compiler/support/Cores.h"
#include "runners/Child.h"
#include "runners/LineIo.h"
#include "runners/Protocol.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessel::runners {

namespace fs = std::filesystem;

static std::string hostName() {
  char Buf[256] = {};
  if (::gethostname(Buf, sizeof Buf - 1) != 0)
    return "?";
  return Buf;
}

static void sendError(const std::string &Message) { writeLine(STDOUT_FILENO, encode(ErrorMessage{Message})); }

std::string visibleDevice(const char *Visible, unsigned Device) {
  if (!Visible || !*Visible)
    return std::to_string(Device);
  std::string List = Visible;
  size_t Start = 0;
  for (unsigned I = 0;; ++I) {
    size_t Comma = List.find(',', Start);
    if (I == Device)
      return List.substr(Start, Comma == std::string::npos ? std::string::npos : Comma - Start);
    if (Comma == std::string::npos)
      return std::to_string(Device); // fewer listed than asked: the driver will say so
    Start = Comma + 1;
  }
}

static std::vector<std::string> runCommand(const std::string &Self, const Task &T, const std::string &TextPath,
                                           const std::string &ReportPath) {
  std::vector<std::string> Cmd = {Self,     "run",
                                  T.File,   "--kernel",
                                  T.Kernel, "--text-from",
                                  TextPath, T.Gpu ? "--gpu" : "--cpu",
                                  "--seed", std::to_string(T.Seed)};
  if (T.Config)
    Cmd.insert(Cmd.end(), {"--config", std::to_string(*T.Config)});
  if (T.Instance)
    Cmd.insert(Cmd.end(), {"--instance", std::to_string(*T.Instance)});
  if (T.Iters)
    Cmd.insert(Cmd.end(), {"--iters", std::to_string(T.Iters)});
  if (T.Spec)
    Cmd.insert(Cmd.end(), {"--spec", *T.Spec});
  if (T.ReportToo)
    Cmd.insert(Cmd.end(), {"--json-out", ReportPath});
  if (!T.Reference && T.Gpu)
    Cmd.push_back("--no-reference");
  Cmd.push_back(T.Json ? "--format=json" : "--format=text");
  return Cmd;
}

/// Runs T to its end, or until stdin ends (false: the client is gone).
static bool runTask(const ServeOptions &Opts, const fs::path &Scratch, const Task &T, LineReader &In, bool WatchIn,
                    Result &R) {
  R.Id = T.Id;
  fs::path TextPath = Scratch / ("task-" + std::to_string(T.Id) + ".py");
  {
    std::ofstream F(TextPath, std::ios::binary);
    F << T.Text;
    if (!F) {
      R.Stderr = "tessel runner: error: cannot write " + TextPath.string() + "\n";
      R.Exit = 2;
      return true;
    }
  }
  std::vector<std::pair<std::string, std::string>> Env;
  if (Opts.Device)
    Env.emplace_back("CUDA_VISIBLE_DEVICES", visibleDevice(std::getenv("CUDA_VISIBLE_DEVICES"), *Opts.Device));
  auto Start = std::chrono::steady_clock::now();
  fs::path ReportPath = Scratch / ("task-" + std::to_string(T.Id) + ".json");
  Child Run(runCommand(Opts.Self, T, TextPath.string(), ReportPath.string()), Env);
  if (!Run.started()) {
    R.Stderr = "tessel runner: error: " + Run.error() + "\n";
    R.Exit = 2;
    return true;
  }
  Run.closeIn();
  bool OutOpen = true, ErrOpen = true, ClientGone = false;
  std::string Pending;
  while ((OutOpen || ErrOpen) && !ClientGone) {
    pollfd P[3] = {{Run.out(), POLLIN, 0}, {Run.err(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
    if (!OutOpen)
      P[0].fd = -1;
    if (!ErrOpen)
      P[1].fd = -1;
    if (!WatchIn)
      P[2].fd = -1;
    if (::poll(P, 3, 1000) < 0 && errno != EINTR)
      break;
    char Buf[65536];
    if (P[0].revents) {
      ssize_t N = ::read(Run.out(), Buf, sizeof Buf);
      if (N > 0)
        R.Stdout.append(Buf, static_cast<size_t>(N));
      else if (N == 0 || errno != EINTR)
        OutOpen = false;
    }
    if (P[1].revents) {
      ssize_t N = ::read(Run.err(), Buf, sizeof Buf);
      if (N > 0)
        R.Stderr.append(Buf, static_cast<size_t>(N));
      else if (N == 0 || (errno != EINTR && errno != EAGAIN))
        ErrOpen = false;
    }
    if (P[2].revents) {
      ssize_t N = ::read(STDIN_FILENO, Buf, sizeof Buf);
      if (N > 0)
        In.append(std::string(Buf, static_cast<size_t>(N)));
      else if (N == 0 || errno != EINTR) {
        In.setEof();
        ClientGone = true;
      }
    }
  }
  ChildEnd End = ClientGone ? Run.stop() : Run.wait();
  fs::remove(TextPath);
  if (T.ReportToo) {
    std::ifstream F(ReportPath, std::ios::binary);
    R.Report.assign(std::istreambuf_iterator<char>(F), std::istreambuf_iterator<char>());
    fs::remove(ReportPath);
  }
  R.Millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  auto Ms = [](const timeval &V) { return static_cast<double>(V.tv_sec) * 1e3 + static_cast<double>(V.tv_usec) / 1e3; };
  R.CpuMillis = Ms(End.Usage.ru_utime) + Ms(End.Usage.ru_stime);
  R.MaxRssKiB = static_cast<uint64_t>(End.Usage.ru_maxrss);
  R.Exit = End.Exit;
  R.Signal = End.Signal;
  return !ClientGone;
}

int serveRunner(const ServeOptions &Opts) {
  ignoreSigpipe();
  LineReader In(STDIN_FILENO);
  std::string Line, Error;
  // A client that says nothing for a minute is not a tessel client.
  ReadStatus S = In.read(Line, std::chrono::steady_clock::now() + std::chrono::seconds(60), nullptr);
  if (S != ReadStatus::Line) {
    sendError("tessel runner: no hello from the client");
    return 2;
  }
  std::optional<Message> First = decode(Line, Error);
  if (!First || !std::holds_alternative<Hello>(*First)) {
    sendError("tessel runner: expected a hello, got " + (First ? std::string("another message") : Error));
    return 2;
  }
  Hello Own = ownHello();
  Own.Host = hostName();
  Own.Cores = usableCores();
  if (Opts.Probe) {
    GpuProbe G = Opts.Probe();
    Own.Gpus = G.Count;
    Own.GpuError = G.Error;
  }
  if (!writeLine(STDOUT_FILENO, encode(Own)))
    return 2;
  // The client compares too and says which versions differ; here it is enough to stop.
  if (!versionMismatch(std::get<Hello>(*First)).empty())
    return 2;

  std::error_code EC;
  fs::path Scratch = fs::temp_directory_path(EC) / ("tessel-runner-" + std::to_string(::getpid()));
  fs::create_directories(Scratch, EC);
  if (EC) {
    sendError("tessel runner: cannot create " + Scratch.string() + ": " + EC.message());
    return 2;
  }
  // A job array's task reads its tasks from a file (sbatch --input): its end is
  // the end of the list, not a client gone, so it is not watched during a run.
  struct stat St {};
  bool WatchIn = ::fstat(STDIN_FILENO, &St) != 0 || !S_ISREG(St.st_mode);
  int Status = 0;
  for (;;) {
    S = In.read(Line, std::nullopt, nullptr);
    if (S == ReadStatus::Closed)
      break;
    if (S != ReadStatus::Line) {
      sendError("tessel runner: cannot read the next task");
      Status = 2;
      break;
    }
    std::optional<Message> M = decode(Line, Error);
    if (!M || !std::holds_alternative<Task>(*M)) {
      sendError("tessel runner: bad task: " + (M ? std::string("not a task") : Error));
      Status = 2;
      break;
    }
    Result R;
    if (!runTask(Opts, Scratch, std::get<Task>(*M), In, WatchIn, R))
      break;
    if (!writeLine(STDOUT_FILENO, encode(R)))
      break;
  }
  fs::remove_all(Scratch, EC);
  return Status;
}

} // namespace tessel::runners
