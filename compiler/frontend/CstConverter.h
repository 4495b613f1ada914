//===- CstConverter.h - tree-sitter tree to tessel's AST --------*- C++ -*-===//
/// \file
/// Internal to the front end: the class behind cst::convertTree, defined
/// over CstStatements.cpp (statements, parameters, imports) and
/// CstExpressions.cpp (expressions, literals, annotations).
///
/// It converts tree-sitter-python's concrete tree into the Python-`ast`-shaped
/// nodes of Ast.h. The rules follow CPython's parser where tree-sitter's
/// shapes differ: chained `a = b = c` is one Assign with two targets, bare
/// `a, b` lists are Tuples, parentheses vanish, `elif` nests an If in OrElse,
/// `a and b and c` is one BoolOp, `x[a, b]` indexes with a Tuple, adjacent
/// string literals concatenate and f-strings become JoinedStr.
///
/// Error tolerance: an ERROR node among statements becomes an ErrorStmt and
/// any whole statements tree-sitter kept inside it are still converted (a
/// half-typed line must not hide the kernels after it); in expression
/// position it becomes an ErrorExpr. Recursion is bounded by MaxNesting.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_CSTCONVERTER_H
#define TESSEL_COMPILER_FRONTEND_CSTCONVERTER_H

#include "compiler/frontend/CstToAst.h"
#include "compiler/frontend/PythonGrammar.h"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::cst {

using namespace ast;
using grammar::Child;
using grammar::NT;

class Converter {
public:
  Converter(std::string_view Src, Module &M) : Src(Src), M(M), F(grammar::fields()) {}

  void convertModule(TSNode Root);

private:
  std::string_view Src;
  Module &M;
  const grammar::Fields &F;
  int Depth = 0;
  bool ReportedDeep = false;

  /// Counts nesting for one conversion call; past MaxNesting, tooDeep() is true.
  struct Nest {
    Converter &C;
    explicit Nest(Converter &C) : C(C) { ++C.Depth; }
    ~Nest() { --C.Depth; }
    bool tooDeep() const { return C.Depth > MaxNesting; }
  };

  static SourceRange range(TSNode N) { return {ts_node_start_byte(N), ts_node_end_byte(N)}; }
  std::string_view text(TSNode N) const {
    uint32_t B = ts_node_start_byte(N), E = ts_node_end_byte(N);
    return B <= E && E <= Src.size() ? Src.substr(B, E - B) : std::string_view();
  }
  static bool isToken(TSNode N, const char *Tok) {
    return !ts_node_is_named(N) && std::strcmp(ts_node_type(N), Tok) == 0;
  }
  static TSNode nullNode() { return TSNode{}; }
  static bool isNull(TSNode N) { return ts_node_is_null(N); }

  /// The first child filling Field, or a null node.
  static TSNode field(const std::vector<Child> &Kids, TSFieldId Field) {
    for (const Child &C : Kids)
      if (C.Field == Field && Field != 0)
        return C.Node;
    return nullNode();
  }
  /// Named children that are not comments and fill no field.
  static std::vector<TSNode> plainNamed(const std::vector<Child> &Kids) {
    std::vector<TSNode> Out;
    for (const Child &C : Kids)
      if (C.named() && C.Field == 0 && C.type() != NT::comment && C.type() != NT::line_continuation)
        Out.push_back(C.Node);
    return Out;
  }
  static std::vector<TSNode> namedNoComment(const std::vector<Child> &Kids) {
    std::vector<TSNode> Out;
    for (const Child &C : Kids)
      if (C.named() && C.type() != NT::comment && C.type() != NT::line_continuation)
        Out.push_back(C.Node);
    return Out;
  }

  void reportDeep(SourceRange R);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  Block block(TSNode N);

  /// ERROR children of a compound statement (outside its body) mark the
  /// statement as broken: an ErrorStmt leads its body.
  void leadingErrors(const std::vector<Child> &Kids, Block &Body);

  void statementInto(TSNode N, Block &Out);

  Stmt *statement(TSNode N);

  /// tree-sitter reads `type(x).attr = v` as a `type` alias statement; a
  /// real alias names an identifier, so anything starting with `(` is the
  /// call of the builtin `type`, rebuilt here as the Assign Python sees.
  Stmt *typeCallAssignment(SourceRange R, const std::vector<Child> &Kids);

