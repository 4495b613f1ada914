//===- WorkerPool.cpp - one set of threads for the process's parallel loops ===//
/// \file
/// A queue of helper tasks served by usableCores() - 1 threads started on
/// first use. The pool is never destroyed: its threads wait on the queue
/// until the process exits, so no exit-time destructor can race a worker.
//===----------------------------------------------------------------------===//
#include "compiler/support/WorkerPool.h"

#include "compiler/support/Cores.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace tessel {
namespace {

class WorkerPool {
public:
  static WorkerPool &shared() {
    static WorkerPool *Pool = new WorkerPool(usableCores() - 1); // never deleted, on purpose
    return *Pool;
  }
  size_t size() const { return NumThreads; }
  void post(std::function<void()> Task) {
    {
      std::lock_guard<std::mutex> L(M);
      Tasks.push_back(std::move(Task));
    }
    CV.notify_one();
  }

private:
  explicit WorkerPool(size_t Wanted) {
    for (size_t T = 0; T < Wanted; ++T) {
      try {
        std::thread([this] { serve(); }).detach();
        ++NumThreads;
      } catch (const std::system_error &) {
        break; // fewer threads: the callers do the rest themselves
      }
    }
  }
  void serve() {
    while (true) {
      std::function<void()> Task;
      {
        std::unique_lock<std::mutex> L(M);
        CV.wait(L, [this] { return !Tasks.empty(); });
        Task = std::move(Tasks.front());
        Tasks.pop_front();
      }
      Task();
    }
  }

  std::mutex M;
  std::condition_variable CV;
  std::deque<std::function<void()>> Tasks;
  size_t NumThreads = 0;
};

} // namespace

/// What the caller of one loop shares with its helpers. Helpers may start
/// after the loop has ended (the pool was busy, or the caller is itself a
/// worker waiting in a nested loop); they hold the state by shared_ptr and
/// leave without touching Body once the loop is closed, so a caller waits
/// only for the helpers that did start, never for a queue it may be blocking.
struct LoopState {
  std::atomic<size_t> Next{0};
  size_t N = 0;
  const std::function<void(size_t)> *Body = nullptr;
  std::mutex M;
  std::condition_variable CV;
  size_t Active = 0;
  bool Closed = false;

  void drain() {
    for (size_t I = Next++; I < N; I = Next++)
      (*Body)(I);
  }
};

void parallelFor(size_t N, size_t MaxThreads, const std::function<void(size_t)> &Body) {
  auto S = std::make_shared<LoopState>();
  S->N = N;
  S->Body = &Body;
  if (N > 1 && MaxThreads > 1) {
    WorkerPool &Pool = WorkerPool::shared();
    size_t Helpers = std::min({MaxThreads - 1, N - 1, Pool.size()});
    for (size_t H = 0; H < Helpers; ++H)
      Pool.post([S] {
        {
          std::lock_guard<std::mutex> L(S->M);
          if (S->Closed)
            return;
          ++S->Active;
        }
        S->drain();
        std::lock_guard<std::mutex> L(S->M);
        if (--S->Active == 0)
          S->CV.notify_all();
      });
  }
  S->drain();
  std::unique_lock<std::mutex> L(S->M);
  S->Closed = true;
  S->CV.wait(L, [&] { return S->Active == 0; });
}

} // namespace tessel
