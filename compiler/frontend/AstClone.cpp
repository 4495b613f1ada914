//===- AstClone.cpp - copies of statements at another offset --------------===//
/// \file
/// Implements ast::cloneShifted: one case per node class of Ast.h. Node
/// copies start from the copy constructor (every scalar and string field),
/// then child pointers and ranges are replaced. A node kind added to Ast.h
/// without a case here fails the build (-Wswitch under -Werror), and a new
/// range field without a shift fails the reparse tests over the syntax
/// corpus, which compare every range with a fresh parse.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/AstClone.h"

namespace tessel::ast {

namespace {

class Cloner {
public:
  Cloner(int64_t Delta, Module &Into) : Delta(Delta), Into(Into) {}

  SourceRange shift(SourceRange R) const {
    if (R.Begin == 0 && R.End == 0)
      return R;
    return {static_cast<uint32_t>(R.Begin + Delta), static_cast<uint32_t>(R.End + Delta)};
  }

  Expr *expr(const Expr *E) {
    if (!E)
      return nullptr;
    switch (E->kind()) {
    case ExprKind::Name:
      return copy(*cast<NameExpr>(E));
    case ExprKind::Constant:
      return copy(*cast<ConstantExpr>(E));
    case ExprKind::Attribute: {
      auto *N = copy(*cast<AttributeExpr>(E));
      N->Value = expr(N->Value);
      N->AttrRange = shift(N->AttrRange);
      return N;
    }
    case ExprKind::Call: {
      auto *N = copy(*cast<CallExpr>(E));
      N->Func = expr(N->Func);
      exprs(N->Args);
      for (Keyword &K : N->Keywords) {
        K.NameRange = shift(K.NameRange);
        K.Value = expr(K.Value);
        K.Range = shift(K.Range);
      }
      N->ArgsRange = shift(N->ArgsRange);
      return N;
    }
    case ExprKind::Subscript: {
      auto *N = copy(*cast<SubscriptExpr>(E));
      N->Value = expr(N->Value);
      N->Index = expr(N->Index);
      return N;
    }
    case ExprKind::Slice: {
      auto *N = copy(*cast<SliceExpr>(E));
      N->Lower = expr(N->Lower);
      N->Upper = expr(N->Upper);
      N->Step = expr(N->Step);
      return N;
    }
    case ExprKind::Tuple: {
      auto *N = copy(*cast<TupleExpr>(E));
      exprs(N->Elts);
      return N;
    }
    case ExprKind::List: {
      auto *N = copy(*cast<ListExpr>(E));
      exprs(N->Elts);
      return N;
    }
    case ExprKind::ListComp: {
      auto *N = copy(*cast<ListCompExpr>(E));
      N->Elt = expr(N->Elt);
      for (Comprehension &C : N->Generators) {
        C.Target = expr(C.Target);
        C.Iter = expr(C.Iter);
        exprs(C.Ifs);
      }
      return N;
    }
    case ExprKind::BinOp: {
      auto *N = copy(*cast<BinOpExpr>(E));
      N->Lhs = expr(N->Lhs);
      N->Rhs = expr(N->Rhs);
      N->OpRange = shift(N->OpRange);
      return N;
    }
    case ExprKind::UnaryOp: {
      auto *N = copy(*cast<UnaryOpExpr>(E));
      N->Operand = expr(N->Operand);
      return N;
    }
    case ExprKind::BoolOp: {
      auto *N = copy(*cast<BoolOpExpr>(E));
      exprs(N->Values);
      return N;
    }
    case ExprKind::Compare: {
      auto *N = copy(*cast<CompareExpr>(E));
      N->Lhs = expr(N->Lhs);
      exprs(N->Comparators);
      for (SourceRange &R : N->OpRanges)
        R = shift(R);
      return N;
    }
    case ExprKind::IfExp: {
      auto *N = copy(*cast<IfExpExpr>(E));
      N->Test = expr(N->Test);
      N->Body = expr(N->Body);
      N->OrElse = expr(N->OrElse);
      return N;
    }
    case ExprKind::JoinedStr: {
      auto *N = copy(*cast<JoinedStrExpr>(E));
      exprs(N->Values);
      return N;
    }
    case ExprKind::Lambda: {
      auto *N = copy(*cast<LambdaExpr>(E));
      params(N->Params);
      N->Body = expr(N->Body);
      return N;
    }
    case ExprKind::Dict: {
      auto *N = copy(*cast<DictExpr>(E));
      exprs(N->Keys);
      exprs(N->Values);
      return N;
    }
    case ExprKind::Starred: {
      auto *N = copy(*cast<StarredExpr>(E));
      N->Value = expr(N->Value);
      return N;
    }
    case ExprKind::Unsupported: {
      auto *N = copy(*cast<UnsupportedExpr>(E));
      exprs(N->Children);
      return N;
    }
    case ExprKind::Error:
      return copy(*cast<ErrorExpr>(E));
    }
    return Into.make<ErrorExpr>(shift(E->Range));
  }

