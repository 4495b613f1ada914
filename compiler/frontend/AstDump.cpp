//===- AstDump.cpp - a compact text form of tessel's AST ------------------===//
/// \file
/// Implements AstDump.h. The format is fixed by tests/unit/frontend/
/// ast_dump.py, which prints CPython's own `ast` in the same form; keep the
/// two in step.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/AstDump.h"

#include "compiler/frontend/PyValue.h"

namespace tessel::ast {

static const char *binOpName(BinOpKind Op) {
  switch (Op) {
  case BinOpKind::Add:
    return "Add";
  case BinOpKind::Sub:
    return "Sub";
  case BinOpKind::Mult:
    return "Mult";
  case BinOpKind::MatMult:
    return "MatMult";
  case BinOpKind::Div:
    return "Div";
  case BinOpKind::FloorDiv:
    return "FloorDiv";
  case BinOpKind::Mod:
    return "Mod";
  case BinOpKind::Pow:
    return "Pow";
  case BinOpKind::LShift:
    return "LShift";
  case BinOpKind::RShift:
    return "RShift";
  case BinOpKind::BitOr:
    return "BitOr";
  case BinOpKind::BitXor:
    return "BitXor";
  case BinOpKind::BitAnd:
    return "BitAnd";
  }
  return "?";
}

static const char *unaryOpName(UnaryOpKind Op) {
  switch (Op) {
  case UnaryOpKind::Invert:
    return "Invert";
  case UnaryOpKind::Not:
    return "Not";
  case UnaryOpKind::UAdd:
    return "UAdd";
  case UnaryOpKind::USub:
    return "USub";
  }
  return "?";
}

static const char *cmpOpName(CmpOpKind Op) {
  switch (Op) {
  case CmpOpKind::Eq:
    return "Eq";
  case CmpOpKind::NotEq:
    return "NotEq";
  case CmpOpKind::Lt:
    return "Lt";
  case CmpOpKind::LtE:
    return "LtE";
  case CmpOpKind::Gt:
    return "Gt";
  case CmpOpKind::GtE:
    return "GtE";
  case CmpOpKind::Is:
    return "Is";
  case CmpOpKind::IsNot:
    return "IsNot";
  case CmpOpKind::In:
    return "In";
  case CmpOpKind::NotIn:
    return "NotIn";
  }
  return "?";
}

static std::string opt(const Expr *E) { return E ? dump(E) : "None"; }

static std::string list(const std::vector<Expr *> &Es) {
  std::string Out = "[";
  for (size_t I = 0; I < Es.size(); ++I)
    Out += (I ? ", " : "") + opt(Es[I]);
  return Out + "]";
}

static std::string block(const Block &B) {
  std::string Out = "[";
  for (size_t I = 0; I < B.size(); ++I)
    Out += (I ? ", " : "") + dump(B[I]);
  return Out + "]";
}

static std::string params(const std::vector<Param> &Ps) {
  std::string Out = "[";
  for (size_t I = 0; I < Ps.size(); ++I) {
    const Param &P = Ps[I];
    Out += I ? ", " : "";
    switch (P.PKind) {
    case Param::ParamKind::Positional:
      break;
    case Param::ParamKind::KeywordOnly:
      Out += "kw:";
      break;
    case Param::ParamKind::VarArgs:
      Out += "*";
      break;
    case Param::ParamKind::VarKeywords:
      Out += "**";
      break;
    }
    Out += P.Name;
    if (P.Annotation)
      Out += ":" + dump(P.Annotation);
    if (P.Default)
      Out += "=" + dump(P.Default);
  }
  return Out + "]";
}

static std::string constant(const ConstantExpr *C) {
  switch (C->CK) {
  case ConstantKind::None:
    return "None";
  case ConstantKind::Bool:
    return C->BoolValue ? "True" : "False";
  case ConstantKind::Int:
    if (C->IntOverflow)
      return "<bigint>";
    if (C->IntIsUnsigned64)
      return std::to_string(static_cast<uint64_t>(C->IntValue));
    return std::to_string(C->IntValue);
  case ConstantKind::Float:
    return reprFloat(C->FloatValue);
  case ConstantKind::String:
    return reprString(C->StrValue);
  case ConstantKind::Bytes:
    return "b" + reprString(C->StrValue);
  case ConstantKind::Ellipsis:
    return "Ellipsis";
  }
  return "?";
}

std::string dump(const Expr *E) {
  if (!E)
    return "None";
  switch (E->kind()) {
  case ExprKind::Name:
    return "Name(" + cast<NameExpr>(E)->Id + ")";
  case ExprKind::Constant:
    return constant(cast<ConstantExpr>(E));
  case ExprKind::Attribute: {
    const auto *A = cast<AttributeExpr>(E);
    return "Attribute(" + dump(A->Value) + ", " + A->Attr + ")";
  }
  case ExprKind::Call: {
    const auto *C = cast<CallExpr>(E);
    std::string Kw = "[";
    for (size_t I = 0; I < C->Keywords.size(); ++I) {
      const Keyword &K = C->Keywords[I];
      Kw += (I ? ", " : "") + (K.Name.empty() ? std::string("**") : K.Name + "=") + dump(K.Value);
    }
    return "Call(" + dump(C->Func) + ", " + list(C->Args) + ", " + Kw + "])";
  }
  case ExprKind::Subscript: {
    const auto *S = cast<SubscriptExpr>(E);
    return "Subscript(" + dump(S->Value) + ", " + dump(S->Index) + ")";
  }
  case ExprKind::Slice: {
    const auto *S = cast<SliceExpr>(E);
    return "Slice(" + opt(S->Lower) + ", " + opt(S->Upper) + ", " + opt(S->Step) + ")";
  }
  case ExprKind::Tuple:
    return "Tuple(" + list(cast<TupleExpr>(E)->Elts) + ")";
  case ExprKind::List:
    return "List(" + list(cast<ListExpr>(E)->Elts) + ")";
  case ExprKind::ListComp: {
    const auto *L = cast<ListCompExpr>(E);
    std::string Gens = "[";
    for (size_t I = 0; I < L->Generators.size(); ++I) {
      const Comprehension &G = L->Generators[I];
      Gens += (I ? ", " : "") + std::string("comprehension(") + dump(G.Target) + ", " + dump(G.Iter) + ", " +
              list(G.Ifs) + ")";
    }
    return "ListComp(" + dump(L->Elt) + ", " + Gens + "])";
  }
  case ExprKind::BinOp: {
    const auto *B = cast<BinOpExpr>(E);
    return "BinOp(" + dump(B->Lhs) + ", " + binOpName(B->Op) + ", " + dump(B->Rhs) + ")";
  }
  case ExprKind::UnaryOp: {
    const auto *U = cast<UnaryOpExpr>(E);
    return std::string("UnaryOp(") + unaryOpName(U->Op) + ", " + dump(U->Operand) + ")";
  }
  case ExprKind::BoolOp: {
    const auto *B = cast<BoolOpExpr>(E);
    return std::string("BoolOp(") + (B->Op == BoolOpKind::And ? "And" : "Or") + ", " + list(B->Values) + ")";
  }
  case ExprKind::Compare: {
    const auto *C = cast<CompareExpr>(E);
    std::string Ops = "[";
    for (size_t I = 0; I < C->Ops.size(); ++I)
      Ops += (I ? ", " : "") + std::string(cmpOpName(C->Ops[I]));
    return "Compare(" + dump(C->Lhs) + ", " + Ops + "], " + list(C->Comparators) + ")";
  }
  case ExprKind::IfExp: {
    const auto *I = cast<IfExpExpr>(E);
    return "IfExp(" + dump(I->Test) + ", " + dump(I->Body) + ", " + dump(I->OrElse) + ")";
  }
  case ExprKind::JoinedStr:
    return "JoinedStr(" + list(cast<JoinedStrExpr>(E)->Values) + ")";
  case ExprKind::Lambda: {
    const auto *L = cast<LambdaExpr>(E);
    return "Lambda(" + params(L->Params) + ", " + dump(L->Body) + ")";
  }
  case ExprKind::Dict: {
    const auto *D = cast<DictExpr>(E);
    return "Dict(" + list(D->Keys) + ", " + list(D->Values) + ")";
  }
  case ExprKind::Starred:
    return "Starred(" + dump(cast<StarredExpr>(E)->Value) + ")";
  case ExprKind::Unsupported:
    return cast<UnsupportedExpr>(E)->PyName + "!";
  case ExprKind::Error:
    return "Error";
  }
  return "?";
}

std::string dump(const Stmt *S) {
  switch (S->kind()) {
  case StmtKind::FunctionDef: {
    const auto *F = cast<FunctionDefStmt>(S);
    return std::string(F->pyName()) + "(" + F->Name + ", " + params(F->Params) + ", " + opt(F->Returns) + ", " +
           list(F->Decorators) + ", " + block(F->Body) + ")";
  }
  case StmtKind::ClassDef: {
    const auto *C = cast<ClassDefStmt>(S);
    return "ClassDef(" + C->Name + ", " + list(C->Decorators) + ", " + block(C->Body) + ")";
  }
  case StmtKind::Assign: {
    const auto *A = cast<AssignStmt>(S);
    return "Assign(" + list(A->Targets) + ", " + dump(A->Value) + ")";
  }
  case StmtKind::AnnAssign: {
    const auto *A = cast<AnnAssignStmt>(S);
    return "AnnAssign(" + dump(A->Target) + ", " + dump(A->Annotation) + ", " + opt(A->Value) + ")";
  }
  case StmtKind::AugAssign: {
    const auto *A = cast<AugAssignStmt>(S);
    return "AugAssign(" + dump(A->Target) + ", " + binOpName(A->Op) + ", " + dump(A->Value) + ")";
  }
  case StmtKind::Return:
    return "Return(" + opt(cast<ReturnStmt>(S)->Value) + ")";
  case StmtKind::If: {
    const auto *I = cast<IfStmt>(S);
    return "If(" + dump(I->Test) + ", " + block(I->Body) + ", " + block(I->OrElse) + ")";
  }
  case StmtKind::For: {
    const auto *F = cast<ForStmt>(S);
    return std::string(F->pyName()) + "(" + dump(F->Target) + ", " + dump(F->Iter) + ", " + block(F->Body) + ", " +
           block(F->OrElse) + ")";
  }
  case StmtKind::While: {
    const auto *W = cast<WhileStmt>(S);
    return "While(" + dump(W->Test) + ", " + block(W->Body) + ", " + block(W->OrElse) + ")";
  }
  case StmtKind::With: {
    const auto *W = cast<WithStmt>(S);
    std::string Items = "[";
    for (size_t I = 0; I < W->Items.size(); ++I)
      Items += (I ? ", " : "") + std::string("withitem(") + dump(W->Items[I].ContextExpr) + ", " +
               opt(W->Items[I].OptionalVars) + ")";
    return std::string(W->pyName()) + "(" + Items + "], " + block(W->Body) + ")";
  }
  case StmtKind::Pass:
    return "Pass";
  case StmtKind::Break:
    return "Break";
  case StmtKind::Continue:
    return "Continue";
  case StmtKind::ExprStmt:
    return "Expr(" + dump(cast<ExprStmt>(S)->Value) + ")";
  case StmtKind::Assert: {
    const auto *A = cast<AssertStmt>(S);
    return "Assert(" + dump(A->Test) + ", " + opt(A->Msg) + ")";
  }
  case StmtKind::Import: {
    std::string Out = "Import([";
    const auto &Names = cast<ImportStmt>(S)->Names;
    for (size_t I = 0; I < Names.size(); ++I)
      Out += (I ? ", " : "") + Names[I].Name + (Names[I].AsName.empty() ? "" : " as " + Names[I].AsName);
    return Out + "])";
  }
  case StmtKind::ImportFrom: {
    const auto *I = cast<ImportFromStmt>(S);
    std::string Out = "ImportFrom(" + (I->Module.empty() ? std::string("None") : I->Module) + ", [";
    for (size_t K = 0; K < I->Names.size(); ++K)
      Out += (K ? ", " : "") + I->Names[K].Name + (I->Names[K].AsName.empty() ? "" : " as " + I->Names[K].AsName);
    return Out + "], " + std::to_string(I->Level) + ")";
  }
  case StmtKind::Unsupported:
    return cast<UnsupportedStmt>(S)->PyName + "!";
  case StmtKind::Error:
    return "Error";
  }
  return "?";
}

std::string dump(const Module &M) {
  std::string Out;
  for (const Stmt *S : M.Body)
    Out += dump(S) + "\n";
  return Out;
}

} // namespace tessel::ast
