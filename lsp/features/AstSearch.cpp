//===- AstSearch.cpp - finding AST nodes by position ----------------------===//
/// \file
/// A recursive walk over every statement and expression kind of Ast.h. New
/// node kinds must be added to the two switches (no default, so -Wswitch
/// points here).
//===----------------------------------------------------------------------===//
#include "lsp/features/AstSearch.h"

namespace tessel::lsp {

using namespace ast;
using ExprFn = std::function<void(const Expr &)>;

static void walkExpr(const Expr *E, const ExprFn &Fn);
static void walkBlock(const Block &B, const ExprFn &Fn);

static void walkParams(const std::vector<Param> &Params, const ExprFn &Fn) {
  for (const Param &P : Params) {
    walkExpr(P.Annotation, Fn);
    walkExpr(P.Default, Fn);
  }
}

static void walkExpr(const Expr *E, const ExprFn &Fn) {
  if (!E)
    return;
  Fn(*E);
  switch (E->kind()) {
  case ExprKind::Name:
  case ExprKind::Constant:
  case ExprKind::Error:
    return;
  case ExprKind::Attribute:
    return walkExpr(cast<AttributeExpr>(E)->Value, Fn);
  case ExprKind::Call: {
    auto *C = cast<CallExpr>(E);
    walkExpr(C->Func, Fn);
    for (const Expr *A : C->Args)
      walkExpr(A, Fn);
    for (const Keyword &K : C->Keywords)
      walkExpr(K.Value, Fn);
    return;
  }
  case ExprKind::Subscript:
    walkExpr(cast<SubscriptExpr>(E)->Value, Fn);
    return walkExpr(cast<SubscriptExpr>(E)->Index, Fn);
  case ExprKind::Slice: {
    auto *S = cast<SliceExpr>(E);
    walkExpr(S->Lower, Fn);
    walkExpr(S->Upper, Fn);
    return walkExpr(S->Step, Fn);
  }
  case ExprKind::Tuple:
    for (const Expr *X : cast<TupleExpr>(E)->Elts)
      walkExpr(X, Fn);
    return;
  case ExprKind::List:
    for (const Expr *X : cast<ListExpr>(E)->Elts)
      walkExpr(X, Fn);
    return;
  case ExprKind::ListComp: {
    auto *L = cast<ListCompExpr>(E);
    walkExpr(L->Elt, Fn);
    for (const Comprehension &C : L->Generators) {
      walkExpr(C.Target, Fn);
      walkExpr(C.Iter, Fn);
      for (const Expr *I : C.Ifs)
        walkExpr(I, Fn);
    }
    return;
  }
  case ExprKind::BinOp:
    walkExpr(cast<BinOpExpr>(E)->Lhs, Fn);
    return walkExpr(cast<BinOpExpr>(E)->Rhs, Fn);
  case ExprKind::UnaryOp:
    return walkExpr(cast<UnaryOpExpr>(E)->Operand, Fn);
  case ExprKind::BoolOp:
    for (const Expr *X : cast<BoolOpExpr>(E)->Values)
      walkExpr(X, Fn);
    return;
  case ExprKind::Compare: {
    auto *C = cast<CompareExpr>(E);
    walkExpr(C->Lhs, Fn);
    for (const Expr *X : C->Comparators)
      walkExpr(X, Fn);
    return;
  }
  case ExprKind::IfExp: {
    auto *I = cast<IfExpExpr>(E);
    walkExpr(I->Test, Fn);
    walkExpr(I->Body, Fn);
    return walkExpr(I->OrElse, Fn);
  }
  case ExprKind::JoinedStr:
    for (const Expr *X : cast<JoinedStrExpr>(E)->Values)
      walkExpr(X, Fn);
    return;
  case ExprKind::Lambda:
    walkParams(cast<LambdaExpr>(E)->Params, Fn);
    return walkExpr(cast<LambdaExpr>(E)->Body, Fn);
  case ExprKind::Dict: {
    auto *D = cast<DictExpr>(E);
    for (const Expr *K : D->Keys)
      walkExpr(K, Fn);
    for (const Expr *V : D->Values)
      walkExpr(V, Fn);
    return;
  }
  case ExprKind::Starred:
    return walkExpr(cast<StarredExpr>(E)->Value, Fn);
  case ExprKind::Unsupported:
    for (const Expr *X : cast<UnsupportedExpr>(E)->Children)
      walkExpr(X, Fn);
    return;
  }
}

static void walkStmt(const Stmt *S, const ExprFn &Fn) {
  if (!S)
    return;
  switch (S->kind()) {
  case StmtKind::FunctionDef: {
    auto *F = cast<FunctionDefStmt>(S);
    for (const Expr *D : F->Decorators)
      walkExpr(D, Fn);
    walkParams(F->Params, Fn);
    walkExpr(F->Returns, Fn);
    return walkBlock(F->Body, Fn);
  }
  case StmtKind::ClassDef:
    for (const Expr *D : cast<ClassDefStmt>(S)->Decorators)
      walkExpr(D, Fn);
    return walkBlock(cast<ClassDefStmt>(S)->Body, Fn);
  case StmtKind::Assign:
    for (const Expr *T : cast<AssignStmt>(S)->Targets)
      walkExpr(T, Fn);
    return walkExpr(cast<AssignStmt>(S)->Value, Fn);
  case StmtKind::AnnAssign: {
    auto *A = cast<AnnAssignStmt>(S);
    walkExpr(A->Target, Fn);
    walkExpr(A->Annotation, Fn);
    return walkExpr(A->Value, Fn);
  }
  case StmtKind::AugAssign:
    walkExpr(cast<AugAssignStmt>(S)->Target, Fn);
    return walkExpr(cast<AugAssignStmt>(S)->Value, Fn);
  case StmtKind::Return:
    return walkExpr(cast<ReturnStmt>(S)->Value, Fn);
  case StmtKind::If:
    walkExpr(cast<IfStmt>(S)->Test, Fn);
    walkBlock(cast<IfStmt>(S)->Body, Fn);
    return walkBlock(cast<IfStmt>(S)->OrElse, Fn);
  case StmtKind::For: {
    auto *F = cast<ForStmt>(S);
    walkExpr(F->Target, Fn);
    walkExpr(F->Iter, Fn);
    walkBlock(F->Body, Fn);
    return walkBlock(F->OrElse, Fn);
  }
  case StmtKind::While:
    walkExpr(cast<WhileStmt>(S)->Test, Fn);
    walkBlock(cast<WhileStmt>(S)->Body, Fn);
    return walkBlock(cast<WhileStmt>(S)->OrElse, Fn);
  case StmtKind::With:
    for (const WithItem &I : cast<WithStmt>(S)->Items) {
      walkExpr(I.ContextExpr, Fn);
      walkExpr(I.OptionalVars, Fn);
    }
    return walkBlock(cast<WithStmt>(S)->Body, Fn);
  case StmtKind::ExprStmt:
    return walkExpr(cast<ExprStmt>(S)->Value, Fn);
  case StmtKind::Assert:
    walkExpr(cast<AssertStmt>(S)->Test, Fn);
    return walkExpr(cast<AssertStmt>(S)->Msg, Fn);
  case StmtKind::Unsupported:
    for (const Block &B : cast<UnsupportedStmt>(S)->Blocks)
      walkBlock(B, Fn);
    return;
  case StmtKind::Pass:
  case StmtKind::Break:
  case StmtKind::Continue:
  case StmtKind::Import:
  case StmtKind::ImportFrom:
  case StmtKind::Error:
    return;
  }
}

static void walkBlock(const Block &B, const ExprFn &Fn) {
  for (const Stmt *S : B)
    walkStmt(S, Fn);
}

void forEachExpr(const Module &M, const ExprFn &Fn) { walkBlock(M.Body, Fn); }
void forEachExpr(const Stmt &S, const ExprFn &Fn) { walkStmt(&S, Fn); }

const Expr *innermostExprAt(const Module &M, uint32_t Offset) {
  const Expr *Best = nullptr;
  forEachExpr(M, [&](const Expr &E) {
    if (!touches(E.Range, Offset))
      return;
    uint32_t Size = E.Range.End - E.Range.Begin;
    // Prefer the smaller node; on a tie the later (inner) one, since the walk
    // visits parents first.
    if (!Best || Size <= Best->Range.End - Best->Range.Begin)
      Best = &E;
  });
  return Best;
}

const FunctionDefStmt *functionAt(const Module &M, uint32_t Offset) {
  for (const Stmt *S : M.Body)
    if (auto *F = dyn_cast<FunctionDefStmt>(S); F && touches(F->Range, Offset))
      return F;
  return nullptr;
}

} // namespace tessel::lsp
