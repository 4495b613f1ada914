//===- AstWalk.cpp - visiting every node under a statement ----------------===//
/// \file
/// Implements Walker: one switch over statement kinds and one over
/// expression kinds, visiting children in source order.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/AstWalk.h"

namespace tessel::ast {

void Walker::walk(const Block &B) const {
  for (const Stmt *S : B)
    walk(S);
}

void Walker::walk(const Stmt *S) const {
  if (!S || (OnStmt && !OnStmt(S)))
    return;
  switch (S->kind()) {
  case StmtKind::FunctionDef: {
    const auto *F = cast<FunctionDefStmt>(S);
    for (const Expr *D : F->Decorators)
      walk(D);
    for (const Param &P : F->Params) {
      walk(P.Annotation);
      walk(P.Default);
    }
    walk(F->Returns);
    walk(F->Body);
    return;
  }
  case StmtKind::ClassDef: {
    const auto *C = cast<ClassDefStmt>(S);
    for (const Expr *D : C->Decorators)
      walk(D);
    walk(C->Body);
    return;
  }
  case StmtKind::Assign: {
    const auto *A = cast<AssignStmt>(S);
    for (const Expr *T : A->Targets)
      walk(T);
    walk(A->Value);
    return;
  }
  case StmtKind::AnnAssign: {
    const auto *A = cast<AnnAssignStmt>(S);
    walk(A->Target);
    walk(A->Annotation);
    walk(A->Value);
    return;
  }
  case StmtKind::AugAssign: {
    const auto *A = cast<AugAssignStmt>(S);
    walk(A->Target);
    walk(A->Value);
    return;
  }
  case StmtKind::Return:
    walk(cast<ReturnStmt>(S)->Value);
    return;
  case StmtKind::If: {
    const auto *I = cast<IfStmt>(S);
    walk(I->Test);
    walk(I->Body);
    walk(I->OrElse);
    return;
  }
  case StmtKind::For: {
    const auto *F = cast<ForStmt>(S);
    walk(F->Target);
    walk(F->Iter);
    walk(F->Body);
    walk(F->OrElse);
    return;
  }
  case StmtKind::While: {
    const auto *W = cast<WhileStmt>(S);
    walk(W->Test);
    walk(W->Body);
    walk(W->OrElse);
    return;
  }
  case StmtKind::With: {
    const auto *W = cast<WithStmt>(S);
    for (const WithItem &I : W->Items) {
      walk(I.ContextExpr);
      walk(I.OptionalVars);
    }
    walk(W->Body);
    return;
  }
  case StmtKind::ExprStmt:
    walk(cast<ExprStmt>(S)->Value);
    return;
  case StmtKind::Assert: {
    const auto *A = cast<AssertStmt>(S);
    walk(A->Test);
    walk(A->Msg);
    return;
  }
  case StmtKind::Unsupported:
    for (const Block &B : cast<UnsupportedStmt>(S)->Blocks)
      walk(B);
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

void Walker::walk(const Expr *E) const {
  if (!E)
    return;
  if (OnExpr)
    OnExpr(E);
  auto All = [&](const std::vector<Expr *> &Es) {
    for (const Expr *X : Es)
      walk(X);
  };
  switch (E->kind()) {
  case ExprKind::Attribute:
    walk(cast<AttributeExpr>(E)->Value);
    return;
  case ExprKind::Call: {
    const auto *C = cast<CallExpr>(E);
    walk(C->Func);
    All(C->Args);
    for (const Keyword &K : C->Keywords)
      walk(K.Value);
    return;
  }
  case ExprKind::Subscript: {
    const auto *S = cast<SubscriptExpr>(E);
    walk(S->Value);
    walk(S->Index);
    return;
  }
  case ExprKind::Slice: {
    const auto *S = cast<SliceExpr>(E);
    walk(S->Lower);
    walk(S->Upper);
    walk(S->Step);
    return;
  }
  case ExprKind::Tuple:
    All(cast<TupleExpr>(E)->Elts);
    return;
  case ExprKind::List:
    All(cast<ListExpr>(E)->Elts);
    return;
  case ExprKind::ListComp: {
    const auto *L = cast<ListCompExpr>(E);
    walk(L->Elt);
    for (const Comprehension &G : L->Generators) {
      walk(G.Target);
      walk(G.Iter);
      All(G.Ifs);
    }
    return;
  }
  case ExprKind::BinOp: {
    const auto *B = cast<BinOpExpr>(E);
    walk(B->Lhs);
    walk(B->Rhs);
    return;
  }
  case ExprKind::UnaryOp:
    walk(cast<UnaryOpExpr>(E)->Operand);
    return;
  case ExprKind::BoolOp:
    All(cast<BoolOpExpr>(E)->Values);
    return;
  case ExprKind::Compare: {
    const auto *C = cast<CompareExpr>(E);
    walk(C->Lhs);
    All(C->Comparators);
    return;
  }
  case ExprKind::IfExp: {
    const auto *I = cast<IfExpExpr>(E);
    walk(I->Test);
    walk(I->Body);
    walk(I->OrElse);
    return;
  }
  case ExprKind::JoinedStr:
    All(cast<JoinedStrExpr>(E)->Values);
    return;
  case ExprKind::Lambda: {
    const auto *L = cast<LambdaExpr>(E);
    for (const Param &P : L->Params)
      walk(P.Default);
    walk(L->Body);
    return;
  }
  case ExprKind::Dict: {
    const auto *D = cast<DictExpr>(E);
    for (size_t I = 0; I < D->Values.size(); ++I) {
      walk(D->Keys[I]);
      walk(D->Values[I]);
    }
    return;
  }
  case ExprKind::Starred:
    walk(cast<StarredExpr>(E)->Value);
    return;
  case ExprKind::Unsupported:
    All(cast<UnsupportedExpr>(E)->Children);
    return;
  case ExprKind::Name:
  case ExprKind::Constant:
  case ExprKind::Error:
    return;
  }
}

/// Names a statement binds at its own level (assignment targets, loop
/// variables, list receivers of append/extend).
void boundNames(const Stmt *S, std::set<std::string> &Out) {
  Walker W;
  std::function<void(const Expr *)> Target = [&](const Expr *T) {
    if (const auto *N = dyn_cast<NameExpr>(T))
      Out.insert(N->Id);
    else if (const auto *Tu = dyn_cast<TupleExpr>(T))
      for (const Expr *E : Tu->Elts)
        Target(E);
    else if (const auto *L = dyn_cast<ListExpr>(T))
      for (const Expr *E : L->Elts)
        Target(E);
    else if (const auto *St = dyn_cast<StarredExpr>(T))
      Target(St->Value);
    else if (const auto *Sub = dyn_cast<SubscriptExpr>(T))
      Target(Sub->Value);
  };
  W.OnStmt = [&](const Stmt *X) {
    if (const auto *A = dyn_cast<AssignStmt>(X))
      for (const Expr *T : A->Targets)
        Target(T);
    else if (const auto *An = dyn_cast<AnnAssignStmt>(X))
      Target(An->Target);
    else if (const auto *Au = dyn_cast<AugAssignStmt>(X))
      Target(Au->Target);
    else if (const auto *F = dyn_cast<ForStmt>(X))
      Target(F->Target);
    else if (const auto *Fn = dyn_cast<FunctionDefStmt>(X)) {
      Out.insert(Fn->Name);
      return false;
    } else if (const auto *C = dyn_cast<ClassDefStmt>(X)) {
      Out.insert(C->Name);
      return false;
    } else if (const auto *W2 = dyn_cast<WithStmt>(X)) {
      for (const WithItem &I : W2->Items)
        if (I.OptionalVars)
          Target(I.OptionalVars);
    } else if (const auto *I = dyn_cast<ImportStmt>(X)) {
      for (const ImportAlias &A : I->Names)
        Out.insert(A.AsName.empty() ? A.Name.substr(0, A.Name.find('.')) : A.AsName);
    } else if (const auto *IF = dyn_cast<ImportFromStmt>(X)) {
      for (const ImportAlias &A : IF->Names)
        Out.insert(A.AsName.empty() ? A.Name : A.AsName);
    }
    return true;
  };
  W.OnExpr = [&](const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E);
    const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr;
    if (A && (A->Attr == "append" || A->Attr == "extend" || A->Attr == "insert"))
      if (const auto *N = dyn_cast<NameExpr>(A->Value))
        Out.insert(N->Id);
  };
  W.walk(S);
}

} // namespace tessel::ast
