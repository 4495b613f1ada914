//===- Ast.cpp - tessel's Python AST --------------------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The few out-of-line helpers of Ast.h: Python class names of nodes (Triton
/// quotes them in `unsupported AST node type: X`), operator spellings,
/// dotted names and docstrings.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Ast.h"

#include <algorithm>

namespace tessel::ast {

std::string_view Expr::pyName() const {
  switch (Kind) {
  case ExprKind::Name:
    return "Name";
  case ExprKind::Constant:
    return "Constant";
  case ExprKind::Attribute:
    return "Attribute";
  case ExprKind::Call:
    return "Call";
  case ExprKind::Subscript:
    return "Subscript";
  case ExprKind::Slice:
    return "Slice";
  case ExprKind::Tuple:
    return "Tuple";
  case ExprKind::List:
    return "List";
  case ExprKind::ListComp:
    return "ListComp";
  case ExprKind::BinOp:
    return "BinOp";
  case ExprKind::UnaryOp:
    return "UnaryOp";
  case ExprKind::BoolOp:
    return "BoolOp";
  case ExprKind::Compare:
    return "Compare";
  case ExprKind::IfExp:
    return "IfExp";
  case ExprKind::JoinedStr:
    return "JoinedStr";
  case ExprKind::Lambda:
    return "Lambda";
  case ExprKind::Dict:
    return "Dict";
  case ExprKind::Starred:
    return "Starred";
  case ExprKind::Unsupported:
    return static_cast<const UnsupportedExpr *>(this)->PyName;
  case ExprKind::Error:
    return "Error";
  }
  return "Error";
}

std::string_view Stmt::pyName() const {
  switch (Kind) {
  case StmtKind::FunctionDef:
    return static_cast<const FunctionDefStmt *>(this)->IsAsync ? "AsyncFunctionDef" : "FunctionDef";
  case StmtKind::ClassDef:
    return "ClassDef";
  case StmtKind::Assign:
    return "Assign";
  case StmtKind::AnnAssign:
    return "AnnAssign";
  case StmtKind::AugAssign:
    return "AugAssign";
  case StmtKind::Return:
    return "Return";
  case StmtKind::If:
    return "If";
  case StmtKind::For:
    return static_cast<const ForStmt *>(this)->IsAsync ? "AsyncFor" : "For";
  case StmtKind::While:
    return "While";
  case StmtKind::With:
    return static_cast<const WithStmt *>(this)->IsAsync ? "AsyncWith" : "With";
  case StmtKind::Pass:
    return "Pass";
  case StmtKind::Break:
    return "Break";
  case StmtKind::Continue:
    return "Continue";
  case StmtKind::ExprStmt:
    return "Expr";
  case StmtKind::Assert:
    return "Assert";
  case StmtKind::Import:
    return "Import";
  case StmtKind::ImportFrom:
    return "ImportFrom";
  case StmtKind::Unsupported:
    return static_cast<const UnsupportedStmt *>(this)->PyName;
  case StmtKind::Error:
    return "Error";
  }
  return "Error";
}

std::string_view spelling(BinOpKind Op) {
  switch (Op) {
  case BinOpKind::Add:
    return "+";
  case BinOpKind::Sub:
    return "-";
  case BinOpKind::Mult:
    return "*";
  case BinOpKind::MatMult:
    return "@";
  case BinOpKind::Div:
    return "/";
  case BinOpKind::FloorDiv:
    return "//";
  case BinOpKind::Mod:
    return "%";
  case BinOpKind::Pow:
    return "**";
  case BinOpKind::LShift:
    return "<<";
  case BinOpKind::RShift:
    return ">>";
  case BinOpKind::BitOr:
    return "|";
  case BinOpKind::BitXor:
    return "^";
  case BinOpKind::BitAnd:
    return "&";
  }
  return "?";
}

std::string_view spelling(UnaryOpKind Op) {
  switch (Op) {
  case UnaryOpKind::Invert:
    return "~";
  case UnaryOpKind::Not:
    return "not";
  case UnaryOpKind::UAdd:
    return "+";
  case UnaryOpKind::USub:
    return "-";
  }
  return "?";
}

std::string_view spelling(CmpOpKind Op) {
  switch (Op) {
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::NotEq:
    return "!=";
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::LtE:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::GtE:
    return ">=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  return "?";
}

const Keyword *CallExpr::keyword(std::string_view Name) const {
  for (const Keyword &K : Keywords)
    if (!K.Name.empty() && K.Name == Name)
      return &K;
  return nullptr;
}

const ConstantExpr *FunctionDefStmt::docstring() const {
  if (Body.empty())
    return nullptr;
  const auto *S = dyn_cast<ExprStmt>(Body.front());
  if (!S)
    return nullptr;
  const auto *C = dyn_cast<ConstantExpr>(S->Value);
  return C && C->CK == ConstantKind::String ? C : nullptr;
}

NodeArena::~NodeArena() {
  for (Expr *E : Exprs)
    E->~Expr();
  for (Stmt *S : Stmts)
    S->~Stmt();
}

void *NodeArena::allocate(size_t Size, size_t Align) {
  size_t At = (Used + Align - 1) & ~(Align - 1);
  if (Blocks.empty() || At + Size > Capacity) {
    // Blocks double up to 64 KiB: few blocks for a large module, and each
    // stays under malloc's mmap threshold (a fresh mapping per block would
    // fault in every page).
    Capacity = std::max(Size + Align, std::min<size_t>(std::max<size_t>(8u << 10, Capacity * 2), 64u << 10));
    Blocks.push_back(std::make_unique_for_overwrite<std::byte[]>(Capacity));
    Total += Capacity;
    Used = 0;
    At = 0;
    size_t Mis = reinterpret_cast<uintptr_t>(Blocks.back().get()) % Align;
    if (Mis)
      At = Align - Mis;
  }
  Used = At + Size;
  return Blocks.back().get() + At;
}

void Module::keep(std::shared_ptr<const NodeArena> A) {
  // Consecutive statements mostly share an arena: the last one kept first.
  if (!A || A == Nodes || (!Kept.empty() && Kept.back() == A))
    return;
  for (const auto &K : Kept)
    if (K == A)
      return;
  Kept.push_back(std::move(A));
}

std::string dottedName(const Expr *E) {
  if (const auto *N = dyn_cast<NameExpr>(E))
    return N->Id;
  const auto *A = dyn_cast<AttributeExpr>(E);
  if (!A)
    return {};
  std::string Head = dottedName(A->Value);
  if (Head.empty())
    return {};
  return Head + "." + A->Attr;
}

} // namespace tessel::ast
