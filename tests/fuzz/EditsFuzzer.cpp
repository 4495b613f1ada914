//===- EditsFuzzer.cpp - libFuzzer target for incremental edits -----------===//
/// \file
/// A file and a sequence of edits, applied as the language server applies
/// didChange: lsp::Workspace turns each LSP edit (UTF-16 positions) into
/// byte edits, and ParsedFile::reparse parses again only what they touched,
/// after each change or after several (the scheduler batches the changes of
/// updates it dropped). The final reparse must equal a fresh parse of the
/// final text, every node range included (tests/support/AstFingerprint.h),
/// and so must its pieces and launch directives, and checking it with the first version's analysis must give exactly
/// the findings of a fresh check; else the target traps.
///
/// Input: the initial text, then edits, each introduced by a NUL byte:
///   flags, start line (2 bytes), start character, line count, end character,
///   then the new text up to the next NUL.
/// Flags bit 0: reparse after this change (else batch it with the next);
/// bit 1: the change has no range (replaces the whole text, as a full sync).
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzSupport.h"
#include "support/AstFingerprint.h"

#include "compiler/frontend/LaunchSpec.h"
#include "diagnostics/Check.h"
#include "lsp/Workspace.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace tessel;

namespace {

struct Change {
  bool ReparseNow = false;
  lsp::DocumentEdit Edit;
};

/// Splits the input as the file comment says; at most 64 edits, so one
/// input stays fast.
std::string splitInput(std::string_view In, std::vector<Change> &Changes) {
  size_t Nul = In.find('\0');
  std::string Initial(In.substr(0, Nul));
  while (Nul != std::string_view::npos && Changes.size() < 64) {
    In.remove_prefix(Nul + 1);
    Nul = In.find('\0');
    std::string_view Chunk = In.substr(0, Nul);
    if (Chunk.size() < 6)
      continue;
    auto Byte = [&](size_t I) { return static_cast<uint8_t>(Chunk[I]); };
    Change C;
    C.ReparseNow = Byte(0) & 1;
    if (!(Byte(0) & 2)) {
      lsp::Position Start{static_cast<uint32_t>(Byte(1) | Byte(2) << 8), Byte(3)};
      lsp::Position End{Start.Line + Byte(4), Byte(5)};
      C.Edit.Range = lsp::DocumentEdit::PositionRange{Start, End};
    }
    C.Edit.Text = std::string(Chunk.substr(6));
    Changes.push_back(std::move(C));
  }
  return Initial;
}

/// The pieces' ranges and errors, then the file's launch directives, each
/// checked against a scan of the whole text.
std::string piecesText(const ParsedFile &F) {
  auto Range = [](SourceRange R) { return std::to_string(R.Begin) + "-" + std::to_string(R.End); };
  std::string Out;
  for (const ParsedFile::Piece &P : F.pieces()) {
    Out += Range(P.Range) + " " + std::to_string(P.NumStmts);
    for (const ast::SyntaxError &E : P.Errors)
      Out += " " + Range(E.Range) + " " + E.Message;
    Out += "\n";
  }
  std::vector<launch::LaunchDirective> Scanned = launch::findLaunchDirectives(F.text().text());
  if (Scanned.size() != F.launchDirectives().size())
    return Out + "directives differ from a scan of the text";
  for (size_t I = 0; I < Scanned.size(); ++I) {
    const launch::LaunchDirective &D = F.launchDirectives()[I];
    if (!(D.Range == Scanned[I].Range) || !(D.Body == Scanned[I].Body))
      return Out + "directive " + std::to_string(I) + " differs from a scan of the text";
    Out += "directive " + Range(D.Range) + "\n";
  }
  return Out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<Change> Changes;
  std::string Initial = splitInput(std::string_view(reinterpret_cast<const char *>(Data), Size), Changes);

  const std::string Uri = "file:///fuzz.py";
  lsp::Workspace W;
  lsp::DocumentUpdate Open = W.open(Uri, 1, Initial);
  std::shared_ptr<const ParsedFile> Parsed = ParsedFile::parse(Open.Snapshot.Text);
  diag::CheckOptions Opts;
  diag::FileReport First = diag::checkFile(Parsed, Opts);

  // What the scheduler keeps between updates: the edits since the last
  // parse, or that the text was replaced whole.
  std::vector<ByteEdit> Pending;
  bool Reset = false;
  std::shared_ptr<const SourceText> Latest = Open.Snapshot.Text;
  for (size_t I = 0; I < Changes.size(); ++I) {
    std::string Error;
    std::optional<lsp::DocumentUpdate> U = W.change(Uri, std::nullopt, {Changes[I].Edit}, Error);
    if (!U)
      continue; // the server answers such a change with an error and keeps the text
    if (U->Reset) {
      Pending.clear();
      Reset = true;
    } else {
      Pending.insert(Pending.end(), U->Edits.begin(), U->Edits.end());
    }
    Latest = U->Snapshot.Text;
    if (Changes[I].ReparseNow || I + 1 == Changes.size()) {
      Parsed = Reset ? ParsedFile::parse(Latest) : ParsedFile::reparse(*Parsed, Pending, Latest);
      Pending.clear();
      Reset = false;
    }
  }
  if (Parsed->textPtr() != Latest)
    Parsed = Reset ? ParsedFile::parse(Latest) : ParsedFile::reparse(*Parsed, Pending, Latest);

  std::shared_ptr<const ParsedFile> Fresh = ParsedFile::parse(std::make_shared<SourceText>(Latest->text()));
  // The texts a failure needs to be reproduced in a unit test: the
  // input's edits are in UTF-16 positions, not readable by hand.
  if (std::getenv("TESSEL_FUZZ_PRINT_TEXTS"))
    std::fprintf(stderr, "--- initial text\n%s\n--- final text\n%s\n--- end\n", Initial.c_str(),
                 Latest->text().c_str());
  fuzz::requireSame("reparse after the edits differs from a fresh parse", ast::fingerprint(Fresh->module()),
                    ast::fingerprint(Parsed->module()));
  fuzz::requireSame("the pieces of the reparse differ from a fresh parse's", piecesText(*Fresh), piecesText(*Parsed));
  diag::FileReport Reused = diag::checkFile(Parsed, Opts, First.Analysis.get());
  diag::FileReport FreshReport = diag::checkFile(Fresh, Opts);
  fuzz::requireSame("a check with the first version's analysis differs from a fresh one",
                    fuzz::findingsText(FreshReport.Findings), fuzz::findingsText(Reused.Findings));
  return 0;
}
