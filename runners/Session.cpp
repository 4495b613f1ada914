//===- Session.cpp - one worker: a runner process and its channel ---------===//
#include "runners/Session.h"

#include "runners/Failure.h"

#include <chrono>
#include <regex>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace tessel::runners {

std::vector<std::string> runnerCommand(const RunnerSpec &Spec, const SessionOptions &Opts, const std::string &Tag) {
  std::vector<std::string> Runner = {Spec.Tessel, "runner", "--device", std::to_string(Opts.Device)};
  switch (Spec.Kind) {
  case RunnerKind::Local:
    Runner[0] = Opts.Self;
    return Runner;
  case RunnerKind::Ssh: {
    std::vector<std::string> Cmd = Opts.Ssh;
    Cmd.insert(Cmd.end(),
               {"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=" + std::to_string(Opts.ConnectTimeoutSeconds)});
    if (Spec.Port)
      Cmd.insert(Cmd.end(), {"-p", std::to_string(*Spec.Port)});
    if (!Spec.User.empty())
      Cmd.insert(Cmd.end(), {"-l", Spec.User});
    // The remote command is one string for the remote shell; RunnerSpec
    // admits no shell characters in the path, so nothing needs quoting.
    std::string Remote;
    for (const std::string &A : Runner)
      Remote += (Remote.empty() ? "" : " ") + A;
    Cmd.insert(Cmd.end(), {"--", Spec.Host, Remote});
    return Cmd;
  }
  case RunnerKind::Slurm: {
    std::vector<std::string> Cmd = {"srun",       "--partition=" + Spec.Partition, "--nodes=1",
                                    "--ntasks=1", "--job-name=tessel-runner",      "--kill-on-bad-exit=1"};
    if (Opts.Gpu)
      Cmd.push_back("--gres=gpu:" + std::to_string(Spec.Gpus.value_or(1)));
    if (Spec.TimeMinutes)
      Cmd.push_back("--time=" + std::to_string(*Spec.TimeMinutes));
    if (!Tag.empty())
      Cmd.push_back("--comment=" + Tag);
    Runner[3] = "0"; // the step's own GPUs: Slurm sets CUDA_VISIBLE_DEVICES
    Cmd.insert(Cmd.end(), Runner.begin(), Runner.end());
    return Cmd;
  }
  }
  return Runner;
}

