//===- WorkspaceDependents.h - which open documents a file change affects -*- C++ -*-===//
/// \file
/// What each open document's last analysis took from the rest of the
/// project, so that a change of one file re-checks (and re-publishes) exactly
/// the documents it affects, and nothing else:
///
/// - **the files it read** (`KernelInputs::Files`: imported modules, and the
///   places a module was looked for and not found): an edit, a close or a
///   watched change of one of them re-checks the document;
/// - **the roles other files gave its @jit functions** (`sema::RoleEvidence`:
///   launched from another file, so a kernel; called from another file's
///   @jit code, so a helper): a file that starts or stops launching one of
///   them re-checks the document when the role changes, though the document
///   never read that file. The questions are asked again for the names the
///   changed file writes (and for those answered yes, which any file may
///   withdraw), and the answers kept, so the next change compares against
///   the project as it is.
///
/// Who depends on whom comes from sema's records, not from a second import
/// graph. Threading: record() and forget() are called from the analysis
/// workers, affectedBy() from the server's main thread; a lock guards the
/// tables, and the project is asked outside it.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_WORKSPACEDEPENDENTS_H
#define TESSEL_LSP_WORKSPACEDEPENDENTS_H

#include "compiler/project/Project.h"
#include "compiler/sema/Analysis.h"

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace tessel::lsp {

class WorkspaceDependents {
public:
  /// The last analysis of the document Uri.
  void record(const std::string &Uri, const sema::FileAnalysis &FA);
  /// The document was closed.
  void forget(const std::string &Uri);
  /// The open documents other than Except that a change of the file at Path
  /// affects: those that read it, and those a role of which P now decides
  /// differently. Every recorded document when Path is empty (a structural
  /// change: any import may now resolve elsewhere).
  std::vector<std::string> affectedBy(const std::string &Path, const std::string &Except, project::Project &P);

private:
  struct Entry {
    std::set<std::string> Read;
    sema::RoleQuestions Roles;
    uint64_t Generation = 0; ///< bumped by record(): answers of an older one are dropped
  };
  std::mutex Mu;
  std::map<std::string, Entry> Docs;
  uint64_t NextGeneration = 0;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_WORKSPACEDEPENDENTS_H
