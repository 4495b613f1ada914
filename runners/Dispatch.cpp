//===- Dispatch.cpp - spreading tasks over every worker the runners give --===//
#include "runners/Dispatch.h"

#include "runners/SlurmArray.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace tessel::runners {

size_t DispatchResult::missing() const {
  return static_cast<size_t>(std::count(Results.begin(), Results.end(), std::nullopt));
}

namespace {

/// The queue and what came back, shared by the workers.
struct Board {
  std::mutex M;
  std::deque<size_t> Queue;
  std::vector<unsigned> Attempts;
  DispatchResult Out;
  size_t Done = 0;
  std::vector<std::thread> Threads;
  bool Stopping = false;

  std::optional<size_t> next() {
    std::lock_guard<std::mutex> L(M);
    if (Queue.empty() || Stopping)
      return std::nullopt;
    size_t I = Queue.front();
    Queue.pop_front();
    return I;
  }
};

} // namespace

/// How many workers Spec gives, from its first session's hello.
static unsigned workerCount(const RunnerSpec &Spec, const Hello &Peer, const DispatchOptions &Opts) {
  unsigned N = Spec.Workers.value_or(0);
  if (!N) {
    if (Spec.Kind == RunnerKind::Slurm)
      N = 1; // each worker is a job step of its own; the user says how many with workers=N
    else
      N = Opts.Session.Gpu ? Peer.Gpus : Peer.Cores;
  }
  if (Opts.MaxWorkersPerRunner)
    N = std::min(N, *Opts.MaxWorkersPerRunner);
  return std::max(N, 1u);
}

static void work(Board &B, const std::vector<Task> &Tasks, const DispatchOptions &Opts, Session &S, size_t Slot) {
  static const std::atomic<bool> Never{false};
  const std::atomic<bool> &Cancel = Opts.Cancel ? *Opts.Cancel : Never;
  while (std::optional<size_t> I = B.next()) {
    Result R;
    std::string Failure;
    if (S.run(Tasks[*I], R, Cancel, Failure)) {
      std::lock_guard<std::mutex> L(B.M);
      B.Out.Results[*I] = std::move(R);
      ++B.Out.Workers[Slot].Tasks;
      ++B.Done;
      if (Opts.Progress)
        Opts.Progress(B.Done, Tasks.size());
      continue;
    }
    std::lock_guard<std::mutex> L(B.M);
    if (Cancel.load()) {
      B.Out.Cancelled = true;
      return;
    }
    B.Out.Failures.push_back(Failure);
    // Another worker may still run it, unless it has now cost two sessions.
    if (++B.Attempts[*I] < 2)
      B.Queue.push_front(*I);
    return;
  }
}

/// A job-array runner (SlurmArray.h): it claims its share of the queue at
/// once (its workers against one each for the other runners, or their
/// `workers=`), runs it as one array, and hands back what did not come back.
static void runArray(Board &B, const std::vector<RunnerSpec> &Runners, const RunnerSpec &Spec,
                     const std::vector<Task> &Tasks, const DispatchOptions &Opts, const std::atomic<bool> &Cancel) {
  unsigned W = Spec.Workers.value_or(4);
  if (Opts.MaxWorkersPerRunner)
    W = std::min(W, *Opts.MaxWorkersPerRunner);
  unsigned Others = 0;
  for (const RunnerSpec &R : Runners)
    if (R.Text != Spec.Text)
      Others += R.Workers.value_or(1);
  std::vector<size_t> Mine;
  std::vector<Task> Share;
  {
    std::lock_guard<std::mutex> L(B.M);
    size_t Take = (B.Queue.size() * W + W + Others - 1) / (W + Others);
    while (Take-- && !B.Queue.empty()) {
      Mine.push_back(B.Queue.front());
      Share.push_back(Tasks[B.Queue.front()]);
      B.Queue.pop_front();
    }
  }
  if (Share.empty())
    return;
  size_t First = 0;
  {
    std::lock_guard<std::mutex> L(B.M);
    First = B.Out.Workers.size();
    for (unsigned A = 0; A < std::min<size_t>(W, Share.size()); ++A)
      B.Out.Workers.push_back(WorkerSummary{Spec.Text, "", A, 0});
  }
  size_t Count = B.Out.Workers.size() - First;
  ArrayRun Run = runSlurmArray(Spec, Opts.Session, Share, W, Cancel, [&](size_t I, const Result &R) {
    std::lock_guard<std::mutex> L(B.M);
    B.Out.Results[Mine[I]] = R;
    ++B.Out.Workers[First + I % Count].Tasks;
    ++B.Done;
    if (Opts.Progress)
      Opts.Progress(B.Done, Tasks.size());
  });
  std::lock_guard<std::mutex> L(B.M);
  for (size_t S = First; S < First + Count; ++S)
    B.Out.Workers[S].Host = Run.Host.empty() ? "?" : Run.Host;
  for (const std::string &F : Run.Failures)
    B.Out.Failures.push_back(F);
  for (size_t I = 0; I < Share.size(); ++I)
    if (!Run.Results[I] && ++B.Attempts[Mine[I]] < 2 && !Cancel.load())
      B.Queue.push_back(Mine[I]);
}

