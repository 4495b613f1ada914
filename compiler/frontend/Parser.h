//===- Parser.h - Python source to tessel's AST ----------------*- C++ -*-===//
/// \file
/// Parses a whole file with tree-sitter-python and converts the concrete tree
/// into ast::Module. Never fails: syntax errors become ast::SyntaxError
/// entries plus Error nodes, and every well-formed statement around them is
/// still converted, so one half-typed line does not hide the other kernels.
///
/// The file is cut at top-level statement boundaries found by a lexical scan
/// (Segments.h); large files are parsed in several pieces at once, one
/// tree-sitter parser per thread. A piece's AST depends only on its own text,
/// so after an edit reparse() parses again only the pieces the edit touched
/// and reuses the others' statements: shared as they are above the edit,
/// copied with shifted ranges below it. Syntax errors stay within their
/// piece: a half-typed line cannot swallow the kernel after it. What else is
/// derived from the whole text (the piece starts, the `# tessel: launch`
/// directives, how two versions differ) is kept per piece or from the edits,
/// so a reparse scans only the text around the edit.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_PARSER_H
#define TESSEL_COMPILER_FRONTEND_PARSER_H

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/support/SourceText.h"

#include <memory>
#include <optional>
#include <vector>

namespace tessel {

/// An edit of the text, in bytes, as tree-sitter needs it.
struct ByteEdit {
  uint32_t StartByte = 0;
  uint32_t OldEndByte = 0;
  uint32_t NewEndByte = 0;
  LineCol Start, OldEnd, NewEnd; ///< the same positions as 0-based line / byte column
};

/// Where an edited text may differ from its older version: the first
/// Prefix bytes and the last Suffix bytes are the same in both.
struct EditWindow {
  size_t Prefix = 0, Suffix = 0;
};

/// The window of Edits, applied in order to a text of OldSize bytes; none
/// when they do not fit that text.
std::optional<EditWindow> editWindow(const std::vector<ByteEdit> &Edits, size_t OldSize, size_t NewSize);

class ParsedFile {
public:
  /// Larger texts are not parsed (tree-sitter needs ~80 bytes of memory and
  /// about a microsecond per byte of Python): the module is empty and has
  /// one SyntaxError saying so. Kernel files are tens of kilobytes.
  static constexpr size_t MaxParseBytes = 8u << 20;

  /// Parses Text from scratch.
  static std::shared_ptr<const ParsedFile> parse(std::shared_ptr<const SourceText> Text);
  /// Parses NewText reusing the statements of Old that Edits did not touch;
  /// Edits turn Old's text into NewText, in order. Old is not modified and
  /// may be read by other threads meanwhile. The result equals parse(NewText).
  static std::shared_ptr<const ParsedFile> reparse(const ParsedFile &Old, const std::vector<ByteEdit> &Edits,
                                                   std::shared_ptr<const SourceText> NewText);
  ~ParsedFile();
  ParsedFile(const ParsedFile &) = delete;
  ParsedFile &operator=(const ParsedFile &) = delete;

  const SourceText &text() const { return *Text; }
  std::shared_ptr<const SourceText> textPtr() const { return Text; }
  const ast::Module &module() const { return *Module; }

  /// One piece of the file: a run of top-level statements parsed together.
  struct Piece {
    SourceRange Range;
    size_t FirstStmt = 0; ///< its statements are Module->Body[FirstStmt, FirstStmt + NumStmts)
    size_t NumStmts = 0;
    std::vector<ast::SyntaxError> Errors;
    std::vector<launch::LaunchDirective> Directives; ///< its `# tessel: launch` comments
    std::shared_ptr<const ast::NodeArena> Arena;     ///< owns the statements' nodes
    /// The source bytes of every piece whose nodes were made in Arena: a
    /// reparse shares Arena only while the pieces that still use it are at
    /// least half of that (otherwise they are copied out, so that versions
    /// edited in many places do not keep mostly dead arenas alive).
    size_t ArenaWeight = 0;
  };
  /// The pieces, in order, covering the whole text.
  const std::vector<Piece> &pieces() const { return Pieces; }

  /// Every `# tessel: launch` directive of the file, in order: what
  /// launch::findLaunchDirectives(text().text()) gives. A directive is made
  /// of comment lines, and a piece starts only at a code line, so each lies
  /// in one piece; a reparse scans only the pieces it parses again.
  const std::vector<launch::LaunchDirective> &launchDirectives() const { return Directives; }

  /// How two versions of a file differ, in pieces: a run of leading pieces
  /// with the same range in both, a run of trailing pieces whose ranges
  /// differ by Shift, and between them the pieces that changed. A piece's
  /// AST is what parsing its text alone gives, so an equal piece has an equal
  /// tree (its ranges moved by Shift in the trailing run), however each
  /// version was parsed.
  struct PieceDiff {
    size_t Leading = 0;                    ///< pieces [0, Leading) of both versions
    size_t Trailing = 0;                   ///< the last Trailing pieces of both versions
    int64_t Shift = 0;                     ///< new offset - old offset in the trailing run
    size_t OldChanged = 0, NewChanged = 0; ///< the pieces between the runs
  };
  /// When New was reparsed from Old (the server's case), the edits say where
  /// the texts differ and the texts are not compared.
  static PieceDiff diff(const ParsedFile &Old, const ParsedFile &New);

private:
  ParsedFile();
  std::shared_ptr<const SourceText> Text;
  std::unique_ptr<ast::Module> Module;
  std::vector<Piece> Pieces;
  std::vector<launch::LaunchDirective> Directives;
  /// Tells versions apart without keeping them alive (an address may be
  /// reused once a version is freed; a serial is not).
  uint64_t Serial;
  /// Set by reparse: the serial of the version it was made from, and how
  /// many bytes at the start and at the end the two texts surely share.
  uint64_t ParentSerial = 0;
  size_t SamePrefix = 0, SameSuffix = 0;
};

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_PARSER_H
