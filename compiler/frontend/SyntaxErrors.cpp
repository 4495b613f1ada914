//===- SyntaxErrors.cpp - messages for tree-sitter's error nodes ----------===//
/// \file
/// Implements cst::collectSyntaxErrors: walks only the subtrees that contain
/// an error (ts_node_has_error) with an explicit stack, so neither a clean
/// 50 MB file nor a 100,000-deep nest costs recursion. Each outermost ERROR
/// node gives "invalid syntax", or CPython's sharper "expected ':'" /
/// "'(' was never closed" when the node's shape shows it; each MISSING
/// token gives "expected 'tok'". A statement indented deeper than its block
/// gives "unexpected indent" (a tree walk over statements only).
//===----------------------------------------------------------------------===//
#include "compiler/frontend/CstToAst.h"

#include "compiler/frontend/PythonGrammar.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>

namespace tessel::cst {

static bool isCompoundKeyword(const char *Type) {
  static const char *const Keywords[] = {"if",    "elif", "else", "while",  "for",     "def",
                                         "class", "with", "try",  "except", "finally", "async"};
  for (const char *K : Keywords)
    if (std::strcmp(Type, K) == 0)
      return true;
  return false;
}

/// The first bracket among N's direct tokens that is never closed there.
static std::optional<TSNode> unclosedBracket(const std::vector<grammar::Child> &Kids) {
  std::vector<TSNode> Open;
  for (const grammar::Child &C : Kids) {
    if (ts_node_is_named(C.Node))
      continue;
    const char *T = ts_node_type(C.Node);
    if (!std::strcmp(T, "(") || !std::strcmp(T, "[") || !std::strcmp(T, "{"))
      Open.push_back(C.Node);
    else if ((!std::strcmp(T, ")") || !std::strcmp(T, "]") || !std::strcmp(T, "}")) && !Open.empty())
      Open.pop_back();
  }
  if (Open.empty())
    return std::nullopt;
  return Open.front();
}

/// `return a, *rest` (and `x = a, *rest`): an unparenthesised starred
/// element in a tuple, valid since Python 3.8, that the grammar tessel uses
/// does not accept there. The node's tokens show it: `, *` with nothing left
/// open.
static bool isStarredTupleTail(const std::vector<grammar::Child> &Kids) {
  for (size_t I = 1; I < Kids.size(); ++I)
    if (!ts_node_is_named(Kids[I].Node) && !std::strcmp(ts_node_type(Kids[I].Node), "*") &&
        !ts_node_is_named(Kids[I - 1].Node) && !std::strcmp(ts_node_type(Kids[I - 1].Node), ","))
      return true;
  return false;
}

/// The message for one ERROR node, as CPython 3.10+ words it where the
/// shape is recognisable: a compound-statement header that never reached
/// its ':', or a bracket that is never closed (pointing at the bracket).
static std::optional<ast::SyntaxError> errorFor(TSNode N, SourceRange FirstLine) {
  std::vector<grammar::Child> Kids = grammar::children(N);
  if (std::optional<TSNode> B = unclosedBracket(Kids))
    return ast::SyntaxError{{ts_node_start_byte(*B), ts_node_end_byte(*B)},
                            std::string("'") + ts_node_type(*B) + "' was never closed"};
  if (isStarredTupleTail(Kids))
    return std::nullopt;
  if (Kids.empty() || ts_node_is_named(Kids.front().Node) || !isCompoundKeyword(ts_node_type(Kids.front().Node)))
    return ast::SyntaxError{FirstLine, "invalid syntax"};
  for (const grammar::Child &C : Kids)
    if (!ts_node_is_named(C.Node) && std::strcmp(ts_node_type(C.Node), ":") == 0)
      return ast::SyntaxError{FirstLine, "invalid syntax"};
  return ast::SyntaxError{FirstLine, "expected ':'"};
}

/// ERROR nodes can swallow many lines; the message belongs to the first.
static SourceRange firstLine(TSNode N, std::string_view Source) {
  uint32_t B = ts_node_start_byte(N), E = ts_node_end_byte(N);
  for (uint32_t I = B; I < E && I < Source.size(); ++I)
    if (Source[I] == '\n' || Source[I] == '\r') {
      E = I;
      break;
    }
  // Drop trailing blanks so the range ends at the last offending token.
  while (E > B && E <= Source.size() && (Source[E - 1] == ' ' || Source[E - 1] == '\t'))
    --E;
  return {B, E};
}

/// Node types whose children can hold statement blocks.
static bool holdsStatements(const char *Type) {
  return std::strstr(Type, "statement") || std::strstr(Type, "definition") || std::strstr(Type, "clause") ||
         !std::strcmp(Type, "block") || !std::strcmp(Type, "module");
}

/// CPython's IndentationError "unexpected indent": a statement indented
/// deeper than the statements before it in its block, or than column 0 at
/// the top level. tree-sitter's scanner
/// emits an indent only where a block may start, so it reads such a line as
/// one more statement of the same block; the statements' columns show it.
/// Only statement-level nodes are visited.
static bool startsLine(std::string_view Source, uint32_t At) {
  while (At > 0 && At <= Source.size() && (Source[At - 1] == ' ' || Source[At - 1] == '\t'))
    --At;
  return At == 0 || Source[At - 1] == '\n' || Source[At - 1] == '\r';
}

void collectIndentationErrors(TSNode Root, std::string_view Source, std::vector<ast::SyntaxError> &Out) {
  size_t First = Out.size();
  std::vector<TSNode> Stack{Root};
  while (!Stack.empty()) {
    TSNode N = Stack.back();
    Stack.pop_back();
    const char *Type = ts_node_type(N);
    bool IsModule = !std::strcmp(Type, "module");
    bool IsBlock = IsModule || !std::strcmp(Type, "block");
    // A module's statements belong at column 0, as CPython reads them. Taking
    // the first statement's column instead would make the verdict depend on
    // where the parse began (a piece of the file parsed alone, or a run).
    std::optional<uint32_t> Column;
    if (IsModule)
      Column = 0;
    uint32_t Count = ts_node_named_child_count(N);
    for (uint32_t I = 0; I < Count; ++I) {
      TSNode C = ts_node_named_child(N, I);
      const char *CT = ts_node_type(C);
      if (!std::strcmp(CT, "comment") || !std::strcmp(CT, "ERROR") || ts_node_is_missing(C))
        continue;
      // `a = 1; b = 2` and `if c: x` put statements mid-line: only those that
      // start a line have an indentation.
      if (IsBlock && startsLine(Source, ts_node_start_byte(C))) {
        uint32_t Col = ts_node_start_point(C).column;
        if (!Column)
          Column = Col;
        else if (Col > *Column)
          Out.push_back({{ts_node_start_byte(C), ts_node_start_byte(C)}, "unexpected indent"});
      }
      if (holdsStatements(CT))
        Stack.push_back(C);
    }
  }
  std::sort(Out.begin() + static_cast<std::ptrdiff_t>(First), Out.end(),
            [](const ast::SyntaxError &A, const ast::SyntaxError &B) { return A.Range.Begin < B.Range.Begin; });
}

void collectSyntaxErrors(TSNode Root, std::string_view Source, std::vector<ast::SyntaxError> &Out) {
  collectIndentationErrors(Root, Source, Out);
  if (!ts_node_has_error(Root))
    return;
  std::vector<TSNode> Stack{Root};
  std::vector<grammar::Child> Kids;
  while (!Stack.empty()) {
    TSNode N = Stack.back();
    Stack.pop_back();
    if (ts_node_is_missing(N)) {
      const char *Type = ts_node_type(N);
      std::string Msg = ts_node_is_named(N) ? std::string("expected ") + Type : std::string("expected '") + Type + "'";
      uint32_t At = ts_node_start_byte(N);
      Out.push_back({{At, At}, std::move(Msg)});
      continue;
    }
    if (grammar::nodeType(N) == grammar::NT::Error) {
      if (std::optional<ast::SyntaxError> E = errorFor(N, firstLine(N, Source)))
        Out.push_back(std::move(*E));
      continue;
    }
    if (!ts_node_has_error(N))
      continue;
    grammar::children(N, Kids);
    for (auto It = Kids.rbegin(); It != Kids.rend(); ++It)
      Stack.push_back(It->Node);
  }
}

} // namespace tessel::cst