std::string Session::lost(FailureStage Stage) {
  // ssh and srun say why they are ending as they end (slurmstepd's "*** STEP 41.0 ON n1 CANCELLED
  // AT ..." comes after srun's "Job step aborted"): a moment for that before they are stopped.
  ChildEnd End;
  for (int I = 0; I < 40 && !Proc->ended(End); ++I) {
    drainInto(Proc->err(), Stderr);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  End = Proc->stop();
  drainInto(Proc->err(), Stderr);
  std::string Line = describeFailure(Spec, Stage, End, Stderr);
  // srun does not always pass slurmstepd's last words on; Slurm itself knows how the job ended.
  if (Spec.Kind == RunnerKind::Slurm && Line.find("***") == std::string::npos &&
      Line.find("job killed:") != std::string::npos)
    if (std::string Job = slurmJobEnd(); !Job.empty())
      Line = Spec.Text + ": job killed: " + Job + " (" + lastMeaningfulLine(Stderr) + ")";
  return Line;
}

std::string Session::slurmJobEnd() {
  // A job just cancelled is COMPLETING for a moment before Slurm records how it ended.
  for (int Try = 0; Try < 10; ++Try) {
    Captured C = captureOutput({"scontrol", "-o", "show", "job"});
    std::istringstream Lines(C.Out);
    for (std::string L; std::getline(Lines, L);) {
      if (L.find("Comment=" + Tag + " ") == std::string::npos && !L.ends_with("Comment=" + Tag))
        continue;
      std::string Out, State;
      for (const char *Key : {"JobId=", "JobState=", "Reason="}) {
        size_t At = L.find(Key);
        if (At == std::string::npos)
          continue;
        size_t End = L.find(' ', At);
        std::string Field = L.substr(At, End == std::string::npos ? std::string::npos : End - At);
        if (std::string_view(Key) == "JobState=")
          State = Field.substr(9);
        Out += (Out.empty() ? "job " + Field.substr(6) : " " + Field);
      }
      if (State != "RUNNING" && State != "COMPLETING" && State != "CONFIGURING")
        return Out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  return "";
}

/// srun waiting for an allocation says "srun: job 41 queued and waiting for
/// resources"; the queue's reason comes from squeue before the job goes.
std::string Session::queueTimeout() {
  drainInto(Proc->err(), Stderr);
  static const std::regex Queued(R"(srun: job (\d+) queued)");
  std::smatch M;
  std::string Job, Reason;
  if (std::regex_search(Stderr, M, Queued)) {
    Job = M.str(1);
    Captured Q = captureOutput({"squeue", "-h", "-j", Job, "-o", "%r"});
    Reason = Q.Out.substr(0, Q.Out.find('\n'));
  }
  Proc->stop();
  std::string Line = Spec.Text + ": queue timeout: " + (Job.empty() ? "the job step" : "job " + Job) +
                     " still pending after " + std::to_string(Spec.QueueTimeoutSeconds) + " s";
  if (!Reason.empty())
    Line += " (" + Reason + ")";
  return Line + "; raise it with ?queue-timeout=SECONDS";
}

std::unique_ptr<Session> Session::open(const RunnerSpec &Spec, const SessionOptions &Opts,
                                       const std::atomic<bool> &Cancel, std::string &Failure) {
  ignoreSigpipe();
  static std::atomic<unsigned> Sessions{0};
  std::string Tag = "tessel-" + std::to_string(::getpid()) + "-" + std::to_string(Sessions.fetch_add(1));
  auto C = std::make_unique<Child>(runnerCommand(Spec, Opts, Tag));
  if (!C->started()) {
    Failure = Spec.Text + ": " + C->error();
    return nullptr;
  }
  std::unique_ptr<Session> S(new Session(Spec, std::move(C)));
  S->Tag = Tag;
  if (!writeLine(S->Proc->in(), encode(ownHello()))) {
    Failure = S->lost(FailureStage::Connect);
    return nullptr;
  }
  // Slurm's wait is the queue's; ssh's is ConnectTimeout plus the login.
  unsigned Wait = Spec.Kind == RunnerKind::Slurm ? Spec.QueueTimeoutSeconds : Opts.ConnectTimeoutSeconds + 40;
  std::string Line, Error;
  ReadStatus St = S->In.read(Line, std::chrono::steady_clock::now() + std::chrono::seconds(Wait), &Cancel,
                             S->Proc->err(), &S->Stderr);
  if (St == ReadStatus::Cancelled) {
    S->Proc->stop();
    Failure = Spec.Text + ": cancelled";
    return nullptr;
  }
  if (St == ReadStatus::Timeout) {
    Failure = Spec.Kind == RunnerKind::Slurm
                  ? S->queueTimeout()
                  : Spec.Text + ": no answer from the runner within " + std::to_string(Wait) + " s";
    S->Proc->stop();
    return nullptr;
  }
  if (St != ReadStatus::Line) {
    Failure = S->lost(FailureStage::Connect);
    return nullptr;
  }
  std::optional<Message> M = decode(Line, Error);
  if (!M) {
    S->Proc->stop();
    Failure = Spec.Text + ": not a tessel runner: " + Error;
    return nullptr;
  }
  if (const ErrorMessage *E = std::get_if<ErrorMessage>(&*M)) {
    S->Proc->stop();
    Failure = Spec.Text + ": " + E->Message;
    return nullptr;
  }
  if (!std::holds_alternative<Hello>(*M)) {
    S->Proc->stop();
    Failure = Spec.Text + ": not a tessel runner: it did not answer with a hello";
    return nullptr;
  }
  S->Peer = std::get<Hello>(*M);
  if (std::string Why = versionMismatch(S->Peer); !Why.empty()) {
    S->Proc->stop();
    Failure = Spec.Text + ": " + Why;
    return nullptr;
  }
  if (Opts.Gpu && S->Peer.Gpus == 0) {
    S->Proc->stop();
    Failure = Spec.Text + ": no GPU on " + S->Peer.Host +
              (S->Peer.GpuError.empty() ? std::string() : " (" + S->Peer.GpuError + ")");
    return nullptr;
  }
  return S;
}

bool Session::run(const Task &T, Result &R, const std::atomic<bool> &Cancel, std::string &Failure) {
  if (!writeLine(Proc->in(), encode(T))) {
    Failure = lost(FailureStage::Task);
    return false;
  }
  std::string Line, Error;
  ReadStatus St = In.read(Line, std::nullopt, &Cancel, Proc->err(), &Stderr);
  if (St == ReadStatus::Cancelled) {
    Proc->stop();
    Failure = Spec.Text + ": cancelled";
    return false;
  }
  if (St != ReadStatus::Line) {
    Failure = lost(FailureStage::Task);
    return false;
  }
  std::optional<Message> M = decode(Line, Error);
  if (M && std::holds_alternative<Result>(*M) && std::get<Result>(*M).Id == T.Id) {
    R = std::get<Result>(*M);
    return true;
  }
  Proc->stop();
  if (M && std::holds_alternative<ErrorMessage>(*M))
    Failure = Spec.Text + ": " + std::get<ErrorMessage>(*M).Message;
  else
    Failure =
        Spec.Text + ": bad answer from the runner: " + (M ? "not the result of task " + std::to_string(T.Id) : Error);
  return false;
}

Session::~Session() {
  Proc->closeIn();
  // A runner ends at once when its stdin closes; one that does not is stopped.
  for (int I = 0; I < 40; ++I) {
    ChildEnd E;
    if (Proc->ended(E))
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  Proc->stop();
}

} // namespace tessel::runners
