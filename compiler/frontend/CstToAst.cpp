//===- CstToAst.cpp - tree-sitter tree to tessel's AST --------------------===//
/// \file
/// Converts tree-sitter-python's concrete tree into the Python-`ast`-shaped
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
#include "compiler/frontend/CstToAst.h"

#include "compiler/frontend/Literals.h"
#include "compiler/frontend/PythonGrammar.h"

#include <cstring>

namespace tessel::cst {

using namespace ast;
using grammar::Child;
using grammar::NT;

namespace {

/// Statement node types, used to salvage whole statements out of ERROR nodes.
bool isStatement(NT T) {
  switch (T) {
  case NT::expression_statement:
  case NT::return_statement:
  case NT::pass_statement:
  case NT::break_statement:
  case NT::continue_statement:
  case NT::if_statement:
  case NT::for_statement:
  case NT::while_statement:
  case NT::with_statement:
  case NT::function_definition:
  case NT::class_definition:
  case NT::decorated_definition:
  case NT::assert_statement:
  case NT::import_statement:
  case NT::import_from_statement:
  case NT::future_import_statement:
  case NT::raise_statement:
  case NT::try_statement:
  case NT::global_statement:
  case NT::nonlocal_statement:
  case NT::delete_statement:
  case NT::match_statement:
  case NT::type_alias_statement:
    return true;
  default:
    return false;
  }
}

class Converter {
public:
  Converter(std::string_view Src, Module &M) : Src(Src), M(M), F(grammar::fields()) {}

  void convertModule(TSNode Root) {
    for (const Child &C : grammar::children(Root)) {
      ReportedDeep = false;
      statementInto(C.Node, M.Body);
    }
  }

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