  Stmt *stmt(const Stmt *S) {
    switch (S->kind()) {
    case StmtKind::FunctionDef: {
      auto *N = copy(*cast<FunctionDefStmt>(S));
      N->NameRange = shift(N->NameRange);
      N->DefKeywordRange = shift(N->DefKeywordRange);
      exprs(N->Decorators);
      params(N->Params);
      N->Returns = expr(N->Returns);
      block(N->Body);
      return N;
    }
    case StmtKind::ClassDef: {
      auto *N = copy(*cast<ClassDefStmt>(S));
      N->NameRange = shift(N->NameRange);
      exprs(N->Decorators);
      block(N->Body);
      return N;
    }
    case StmtKind::Assign: {
      auto *N = copy(*cast<AssignStmt>(S));
      exprs(N->Targets);
      N->Value = expr(N->Value);
      return N;
    }
    case StmtKind::AnnAssign: {
      auto *N = copy(*cast<AnnAssignStmt>(S));
      N->Target = expr(N->Target);
      N->Annotation = expr(N->Annotation);
      N->Value = expr(N->Value);
      return N;
    }
    case StmtKind::AugAssign: {
      auto *N = copy(*cast<AugAssignStmt>(S));
      N->Target = expr(N->Target);
      N->Value = expr(N->Value);
      N->OpRange = shift(N->OpRange);
      return N;
    }
    case StmtKind::Return: {
      auto *N = copy(*cast<ReturnStmt>(S));
      N->Value = expr(N->Value);
      return N;
    }
    case StmtKind::If: {
      auto *N = copy(*cast<IfStmt>(S));
      N->Test = expr(N->Test);
      block(N->Body);
      block(N->OrElse);
      return N;
    }
    case StmtKind::For: {
      auto *N = copy(*cast<ForStmt>(S));
      N->Target = expr(N->Target);
      N->Iter = expr(N->Iter);
      block(N->Body);
      block(N->OrElse);
      return N;
    }
    case StmtKind::While: {
      auto *N = copy(*cast<WhileStmt>(S));
      N->Test = expr(N->Test);
      block(N->Body);
      block(N->OrElse);
      N->ElseRange = shift(N->ElseRange);
      return N;
    }
    case StmtKind::With: {
      auto *N = copy(*cast<WithStmt>(S));
      for (WithItem &W : N->Items) {
        W.ContextExpr = expr(W.ContextExpr);
        W.OptionalVars = expr(W.OptionalVars);
      }
      block(N->Body);
      return N;
    }
    case StmtKind::Pass:
    case StmtKind::Break:
    case StmtKind::Continue:
      return copy(*cast<SimpleStmt>(S));
    case StmtKind::ExprStmt: {
      auto *N = copy(*cast<ExprStmt>(S));
      N->Value = expr(N->Value);
      return N;
    }
    case StmtKind::Assert: {
      auto *N = copy(*cast<AssertStmt>(S));
      N->Test = expr(N->Test);
      N->Msg = expr(N->Msg);
      return N;
    }
    case StmtKind::Import: {
      auto *N = copy(*cast<ImportStmt>(S));
      for (ImportAlias &A : N->Names)
        A.Range = shift(A.Range);
      return N;
    }
    case StmtKind::ImportFrom: {
      auto *N = copy(*cast<ImportFromStmt>(S));
      for (ImportAlias &A : N->Names)
        A.Range = shift(A.Range);
      return N;
    }
    case StmtKind::Unsupported: {
      auto *N = copy(*cast<UnsupportedStmt>(S));
      N->KeywordRange = shift(N->KeywordRange);
      for (Block &B : N->Blocks)
        block(B);
      return N;
    }
    case StmtKind::Error:
      return copy(*cast<ErrorStmt>(S));
    }
    return Into.make<ErrorStmt>(shift(S->Range));
  }

private:
  int64_t Delta;
  Module &Into;

  /// A copy of every field of N in the new module, its own range moved.
  template <typename T> T *copy(const T &N) {
    T *C = Into.make<T>(N);
    C->Range = shift(N.Range);
    return C;
  }
  void exprs(std::vector<Expr *> &Es) {
    for (Expr *&E : Es)
      E = expr(E);
  }
  void block(Block &B) {
    for (Stmt *&S : B)
      S = stmt(S);
  }
  void params(std::vector<Param> &Ps) {
    for (Param &P : Ps) {
      P.NameRange = shift(P.NameRange);
      P.Annotation = expr(P.Annotation);
      P.Default = expr(P.Default);
      P.Range = shift(P.Range);
    }
  }
};

} // namespace

Stmt *cloneShifted(const Stmt *S, int64_t Delta, Module &Into) { return Cloner(Delta, Into).stmt(S); }

} // namespace tessel::ast
