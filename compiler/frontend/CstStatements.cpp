//===- CstStatements.cpp - tree-sitter statements to tessel's AST ---------===//
/// \file
/// The statement half of the Converter (CstConverter.h): module and block
/// walking with ERROR salvage, every statement kind, parameters and
/// imports, and the cst::convertTree entry point.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/CstConverter.h"

namespace tessel::cst {

/// Statement node types, used to salvage whole statements out of ERROR nodes.
static bool isStatement(NT T) {
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

void Converter::convertModule(TSNode Root) {
  for (const Child &C : grammar::children(Root)) {
    ReportedDeep = false;
    statementInto(C.Node, M.Body);
  }
}

void Converter::reportDeep(SourceRange R) {
  if (ReportedDeep)
    return;
  ReportedDeep = true;
  M.SyntaxErrors.push_back({R, "expression nested too deeply"});
}

Block Converter::block(TSNode N) {
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

void Converter::leadingErrors(const std::vector<Child> &Kids, Block &Body) {
  for (const Child &C : Kids)
    if (C.type() == NT::Error)
      Body.insert(Body.begin(), M.make<ErrorStmt>(range(C.Node)));
}

void Converter::statementInto(TSNode N, Block &Out) {
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

Stmt *Converter::statement(TSNode N) {
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

Stmt *Converter::typeCallAssignment(SourceRange R, const std::vector<Child> &Kids) {
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

Expr *Converter::rebaseOnType(TSNode N, Expr *TypeName, uint32_t Begin) {
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

UnsupportedStmt *Converter::unsupported(SourceRange R, const std::vector<Child> &Kids, const char *PyName) {
  auto *S = M.make<UnsupportedStmt>(R, PyName);
  S->KeywordRange = Kids.empty() ? R : range(Kids.front().Node);
  return S;
}

Block Converter::elseBody(TSNode Else) {
  if (isNull(Else))
    return {};
  return block(field(grammar::children(Else), F.body));
}

Stmt *Converter::expressionStatement(SourceRange R, const std::vector<Child> &Kids) {
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

Stmt *Converter::assignment(SourceRange R, TSNode N) {
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

Stmt *Converter::ifStatement(TSNode N, SourceRange R, const std::vector<Child> &Kids) {
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

Stmt *Converter::withStatement(SourceRange R, const std::vector<Child> &Kids) {
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

Stmt *Converter::functionDef(SourceRange R, const std::vector<Child> &Kids) {
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

std::string Converter::dotted(TSNode N) {
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

ImportAlias Converter::importAlias(TSNode N) {
  if (grammar::nodeType(N) != NT::aliased_import)
    return {dotted(N), "", range(N)};
  std::vector<Child> K = grammar::children(N);
  return {dotted(field(K, F.name)), std::string(text(field(K, F.alias))), range(N)};
}

void Converter::moduleName(TSNode N, ImportFromStmt &S) {
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

std::vector<Param> Converter::params(TSNode N) {
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

void convertTree(TSNode Root, std::string_view Source, Module &M) {
  Converter C(Source, M);
  C.convertModule(Root);
}

} // namespace tessel::cst
