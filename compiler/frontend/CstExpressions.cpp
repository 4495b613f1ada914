//===- CstExpressions.cpp - tree-sitter expressions to tessel's AST -------===//
/// \file
/// The expression half of the Converter (CstConverter.h): every expression
/// kind, literals (through Literals.h), f-strings, comprehensions, calls,
/// subscripts, flattened boolean operators and type annotations.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/CstConverter.h"

#include "compiler/frontend/Literals.h"

namespace tessel::cst {

Expr *Converter::exprOrError(TSNode N, SourceRange Fallback) {
  return isNull(N) ? M.make<ErrorExpr>(SourceRange{Fallback.End, Fallback.End}) : expr(N);
}

Expr *Converter::expr(TSNode N) {
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

Expr *Converter::unsupportedExpr(SourceRange R, const char *Name, const std::vector<TSNode> &Kids) {
  auto *U = M.make<UnsupportedExpr>(R, Name);
  for (TSNode N : Kids)
    if (!isNull(N))
      U->Children.push_back(expr(N));
  return U;
}

Expr *Converter::integer(TSNode N, SourceRange R) {
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

Expr *Converter::strings(const std::vector<TSNode> &Parts, SourceRange R) {
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

void Converter::interpolation(TSNode N, std::vector<Expr *> &Values) {
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

std::vector<Comprehension> Converter::comprehensions(const std::vector<Child> &Kids) {
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

Expr *Converter::call(SourceRange R, const std::vector<Child> &K) {
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

Expr *Converter::subscript(SourceRange R, const std::vector<Child> &K) {
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

Expr *Converter::boolOp(TSNode N, SourceRange R, const std::vector<Child> &K) {
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

Expr *Converter::typeExpr(TSNode N) {
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

} // namespace tessel::cst
