//===- CstToAst.h - tree-sitter tree to tessel's AST ------------*- C++ -*-===//
/// \file
/// Internal to the front end: the two walks Parser.cpp runs over a
/// tree-sitter tree. convertTree builds ast::Module (statements and
/// expressions, Error nodes where the tree has errors); collectSyntaxErrors
/// turns ERROR and MISSING nodes into messages. They are separate so that
/// the conversion never has to decide whether an error was already reported.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_CSTTOAST_H
#define TESSEL_COMPILER_FRONTEND_CSTTOAST_H

#include "compiler/frontend/Ast.h"
#include "compiler/support/SourceText.h"

#include <tree_sitter/api.h>

#include <string_view>
#include <vector>

namespace tessel::cst {

/// Expressions and statements nested deeper than this become Error nodes
/// with "expression nested too deeply", so no input can overflow the stack.
constexpr int MaxNesting = 200;

/// Converts the module node Root of Source into M.Body; nesting overflows
/// and Python-2-only statements add to M.SyntaxErrors.
void convertTree(TSNode Root, std::string_view Source, ast::Module &M);

/// Appends one SyntaxError per outermost ERROR node and per MISSING node,
/// and those of collectIndentationErrors.
void collectSyntaxErrors(TSNode Root, std::string_view Source, std::vector<ast::SyntaxError> &Out);

/// Appends CPython's "unexpected indent" for each statement indented deeper
/// than the statements before it in its block (a tree without ERROR nodes
/// can have these: tree-sitter reads the line as one more statement).
void collectIndentationErrors(TSNode Root, std::string_view Source, std::vector<ast::SyntaxError> &Out);

/// Re-parses definitions that an ERROR node swallowed. An unclosed bracket
/// makes tree-sitter (and CPython) read everything after it as one broken
/// expression, which would hide every kernel below it. A line that starts
/// at column 0 with `def`, `class`, `@` or `async def` cannot continue a
/// bracketed expression in any file that is meant to work, so the text from
/// there to the end of the ERROR node is parsed again on its own and the
/// definitions found are spliced into M.Body in source order.
void recoverDefinitions(const SourceText &Text, TSNode Root, ast::Module &M);

} // namespace tessel::cst

#endif // TESSEL_COMPILER_FRONTEND_CSTTOAST_H
