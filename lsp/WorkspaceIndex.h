//===- WorkspaceIndex.h - the workspace folders, indexed in the background -*- C++ -*-===//
/// \file
/// What the server knows of the files it has not been shown: every `.py`
/// file under the client's workspace folders, parsed and discovered once
/// into the project (project::Project::preload), so the first import of a
/// helper, the first "is this kernel launched elsewhere" and a project-wide
/// rename find the modules ready. The file list is kept up to date from the
/// watched-file events; the modules themselves follow the FileSet (a changed
/// file is parsed again on its next use).
///
/// Threading: start(), add/removeFile() and files() are called from the
/// server's main thread or from workers (files() takes a lock); indexing runs
/// on a thread of its own, its progress callbacks on that thread or the
/// preload's pool threads (one at a time). wait() blocks until it is done.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_WORKSPACEINDEX_H
#define TESSEL_LSP_WORKSPACEINDEX_H

#include "compiler/project/Project.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tessel::lsp {

class WorkspaceIndex {
public:
  /// Done files of Total; called at most every ProgressInterval.
  using ProgressFn = std::function<void(size_t Done, size_t Total)>;
  /// The run ended: Files read, how long it took, whether it was cancelled.
  using DoneFn = std::function<void(size_t Files, std::chrono::milliseconds Took, bool Cancelled)>;
  static constexpr std::chrono::milliseconds ProgressInterval{200};

  explicit WorkspaceIndex(project::Project &P) : P(P) {}
  ~WorkspaceIndex();
  WorkspaceIndex(const WorkspaceIndex &) = delete;
  WorkspaceIndex &operator=(const WorkspaceIndex &) = delete;

  /// Indexes Folders (absolute directories) with Threads threads: on a thread
  /// of its own when Background, else before returning (the deterministic
  /// `--lit-test` mode). Begin(Total) is called once the files are listed. A
  /// run in progress is finished first.
  void start(std::vector<std::string> Folders, bool Background, unsigned Threads, std::function<void(size_t)> Begin,
             ProgressFn Progress, DoneFn Done);
  /// Waits for the run in progress; false when Timeout passed first.
  bool wait(std::chrono::milliseconds Timeout);
  /// Stops the run in progress (at the next file) and waits for it.
  void cancel();

  /// The indexed files, sorted; those under no folder are not listed.
  std::vector<std::string> files() const;
  std::vector<std::string> folders() const;
  /// A watched file appeared or went away: the list follows (the project
  /// itself is told by the server).
  void addFile(const std::string &Path);
  void removeFile(const std::string &Path);
  /// Is Path under one of the folders?
  bool covers(const std::string &Path) const;

private:
  void run(std::vector<std::string> Folders, unsigned Threads, std::function<void(size_t)> Begin, ProgressFn Progress,
           DoneFn Done);

  project::Project &P;
  mutable std::mutex Mu;
  std::vector<std::string> Folders; ///< every folder ever started, normalised
  std::vector<std::string> Files;   ///< sorted
  std::thread Worker;
  std::atomic<bool> Cancelled{false};
  bool Running = false;
  std::condition_variable Idle;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_WORKSPACEINDEX_H
