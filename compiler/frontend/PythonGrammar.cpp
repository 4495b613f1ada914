//===- PythonGrammar.cpp - tree-sitter-python symbols and fields ----------===//
/// \file
/// Builds the symbol -> NT table and the field ids once (thread-safe static
/// initialisation), and walks children with a tree cursor.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/PythonGrammar.h"

#include <cstring>

namespace tessel::grammar {

namespace {
struct Tables {
  std::vector<NT> BySymbol;
  Fields F;

  Tables() {
    const TSLanguage *L = tree_sitter_python();
    uint32_t Count = ts_language_symbol_count(L);
    BySymbol.assign(Count, NT::Other);
    static const struct {
      const char *Name;
      NT Type;
    } Known[] = {
#define TESSEL_X(Id, Name) {#Name, NT::Id},
        TESSEL_PY_NODES(TESSEL_X)
#undef TESSEL_X
    };
    for (uint32_t S = 0; S < Count; ++S) {
      if (ts_language_symbol_type(L, static_cast<TSSymbol>(S)) != TSSymbolTypeRegular)
        continue;
      const char *Name = ts_language_symbol_name(L, static_cast<TSSymbol>(S));
      for (const auto &K : Known)
        if (std::strcmp(K.Name, Name) == 0)
          BySymbol[S] = K.Type;
    }
#define TESSEL_X(Id, Name) F.Id = ts_language_field_id_for_name(L, #Name, static_cast<uint32_t>(std::strlen(#Name)));
    TESSEL_PY_FIELDS(TESSEL_X)
#undef TESSEL_X
  }
};

const Tables &tables() {
  static const Tables T;
  return T;
}
} // namespace

NT nodeType(TSNode N) {
  TSSymbol S = ts_node_symbol(N);
  if (S == static_cast<TSSymbol>(-1))
    return NT::Error;
  if (!ts_node_is_named(N))
    return NT::Other;
  const auto &T = tables().BySymbol;
  return S < T.size() ? T[S] : NT::Other;
}

const Fields &fields() { return tables().F; }

namespace {
/// One cursor per thread, reset onto each node: a fresh cursor per call
/// costs a malloc and a free for every node of the file.
struct ThreadCursor {
  TSTreeCursor C{};
  bool Live = false;
  ~ThreadCursor() {
    if (Live)
      ts_tree_cursor_delete(&C);
  }
  TSTreeCursor &on(TSNode N) {
    if (Live)
      ts_tree_cursor_reset(&C, N);
    else
      C = ts_tree_cursor_new(N);
    Live = true;
    return C;
  }
};
} // namespace

void children(TSNode N, std::vector<Child> &Out) {
  Out.clear();
  uint32_t Count = ts_node_child_count(N);
  if (Count == 0)
    return;
  Out.reserve(Count);
  thread_local ThreadCursor TC;
  TSTreeCursor &C = TC.on(N);
  if (ts_tree_cursor_goto_first_child(&C)) {
    do
      Out.push_back({ts_tree_cursor_current_node(&C), ts_tree_cursor_current_field_id(&C)});
    while (ts_tree_cursor_goto_next_sibling(&C));
  }
}

TSTree *parseIncluded(std::string_view Text, TSRange Range) {
  TSParser *P = ts_parser_new();
  TSTree *T = nullptr;
  if (ts_parser_set_language(P, tree_sitter_python()) && ts_parser_set_included_ranges(P, &Range, 1))
    T = ts_parser_parse_string(P, nullptr, Text.data(), static_cast<uint32_t>(Text.size()));
  ts_parser_delete(P);
  return T;
}

} // namespace tessel::grammar