  void reportDeep(SourceRange R) {
    if (ReportedDeep)
      return;
    ReportedDeep = true;
    M.SyntaxErrors.push_back({R, "expression nested too deeply"});
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  Block block(TSNode N) {
    Block Out;
    if (isNull(N))
      return Out;
    if (grammar::nodeType(N) != NT::block) {
      statementInto(N, Out);
      return Out;
    }
    for (const Child &C : grammar::children(N))
      statementInto(C.Node, Out);
    return Out;
  }

  /// ERROR children of a compound statement (outside its body) mark the
  /// statement as broken: an ErrorStmt leads its body.
  void leadingErrors(const std::vector<Child> &Kids, Block &Body) {
    for (const Child &C : Kids)
      if (C.type() == NT::Error)
        Body.insert(Body.begin(), M.make<ErrorStmt>(range(C.Node)));
  }

  void statementInto(TSNode N, Block &Out) {
    NT T = grammar::nodeType(N);
    if (T == NT::comment || T == NT::line_continuation || !ts_node_is_named(N))
      return;
    if (T == NT::Error) {
      Out.push_back(M.make<ErrorStmt>(range(N)));
      for (const Child &C : grammar::children(N))
        if (isStatement(C.type()) || C.type() == NT::Error || C.type() == NT::block)
          statementInto(C.Node, Out);
      return;
    }
    if (T == NT::block) {
      for (const Child &C : grammar::children(N))
        statementInto(C.Node, Out);
      return;
    }
    if (Stmt *S = statement(N))
      Out.push_back(S);
  }

  Stmt *statement(TSNode N) {
    Nest G(*this);
    SourceRange R = range(N);
    if (G.tooDeep()) {
      reportDeep(R);
      return M.make<ErrorStmt>(R);
    }
    std::vector<Child> Kids = grammar::children(N);
    switch (grammar::nodeType(N)) {
    case NT::expression_statement:
      return expressionStatement(R, Kids);
    case NT::return_statement: {
      std::vector<TSNode> V = plainNamed(Kids);
      return M.make<ReturnStmt>(R, V.empty() ? nullptr : expr(V.front()));
    }
    case NT::pass_statement:
      return M.make<SimpleStmt>(StmtKind::Pass, R);
    case NT::break_statement:
      return M.make<SimpleStmt>(StmtKind::Break, R);
    case NT::continue_statement:
      return M.make<SimpleStmt>(StmtKind::Continue, R);
    case NT::if_statement:
      return ifStatement(N, R, Kids);
    case NT::for_statement: {
      auto *S = M.make<ForStmt>(R, exprOrError(field(Kids, F.left), R), exprOrError(field(Kids, F.right), R));
      S->Body = block(field(Kids, F.body));
      leadingErrors(Kids, S->Body);
      S->OrElse = elseBody(field(Kids, F.alternative));
      S->IsAsync = !Kids.empty() && isToken(Kids.front().Node, "async");
      return S;
    }
    case NT::while_statement: {
      auto *S = M.make<WhileStmt>(R, exprOrError(field(Kids, F.condition), R));
      S->Body = block(field(Kids, F.body));
      leadingErrors(Kids, S->Body);
      TSNode Else = field(Kids, F.alternative);
      S->OrElse = elseBody(Else);
      if (!isNull(Else) && ts_node_child_count(Else) > 0)
        S->ElseRange = range(ts_node_child(Else, 0));
      return S;
    }
    case NT::with_statement:
      return withStatement(R, Kids);
    case NT::function_definition:
      return functionDef(R, Kids);
    case NT::class_definition: {
      TSNode Name = field(Kids, F.name);
      auto *S = M.make<ClassDefStmt>(R, std::string(text(Name)), range(Name));
      S->Body = block(field(Kids, F.body));
      leadingErrors(Kids, S->Body);
      return S;
    }
    case NT::decorated_definition: {
      TSNode Def = field(Kids, F.definition);
      if (isNull(Def))
        return M.make<ErrorStmt>(R);
      Stmt *S = statement(Def);
      std::vector<Expr *> Decorators;
      for (const Child &C : Kids) {
        if (C.type() != NT::decorator)
          continue;
        std::vector<TSNode> E = namedNoComment(grammar::children(C.Node));
        Decorators.push_back(E.empty() ? M.make<ErrorExpr>(range(C.Node)) : expr(E.front()));
      }
      S->Range = R; // the definition's text starts at its first decorator
      if (auto *Fn = dyn_cast<FunctionDefStmt>(S))
        Fn->Decorators = std::move(Decorators);
      else if (auto *Cls = dyn_cast<ClassDefStmt>(S))
        Cls->Decorators = std::move(Decorators);
      return S;
    }
    case NT::assert_statement: {
      std::vector<TSNode> V = plainNamed(Kids);
      Expr *Test = V.empty() ? M.make<ErrorExpr>(R) : expr(V[0]);
      return M.make<AssertStmt>(R, Test, V.size() > 1 ? expr(V[1]) : nullptr);
    }
    case NT::import_statement: {
      auto *S = M.make<ImportStmt>(R);
      for (const Child &C : Kids)
        if (C.Field == F.name)
          S->Names.push_back(importAlias(C.Node));
      return S;
    }
    case NT::import_from_statement:
    case NT::future_import_statement: {
      auto *S = M.make<ImportFromStmt>(R);
      if (grammar::nodeType(N) == NT::future_import_statement)
        S->Module = "__future__";
      for (const Child &C : Kids) {
        if (C.Field == F.module_name)
          moduleName(C.Node, *S);
        else if (C.Field == F.name)
          S->Names.push_back(importAlias(C.Node));
        else if (C.type() == NT::wildcard_import)
          S->Names.push_back({"*", "", range(C.Node)});
      }
      return S;
    }
    case NT::raise_statement:
      return unsupported(R, Kids, "Raise");
    case NT::global_statement:
      return unsupported(R, Kids, "Global");
    case NT::nonlocal_statement:
      return unsupported(R, Kids, "Nonlocal");
    case NT::delete_statement:
      return unsupported(R, Kids, "Delete");
    case NT::type_alias_statement: {
      if (Stmt *S = typeCallAssignment(R, Kids))
        return S;
      return unsupported(R, Kids, "TypeAlias");
    }
    case NT::try_statement: {
      bool Star = false;
      for (const Child &C : Kids)
        Star |= C.type() == NT::except_group_clause;
      auto *S = unsupported(R, Kids, Star ? "TryStar" : "Try");
      S->Blocks.push_back(block(field(Kids, F.body)));
      for (const Child &C : Kids) {
        NT CT = C.type();
        if (CT == NT::except_clause || CT == NT::except_group_clause || CT == NT::finally_clause)
          for (const Child &CC : grammar::children(C.Node)) {
            if (CC.type() == NT::block)
              S->Blocks.push_back(block(CC.Node));
          }
        else if (CT == NT::else_clause)
          S->Blocks.push_back(elseBody(C.Node));
      }
      return S;
    }
    case NT::match_statement: {
      auto *S = unsupported(R, Kids, "Match");
      TSNode Body = field(Kids, F.body);
      if (!isNull(Body))
        for (const Child &C : grammar::children(Body))
          if (C.type() == NT::case_clause)
            S->Blocks.push_back(block(field(grammar::children(C.Node), F.consequence)));
      return S;
    }
    case NT::print_statement:
    case NT::exec_statement: {
      const char *What = grammar::nodeType(N) == NT::print_statement ? "print" : "exec";
      M.SyntaxErrors.push_back(
          {R, std::string("Missing parentheses in call to '") + What + "'. Did you mean " + What + "(...)?"});
      return M.make<ErrorStmt>(R);
    }
    default:
      return M.make<ErrorStmt>(R);
    }
  }

  /// tree-sitter reads `type(x).attr = v` as a `type` alias statement; a
  /// real alias names an identifier, so anything starting with `(` is the
  /// call of the builtin `type`, rebuilt here as the Assign Python sees.
  Stmt *typeCallAssignment(SourceRange R, const std::vector<Child> &Kids) {
    TSNode Left = field(Kids, F.left), Right = field(Kids, F.right);
    if (isNull(Left) || isNull(Right) || Kids.empty())
      return nullptr;
    std::vector<TSNode> L = namedNoComment(grammar::children(Left));
    if (L.empty() || text(L.front()).substr(0, 1) != "(")
      return nullptr;
    Expr *TypeName = M.make<NameExpr>(range(Kids.front().Node), "type");
    Expr *Target = rebaseOnType(L.front(), TypeName, R.Begin);
    if (!Target)
      return nullptr;
    auto *S = M.make<AssignStmt>(R, typeExpr(Right));
    S->Targets.push_back(Target);
    return S;
  }

  Expr *rebaseOnType(TSNode N, Expr *TypeName, uint32_t Begin) {
    SourceRange R{Begin, ts_node_end_byte(N)};
    std::vector<Child> K = grammar::children(N);
    switch (grammar::nodeType(N)) {
    case NT::parenthesized_expression:
    case NT::tuple: {
      auto *C = M.make<CallExpr>(R, TypeName);
      C->ArgsRange = range(N);
      for (TSNode A : namedNoComment(K))
        C->Args.push_back(expr(A));
      return C;
    }
    case NT::attribute: {
      Expr *Obj = rebaseOnType(field(K, F.object), TypeName, Begin);
      TSNode Attr = field(K, F.attribute);
      return Obj ? M.make<AttributeExpr>(R, Obj, std::string(text(Attr)), range(Attr)) : nullptr;
    }
    default:
      return nullptr;
    }
  }

  UnsupportedStmt *unsupported(SourceRange R, const std::vector<Child> &Kids, const char *PyName) {
    auto *S = M.make<UnsupportedStmt>(R, PyName);
    S->KeywordRange = Kids.empty() ? R : range(Kids.front().Node);
    return S;
  }

  Block elseBody(TSNode Else) {
    if (isNull(Else))
      return {};
    return block(field(grammar::children(Else), F.body));
  }

  Stmt *expressionStatement(SourceRange R, const std::vector<Child> &Kids) {
    std::vector<TSNode> V = namedNoComment(Kids);
    if (V.empty())
      return M.make<ErrorStmt>(R);
    if (V.size() > 1) {
      auto *T = M.make<TupleExpr>(R);
      for (TSNode N : V)
        T->Elts.push_back(expr(N));
      return M.make<ExprStmt>(R, T);
    }
    TSNode N = V.front();
    NT T = grammar::nodeType(N);
    if (T == NT::assignment)
      return assignment(R, N);
    if (T == NT::augmented_assignment) {
      std::vector<Child> K = grammar::children(N);
      TSNode Op = field(K, F.operator_);
      std::string_view OpText = text(Op);
      if (!OpText.empty())
        OpText.remove_suffix(1); // "+=" -> "+"
      return M.make<AugAssignStmt>(R, exprOrError(field(K, F.left), R), binOpKind(OpText),
                                   exprOrError(field(K, F.right), R), range(Op));
    }
    return M.make<ExprStmt>(R, expr(N));
  }

  Stmt *assignment(SourceRange R, TSNode N) {
    std::vector<Child> K = grammar::children(N);
    TSNode Type = field(K, F.type), Right = field(K, F.right);
    if (!isNull(Type))
      return M.make<AnnAssignStmt>(R, exprOrError(field(K, F.left), R), typeExpr(Type),
                                   isNull(Right) ? nullptr : expr(Right));
    if (isNull(Right))
      return M.make<ErrorStmt>(R);
    std::vector<Expr *> Targets{exprOrError(field(K, F.left), R)};
    // `a = b = c` nests as assignment(a, assignment(b, c)); Python flattens it.
    while (grammar::nodeType(Right) == NT::assignment) {
      std::vector<Child> RK = grammar::children(Right);
      if (!isNull(field(RK, F.type)) || isNull(field(RK, F.right)))
        break;
      Targets.push_back(exprOrError(field(RK, F.left), R));
      Right = field(RK, F.right);
    }
    auto *S = M.make<AssignStmt>(R, expr(Right));
    S->Targets = std::move(Targets);
    return S;
  }

  Stmt *ifStatement(TSNode N, SourceRange R, const std::vector<Child> &Kids) {
    auto *Root = M.make<IfStmt>(R, exprOrError(field(Kids, F.condition), R));
    Root->Body = block(field(Kids, F.consequence));
    leadingErrors(Kids, Root->Body);
    IfStmt *Cur = Root;
    for (const Child &C : Kids) {
      if (C.Field != F.alternative)
        continue;
      std::vector<Child> CK = grammar::children(C.Node);
      if (C.type() == NT::elif_clause) {
        SourceRange ER{ts_node_start_byte(C.Node), R.End};
        auto *Elif = M.make<IfStmt>(ER, exprOrError(field(CK, F.condition), ER));
        Elif->IsElif = true;
        Elif->Body = block(field(CK, F.consequence));
        Cur->OrElse = {Elif};
        Cur = Elif;
      } else if (C.type() == NT::else_clause) {
        Cur->OrElse = block(field(CK, F.body));
      }
    }
    return Root;
  }

  Stmt *withStatement(SourceRange R, const std::vector<Child> &Kids) {
    auto *S = M.make<WithStmt>(R);
    S->IsAsync = !Kids.empty() && isToken(Kids.front().Node, "async");
    for (const Child &C : Kids) {
      if (C.type() != NT::with_clause)
        continue;
      for (const Child &Item : grammar::children(C.Node)) {
        if (Item.type() != NT::with_item)
          continue;
        TSNode V = field(grammar::children(Item.Node), F.value);
        WithItem W;
        if (!isNull(V) && grammar::nodeType(V) == NT::as_pattern) {
          std::vector<Child> AK = grammar::children(V);
          std::vector<TSNode> Plain = plainNamed(AK);
          W.ContextExpr = Plain.empty() ? M.make<ErrorExpr>(range(V)) : expr(Plain.front());
          TSNode Alias = field(AK, F.alias);
          if (!isNull(Alias)) {
            std::vector<TSNode> Target = namedNoComment(grammar::children(Alias));
            W.OptionalVars = Target.empty() ? expr(Alias) : expr(Target.front());
          }
        } else {
          W.ContextExpr = exprOrError(V, range(Item.Node));
        }
        S->Items.push_back(W);
      }
    }
    S->Body = block(field(Kids, F.body));
    leadingErrors(Kids, S->Body);
    return S;
  }

  Stmt *functionDef(SourceRange R, const std::vector<Child> &Kids) {
    TSNode Name = field(Kids, F.name);
    auto *S = M.make<FunctionDefStmt>(R, std::string(text(Name)), range(Name));
    for (const Child &C : Kids) {
      if (isToken(C.Node, "async"))
        S->IsAsync = true;
      else if (isToken(C.Node, "def"))
        S->DefKeywordRange = range(C.Node);
    }
    TSNode Params = field(Kids, F.parameters);
    if (!isNull(Params))
      S->Params = params(Params);
    TSNode Ret = field(Kids, F.return_type);
    if (!isNull(Ret))
      S->Returns = typeExpr(Ret);
    S->Body = block(field(Kids, F.body));
    leadingErrors(Kids, S->Body);
    return S;
  }

  std::string dotted(TSNode N) {
    if (grammar::nodeType(N) != NT::dotted_name)
      return std::string(text(N));
    std::string Out;
    for (const Child &C : grammar::children(N)) {
      if (C.type() != NT::identifier)
        continue;
      if (!Out.empty())
        Out += '.';
      Out += text(C.Node);
    }
    return Out;
  }

  ImportAlias importAlias(TSNode N) {
    if (grammar::nodeType(N) != NT::aliased_import)
      return {dotted(N), "", range(N)};
    std::vector<Child> K = grammar::children(N);
    return {dotted(field(K, F.name)), std::string(text(field(K, F.alias))), range(N)};
  }

  void moduleName(TSNode N, ImportFromStmt &S) {
    if (grammar::nodeType(N) != NT::relative_import) {
      S.Module = dotted(N);
      return;
    }
    for (const Child &C : grammar::children(N)) {
      if (C.type() == NT::import_prefix)
        S.Level = static_cast<int>(text(C.Node).size());
      else if (C.type() == NT::dotted_name)
        S.Module = dotted(C.Node);
    }
  }

  std::vector<Param> params(TSNode N) {
    std::vector<Param> Out;
    bool KeywordOnly = false;
    for (const Child &C : grammar::children(N)) {
      if (!C.named())
        continue;
      Param P;
      P.Range = range(C.Node);
      P.PKind = KeywordOnly ? Param::ParamKind::KeywordOnly : Param::ParamKind::Positional;
      std::vector<Child> K = grammar::children(C.Node);
      TSNode NameNode = nullNode();
      switch (C.type()) {
      case NT::identifier:
        NameNode = C.Node;
        break;
      case NT::default_parameter:
      case NT::typed_default_parameter: {
        NameNode = field(K, F.name);
        TSNode Type = field(K, F.type);
        if (!isNull(Type))
          P.Annotation = typeExpr(Type);
        P.Default = exprOrError(field(K, F.value), P.Range);
        break;
      }
      case NT::typed_parameter: {
        TSNode Type = field(K, F.type);
        if (!isNull(Type))
          P.Annotation = typeExpr(Type);
        std::vector<TSNode> Plain = plainNamed(K);
        if (Plain.empty())
          continue;
        NameNode = Plain.front();
        NT PT = grammar::nodeType(NameNode);
        if (PT == NT::list_splat_pattern || PT == NT::dictionary_splat_pattern) {
          P.PKind = PT == NT::list_splat_pattern ? Param::ParamKind::VarArgs : Param::ParamKind::VarKeywords;
          KeywordOnly |= PT == NT::list_splat_pattern;
          std::vector<TSNode> Inner = namedNoComment(grammar::children(NameNode));
          NameNode = Inner.empty() ? nullNode() : Inner.front();
        }
        break;
      }
      case NT::list_splat_pattern:
      case NT::dictionary_splat_pattern: {
        P.PKind = C.type() == NT::list_splat_pattern ? Param::ParamKind::VarArgs : Param::ParamKind::VarKeywords;
        KeywordOnly |= C.type() == NT::list_splat_pattern;
        std::vector<TSNode> Inner = namedNoComment(K);
        NameNode = Inner.empty() ? nullNode() : Inner.front();
        break;
      }
      case NT::keyword_separator:
        KeywordOnly = true;
        continue;
      default: // `/`, comments, Python 2 tuple parameters
        continue;
      }
      if (isNull(NameNode))
        continue;
      P.Name = std::string(text(NameNode));
      P.NameRange = range(NameNode);
      Out.push_back(P);
    }
    return Out;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Expr *exprOrError(TSNode N, SourceRange Fallback) {
    return isNull(N) ? M.make<ErrorExpr>(SourceRange{Fallback.End, Fallback.End}) : expr(N);
  }

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

  Expr *expr(TSNode N) {
    Nest G(*this);
    SourceRange R = range(N);
    if (G.tooDeep()) {
      reportDeep(R);
      return M.make<ErrorExpr>(R);
    }
    if (ts_node_is_missing(N))
      return M.make<ErrorExpr>(R);
    NT T = grammar::nodeType(N);
    switch (T) {
    case NT::identifier:
      return M.make<NameExpr>(R, std::string(text(N)));
    case NT::integer:
      return integer(N, R);
    case NT::float_: {
      literals::FloatLiteral L = literals::parseFloat(text(N));
      if (L.Imaginary || !L.Valid)
        return M.make<UnsupportedExpr>(R, "Constant");
      auto *C = M.make<ConstantExpr>(R, ConstantKind::Float);
      C->FloatValue = L.Value;
      return C;
    }
    case NT::true_:
    case NT::false_: {
      auto *C = M.make<ConstantExpr>(R, ConstantKind::Bool);
      C->BoolValue = T == NT::true_;
      return C;
    }
    case NT::none:
      return M.make<ConstantExpr>(R, ConstantKind::None);
    case NT::ellipsis:
      return M.make<ConstantExpr>(R, ConstantKind::Ellipsis);
    case NT::string:
      return strings({N}, R);
    case NT::concatenated_string: {
      std::vector<TSNode> Parts;
      for (const Child &C : grammar::children(N))
        if (C.type() == NT::string)
          Parts.push_back(C.Node);
      return strings(Parts, R);
    }
    default:
      break;
    }
    std::vector<Child> K = grammar::children(N);
    switch (T) {
    case NT::attribute: {
      TSNode Attr = field(K, F.attribute);
      return M.make<AttributeExpr>(R, exprOrError(field(K, F.object), R), std::string(text(Attr)),
                                   isNull(Attr) ? SourceRange{R.End, R.End} : range(Attr));
    }
    case NT::call:
      return call(R, K);
    case NT::subscript:
      return subscript(R, K);
    case NT::slice: {
      auto *S = M.make<SliceExpr>(R);
      int Colons = 0;
      for (const Child &C : K) {
        if (isToken(C.Node, ":")) {
          ++Colons;
          continue;
        }
        if (!C.named() || C.type() == NT::comment)
          continue;
        Expr *E = expr(C.Node);
        (Colons == 0 ? S->Lower : Colons == 1 ? S->Upper : S->Step) = E;
      }
      return S;
    }
    case NT::tuple:
    case NT::expression_list:
    case NT::pattern_list:
    case NT::tuple_pattern: {
      // `(x): int = 1` puts a comma-less tuple_pattern where Python sees a Name.
      std::vector<TSNode> Elts = namedNoComment(K);
      bool Comma = false;
      for (const Child &C : K)
        Comma |= isToken(C.Node, ",");
      if (T == NT::tuple_pattern && Elts.size() == 1 && !Comma)
        return expr(Elts.front());
      auto *Tup = M.make<TupleExpr>(R);
      for (TSNode E : namedNoComment(K))
        Tup->Elts.push_back(expr(E));
      return Tup;
    }
    case NT::list:
    case NT::list_pattern: {
      auto *L = M.make<ListExpr>(R);
      for (TSNode E : namedNoComment(K))
        L->Elts.push_back(expr(E));
      return L;
    }
    case NT::set:
      return unsupportedExpr(R, "Set", namedNoComment(K));
    case NT::dictionary: {
      auto *D = M.make<DictExpr>(R);
      for (const Child &C : K) {
        if (C.type() == NT::pair) {
          std::vector<Child> PK = grammar::children(C.Node);
          D->Keys.push_back(exprOrError(field(PK, F.key), range(C.Node)));
          D->Values.push_back(exprOrError(field(PK, F.value), range(C.Node)));
        } else if (C.type() == NT::dictionary_splat) {
          std::vector<TSNode> V = namedNoComment(grammar::children(C.Node));
          D->Keys.push_back(nullptr);
          D->Values.push_back(V.empty() ? M.make<ErrorExpr>(range(C.Node)) : expr(V.front()));
        }
      }
      return D;
    }
    case NT::list_comprehension: {
      auto *L = M.make<ListCompExpr>(R);
      L->Elt = exprOrError(field(K, F.body), R);
      L->Generators = comprehensions(K);
      return L;
    }
    case NT::set_comprehension:
    case NT::dictionary_comprehension:
    case NT::generator_expression: {
      const char *Name = T == NT::set_comprehension          ? "SetComp"
                         : T == NT::dictionary_comprehension ? "DictComp"
                                                             : "GeneratorExp";
      auto *U = M.make<UnsupportedExpr>(R, Name);
      TSNode Body = field(K, F.body);
      if (!isNull(Body)) {
        if (grammar::nodeType(Body) == NT::pair) {
          std::vector<Child> PK = grammar::children(Body);
          U->Children.push_back(exprOrError(field(PK, F.key), R));
          U->Children.push_back(exprOrError(field(PK, F.value), R));
        } else {
          U->Children.push_back(expr(Body));
        }
      }
      for (Comprehension &C : comprehensions(K)) {
        U->Children.push_back(C.Target);
        U->Children.push_back(C.Iter);
        U->Children.insert(U->Children.end(), C.Ifs.begin(), C.Ifs.end());
      }
      return U;
    }
    case NT::binary_operator: {
      TSNode Op = field(K, F.operator_);
      return M.make<BinOpExpr>(R, binOpKind(text(Op)), exprOrError(field(K, F.left), R),
                               exprOrError(field(K, F.right), R), range(Op));
    }
    case NT::unary_operator: {
      std::string_view Op = text(field(K, F.operator_));
      UnaryOpKind UK = Op == "-" ? UnaryOpKind::USub : Op == "+" ? UnaryOpKind::UAdd : UnaryOpKind::Invert;
      return M.make<UnaryOpExpr>(R, UK, exprOrError(field(K, F.argument), R));
    }
    case NT::not_operator:
      return M.make<UnaryOpExpr>(R, UnaryOpKind::Not, exprOrError(field(K, F.argument), R));
    case NT::boolean_operator:
      return boolOp(N, R, K);
    case NT::comparison_operator: {
      std::vector<TSNode> Operands;
      std::vector<TSNode> Ops;
      for (const Child &C : K) {
        if (C.Field == F.operators)
          Ops.push_back(C.Node);
        else if (C.named() && C.type() != NT::comment)
          Operands.push_back(C.Node);
      }
      auto *Cmp = M.make<CompareExpr>(R, Operands.empty() ? M.make<ErrorExpr>(R) : expr(Operands[0]));
      for (size_t I = 0; I < Ops.size(); ++I) {
        std::string_view OpText = ts_node_type(Ops[I]);
        Cmp->Ops.push_back(cmpOpKind(OpText));
        Cmp->OpRanges.push_back(range(Ops[I]));
        Cmp->Comparators.push_back(I + 1 < Operands.size() ? expr(Operands[I + 1])
                                                           : M.make<ErrorExpr>(SourceRange{R.End, R.End}));
      }
      return Cmp;
    }
    case NT::conditional_expression: {
      std::vector<TSNode> V = namedNoComment(K);
      auto At = [&](size_t I) -> Expr * { return I < V.size() ? expr(V[I]) : M.make<ErrorExpr>(R); };
      Expr *Body = At(0), *Test = At(1), *Else = At(2);
      return M.make<IfExpExpr>(R, Test, Body, Else);
    }
    case NT::lambda: {
      auto *L = M.make<LambdaExpr>(R, exprOrError(field(K, F.body), R));
      TSNode P = field(K, F.parameters);
      if (!isNull(P))
        L->Params = params(P);
      return L;
    }
    case NT::named_expression:
      return unsupportedExpr(R, "NamedExpr", {field(K, F.name), field(K, F.value)});
    case NT::await:
      return unsupportedExpr(R, "Await", namedNoComment(K));
    case NT::yield: {
      bool From = K.size() > 1 && isToken(K[1].Node, "from");
      return unsupportedExpr(R, From ? "YieldFrom" : "Yield", namedNoComment(K));
    }
    case NT::list_splat:
    case NT::list_splat_pattern:
    case NT::parenthesized_list_splat: {
      std::vector<TSNode> V = namedNoComment(K);
      if (T == NT::parenthesized_list_splat)
        return V.empty() ? M.make<ErrorExpr>(R) : expr(V.front());
      return M.make<StarredExpr>(R, V.empty() ? M.make<ErrorExpr>(R) : expr(V.front()));
    }
    case NT::parenthesized_expression: {
      std::vector<TSNode> V = namedNoComment(K);
      return V.empty() ? M.make<ErrorExpr>(R) : expr(V.front());
    }
    case NT::type:
      return typeExpr(N);
    case NT::as_pattern_target: {
      std::vector<TSNode> V = namedNoComment(K);
      return V.empty() ? M.make<ErrorExpr>(R) : expr(V.front());
    }
    default:
      return M.make<ErrorExpr>(R);
    }
  }

  Expr *unsupportedExpr(SourceRange R, const char *Name, const std::vector<TSNode> &Kids) {
    auto *U = M.make<UnsupportedExpr>(R, Name);
    for (TSNode N : Kids)
      if (!isNull(N))
        U->Children.push_back(expr(N));
    return U;
  }

  Expr *integer(TSNode N, SourceRange R) {
    literals::IntLiteral L = literals::parseInt(text(N));
    if (L.Imaginary || !L.Valid)
      return M.make<UnsupportedExpr>(R, "Constant");
    auto *C = M.make<ConstantExpr>(R, ConstantKind::Int);
    if (L.Overflow) {
      C->IntOverflow = true;
    } else {
      C->IntValue = static_cast<int64_t>(L.Magnitude);
      C->IntIsUnsigned64 = L.Magnitude > static_cast<uint64_t>(INT64_MAX);
    }
    return C;
  }

  /// Adjacent literals concatenate; any f-string part makes a JoinedStr.
  /// A part's body is measured from the quotes, not from string_content
  /// nodes: tree-sitter folds trailing backslashes of raw strings (`r'\\'`)
  /// into string_end, and interpolations split the body.
  Expr *strings(const std::vector<TSNode> &Parts, SourceRange R) {
    bool Format = false, Bytes = false;
    std::string Value;
    std::vector<Expr *> Values;
    for (TSNode Part : Parts) {
      literals::StringPrefix P;
      uint32_t Pos = ts_node_end_byte(Part), QuoteLen = 1;
      for (const Child &C : grammar::children(Part)) {
        switch (C.type()) {
        case NT::string_start: {
          std::string_view Start = text(C.Node);
          P = literals::parsePrefix(Start);
          Format |= P.Format;
          Bytes |= P.Bytes;
          size_t Q = Start.find_first_of("'\"");
          QuoteLen = Q == std::string_view::npos ? 1 : static_cast<uint32_t>(Start.size() - Q);
          Pos = ts_node_end_byte(C.Node);
          break;
        }
        case NT::interpolation:
          Value += literals::decodeBody(slice(Pos, ts_node_start_byte(C.Node)), P);
          Pos = ts_node_end_byte(C.Node);
          interpolation(C.Node, Values);
          break;
        case NT::string_end: {
          uint32_t End = ts_node_end_byte(C.Node);
          End = End >= Pos + QuoteLen ? End - QuoteLen : Pos;
          Value += literals::decodeBody(slice(Pos, End), P);
          Pos = ts_node_end_byte(C.Node);
          break;
        }
        default:
          break;
        }
      }
    }
    if (Format) {
      auto *J = M.make<JoinedStrExpr>(R);
      J->Values = std::move(Values);
      return J;
    }
    auto *C = M.make<ConstantExpr>(R, Bytes ? ConstantKind::Bytes : ConstantKind::String);
    C->StrValue = std::move(Value);
    return C;
  }

  std::string_view slice(uint32_t B, uint32_t E) const {
    if (B > E || E > Src.size())
      return {};
    return Src.substr(B, E - B);
  }

  /// `{expr!r:{width}}`: the expression, then those nested in the format spec.
  void interpolation(TSNode N, std::vector<Expr *> &Values) {
    std::vector<Child> K = grammar::children(N);
    TSNode E = field(K, F.expression);
    if (!isNull(E))
      Values.push_back(expr(E));
    TSNode Spec = field(K, F.format_specifier);
    if (isNull(Spec))
      return;
    for (const Child &C : grammar::children(Spec))
      if (C.type() == NT::format_expression)
        interpolation(C.Node, Values);
  }

  std::vector<Comprehension> comprehensions(const std::vector<Child> &Kids) {
    std::vector<Comprehension> Out;
    for (const Child &C : Kids) {
      if (C.type() == NT::for_in_clause) {
        std::vector<Child> K = grammar::children(C.Node);
        Comprehension G;
        G.Target = exprOrError(field(K, F.left), range(C.Node));
        std::vector<TSNode> Iters;
        for (const Child &CC : K)
          if (CC.Field == F.right && CC.named() && CC.type() != NT::comment)
            Iters.push_back(CC.Node);
        if (Iters.size() == 1) {
          G.Iter = expr(Iters.front());
        } else if (Iters.empty()) {
          G.Iter = M.make<ErrorExpr>(range(C.Node));
        } else {
          auto *T = M.make<TupleExpr>(SourceRange{ts_node_start_byte(Iters.front()), ts_node_end_byte(Iters.back())});
          for (TSNode I : Iters)
            T->Elts.push_back(expr(I));
          G.Iter = T;
        }
        Out.push_back(G);
      } else if (C.type() == NT::if_clause && !Out.empty()) {
        std::vector<TSNode> V = namedNoComment(grammar::children(C.Node));
        Out.back().Ifs.push_back(V.empty() ? M.make<ErrorExpr>(range(C.Node)) : expr(V.front()));
      }
    }
    return Out;
  }

  Expr *call(SourceRange R, const std::vector<Child> &K) {
    auto *C = M.make<CallExpr>(R, exprOrError(field(K, F.function), R));
    TSNode Args = field(K, F.arguments);
    if (isNull(Args))
      return C;
    C->ArgsRange = range(Args);
    if (grammar::nodeType(Args) == NT::generator_expression) {
      C->Args.push_back(expr(Args));
      return C;
    }
    for (const Child &A : grammar::children(Args)) {
      if (!A.named() || A.type() == NT::comment || A.type() == NT::line_continuation)
        continue;
      std::vector<Child> AK;
      switch (A.type()) {
      case NT::keyword_argument: {
        AK = grammar::children(A.Node);
        TSNode Name = field(AK, F.name);
        Keyword KW;
        KW.Name = std::string(text(Name));
        KW.NameRange = range(Name);
        KW.Value = exprOrError(field(AK, F.value), range(A.Node));
        KW.Range = range(A.Node);
        C->Keywords.push_back(KW);
        break;
      }
      case NT::dictionary_splat: {
        std::vector<TSNode> V = namedNoComment(grammar::children(A.Node));
        Keyword KW;
        KW.Value = V.empty() ? M.make<ErrorExpr>(range(A.Node)) : expr(V.front());
        KW.Range = range(A.Node);
        C->Keywords.push_back(KW);
        break;
      }
      default:
        C->Args.push_back(expr(A.Node));
        break;
      }
    }
    return C;
  }

  Expr *subscript(SourceRange R, const std::vector<Child> &K) {
    Expr *Value = exprOrError(field(K, F.value), R);
    std::vector<TSNode> Idx;
    bool Comma = false;
    bool InBrackets = false;
    for (const Child &C : K) {
      if (isToken(C.Node, "["))
        InBrackets = true;
      else if (InBrackets && isToken(C.Node, ","))
        Comma = true;
      else if (C.Field == F.subscript && C.named() && C.type() != NT::comment)
        Idx.push_back(C.Node);
    }
    Expr *Index;
    if (Idx.empty()) {
      Index = M.make<ErrorExpr>(SourceRange{R.End, R.End});
    } else if (Idx.size() == 1 && !Comma && grammar::nodeType(Idx.front()) != NT::list_splat) {
      Index = expr(Idx.front());
    } else {
      auto *T = M.make<TupleExpr>(SourceRange{ts_node_start_byte(Idx.front()), ts_node_end_byte(Idx.back())});
      for (TSNode I : Idx)
        T->Elts.push_back(expr(I));
      Index = T;
    }
    return M.make<SubscriptExpr>(R, Value, Index);
  }

  /// `a and b and c` nests leftwards in tree-sitter; Python has one BoolOp
  /// with three values (but keeps `(a and b) and c` as two).
  Expr *boolOp(TSNode N, SourceRange R, const std::vector<Child> &K) {
    std::string_view Op = text(field(K, F.operator_));
    BoolOpKind BK = Op == "or" ? BoolOpKind::Or : BoolOpKind::And;
    std::vector<TSNode> Operands;
    TSNode Cur = N;
    std::vector<Child> CK = K;
    while (true) {
      TSNode L = field(CK, F.left), Rt = field(CK, F.right);
      Operands.push_back(Rt);
      if (!isNull(L) && grammar::nodeType(L) == NT::boolean_operator) {
        std::vector<Child> LK = grammar::children(L);
        std::string_view LOp = text(field(LK, F.operator_));
        if ((LOp == "or") == (BK == BoolOpKind::Or) && Operands.size() < MaxNesting) {
          Cur = L;
          CK = std::move(LK);
          continue;
        }
      }
      Operands.push_back(L);
      break;
    }
    auto *B = M.make<BoolOpExpr>(R, BK);
    for (auto It = Operands.rbegin(); It != Operands.rend(); ++It)
      B->Values.push_back(exprOrError(*It, R));
    (void)Cur;
    return B;
  }

  /// Annotations: plain expressions, plus the typing-only shapes tree-sitter
  /// gives `list[int]`, `A | B`, `a.B` and `*Ts` in newer syntax.
  Expr *typeExpr(TSNode N) {
    Nest G(*this);
    SourceRange R = range(N);
    if (G.tooDeep()) {
      reportDeep(R);
      return M.make<ErrorExpr>(R);
    }
    std::vector<Child> K = grammar::children(N);
    std::vector<TSNode> V = namedNoComment(K);
    switch (grammar::nodeType(N)) {
    case NT::type:
      return V.empty() ? M.make<ErrorExpr>(R) : typeExpr(V.front());
    case NT::generic_type: {
      if (V.empty())
        return M.make<ErrorExpr>(R);
      Expr *Base = typeExpr(V.front());
      std::vector<Expr *> Args;
      for (size_t I = 1; I < V.size(); ++I)
        for (TSNode P : namedNoComment(grammar::children(V[I])))
          Args.push_back(typeExpr(P));
      Expr *Index;
      if (Args.size() == 1) {
        Index = Args.front();
      } else {
        auto *T = M.make<TupleExpr>(V.size() > 1 ? range(V[1]) : R);
        T->Elts = std::move(Args);
        Index = T;
      }
      return M.make<SubscriptExpr>(R, Base, Index);
    }
    case NT::union_type: {
      if (V.size() < 2)
        return M.make<ErrorExpr>(R);
      Expr *Acc = typeExpr(V[0]);
      for (size_t I = 1; I < V.size(); ++I)
        Acc = M.make<BinOpExpr>(SourceRange{R.Begin, ts_node_end_byte(V[I])}, BinOpKind::BitOr, Acc, typeExpr(V[I]),
                                SourceRange{});
      return Acc;
    }
    case NT::member_type: {
      if (V.size() < 2)
        return M.make<ErrorExpr>(R);
      return M.make<AttributeExpr>(R, typeExpr(V[0]), std::string(text(V[1])), range(V[1]));
    }
    case NT::splat_type:
      return M.make<StarredExpr>(R, V.empty() ? M.make<ErrorExpr>(R) : expr(V.front()));
    case NT::constrained_type:
      return unsupportedExpr(R, "Tuple", V);
    default:
      return expr(N);
    }
  }
};

} // namespace

void convertTree(TSNode Root, std::string_view Source, Module &M) {
  Converter C(Source, M);
  C.convertModule(Root);
}

} // namespace tessel::cst
