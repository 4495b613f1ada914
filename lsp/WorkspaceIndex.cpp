//===- WorkspaceIndex.cpp - the workspace folders, indexed in the background -===//
/// \file
/// One run lists the folders' files (Project::pythonFiles: hidden folders,
/// caches and site-packages skipped), then preloads them on the worker pool.
/// Progress is throttled to one call per ProgressInterval, and only one
/// thread at a time reports (a try_lock: a report that would wait is
/// skipped), so a client sees a steady percentage, not a flood.
//===----------------------------------------------------------------------===//
#include "lsp/WorkspaceIndex.h"
#include "lsp/Logger.h"

#include <algorithm>
#include <iterator>

using Clock = std::chrono::steady_clock;

namespace tessel::lsp {

WorkspaceIndex::~WorkspaceIndex() { cancel(); }

void WorkspaceIndex::start(std::vector<std::string> NewFolders, bool Background, unsigned Threads,
                           std::function<void(size_t)> Begin, ProgressFn Progress, DoneFn Done) {
  if (Worker.joinable())
    Worker.join();
  for (std::string &F : NewFolders)
    F = project::normalPath(F);
  {
    std::lock_guard<std::mutex> L(Mu);
    for (const std::string &F : NewFolders)
      if (std::find(Folders.begin(), Folders.end(), F) == Folders.end())
        Folders.push_back(F);
    Running = true;
  }
  Cancelled = false;
  if (!Background) {
    run(std::move(NewFolders), Threads, std::move(Begin), std::move(Progress), std::move(Done));
    return;
  }
  Worker = std::thread([this, NewFolders = std::move(NewFolders), Threads, Begin = std::move(Begin),
                        Progress = std::move(Progress), Done = std::move(Done)]() mutable {
    run(std::move(NewFolders), Threads, std::move(Begin), std::move(Progress), std::move(Done));
  });
}

void WorkspaceIndex::run(std::vector<std::string> Roots, unsigned Threads, std::function<void(size_t)> Begin,
                         ProgressFn Progress, DoneFn Done) {
  auto Start = Clock::now();
  std::vector<std::string> Listed;
  for (const std::string &Root : Roots) {
    std::vector<std::string> Some = P.pythonFiles(Root);
    Listed.insert(Listed.end(), Some.begin(), Some.end());
  }
  std::sort(Listed.begin(), Listed.end());
  Listed.erase(std::unique(Listed.begin(), Listed.end()), Listed.end());
  {
    std::lock_guard<std::mutex> L(Mu);
    std::vector<std::string> Merged;
    std::set_union(Files.begin(), Files.end(), Listed.begin(), Listed.end(), std::back_inserter(Merged));
    Files = std::move(Merged);
  }
  if (Begin)
    Begin(Listed.size());
  std::mutex ReportMu;
  Clock::time_point LastReport = Start;
  size_t Total = Listed.size();
  size_t Read = P.preload(
      Listed, std::max(1u, Threads),
      [&](size_t N) {
        if (!Progress)
          return;
        std::unique_lock<std::mutex> L(ReportMu, std::try_to_lock);
        if (!L.owns_lock())
          return;
        auto Now = Clock::now();
        if (Now - LastReport < ProgressInterval || N == Total)
          return;
        LastReport = Now;
        Progress(N, Total);
      },
      &Cancelled);
  auto Took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - Start);
  bool WasCancelled = Cancelled.load();
  logInfo("indexed " + std::to_string(Read) + " of " + std::to_string(Total) + " workspace files in " +
          std::to_string(Took.count()) + " ms" + (WasCancelled ? " (cancelled)" : ""));
  if (Done)
    Done(Read, Took, WasCancelled);
  std::lock_guard<std::mutex> L(Mu);
  Running = false;
  Idle.notify_all();
}

bool WorkspaceIndex::wait(std::chrono::milliseconds Timeout) {
  std::unique_lock<std::mutex> L(Mu);
  return Idle.wait_for(L, Timeout, [this] { return !Running; });
}

void WorkspaceIndex::cancel() {
  Cancelled = true;
  if (Worker.joinable())
    Worker.join();
}

std::vector<std::string> WorkspaceIndex::files() const {
  std::lock_guard<std::mutex> L(Mu);
  return Files;
}

std::vector<std::string> WorkspaceIndex::folders() const {
  std::lock_guard<std::mutex> L(Mu);
  return Folders;
}

bool WorkspaceIndex::covers(const std::string &RawPath) const {
  std::string Path = project::normalPath(RawPath);
  std::lock_guard<std::mutex> L(Mu);
  return std::any_of(Folders.begin(), Folders.end(), [&](const std::string &F) {
    return Path.size() > F.size() && Path.compare(0, F.size(), F) == 0 && (Path[F.size()] == '/' || F == "/");
  });
}

void WorkspaceIndex::addFile(const std::string &RawPath) {
  std::string Path = project::normalPath(RawPath);
  if (Path.size() < 3 || Path.compare(Path.size() - 3, 3, ".py") != 0 || !covers(Path))
    return;
  std::lock_guard<std::mutex> L(Mu);
  auto It = std::lower_bound(Files.begin(), Files.end(), Path);
  if (It == Files.end() || *It != Path)
    Files.insert(It, Path);
}

void WorkspaceIndex::removeFile(const std::string &RawPath) {
  std::string Path = project::normalPath(RawPath);
  std::lock_guard<std::mutex> L(Mu);
  auto It = std::lower_bound(Files.begin(), Files.end(), Path);
  if (It != Files.end() && *It == Path)
    Files.erase(It);
}

} // namespace tessel::lsp
