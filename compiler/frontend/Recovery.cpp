//===- Recovery.cpp - definitions hidden inside ERROR nodes ---------------===//
/// \file
/// Implements cst::recoverDefinitions (see CstToAst.h for why). The second
/// parse uses tree-sitter's included ranges over the same text, so every
/// node keeps its absolute byte offset and the AST needs no fix-up.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/CstToAst.h"

#include "compiler/frontend/PythonGrammar.h"
#include "compiler/frontend/Segments.h"

#include <algorithm>
#include <cctype>

namespace tessel::cst {

namespace {
/// At most this many re-parses per file, so a file of nothing but broken
/// brackets stays linear.
constexpr int MaxRecoveries = 256;

/// The start of the first column-0 definition line after the first line of
/// [Begin, End), or End if there is none.
uint32_t firstDefinitionLine(std::string_view S, uint32_t Begin, uint32_t End) {
  for (uint32_t I = Begin; I < End && I < S.size(); ++I) {
    if (S[I] != '\n')
      continue;
    uint32_t Next = I + 1;
    if (Next < End && startsDefinition(S.substr(Next, End - Next)))
      return Next;
  }
  return End;
}

struct Region {
  uint32_t Begin, End;
};

/// Outermost ERROR nodes that hide a definition line. A region runs to the
/// end of the top-level statement around the ERROR: tree-sitter may have
/// attached the hidden code's tail (a class body) to that statement.
void findRegions(TSNode Root, std::string_view S, std::vector<Region> &Out) {
  if (!ts_node_has_error(Root))
    return;
  std::vector<grammar::Child> Top = grammar::children(Root);
  std::vector<grammar::Child> Kids;
  for (const grammar::Child &T : Top) {
    if (!ts_node_has_error(T.Node) && grammar::nodeType(T.Node) != grammar::NT::Error)
      continue;
    uint32_t TopEnd = ts_node_end_byte(T.Node);
    std::vector<TSNode> Stack{T.Node};
    while (!Stack.empty()) {
      TSNode N = Stack.back();
      Stack.pop_back();
      if (grammar::nodeType(N) == grammar::NT::Error) {
        uint32_t B = ts_node_start_byte(N), E = ts_node_end_byte(N);
        uint32_t At = firstDefinitionLine(S, B, E);
        if (At < E) {
          Out.push_back({At, std::max(E, TopEnd)});
          break; // the rest of this statement is re-parsed anyway
        }
        continue;
      }
      if (!ts_node_has_error(N))
        continue;
      grammar::children(N, Kids);
      for (auto It = Kids.rbegin(); It != Kids.rend(); ++It)
        Stack.push_back(It->Node);
    }
  }
}

void truncateStmt(ast::Stmt *St, uint32_t At, std::string_view S);

/// Drops the statements of B that start at or after At and cuts the last one.
void truncateBlock(ast::Block &B, uint32_t At, std::string_view S) {
  B.erase(std::remove_if(B.begin(), B.end(), [&](const ast::Stmt *X) { return X->Range.Begin >= At; }), B.end());
  if (!B.empty())
    truncateStmt(B.back(), At, S);
}

/// The statement that an ERROR made swallow the code from At on ends at At
/// (less trailing blanks); its nested blocks lose what lies beyond.
void truncateStmt(ast::Stmt *St, uint32_t At, std::string_view S) {
  if (St->Range.End <= At)
    return;
  uint32_t End = At;
  while (End > St->Range.Begin && End <= S.size() && std::isspace(static_cast<unsigned char>(S[End - 1])))
    --End;
  St->Range.End = End;
  switch (St->kind()) {
  case ast::StmtKind::FunctionDef:
    truncateBlock(ast::cast<ast::FunctionDefStmt>(St)->Body, At, S);
    break;
  case ast::StmtKind::ClassDef:
    truncateBlock(ast::cast<ast::ClassDefStmt>(St)->Body, At, S);
    break;
  case ast::StmtKind::If:
    truncateBlock(ast::cast<ast::IfStmt>(St)->Body, At, S);
    truncateBlock(ast::cast<ast::IfStmt>(St)->OrElse, At, S);
    break;
  case ast::StmtKind::For:
    truncateBlock(ast::cast<ast::ForStmt>(St)->Body, At, S);
    truncateBlock(ast::cast<ast::ForStmt>(St)->OrElse, At, S);
    break;
  case ast::StmtKind::While:
    truncateBlock(ast::cast<ast::WhileStmt>(St)->Body, At, S);
    truncateBlock(ast::cast<ast::WhileStmt>(St)->OrElse, At, S);
    break;
  case ast::StmtKind::With:
    truncateBlock(ast::cast<ast::WithStmt>(St)->Body, At, S);
    break;
  case ast::StmtKind::Unsupported:
    for (ast::Block &B : ast::cast<ast::UnsupportedStmt>(St)->Blocks)
      truncateBlock(B, At, S);
    break;
  default:
    break;
  }
}
} // namespace

void recoverDefinitions(const SourceText &Text, TSNode Root, ast::Module &M) {
  std::string_view S = Text.text();
  std::vector<Region> Work;
  findRegions(Root, S, Work);
  // Each re-parse covers the rest of an ERROR node; capping the bytes
  // re-parsed in total keeps a file of many broken brackets linear.
  uint64_t Budget = 2 * static_cast<uint64_t>(S.size()) + 4096;
  for (int Round = 0; Round < MaxRecoveries && !Work.empty(); ++Round) {
    Region R = Work.front();
    Work.erase(Work.begin());
    if (R.End - R.Begin > Budget)
      break;
    Budget -= R.End - R.Begin;
    LineCol B = Text.lineCol(R.Begin), E = Text.lineCol(R.End);
    TSRange Range{{B.Line, B.Column}, {E.Line, E.Column}, R.Begin, R.End};
    TSTree *Tree = grammar::parseIncluded(S, Range);
    if (!Tree)
      continue;
    TSNode Sub = ts_tree_root_node(Tree);
    // Statements salvaged from inside the ERROR node are replaced by the
    // fresh parse of the same text.
    auto Inside = [&](const ast::Stmt *St) { return St->Range.Begin >= R.Begin && St->Range.Begin < R.End; };
    M.Body.erase(std::remove_if(M.Body.begin(), M.Body.end(), Inside), M.Body.end());
    for (ast::Stmt *St : M.Body)
      if (St->Range.Begin < R.Begin && R.Begin < St->Range.End)
        truncateStmt(St, R.Begin, S);
    size_t Before = M.Body.size();
    collectSyntaxErrors(Sub, S, M.SyntaxErrors);
    convertTree(Sub, S, M);
    std::vector<ast::Stmt *> Recovered(M.Body.begin() + static_cast<std::ptrdiff_t>(Before), M.Body.end());
    M.Body.resize(Before);
    auto At = std::upper_bound(M.Body.begin(), M.Body.end(), R.Begin,
                               [](uint32_t Offset, const ast::Stmt *St) { return Offset < St->Range.Begin; });
    M.Body.insert(At, Recovered.begin(), Recovered.end());
    findRegions(Sub, S, Work);
    ts_tree_delete(Tree);
  }
}

} // namespace tessel::cst