  Expr *rebaseOnType(TSNode N, Expr *TypeName, uint32_t Begin);

  UnsupportedStmt *unsupported(SourceRange R, const std::vector<Child> &Kids, const char *PyName);

  Block elseBody(TSNode Else);

  Stmt *expressionStatement(SourceRange R, const std::vector<Child> &Kids);

  Stmt *assignment(SourceRange R, TSNode N);

  Stmt *ifStatement(TSNode N, SourceRange R, const std::vector<Child> &Kids);

  Stmt *withStatement(SourceRange R, const std::vector<Child> &Kids);

  Stmt *functionDef(SourceRange R, const std::vector<Child> &Kids);

  std::string dotted(TSNode N);

  ImportAlias importAlias(TSNode N);

  void moduleName(TSNode N, ImportFromStmt &S);

  std::vector<Param> params(TSNode N);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Expr *exprOrError(TSNode N, SourceRange Fallback);

  static BinOpKind binOpKind(std::string_view Op) {
    if (Op == "+")
      return BinOpKind::Add;
    if (Op == "-")
      return BinOpKind::Sub;
    if (Op == "*")
      return BinOpKind::Mult;
    if (Op == "@")
      return BinOpKind::MatMult;
    if (Op == "/")
      return BinOpKind::Div;
    if (Op == "//")
      return BinOpKind::FloorDiv;
    if (Op == "%")
      return BinOpKind::Mod;
    if (Op == "**")
      return BinOpKind::Pow;
    if (Op == "<<")
      return BinOpKind::LShift;
    if (Op == ">>")
      return BinOpKind::RShift;
    if (Op == "|")
      return BinOpKind::BitOr;
    if (Op == "^")
      return BinOpKind::BitXor;
    return BinOpKind::BitAnd;
  }

  static CmpOpKind cmpOpKind(std::string_view Op) {
    if (Op == "==")
      return CmpOpKind::Eq;
    if (Op == "!=" || Op == "<>")
      return CmpOpKind::NotEq;
    if (Op == "<")
      return CmpOpKind::Lt;
    if (Op == "<=")
      return CmpOpKind::LtE;
    if (Op == ">")
      return CmpOpKind::Gt;
    if (Op == ">=")
      return CmpOpKind::GtE;
    if (Op == "is")
      return CmpOpKind::Is;
    if (Op == "in")
      return CmpOpKind::In;
    if (Op == "not in")
      return CmpOpKind::NotIn;
    return CmpOpKind::IsNot;
  }

  Expr *expr(TSNode N);

  Expr *unsupportedExpr(SourceRange R, const char *Name, const std::vector<TSNode> &Kids);

  Expr *integer(TSNode N, SourceRange R);

  /// Adjacent literals concatenate; any f-string part makes a JoinedStr.
  /// A part's body is measured from the quotes, not from string_content
  /// nodes: tree-sitter folds trailing backslashes of raw strings (`r'\\'`)
  /// into string_end, and interpolations split the body.
  Expr *strings(const std::vector<TSNode> &Parts, SourceRange R);

  std::string_view slice(uint32_t B, uint32_t E) const {
    if (B > E || E > Src.size())
      return {};
    return Src.substr(B, E - B);
  }

  /// `{expr!r:{width}}`: the expression, then those nested in the format spec.
  void interpolation(TSNode N, std::vector<Expr *> &Values);

  std::vector<Comprehension> comprehensions(const std::vector<Child> &Kids);

  Expr *call(SourceRange R, const std::vector<Child> &K);

  Expr *subscript(SourceRange R, const std::vector<Child> &K);

  /// `a and b and c` nests leftwards in tree-sitter; Python has one BoolOp
  /// with three values (but keeps `(a and b) and c` as two).
  Expr *boolOp(TSNode N, SourceRange R, const std::vector<Child> &K);

  /// Annotations: plain expressions, plus the typing-only shapes tree-sitter
  /// gives `list[int]`, `A | B`, `a.B` and `*Ts` in newer syntax.
  Expr *typeExpr(TSNode N);
};

} // namespace tessel::cst

#endif // TESSEL_COMPILER_FRONTEND_CSTCONVERTER_H
