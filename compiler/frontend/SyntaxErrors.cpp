//===- SyntaxErrors.cpp - messages for tree-sitter's error nodes ----------===//
/// \file
/// Implements cst::collectSyntaxErrors: walks only the subtrees that contain
/// an error (ts_node_has_error) with an explicit stack, so neither a clean
/// 50 MB file nor a 100,000-deep nest costs recursion. Each outermost ERROR
/// node gives "invalid syntax" (or "expected ':'" when it is a compound
/// statement header without its colon); each MISSING token gives
/// "expected 'tok'".
//===----------------------------------------------------------------------===//
#include "compiler/frontend/CstToAst.h"

#include "compiler/frontend/PythonGrammar.h"

#include <cstring>

namespace tessel::cst {

static bool isCompoundKeyword(const char *Type) {
  static const char *const Keywords[] = {"if",  "elif",   "else",    "while", "for",  "def",
                                         "class", "with", "try", "except", "finally", "async"};
  for (const char *K : Keywords)
    if (std::strcmp(Type, K) == 0)
      return true;
  return false;
}

/// The message for one ERROR node: a compound-statement header that never
/// reached its ':' says so, as CPython 3.10+ does.
static std::string errorMessage(TSNode N) {
  std::vector<grammar::Child> Kids = grammar::children(N);
  if (Kids.empty() || ts_node_is_named(Kids.front().Node) || !isCompoundKeyword(ts_node_type(Kids.front().Node)))
    return "invalid syntax";
  for (const grammar::Child &C : Kids)
    if (!ts_node_is_named(C.Node) && std::strcmp(ts_node_type(C.Node), ":") == 0)
      return "invalid syntax";
  return "expected ':'";
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

void collectSyntaxErrors(TSNode Root, std::string_view Source, std::vector<ast::SyntaxError> &Out) {
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
      Out.push_back({firstLine(N, Source), errorMessage(N)});
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
