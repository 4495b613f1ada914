//===- WorkspaceDependents.cpp - which open documents a file change affects -===//
/// \file
/// affectedBy copies the tables under the lock, asks the project without it
/// (a question may parse a file that names the function), and writes the
/// new answers back only into entries no newer analysis has replaced.
//===----------------------------------------------------------------------===//
#include "lsp/WorkspaceDependents.h"

namespace tessel::lsp {

void WorkspaceDependents::record(const std::string &Uri, const sema::FileAnalysis &FA) {
  Entry E;
  for (const sema::KernelRecord &Rec : FA.Records)
    for (const auto &[Path, Hash] : Rec.Inputs.Files)
      E.Read.insert(Path);
  E.Roles = sema::roleQuestions(FA);
  std::lock_guard<std::mutex> L(Mu);
  E.Generation = ++NextGeneration;
  Docs[Uri] = std::move(E);
}

void WorkspaceDependents::forget(const std::string &Uri) {
  std::lock_guard<std::mutex> L(Mu);
  Docs.erase(Uri);
}

std::vector<std::string> WorkspaceDependents::affectedBy(const std::string &RawPath, const std::string &Except,
                                                         project::Project &P) {
  std::string Path = RawPath.empty() ? RawPath : project::normalPath(RawPath);
  std::vector<std::string> Out;
  struct Asked {
    std::string Uri;
    sema::RoleQuestions Roles;
    uint64_t Generation;
  };
  std::vector<Asked> ToAsk;
  {
    std::lock_guard<std::mutex> L(Mu);
    for (const auto &[Uri, E] : Docs) {
      if (Uri == Except)
        continue;
      if (Path.empty() || E.Read.count(Path))
        Out.push_back(Uri);
      else if (!E.Roles.Functions.empty() && E.Roles.Path != Path)
        ToAsk.push_back({Uri, E.Roles, E.Generation});
    }
  }
  if (ToAsk.empty())
    return Out;
  // The names the changed file writes now: only they can have become
  // launched or called there (a "yes" is asked again regardless).
  project::FileSet::Contents C = P.files().contents(Path);
  std::set<std::string> Mentioned = C.Text ? project::identifiersIn(*C.Text) : std::set<std::string>{};
  for (Asked &A : ToAsk)
    if (sema::roleEvidenceChanged(A.Roles, P, &Mentioned))
      Out.push_back(A.Uri);
  std::lock_guard<std::mutex> L(Mu);
  for (Asked &A : ToAsk)
    if (auto It = Docs.find(A.Uri); It != Docs.end() && It->second.Generation == A.Generation)
      It->second.Roles = std::move(A.Roles);
  return Out;
}

} // namespace tessel::lsp
