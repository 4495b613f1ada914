//===- Workspace.cpp - the open documents and their edits -----------------===//
/// \file
/// Applies LSP content changes. Positions are resolved against the text as
/// it stands after the previous change of the same notification (the LSP
/// rule), and each change yields one ByteEdit with tree-sitter's row/column
/// points (rows counted by "\n", columns in bytes).
//===----------------------------------------------------------------------===//
#include "lsp/Workspace.h"
#include "lsp/Logger.h"
#include "lsp/Uri.h"

#include <algorithm>

namespace tessel::lsp {

static DocumentSnapshot makeSnapshot(const std::string &Uri, int64_t Version, std::string Text) {
  std::string Path = uriToPath(Uri).value_or(Uri);
  auto Source = std::make_shared<const SourceText>(std::move(Text), std::move(Path));
  return {Uri, Version, Source, std::make_shared<const LineIndex>(Source)};
}

/// Row and byte column of Offset, counting rows by "\n" as tree-sitter does.
static LineCol pointAt(const LineIndex &Index, uint32_t Offset) {
  Position P = Index.position(Offset, PositionEncoding::UTF8);
  return {P.Line, P.Character};
}

static LineCol pointAfter(LineCol Start, std::string_view Inserted) {
  size_t Nl = Inserted.rfind('\n');
  if (Nl == std::string_view::npos)
    return {Start.Line, Start.Column + static_cast<uint32_t>(Inserted.size())};
  uint32_t Rows = static_cast<uint32_t>(std::count(Inserted.begin(), Inserted.end(), '\n'));
  return {Start.Line + Rows, static_cast<uint32_t>(Inserted.size() - Nl - 1)};
}

DocumentUpdate Workspace::open(const std::string &Uri, int64_t Version, std::string Text) {
  DocumentSnapshot S = makeSnapshot(Uri, Version, std::move(Text));
  Docs[Uri] = {S, DocumentSlack(S.Text->text())};
  return {std::move(S), {}, true};
}

std::optional<DocumentUpdate> Workspace::change(const std::string &Uri, std::optional<int64_t> Version,
                                                const std::vector<DocumentEdit> &Edits, std::string &Error) {
  auto It = Docs.find(Uri);
  if (It == Docs.end()) {
    Error = "document is not open: " + Uri;
    return std::nullopt;
  }
  const DocumentSnapshot &Old = It->second.Snapshot;
  DocumentSlack Slack = It->second.Slack; // kept only if every edit applies
  if (Version && *Version <= Old.Version)
    logError("version " + std::to_string(*Version) + " of " + Uri + " is not newer than " +
             std::to_string(Old.Version) + "; applying the change anyway");

  // Room for every inserted text, so that an insertion does not double the
  // capacity (the snapshot keeps the string: 4.4 MB unused per version of a
  // 5 MB file).
  size_t Inserted = 0;
  for (const DocumentEdit &E : Edits)
    Inserted += E.Text.size();
  std::string Text;
  Text.reserve(Old.Text->text().size() + Inserted);
  Text.assign(Old.Text->text());
  std::shared_ptr<const LineIndex> Index = Old.Index;
  DocumentUpdate U;
  // The index of the text each edit applies to: the previous version's, then
  // one of the text so far, built only when another edit follows.
  bool Stale = false;
  for (const DocumentEdit &E : Edits) {
    if (!E.Range) {
      Text = std::string(E.Text); // its own size, not the room reserved above
      Slack = DocumentSlack(Text);
      U.Edits.clear();
      U.Reset = true;
      Stale = true;
      continue;
    }
    if (Stale)
      Index = std::make_shared<const LineIndex>(Text, Slack.slacks());
    Stale = false;
    uint32_t Begin = Index->offset(E.Range->Start, Enc);
    uint32_t End = Index->offset(E.Range->End, Enc);
    if (End < Begin) {
      Error = "range end (" + std::to_string(E.Range->End.Line) + ":" + std::to_string(E.Range->End.Character) +
              ") precedes its start (" + std::to_string(E.Range->Start.Line) + ":" +
              std::to_string(E.Range->Start.Character) + ")";
      return std::nullopt;
    }
    ByteEdit B;
    B.StartByte = Begin;
    B.OldEndByte = End;
    B.NewEndByte = Begin + static_cast<uint32_t>(E.Text.size());
    B.Start = pointAt(*Index, Begin);
    B.OldEnd = pointAt(*Index, End);
    B.NewEnd = pointAfter(B.Start, E.Text);
    Text.replace(Begin, End - Begin, E.Text);
    Stale = true;
    U.Edits.push_back(B);
    Slack.edited(Text, B, U.Edits);
  }
  int64_t NewVersion = Version.value_or(Old.Version + 1);
  std::string Path = Old.Text->path();
  // Outside the bytes the edits touched, the line starts are the old
  // version's.
  std::optional<EditWindow> Window;
  if (!U.Reset)
    Window = editWindow(U.Edits, Old.Text->text().size(), Text.size());
  auto Source = Window ? std::make_shared<const SourceText>(std::move(Text), std::move(Path), *Old.Text,
                                                            static_cast<uint32_t>(Window->Prefix),
                                                            static_cast<uint32_t>(Window->Suffix))
                       : std::make_shared<const SourceText>(std::move(Text), std::move(Path));
  if (Stale)
    Index = std::make_shared<const LineIndex>(Source, Slack.slacks());
  U.Snapshot = {Uri, NewVersion, Source, std::move(Index)};
  It->second = {U.Snapshot, std::move(Slack)};
  return U;
}

bool Workspace::close(const std::string &Uri) { return Docs.erase(Uri) > 0; }

std::optional<DocumentSnapshot> Workspace::snapshot(const std::string &Uri) const {
  auto It = Docs.find(Uri);
  if (It == Docs.end())
    return std::nullopt;
  return It->second.Snapshot;
}

} // namespace tessel::lsp
