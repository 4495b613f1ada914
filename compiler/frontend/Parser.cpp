//===- Parser.cpp - Python source to tessel's AST -------------------------===//
/// \file
/// Implements ParsedFile. The text is cut into pieces at the top-level
/// statement starts of cst::topLevelStarts. parse() gives runs of pieces to
/// a few threads (a new TSParser for every parse: a TSParser must not be
/// shared, and a reused one reads some texts differently); each
/// parses its run with tree-sitter's included ranges, so byte offsets stay
/// those of the whole file, and converts it into its own node arena.
/// reparse() maps the old pieces through the edits and parses only the new
/// pieces that no old one matches; it finds the new piece starts by scanning
/// only from the piece above the edit to the first old start past it, and
/// records where the two texts may differ, for diff().
///
/// A piece's AST is what parsing its text alone gives, so the result never
/// depends on how pieces were grouped into runs (nor on the thread count).
/// A run parsed in one go gives the same for every piece whose statements
/// tree-sitter read without error and within the piece; the other pieces
/// are parsed again alone, so an error never crosses a piece boundary. A
/// ParsedFile is immutable once built, so any number of threads may read it.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

#include "compiler/frontend/AstClone.h"
#include "compiler/frontend/CstToAst.h"
#include "compiler/frontend/PythonGrammar.h"
#include "compiler/frontend/Segments.h"
#include "compiler/support/Cores.h"
#include "compiler/support/WorkerPool.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tessel {