DispatchResult dispatch(const std::vector<RunnerSpec> &Runners, const std::vector<Task> &Tasks,
                        const DispatchOptions &Opts) {
  Board B;
  B.Out.Results.resize(Tasks.size());
  B.Attempts.resize(Tasks.size());
  for (size_t I = 0; I < Tasks.size(); ++I)
    B.Queue.push_back(I);
  static const std::atomic<bool> Never{false};
  const std::atomic<bool> &Cancel = Opts.Cancel ? *Opts.Cancel : Never;

  // One thread per runner opens its first session, then its other workers' sessions.
  std::vector<std::thread> Openers;
  std::mutex ThreadsM;
  std::vector<std::thread> Workers;
  for (const RunnerSpec &Spec : Runners) {
    Openers.emplace_back([&, Spec] {
      if (Spec.Kind == RunnerKind::Slurm && Spec.Array)
        return runArray(B, Runners, Spec, Tasks, Opts, Cancel);
      SessionOptions SO = Opts.Session;
      SO.Device = 0;
      std::string Failure;
      std::unique_ptr<Session> First = Session::open(Spec, SO, Cancel, Failure);
      if (!First) {
        std::lock_guard<std::mutex> L(B.M);
        if (!Cancel.load())
          B.Out.Failures.push_back(Failure);
        return;
      }
      unsigned N = workerCount(Spec, First->peer(), Opts);
      std::string Host = First->peer().Host;
      std::vector<std::unique_ptr<Session>> Sessions;
      Sessions.push_back(std::move(First));
      Sessions.resize(N);
      std::vector<std::thread> More;
      std::vector<std::string> Failures(N);
      for (unsigned W = 1; W < N; ++W)
        More.emplace_back([&, W] {
          SessionOptions Own = SO;
          // One GPU per worker; CPU workers share the host's cores.
          Own.Device = Opts.Session.Gpu ? W % std::max(1u, Sessions[0]->peer().Gpus) : 0;
          Sessions[W] = Session::open(Spec, Own, Cancel, Failures[W]);
        });
      for (std::thread &T : More)
        T.join();
      std::lock_guard<std::mutex> L(ThreadsM);
      for (unsigned W = 0; W < N; ++W) {
        if (!Sessions[W]) {
          std::lock_guard<std::mutex> BL(B.M);
          if (!Cancel.load())
            B.Out.Failures.push_back(Failures[W]);
          continue;
        }
        size_t Slot;
        {
          std::lock_guard<std::mutex> BL(B.M);
          Slot = B.Out.Workers.size();
          B.Out.Workers.push_back(WorkerSummary{Spec.Text, Host, W, 0});
        }
        std::shared_ptr<Session> S(std::move(Sessions[W]));
        Workers.emplace_back([&B, &Tasks, &Opts, S, Slot] { work(B, Tasks, Opts, *S, Slot); });
      }
    });
  }
  for (std::thread &T : Openers)
    T.join();
  for (std::thread &T : Workers)
    T.join();
  B.Out.Cancelled |= Cancel.load();
  return std::move(B.Out);
}

} // namespace tessel::runners
