//===- SlurmArray.cpp - a sweep as one Slurm job array --------------------===//
#include "runners/SlurmArray.h"

#include "runners/Child.h"
#include "runners/Failure.h"
#include "runners/LineIo.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace tessel::runners {

namespace fs = std::filesystem;

namespace {

std::string spoolRoot(const RunnerSpec &Spec) {
  if (!Spec.Spool.empty())
    return Spec.Spool;
  if (const char *Cache = std::getenv("XDG_CACHE_HOME"); Cache && *Cache)
    return std::string(Cache) + "/tessel/slurm";
  const char *Home = std::getenv("HOME");
  return std::string(Home && *Home ? Home : "/tmp") + "/.cache/tessel/slurm";
}

/// Reads the complete lines of File past Offset.
std::vector<std::string> newLines(const fs::path &File, size_t &Offset) {
  std::vector<std::string> Out;
  std::ifstream In(File, std::ios::binary);
  if (!In)
    return Out;
  In.seekg(static_cast<std::streamoff>(Offset));
  std::string Rest((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  size_t Start = 0;
  for (size_t Nl; (Nl = Rest.find('\n', Start)) != std::string::npos; Start = Nl + 1)
    Out.push_back(Rest.substr(Start, Nl - Start));
  Offset += Start;
  return Out;
}

/// `JobState=CANCELLED Reason=...` of one array task, from scontrol.
std::string taskState(const std::string &Job) {
  Captured C = captureOutput({"scontrol", "-o", "show", "job", Job});
  std::string State;
  for (const char *Key : {"JobState=", "Reason="}) {
    size_t At = C.Out.find(Key);
    if (At == std::string::npos)
      continue;
    size_t End = C.Out.find(' ', At);
    State += (State.empty() ? "" : " ") + C.Out.substr(At, End == std::string::npos ? std::string::npos : End - At);
  }
  return State;
}

} // namespace

std::vector<std::string> arrayCommand(const RunnerSpec &Spec, const SessionOptions &Opts, const std::string &Dir,
                                      unsigned ArrayTasks) {
  std::vector<std::string> Cmd = {"sbatch",
                                  "--parsable",
                                  "--partition=" + Spec.Partition,
                                  "--job-name=tessel-array",
                                  "--array=0-" + std::to_string(ArrayTasks - 1),
                                  "--nodes=1",
                                  "--ntasks=1",
                                  "--input=" + Dir + "/in-%a.jsonl",
                                  "--output=" + Dir + "/out-%a.jsonl",
                                  "--error=" + Dir + "/err-%a.txt"};
  if (Opts.Gpu)
    Cmd.push_back("--gres=gpu:" + std::to_string(Spec.Gpus.value_or(1)));
  if (Spec.TimeMinutes)
    Cmd.push_back("--time=" + std::to_string(*Spec.TimeMinutes));
  Cmd.push_back("--wrap=" + Spec.Tessel + " runner --device 0");
  return Cmd;
}

ArrayRun runSlurmArray(const RunnerSpec &Spec, const SessionOptions &Opts, const std::vector<Task> &Share,
                       unsigned Workers, const std::atomic<bool> &Cancel,
                       const std::function<void(size_t, const Result &)> &OnResult) {
  ArrayRun Run;
  Run.Results.resize(Share.size());
  unsigned W = std::max(1u, std::min<unsigned>(Workers, static_cast<unsigned>(Share.size())));
  Run.ArrayTasks = W;
  static std::atomic<unsigned> Counter{0};
  fs::path Dir =
      fs::path(spoolRoot(Spec)) / ("array-" + std::to_string(::getpid()) + "-" + std::to_string(Counter.fetch_add(1)));
  std::error_code EC;
  fs::create_directories(Dir, EC);
  if (EC) {
    Run.Failures.push_back(Spec.Text + ": cannot create the spool directory " + Dir.string() + ": " + EC.message());
    return Run;
  }
  // Task i of the share goes to array task i % W; its index by id, to place results.
  std::map<uint64_t, size_t> IndexOf;
  for (unsigned A = 0; A < W; ++A) {
    std::ofstream In(Dir / ("in-" + std::to_string(A) + ".jsonl"), std::ios::binary);
    In << encode(ownHello()) << '\n';
    for (size_t I = A; I < Share.size(); I += W)
      In << encode(Share[I]) << '\n';
  }
  for (size_t I = 0; I < Share.size(); ++I)
    IndexOf[Share[I].Id] = I;
  Captured Sub = captureOutput(arrayCommand(Spec, Opts, Dir.string(), W));
  std::string JobId = Sub.Out.substr(0, Sub.Out.find_first_of(";\n"));
  if (!Sub.Ran || Sub.Exit != 0 || JobId.empty()) {
    ChildEnd End;
    End.Exit = Sub.Exit;
    Run.Failures.push_back(describeFailure(Spec, FailureStage::Connect, End, Sub.Err));
    fs::remove_all(Dir, EC);
    return Run;
  }

  std::vector<size_t> Offsets(W, 0);
  std::vector<bool> HelloSeen(W, false), Refused(W, false);
  auto Start = std::chrono::steady_clock::now();
  bool Started = false, Finished = false;
  auto ReadResults = [&] {
    for (unsigned A = 0; A < W; ++A)
      for (const std::string &Line : newLines(Dir / ("out-" + std::to_string(A) + ".jsonl"), Offsets[A])) {
        std::string Error;
        std::optional<Message> M = decode(Line, Error);
        if (!HelloSeen[A]) {
          HelloSeen[A] = true;
          const Hello *H = M ? std::get_if<Hello>(&*M) : nullptr;
          std::string Why = !H ? "not a tessel runner: " + (M ? std::string("no hello") : Error) : versionMismatch(*H);
          if (Why.empty() && Opts.Gpu && H->Gpus == 0)
            Why = "no GPU on " + H->Host + (H->GpuError.empty() ? "" : " (" + H->GpuError + ")");
          if (!Why.empty()) {
            Refused[A] = true;
            Run.Failures.push_back(Spec.Text + ": array task " + JobId + "_" + std::to_string(A) + ": " + Why);
            captureOutput({"scancel", JobId + "_" + std::to_string(A)});
          } else if (Run.Host.empty()) {
            Run.Host = H->Host;
          }
          continue;
        }
        if (Refused[A] || !M || !std::holds_alternative<Result>(*M))
          continue;
        const Result &R = std::get<Result>(*M);
        auto It = IndexOf.find(R.Id);
        if (It == IndexOf.end() || Run.Results[It->second])
          continue;
        Run.Results[It->second] = R;
        OnResult(It->second, R);
      }
  };
  while (!Finished) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ReadResults();
    if (Cancel.load()) {
      captureOutput({"scancel", JobId});
      break;
    }
    Captured Q = captureOutput({"squeue", "-h", "-j", JobId, "-o", "%T %r"});
    std::istringstream Lines(Q.Out);
    bool AnyPending = false, Any = false;
    std::string Reason;
    for (std::string State, Why; Lines >> State >> Why;) {
      Any = true;
      if (State == "PENDING") {
        AnyPending = true;
        Reason = Why;
      } else {
        Started = true;
      }
    }
    Finished = Q.Exit != 0 || !Any;
    if (!Finished && !Started && AnyPending &&
        std::chrono::steady_clock::now() - Start > std::chrono::seconds(Spec.QueueTimeoutSeconds)) {
      captureOutput({"scancel", JobId});
      Run.Failures.push_back(Spec.Text + ": queue timeout: job array " + JobId + " still pending after " +
                             std::to_string(Spec.QueueTimeoutSeconds) + " s (" + Reason +
                             "); raise it with ?queue-timeout=SECONDS");
      break;
    }
  }
  ReadResults();
  // Array tasks that ended without all their answers: how Slurm ended them.
  for (unsigned A = 0; A < W && !Cancel.load(); ++A) {
    bool Missing = false;
    for (size_t I = A; I < Share.size(); I += W)
      Missing |= !Run.Results[I];
    if (!Missing || Refused[A] || !Run.Failures.empty())
      continue;
    std::string Task = JobId + "_" + std::to_string(A);
    std::ifstream Err(Dir / ("err-" + std::to_string(A) + ".txt"));
    std::string ErrText((std::istreambuf_iterator<char>(Err)), std::istreambuf_iterator<char>());
    std::string Last = lastMeaningfulLine(ErrText);
    Run.Failures.push_back(Spec.Text + ": job killed: array task " + Task + " ended without all its results (" +
                           taskState(Task) + ")" + (Last.empty() ? "" : ": " + Last));
  }
  fs::remove_all(Dir, EC);
  return Run;
}

} // namespace tessel::runners