namespace {
struct TreeDeleter {
  void operator()(TSTree *T) const { ts_tree_delete(T); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

/// Below this many bytes per thread, starting a thread costs more than it saves.
constexpr size_t MinBytesPerThread = 16u << 10;
/// At most this many threads parse one file.
constexpr unsigned MaxThreads = 4;
/// Runs of pieces per thread (see ParsedFile::parse).
constexpr size_t RunsPerThread = 8;

/// One piece as a parse produced it, before it joins a file.
struct PieceAst {
  SourceRange Range;
  std::vector<ast::Stmt *> Stmts;
  std::vector<ast::SyntaxError> Errors;
  std::vector<launch::LaunchDirective> Directives;
  std::shared_ptr<const ast::NodeArena> Arena;
  size_t ArenaWeight = 0; ///< set for a shared piece; 0 for a new one
};

/// The launch directives in R of Text, at file offsets.
std::vector<launch::LaunchDirective> directivesIn(const SourceText &Text, SourceRange R) {
  std::vector<launch::LaunchDirective> Found = launch::findLaunchDirectives(Text.slice(R));
  for (launch::LaunchDirective &D : Found) {
    D.Range = {D.Range.Begin + R.Begin, D.Range.End + R.Begin};
    D.Body = {D.Body.Begin + R.Begin, D.Body.End + R.Begin};
  }
  return Found;
}

/// Three passes report errors; consumers want them once each, in order.
void sortErrors(std::vector<ast::SyntaxError> &Errors) {
  std::stable_sort(Errors.begin(), Errors.end(),
                   [](const ast::SyntaxError &A, const ast::SyntaxError &B) { return A.Range < B.Range; });
  Errors.erase(std::unique(Errors.begin(), Errors.end(),
                           [](const ast::SyntaxError &A, const ast::SyntaxError &B) {
                             return A.Range == B.Range && A.Message == B.Message;
                           }),
               Errors.end());
}

/// Parses [R.Begin, R.End) of Text alone, offsets staying file-absolute.
TreePtr parseRange(const SourceText &Text, SourceRange R) {
  const std::string &S = Text.text();
  LineCol B = Text.lineCol(R.Begin), E = Text.lineCol(R.End);
  TSRange Range{{B.Line, B.Column}, {E.Line, E.Column}, R.Begin, R.End};
  return TreePtr(grammar::parseIncluded(S, Range));
}

/// Converts the parse Root of one piece R (the piece alone), with its syntax
/// errors and the definitions recovered from ERROR nodes, into Out.
void convertPiece(const SourceText &Text, TSNode Root, SourceRange R, ast::Module &Scratch, PieceAst &Out) {
  std::string_view S = Text.text();
  ast::Block Body;
  std::vector<ast::SyntaxError> Errors;
  std::swap(Scratch.Body, Body);
  std::swap(Scratch.SyntaxErrors, Errors);
  cst::collectSyntaxErrors(Root, S, Scratch.SyntaxErrors);
  cst::convertTree(Root, S, Scratch);
  cst::recoverDefinitions(Text, Root, Scratch);
  sortErrors(Scratch.SyntaxErrors);
  Out.Range = R;
  Out.Stmts = std::move(Scratch.Body);
  Out.Errors = std::move(Scratch.SyntaxErrors);
  Out.Arena = Scratch.arena();
  Scratch.Body = std::move(Body);
  Scratch.SyntaxErrors = std::move(Errors);
}

/// The code of the line that holds a piece's first syntax error when that
/// error is an unclosed bracket (`y = tl.load(x_ptr + offs`), from its first
/// non-blank byte to its end.
std::optional<SourceRange> unclosedBracketLine(const std::vector<ast::SyntaxError> &Errors, std::string_view S) {
  static constexpr std::string_view Tail = "' was never closed";
  if (Errors.empty())
    return std::nullopt;
  const ast::SyntaxError &E = Errors.front();
  std::string_view M = E.Message;
  if (M.size() <= Tail.size() || M.substr(M.size() - Tail.size()) != Tail)
    return std::nullopt;
  uint32_t Begin = E.Range.Begin, End = E.Range.Begin;
  while (Begin > 0 && S[Begin - 1] != '\n' && S[Begin - 1] != '\r')
    --Begin;
  while (Begin < End && (S[Begin] == ' ' || S[Begin] == '\t'))
    ++Begin;
  while (End < S.size() && S[End] != '\n' && S[End] != '\r')
    ++End;
  return SourceRange{Begin, End};
}

/// A half-typed line: CPython reports the bracket and stops; tessel keeps
/// that one error and checks the rest of the piece as if the line were a
/// `pass`, so the statements below it keep their facts. The patched copy
/// has the same length and line breaks, so every offset stays valid.
void recoverUnclosedLine(const SourceText &Text, SourceRange R, SourceRange Line, ast::Module &Scratch, PieceAst &Out) {
  std::string Patched(Text.text().substr(0, R.End));
  for (uint32_t I = Line.Begin; I < Line.End; ++I)
    Patched[I] = ' ';
  if (Line.End - Line.Begin >= 4)
    Patched.replace(Line.Begin, 4, "pass");
  LineCol B = Text.lineCol(R.Begin), E = Text.lineCol(R.End);
  TSRange Range{{B.Line, B.Column}, {E.Line, E.Column}, R.Begin, R.End};
  // A new parser, as for every parse: tree-sitter 0.20 reads the same text
  // differently on a parser that parsed something before.
  TreePtr T(grammar::parseIncluded(Patched, Range));
  if (!T)
    return;
  TSNode Root = ts_tree_root_node(T.get());
  ast::Block Body;
  std::vector<ast::SyntaxError> Errors;
  std::swap(Scratch.Body, Body);
  std::swap(Scratch.SyntaxErrors, Errors);
  Scratch.SyntaxErrors.push_back(Out.Errors.front());
  cst::collectSyntaxErrors(Root, Patched, Scratch.SyntaxErrors);
  cst::convertTree(Root, Patched, Scratch);
  sortErrors(Scratch.SyntaxErrors);
  // A patch that breaks more than it mends (a `def` header cut off, whose
  // body is then over-indented) is dropped.
  if (Scratch.SyntaxErrors.size() <= Out.Errors.size()) {
    Out.Stmts = std::move(Scratch.Body);
    Out.Errors = std::move(Scratch.SyntaxErrors);
    Out.Arena = Scratch.arena();
  }
  Scratch.Body = std::move(Body);
  Scratch.SyntaxErrors = std::move(Errors);
}

void parseAlone(const SourceText &Text, SourceRange R, ast::Module &Scratch, PieceAst &Out) {
  TreePtr T = parseRange(Text, R);
  if (!T) {
    Out.Range = R;
    Out.Errors.push_back({{R.Begin, R.Begin}, "the parser gave up on this file"});
    Out.Arena = Scratch.arena();
    return;
  }
  convertPiece(Text, ts_tree_root_node(T.get()), R, Scratch, Out);
  if (std::optional<SourceRange> Line = unclosedBracketLine(Out.Errors, Text.text());
      Line && Line->Begin >= R.Begin && Line->End <= R.End)
    recoverUnclosedLine(Text, R, *Line, Scratch, Out);
}

/// The statements and errors of parseRun.
void parseRunStatements(const SourceText &Text, const uint32_t *Starts, size_t N, uint32_t End, ast::Module &Scratch,
                        std::vector<PieceAst> &Out) {
  auto PieceEnd = [&](size_t I) { return I + 1 < N ? Starts[I + 1] : End; };
  SourceRange Whole{Starts[0], End};
  if (N == 1) {
    Out.emplace_back();
    parseAlone(Text, Whole, Scratch, Out.back());
    return;
  }
  TreePtr T = parseRange(Text, Whole);
  if (!T) {
    for (size_t I = 0; I < N; ++I) {
      Out.emplace_back();
      parseAlone(Text, {Starts[I], PieceEnd(I)}, Scratch, Out.back());
    }
    return;
  }
  TSNode Root = ts_tree_root_node(T.get());
  // A piece is redone alone when an erroneous statement touches it, or when
  // a statement runs across its boundary (tree-sitter accepted what the scan
  // split: only invalid code, such as `x = # c` above `y = 1`, does that).
  // Two statements on one line with no `;` between them are invalid Python
  // that tree-sitter sometimes reads without an error node, depending on
  // what follows in the run (`x[m]:out grid` above a later error); parsed
  // alone the same piece reports it, so such pieces are redone alone too.
  // When tree-sitter could not make a module of the run at all, the root is
  // one ERROR node whose children are loose tokens (a bare `it`, a `:`),
  // none of them marked as an error: every piece is then read alone.
  std::vector<char> Tainted(N, grammar::nodeType(Root) == grammar::NT::Error);
  size_t J = 0;
  std::string_view S = Text.text();
  std::optional<TSNode> PrevStmt;
  size_t PrevPiece = 0;
  for (const grammar::Child &C : grammar::children(Root)) {
    uint32_t B = ts_node_start_byte(C.Node), E = ts_node_end_byte(C.Node);
    while (J + 1 < N && Starts[J + 1] <= B)
      ++J;
    size_t Last = J;
    while (Last + 1 < N && Starts[Last + 1] < E)
      ++Last;
    bool SharesLine = false;
    if (grammar::nodeType(C.Node) != grammar::NT::comment) {
      if (PrevStmt && ts_node_end_point(*PrevStmt).row == ts_node_start_point(C.Node).row) {
        uint32_t GapBegin = ts_node_end_byte(*PrevStmt);
        SharesLine = S.substr(GapBegin, B - GapBegin).find(';') == std::string_view::npos;
      }
      if (SharesLine)
        Tainted[PrevPiece] = 1;
      PrevStmt = C.Node;
      PrevPiece = Last;
    }
    if (Last > J || SharesLine || ts_node_has_error(C.Node) || grammar::nodeType(C.Node) == grammar::NT::Error ||
        ts_node_is_missing(C.Node))
      for (size_t I = J; I <= Last; ++I)
        Tainted[I] = 1;
  }
  size_t Base = Out.size();
  for (size_t I = 0; I < N; ++I) {
    Out.emplace_back();
    Out.back().Range = {Starts[I], PieceEnd(I)};
    Out.back().Arena = Scratch.arena();
  }
  // Clean pieces take their statements from the run's own conversion.
  ast::Block Body;
  std::vector<ast::SyntaxError> Errors;
  std::swap(Scratch.Body, Body);
  std::swap(Scratch.SyntaxErrors, Errors);
  cst::convertTree(Root, Text.text(), Scratch);
  cst::collectIndentationErrors(Root, Text.text(), Scratch.SyntaxErrors);
  auto PieceOf = [&](uint32_t Offset) {
    return static_cast<size_t>(std::upper_bound(Starts, Starts + N, Offset) - Starts) - 1;
  };
  // An error that tree-sitter did not mark (an indentation tessel checks
  // itself) may come from the run's state rather than the piece: an error
  // above can leave the scanner's indentation stack one level deep, so that
  // a `def` below loses its body (`f')` over ` O` over `def n():` over ` o`).
  // Read alone, as a reparse of that piece would, the body is the def's.
  for (const ast::SyntaxError &E : Scratch.SyntaxErrors)
    Tainted[PieceOf(E.Range.Begin)] = 1;
  for (ast::Stmt *St : Scratch.Body) {
    size_t I = PieceOf(St->Range.Begin);
    if (!Tainted[I])
      Out[Base + I].Stmts.push_back(St);
  }
  Scratch.Body = std::move(Body);
  Scratch.SyntaxErrors = std::move(Errors);
  T.reset();
  for (size_t I = 0; I < N; ++I)
    if (Tainted[I]) {
      SourceRange R = Out[Base + I].Range;
      Out[Base + I] = PieceAst();
      parseAlone(Text, R, Scratch, Out[Base + I]);
    }
}

/// Parses the run of pieces starting at Starts[0..N) and ending at End in
/// one go, and appends one PieceAst per piece to Out, with its directives.
/// Nodes go to Scratch's arena.
void parseRun(const SourceText &Text, const uint32_t *Starts, size_t N, uint32_t End, ast::Module &Scratch,
              std::vector<PieceAst> &Out) {
  size_t Base = Out.size();
  parseRunStatements(Text, Starts, N, End, Scratch, Out);
  for (size_t I = Base; I < Out.size(); ++I)
    Out[I].Directives = directivesIn(Text, Out[I].Range);
}

/// Appends Pieces to F's module, piece list and directives.
void appendPieces(std::vector<PieceAst> &Pieces, ast::Module &M, std::vector<ParsedFile::Piece> &Out,
                  std::vector<launch::LaunchDirective> &Directives) {
  // A new arena holds the nodes of the new pieces made in it (and of none
  // of the shared ones, which keep the weight of the arena they came from).
  std::unordered_map<const ast::NodeArena *, size_t> Weight;
  for (const PieceAst &A : Pieces)
    if (!A.ArenaWeight)
      Weight[A.Arena.get()] += A.Range.End - A.Range.Begin;
  for (PieceAst &A : Pieces) {
    if (!A.ArenaWeight)
      A.ArenaWeight = Weight[A.Arena.get()];
    ParsedFile::Piece P;
    P.Range = A.Range;
    P.FirstStmt = M.Body.size();
    P.NumStmts = A.Stmts.size();
    M.Body.insert(M.Body.end(), A.Stmts.begin(), A.Stmts.end());
    M.SyntaxErrors.insert(M.SyntaxErrors.end(), A.Errors.begin(), A.Errors.end());
    Directives.insert(Directives.end(), A.Directives.begin(), A.Directives.end());
    P.Errors = std::move(A.Errors);
    P.Directives = std::move(A.Directives);
    M.keep(A.Arena);
    P.Arena = std::move(A.Arena);
    P.ArenaWeight = A.ArenaWeight;
    Out.push_back(std::move(P));
  }
}

/// The module of a text too large to analyse.
std::unique_ptr<ast::Module> tooLarge(size_t Size) {
  auto M = std::make_unique<ast::Module>();
  M->SyntaxErrors.push_back({{0, 0},
                             "file too large to analyse (" + std::to_string(Size >> 20) + " MiB; the limit is " +
                                 std::to_string(ParsedFile::MaxParseBytes >> 20) + " MiB)"});
  return M;
}

/// Serials tell versions apart for the caches keyed by file (never reused).
std::atomic<uint64_t> NextSerial{1};
} // namespace

std::optional<EditWindow> editWindow(const std::vector<ByteEdit> &Edits, size_t OldSize, size_t NewSize) {
  // Each edit keeps the bytes before its start and those after its old end.
  size_t Size = OldSize, Prefix = OldSize, Suffix = OldSize;
  for (const ByteEdit &E : Edits) {
    if (E.StartByte > E.OldEndByte || E.StartByte > E.NewEndByte || E.OldEndByte > Size)
      return std::nullopt;
    Prefix = std::min<size_t>(Prefix, E.StartByte);
    Suffix = std::min<size_t>(Suffix, Size - E.OldEndByte);
    Size = Size - E.OldEndByte + E.NewEndByte;
  }
  if (Size != NewSize)
    return std::nullopt;
  Suffix = std::min(Suffix, std::min(OldSize, NewSize) - Prefix);
  return EditWindow{Prefix, Suffix};
}

ParsedFile::ParsedFile() : Serial(NextSerial.fetch_add(1, std::memory_order_relaxed)) {}

std::shared_ptr<const ParsedFile> ParsedFile::parse(std::shared_ptr<const SourceText> Text) {
  std::shared_ptr<ParsedFile> F(new ParsedFile());
  F->Text = Text ? std::move(Text) : std::make_shared<SourceText>();
  const std::string &S = F->Text->text();
  if (S.size() > MaxParseBytes) {
    F->Module = tooLarge(S.size());
    F->Directives = launch::findLaunchDirectives(S);
    return F;
  }
  F->Module = std::make_unique<ast::Module>();
  std::vector<uint32_t> Starts = cst::topLevelStarts(S);
  if (Starts.empty())
    return F;
  // Runs of pieces of about equal size, a few per thread: the threads take
  // the next run as they finish one, so a run that parses slowly (dense
  // code, an error to recover from) does not leave a core idle.
  size_t Threads =
      std::min<size_t>({usableCores(), MaxThreads, std::max<size_t>(1, S.size() / MinBytesPerThread), Starts.size()});
  size_t Wanted = Threads == 1 ? 1 : Threads * RunsPerThread;
  std::vector<size_t> RunStart{0};
  for (size_t K = 1; K < Wanted; ++K) {
    uint32_t Target = static_cast<uint32_t>(S.size() * K / Wanted);
    size_t I = static_cast<size_t>(std::lower_bound(Starts.begin(), Starts.end(), Target) - Starts.begin());
    if (I > RunStart.back() && I < Starts.size())
      RunStart.push_back(I);
  }
  size_t Runs = RunStart.size();
  RunStart.push_back(Starts.size());
  std::vector<ast::Module> Scratch(Runs);
  std::vector<std::vector<PieceAst>> Results(Runs);
  parallelFor(Runs, Threads, [&](size_t K) {
    size_t First = RunStart[K], Count = RunStart[K + 1] - First;
    uint32_t End = RunStart[K + 1] < Starts.size() ? Starts[RunStart[K + 1]] : static_cast<uint32_t>(S.size());
    parseRun(*F->Text, Starts.data() + First, Count, End, Scratch[K], Results[K]);
  });
  for (size_t K = 0; K < Runs; ++K)
    appendPieces(Results[K], *F->Module, F->Pieces, F->Directives);
  sortErrors(F->Module->SyntaxErrors);
  return F;
}

std::shared_ptr<const ParsedFile> ParsedFile::reparse(const ParsedFile &Old, const std::vector<ByteEdit> &Edits,
                                                      std::shared_ptr<const SourceText> NewText) {
  if (!NewText)
    NewText = std::make_shared<SourceText>();
  const std::string &S = NewText->text();
  if (Old.Pieces.empty() || S.size() > MaxParseBytes)
    return parse(std::move(NewText));
  std::optional<EditWindow> Window = editWindow(Edits, Old.text().text().size(), S.size());
  if (!Window)
    return parse(std::move(NewText)); // edits that do not fit the text
  // Where each old piece lies in the new text; pieces an edit touched drop out.
  struct Mapped {
    uint32_t Begin, End;
    size_t Old;
  };
  std::vector<Mapped> Map;
  Map.reserve(Old.Pieces.size());
  for (size_t I = 0; I < Old.Pieces.size(); ++I)
    Map.push_back({Old.Pieces[I].Range.Begin, Old.Pieces[I].Range.End, I});
  for (const ByteEdit &E : Edits) {
    int64_t Delta = static_cast<int64_t>(E.NewEndByte) - static_cast<int64_t>(E.OldEndByte);
    std::vector<Mapped> Kept;
    Kept.reserve(Map.size());
    for (Mapped M : Map) {
      if (M.End <= E.StartByte) {
        Kept.push_back(M);
      } else if (M.Begin >= E.OldEndByte) {
        M.Begin = static_cast<uint32_t>(M.Begin + Delta);
        M.End = static_cast<uint32_t>(M.End + Delta);
        Kept.push_back(M);
      }
    }
    Map = std::move(Kept);
  }

  // Walk the new pieces: an old piece whose range is a run of new pieces is
  // reused; the rest are parsed again, consecutive ones as one run.
  std::vector<uint32_t> OldStarts;
  OldStarts.reserve(Old.Pieces.size());
  for (const Piece &P : Old.Pieces)
    OldStarts.push_back(P.Range.Begin);
  std::vector<uint32_t> Starts =
      cst::startsAfterEdit(OldStarts, Old.text().text().size(), S, Window->Prefix, Window->Suffix);
  uint32_t TextEnd = static_cast<uint32_t>(S.size());
  // The index of the start at At, or of the text's end; none when At is
  // neither. An old piece mostly ends where the next start is, so that one
  // is tried before a search.
  auto StartAt = [&](size_t After, uint32_t At) -> std::optional<size_t> {
    if (At == TextEnd)
      return Starts.size();
    if (After + 1 < Starts.size() && Starts[After + 1] == At)
      return After + 1;
    auto It = std::lower_bound(Starts.begin(), Starts.end(), At);
    if (It == Starts.end() || *It != At)
      return std::nullopt;
    return static_cast<size_t>(It - Starts.begin());
  };
  struct Step {
    size_t Old = SIZE_MAX; ///< reuse this old piece, moved by Delta bytes
    int64_t Delta = 0;
    size_t First = 0, Count = 0; ///< or parse Starts[First, First + Count)
  };
  std::vector<Step> Plan;
  size_t DirtyBytes = 0;
  size_t M = 0;
  for (size_t K = 0; K < Starts.size();) {
    uint32_t At = Starts[K];
    while (M < Map.size() && Map[M].Begin < At)
      ++M;
    std::optional<size_t> Next;
    if (M < Map.size() && Map[M].Begin == At && (Next = StartAt(K, Map[M].End))) {
      Plan.push_back({Map[M].Old, int64_t(Map[M].Begin) - int64_t(Old.Pieces[Map[M].Old].Range.Begin), 0, 0});
      K = *Next;
      continue;
    }
    if (Plan.empty() || Plan.back().Old != SIZE_MAX)
      Plan.push_back({SIZE_MAX, 0, K, 0});
    ++Plan.back().Count;
    DirtyBytes += (K + 1 < Starts.size() ? Starts[K + 1] : TextEnd) - At;
    ++K;
  }
  // An edit that touched most of the file is a fresh parse, on several threads.
  if (DirtyBytes > S.size() / 2 && S.size() >= 2 * MinBytesPerThread)
    return parse(std::move(NewText));

  std::shared_ptr<ParsedFile> F(new ParsedFile());
  F->Text = std::move(NewText);
  F->Module = std::make_unique<ast::Module>();
  F->ParentSerial = Old.Serial;
  F->SamePrefix = Window->Prefix;
  F->SameSuffix = Window->Suffix;
  ast::Module &Mod = *F->Module;
  // The pieces parsed here get an arena apart from the copies: a later
  // version that shares such a piece (an edit further down) keeps only its
  // nodes alive, not this version's copy of the rest of the file.
  ast::Module Parsed;
  std::vector<PieceAst> Pieces;
  // The source bytes of the pieces above the edit that would go on sharing
  // each old arena.
  std::unordered_map<const ast::NodeArena *, size_t> StillUsed;
  for (const Step &St : Plan)
    if (St.Old != SIZE_MAX && St.Delta == 0) {
      const Piece &OldP = Old.Pieces[St.Old];
      StillUsed[OldP.Arena.get()] += OldP.Range.End - OldP.Range.Begin;
    }
  for (const Step &St : Plan) {
    if (St.Old == SIZE_MAX) {
      size_t End = St.First + St.Count;
      parseRun(*F->Text, Starts.data() + St.First, St.Count, End < Starts.size() ? Starts[End] : TextEnd, Parsed,
               Pieces);
      continue;
    }
    const Piece &OldP = Old.Pieces[St.Old];
    auto FirstOld = Old.Module->Body.begin() + static_cast<std::ptrdiff_t>(OldP.FirstStmt);
    PieceAst A;
    A.Errors = OldP.Errors;
    A.Directives = OldP.Directives;
    int64_t Delta = St.Delta;
    A.Range = {static_cast<uint32_t>(OldP.Range.Begin + Delta), static_cast<uint32_t>(OldP.Range.End + Delta)};
    if (Delta == 0 && 2 * StillUsed[OldP.Arena.get()] >= OldP.ArenaWeight) {
      // Above the edit: the very same nodes, kept alive by their arena.
      A.Stmts.assign(FirstOld, FirstOld + static_cast<std::ptrdiff_t>(OldP.NumStmts));
      A.Arena = OldP.Arena;
      A.ArenaWeight = OldP.ArenaWeight;
    } else {
      // Below the edit, or above it in an arena that is mostly dead.
      for (auto It = FirstOld; It != FirstOld + static_cast<std::ptrdiff_t>(OldP.NumStmts); ++It)
        A.Stmts.push_back(ast::cloneShifted(*It, Delta, Mod));
      auto Move = [Delta](SourceRange &R) {
        R = {static_cast<uint32_t>(R.Begin + Delta), static_cast<uint32_t>(R.End + Delta)};
      };
      for (ast::SyntaxError &E : A.Errors)
        Move(E.Range);
      for (launch::LaunchDirective &D : A.Directives) {
        Move(D.Range);
        Move(D.Body);
      }
      A.Arena = Mod.arena();
    }
    Pieces.push_back(std::move(A));
  }
  appendPieces(Pieces, Mod, F->Pieces, F->Directives);
  sortErrors(Mod.SyntaxErrors);
  return F;
}

ParsedFile::PieceDiff ParsedFile::diff(const ParsedFile &Old, const ParsedFile &New) {
  std::string_view A = Old.text().text(), B = New.text().text();
  size_t Prefix, Suffix;
  if (New.ParentSerial == Old.Serial) {
    // Bounds from the edits: a shorter prefix or suffix than the texts
    // share only leaves a piece counted as changed that was not.
    Prefix = New.SamePrefix;
    Suffix = New.SameSuffix;
  } else {
    size_t Common = std::min(A.size(), B.size());
    Prefix = static_cast<size_t>(
        std::mismatch(A.begin(), A.begin() + static_cast<std::ptrdiff_t>(Common), B.begin()).first - A.begin());
    Suffix = static_cast<size_t>(
        std::mismatch(A.rbegin(), A.rbegin() + static_cast<std::ptrdiff_t>(Common - Prefix), B.rbegin()).first -
        A.rbegin());
  }
  PieceDiff D;
  D.Shift = static_cast<int64_t>(B.size()) - static_cast<int64_t>(A.size());
  const std::vector<Piece> &P = Old.Pieces, &Q = New.Pieces;
  size_t N = std::min(P.size(), Q.size());
  // A leading piece lies in the text both share; so does a trailing one,
  // counted from the end (the pieces cover their texts, so equal ranges
  // there mean equal texts).
  while (D.Leading < N && P[D.Leading].Range == Q[D.Leading].Range && P[D.Leading].Range.End <= Prefix)
    ++D.Leading;
  while (D.Trailing < N - D.Leading) {
    const SourceRange &O = P[P.size() - 1 - D.Trailing].Range, &R = Q[Q.size() - 1 - D.Trailing].Range;
    if (O.Begin + Suffix < A.size() || int64_t(R.Begin) != int64_t(O.Begin) + D.Shift ||
        int64_t(R.End) != int64_t(O.End) + D.Shift)
      break;
    ++D.Trailing;
  }
  D.OldChanged = P.size() - D.Leading - D.Trailing;
  D.NewChanged = Q.size() - D.Leading - D.Trailing;
  return D;
}

ParsedFile::~ParsedFile() = default;

} // namespace tessel
