//===- Workspace.h - the open documents and their edits ---------*- C++ -*-===//
/// \file
/// The JSON-free façade over the documents the client has open: their text,
/// version and line index, with full and incremental edits applied in
/// order. Each edit is turned from LSP positions (UTF-16 code units by
/// default) into the byte edit tree-sitter needs, so the scheduler can reparse
/// incrementally (ParsedFile::reparse) instead of from scratch.
///
/// A snapshot's text is the server's copy: the client's text with slack
/// (DocumentSlack.h), spaces at the ends of a few lines that keep the bytes
/// after an edited piece where they were. Its LineIndex hides them: every
/// position in or out is the client's, and LineIndex::clientText() is the
/// text the client has.
///
/// Called from the server's main thread only; the snapshots it hands out are
/// immutable and may be read from any thread.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_WORKSPACE_H
#define TESSEL_LSP_WORKSPACE_H

#include "compiler/frontend/Parser.h"
#include "compiler/support/SourceText.h"
#include "lsp/DocumentSlack.h"
#include "lsp/LineIndex.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

/// One version of one document; cheap to copy, immutable.
struct DocumentSnapshot {
  std::string Uri;
  int64_t Version = 0;
  std::shared_ptr<const SourceText> Text;
  std::shared_ptr<const LineIndex> Index;
};

/// An edit in LSP terms: replace Range (absent: the whole text) by Text.
struct DocumentEdit {
  struct PositionRange {
    Position Start, End;
  };
  std::optional<PositionRange> Range;
  std::string Text;
};

/// A new version and how to get there from the previous one.
struct DocumentUpdate {
  DocumentSnapshot Snapshot;
  std::vector<ByteEdit> Edits; ///< in order, each relative to the text left by the previous one
  bool Reset = false;          ///< the text was replaced whole: parse from scratch
};

class Workspace {
public:
  explicit Workspace(PositionEncoding Enc = PositionEncoding::UTF16) : Enc(Enc) {}
  void setEncoding(PositionEncoding E) { Enc = E; }
  PositionEncoding encoding() const { return Enc; }

  /// Opens (or re-opens, replacing) a document.
  DocumentUpdate open(const std::string &Uri, int64_t Version, std::string Text);
  /// Applies Edits in order. On failure (unknown document, a range whose end
  /// precedes its start) nothing changes and Error says why.
  std::optional<DocumentUpdate> change(const std::string &Uri, std::optional<int64_t> Version,
                                       const std::vector<DocumentEdit> &Edits, std::string &Error);
  /// False when the document was not open.
  bool close(const std::string &Uri);

  std::optional<DocumentSnapshot> snapshot(const std::string &Uri) const;
  size_t size() const { return Docs.size(); }

private:
  PositionEncoding Enc;
  struct Document {
    DocumentSnapshot Snapshot;
    DocumentSlack Slack;
  };
  std::map<std::string, Document> Docs;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_WORKSPACE_H
