//===- Parser.cpp - Python source to tessel's AST -------------------------===//
/// \file
/// Implements ParsedFile: runs tree-sitter-python (one parser per thread, as
/// a TSParser must not be shared), keeps the tree for incremental reparses,
/// and converts it with CstToAst. A ParsedFile is immutable once built, so
/// any number of threads may read it.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

#include "compiler/frontend/CstToAst.h"
#include "compiler/frontend/PythonGrammar.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <string>

namespace tessel {

namespace {
struct ParserDeleter {
  void operator()(TSParser *P) const { ts_parser_delete(P); }
};

TSParser *threadParser() {
  thread_local std::unique_ptr<TSParser, ParserDeleter> P;
  if (!P) {
    P.reset(ts_parser_new());
    ts_parser_set_language(P.get(), tree_sitter_python());
  }
  return P.get();
}

TSInputEdit toTreeSitter(const ByteEdit &E) {
  TSInputEdit T;
  T.start_byte = E.StartByte;
  T.old_end_byte = E.OldEndByte;
  T.new_end_byte = E.NewEndByte;
  T.start_point = {E.Start.Line, E.Start.Column};
  T.old_end_point = {E.OldEnd.Line, E.OldEnd.Column};
  T.new_end_point = {E.NewEnd.Line, E.NewEnd.Column};
  return T;
}
} // namespace

/// Parses Text, reusing Old (already edited) when given; builds the module.
static void build(const std::shared_ptr<const SourceText> &Text, TSTree *Old, TSTree *&TreeOut,
                  std::unique_ptr<ast::Module> &ModuleOut) {
  ModuleOut = std::make_unique<ast::Module>();
  const std::string &S = Text->text();
  if (S.size() > ParsedFile::MaxParseBytes) {
    ModuleOut->SyntaxErrors.push_back({{0, 0},
                                       "file too large to analyse (" + std::to_string(S.size() >> 20) +
                                           " MiB; the limit is " + std::to_string(ParsedFile::MaxParseBytes >> 20) +
                                           " MiB)"});
    return;
  }
  TreeOut = ts_parser_parse_string(threadParser(), Old, S.data(), static_cast<uint32_t>(S.size()));
  if (!TreeOut) {
    ModuleOut->SyntaxErrors.push_back({{0, 0}, "the parser gave up on this file"});
    return;
  }
  TSNode Root = ts_tree_root_node(TreeOut);
  cst::collectSyntaxErrors(Root, S, ModuleOut->SyntaxErrors);
  cst::convertTree(Root, S, *ModuleOut);
  cst::recoverDefinitions(threadParser(), *Text, Root, *ModuleOut);
  // Three passes report errors; consumers want them once each, in order.
  auto &Errors = ModuleOut->SyntaxErrors;
  std::stable_sort(Errors.begin(), Errors.end(),
                   [](const ast::SyntaxError &A, const ast::SyntaxError &B) { return A.Range < B.Range; });
  Errors.erase(std::unique(Errors.begin(), Errors.end(),
                           [](const ast::SyntaxError &A, const ast::SyntaxError &B) {
                             return A.Range == B.Range && A.Message == B.Message;
                           }),
               Errors.end());
}

std::shared_ptr<const ParsedFile> ParsedFile::parse(std::shared_ptr<const SourceText> Text) {
  std::shared_ptr<ParsedFile> F(new ParsedFile());
  F->Text = std::move(Text);
  if (!F->Text)
    F->Text = std::make_shared<SourceText>();
  build(F->Text, nullptr, F->Tree, F->Module);
  return F;
}

std::shared_ptr<const ParsedFile> ParsedFile::reparse(const ParsedFile &Old, const std::vector<ByteEdit> &Edits,
                                                      std::shared_ptr<const SourceText> NewText) {
  if (!Old.Tree)
    return parse(std::move(NewText));
  std::shared_ptr<ParsedFile> F(new ParsedFile());
  F->Text = std::move(NewText);
  if (!F->Text)
    F->Text = std::make_shared<SourceText>();
  // The old tree stays untouched (others may be reading it): edit a copy.
  TSTree *Edited = ts_tree_copy(Old.Tree);
  for (const ByteEdit &E : Edits) {
    TSInputEdit T = toTreeSitter(E);
    ts_tree_edit(Edited, &T);
  }
  build(F->Text, Edited, F->Tree, F->Module);
  ts_tree_delete(Edited);
  return F;
}

ParsedFile::~ParsedFile() {
  if (Tree)
    ts_tree_delete(Tree);
}

} // namespace tessel
