//===- Ast.h - tessel's Python AST ------------------------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The syntax tree every later stage reads: a faithful subset of Python's own
/// `ast` module, built from tree-sitter's concrete tree by Parser.cpp.
///
/// Why mirror Python's `ast`: Triton's CodeGenerator walks exactly these node
/// classes, and its error for anything else names the class
/// (`unsupported AST node type: Lambda`). So every Python construct a user can
/// write maps to a node whose `pyName()` is the class name Python would use;
/// constructs tessel never needs to look inside still get a node
/// (UnsupportedStmt / UnsupportedExpr) so that the error can be reported at
/// the right token.
///
/// Ownership: all nodes of a file live in arenas the Module holds (shared
/// with other modules after an incremental reparse); nodes are never changed
/// once their module is built.
/// Children are plain pointers, never null unless the field says "nullable".
/// Every node carries the byte range of its source text.
///
/// Broken code is the normal case: where tree-sitter found an error the
/// parser emits an ErrorExpr / ErrorStmt and records a SyntaxError, and all
/// well-formed siblings are still built.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_AST_H
#define TESSEL_COMPILER_FRONTEND_AST_H

#include "compiler/support/SourceRange.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tessel::ast {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Name,
  Constant,
  Attribute,
  Call,
  Subscript,
  Slice,
  Tuple,
  List,
  ListComp,
  BinOp,
  UnaryOp,
  BoolOp,
  Compare,
  IfExp,
  JoinedStr,
  Lambda,
  Dict,
  Starred,
  Unsupported, ///< Set, SetComp, DictComp, GeneratorExp, NamedExpr, Await, Yield...
  Error,       ///< tree-sitter could not parse this expression
};

class Expr {
public:
  Expr(ExprKind Kind, SourceRange Range) : Kind(Kind), Range(Range) {}
  virtual ~Expr() = default;
  ExprKind kind() const { return Kind; }
  /// Python's `ast` class name of this node ("Name", "Lambda", ...).
  std::string_view pyName() const;

  const ExprKind Kind;
  SourceRange Range;
};

class NameExpr final : public Expr {
public:
  NameExpr(SourceRange R, std::string Id) : Expr(ExprKind::Name, R), Id(std::move(Id)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Name; }
  std::string Id;
};

enum class ConstantKind { None, Bool, Int, Float, String, Bytes, Ellipsis };

class ConstantExpr final : public Expr {
public:
  ConstantExpr(SourceRange R, ConstantKind CK) : Expr(ExprKind::Constant, R), CK(CK) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Constant; }
  ConstantKind CK;
  bool BoolValue = false;
  /// Int literals: the value when it fits in 64 bits (as unsigned bits of the
  /// magnitude when IntIsUnsigned64), otherwise IntOverflow is set.
  int64_t IntValue = 0;
  bool IntIsUnsigned64 = false; ///< 2**63 <= value < 2**64, stored in IntValue bits
  bool IntOverflow = false;     ///< value >= 2**64
  double FloatValue = 0;
  std::string StrValue; ///< decoded String/Bytes contents (escapes resolved)
};

class AttributeExpr final : public Expr {
public:
  AttributeExpr(SourceRange R, Expr *Value, std::string Attr, SourceRange AttrRange)
      : Expr(ExprKind::Attribute, R), Value(Value), Attr(std::move(Attr)), AttrRange(AttrRange) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Attribute; }
  Expr *Value;
  std::string Attr;
  SourceRange AttrRange; ///< the identifier after the dot
};

/// `name=value` in a call; `**value` has an empty Name.
struct Keyword {
  std::string Name;
  SourceRange NameRange;
  Expr *Value = nullptr;
  SourceRange Range; ///< the whole `name=value`
};

class CallExpr final : public Expr {
public:
  CallExpr(SourceRange R, Expr *Func) : Expr(ExprKind::Call, R), Func(Func) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Call; }
  Expr *Func;
  std::vector<Expr *> Args; ///< positional; `*x` is a StarredExpr
  std::vector<Keyword> Keywords;
  SourceRange ArgsRange; ///< the parenthesised argument list
  const Keyword *keyword(std::string_view Name) const;
};

class SubscriptExpr final : public Expr {
public:
  SubscriptExpr(SourceRange R, Expr *Value, Expr *Index) : Expr(ExprKind::Subscript, R), Value(Value), Index(Index) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Subscript; }
  Expr *Value;
  /// `x[a]` -> a; `x[a, b]` -> TupleExpr(a, b); slices are SliceExpr.
  Expr *Index;
};

class SliceExpr final : public Expr {
public:
  explicit SliceExpr(SourceRange R) : Expr(ExprKind::Slice, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Slice; }
  Expr *Lower = nullptr; ///< nullable
  Expr *Upper = nullptr; ///< nullable
  Expr *Step = nullptr;  ///< nullable
};

class TupleExpr final : public Expr {
public:
  explicit TupleExpr(SourceRange R) : Expr(ExprKind::Tuple, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Tuple; }
  std::vector<Expr *> Elts;
};

class ListExpr final : public Expr {
public:
  explicit ListExpr(SourceRange R) : Expr(ExprKind::List, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::List; }
  std::vector<Expr *> Elts;
};

/// One `for Target in Iter if Cond...` clause of a comprehension.
struct Comprehension {
  Expr *Target = nullptr;
  Expr *Iter = nullptr;
  std::vector<Expr *> Ifs;
};

class ListCompExpr final : public Expr {
public:
  explicit ListCompExpr(SourceRange R) : Expr(ExprKind::ListComp, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::ListComp; }
  Expr *Elt = nullptr;
  std::vector<Comprehension> Generators;
};

enum class BinOpKind { Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd };
/// The Python spelling: "+", "//", "**"...
std::string_view spelling(BinOpKind Op);

class BinOpExpr final : public Expr {
public:
  BinOpExpr(SourceRange R, BinOpKind Op, Expr *Lhs, Expr *Rhs, SourceRange OpRange)
      : Expr(ExprKind::BinOp, R), Op(Op), Lhs(Lhs), Rhs(Rhs), OpRange(OpRange) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::BinOp; }
  BinOpKind Op;
  Expr *Lhs;
  Expr *Rhs;
  SourceRange OpRange;
};

enum class UnaryOpKind { Invert, Not, UAdd, USub };
std::string_view spelling(UnaryOpKind Op);

class UnaryOpExpr final : public Expr {
public:
  UnaryOpExpr(SourceRange R, UnaryOpKind Op, Expr *Operand) : Expr(ExprKind::UnaryOp, R), Op(Op), Operand(Operand) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::UnaryOp; }
  UnaryOpKind Op;
  Expr *Operand;
};

enum class BoolOpKind { And, Or };

class BoolOpExpr final : public Expr {
public:
  BoolOpExpr(SourceRange R, BoolOpKind Op) : Expr(ExprKind::BoolOp, R), Op(Op) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::BoolOp; }
  BoolOpKind Op;
  std::vector<Expr *> Values; ///< at least two
};

enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
std::string_view spelling(CmpOpKind Op);

class CompareExpr final : public Expr {
public:
  CompareExpr(SourceRange R, Expr *Lhs) : Expr(ExprKind::Compare, R), Lhs(Lhs) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Compare; }
  Expr *Lhs;
  std::vector<CmpOpKind> Ops; ///< Ops.size() == Comparators.size() >= 1
  std::vector<Expr *> Comparators;
  std::vector<SourceRange> OpRanges;
};

class IfExpExpr final : public Expr {
public:
  IfExpExpr(SourceRange R, Expr *Test, Expr *Body, Expr *OrElse)
      : Expr(ExprKind::IfExp, R), Test(Test), Body(Body), OrElse(OrElse) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::IfExp; }
  Expr *Test;
  Expr *Body;
  Expr *OrElse;
};

/// An f-string. Values holds the interpolated expressions; the literal text
/// is kept only as the whole node's source.
class JoinedStrExpr final : public Expr {
public:
  explicit JoinedStrExpr(SourceRange R) : Expr(ExprKind::JoinedStr, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::JoinedStr; }
  std::vector<Expr *> Values;
};

/// Function parameters, shared by `def` and `lambda`.
struct Param {
  enum class ParamKind { Positional, KeywordOnly, VarArgs, VarKeywords };
  std::string Name;
  SourceRange NameRange;
  ParamKind PKind = ParamKind::Positional;
  Expr *Annotation = nullptr; ///< nullable
  Expr *Default = nullptr;    ///< nullable
  SourceRange Range;          ///< the whole parameter, annotation and default included
};

class LambdaExpr final : public Expr {
public:
  LambdaExpr(SourceRange R, Expr *Body) : Expr(ExprKind::Lambda, R), Body(Body) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Lambda; }
  std::vector<Param> Params;
  Expr *Body;
};

class DictExpr final : public Expr {
public:
  explicit DictExpr(SourceRange R) : Expr(ExprKind::Dict, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Dict; }
  std::vector<Expr *> Keys; ///< a null key is a `**mapping` entry
  std::vector<Expr *> Values;
};

class StarredExpr final : public Expr {
public:
  StarredExpr(SourceRange R, Expr *Value) : Expr(ExprKind::Starred, R), Value(Value) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Starred; }
  Expr *Value;
};

/// A construct tessel never looks inside; PyName is Python's class name.
class UnsupportedExpr final : public Expr {
public:
  UnsupportedExpr(SourceRange R, std::string PyName) : Expr(ExprKind::Unsupported, R), PyName(std::move(PyName)) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Unsupported; }
  std::string PyName;
  std::vector<Expr *> Children; ///< sub-expressions, for passes that only need names
};

class ErrorExpr final : public Expr {
public:
  explicit ErrorExpr(SourceRange R) : Expr(ExprKind::Error, R) {}
  static bool classof(const Expr *E) { return E->kind() == ExprKind::Error; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

enum class StmtKind {
  FunctionDef,
  ClassDef,
  Assign,
  AnnAssign,
  AugAssign,
  Return,
  If,
  For,
  While,
  With,
  Pass,
  Break,
  Continue,
  ExprStmt, ///< Python's `Expr` statement
  Assert,
  Import,
  ImportFrom,
  Unsupported, ///< Raise, Try, Global, Nonlocal, Delete, Match, AsyncFor...
  Error,
};

class Stmt {
public:
  Stmt(StmtKind Kind, SourceRange Range) : Kind(Kind), Range(Range) {}
  virtual ~Stmt() = default;
  StmtKind kind() const { return Kind; }
  std::string_view pyName() const;

  const StmtKind Kind;
  SourceRange Range;
};

using Block = std::vector<Stmt *>;

class FunctionDefStmt final : public Stmt {
public:
  FunctionDefStmt(SourceRange R, std::string Name, SourceRange NameRange)
      : Stmt(StmtKind::FunctionDef, R), Name(std::move(Name)), NameRange(NameRange) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::FunctionDef; }
  std::string Name;
  SourceRange NameRange;
  /// The `def` keyword; Triton's line numbers count from here.
  SourceRange DefKeywordRange;
  std::vector<Expr *> Decorators; ///< outermost first, without the `@`
  std::vector<Param> Params;
  Expr *Returns = nullptr; ///< nullable
  Block Body;
  bool IsAsync = false;
  /// The docstring, when the body starts with a string literal.
  const ConstantExpr *docstring() const;
};

class ClassDefStmt final : public Stmt {
public:
  ClassDefStmt(SourceRange R, std::string Name, SourceRange NameRange)
      : Stmt(StmtKind::ClassDef, R), Name(std::move(Name)), NameRange(NameRange) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::ClassDef; }
  std::string Name;
  SourceRange NameRange;
  std::vector<Expr *> Decorators;
  Block Body;
};

class AssignStmt final : public Stmt {
public:
  AssignStmt(SourceRange R, Expr *Value) : Stmt(StmtKind::Assign, R), Value(Value) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Assign; }
  /// `a = b = v` has Targets {a, b}; `a, b = v` has one TupleExpr target.
  std::vector<Expr *> Targets;
  Expr *Value;
};

class AnnAssignStmt final : public Stmt {
public:
  AnnAssignStmt(SourceRange R, Expr *Target, Expr *Annotation, Expr *Value)
      : Stmt(StmtKind::AnnAssign, R), Target(Target), Annotation(Annotation), Value(Value) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::AnnAssign; }
  Expr *Target;
  Expr *Annotation;
  Expr *Value; ///< nullable
};

class AugAssignStmt final : public Stmt {
public:
  AugAssignStmt(SourceRange R, Expr *Target, BinOpKind Op, Expr *Value, SourceRange OpRange)
      : Stmt(StmtKind::AugAssign, R), Target(Target), Op(Op), Value(Value), OpRange(OpRange) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::AugAssign; }
  Expr *Target;
  BinOpKind Op;
  Expr *Value;
  SourceRange OpRange;
};

class ReturnStmt final : public Stmt {
public:
  ReturnStmt(SourceRange R, Expr *Value) : Stmt(StmtKind::Return, R), Value(Value) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Return; }
  Expr *Value; ///< nullable
};

/// `if`/`elif`/`else`; an `elif` is an IfStmt alone in OrElse, as in Python.
class IfStmt final : public Stmt {
public:
  IfStmt(SourceRange R, Expr *Test) : Stmt(StmtKind::If, R), Test(Test) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::If; }
  Expr *Test;
  Block Body;
  Block OrElse;
  bool IsElif = false; ///< this node came from an `elif` clause
};

class ForStmt final : public Stmt {
public:
  ForStmt(SourceRange R, Expr *Target, Expr *Iter) : Stmt(StmtKind::For, R), Target(Target), Iter(Iter) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::For; }
  Expr *Target;
  Expr *Iter;
  Block Body;
  Block OrElse;
  bool IsAsync = false;
};

class WhileStmt final : public Stmt {
public:
  WhileStmt(SourceRange R, Expr *Test) : Stmt(StmtKind::While, R), Test(Test) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::While; }
  Expr *Test;
  Block Body;
  Block OrElse;
  SourceRange ElseRange; ///< the `else` keyword, when OrElse is not empty
};

struct WithItem {
  Expr *ContextExpr = nullptr;
  Expr *OptionalVars = nullptr; ///< nullable
};

class WithStmt final : public Stmt {
public:
  explicit WithStmt(SourceRange R) : Stmt(StmtKind::With, R) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::With; }
  std::vector<WithItem> Items;
  Block Body;
  bool IsAsync = false;
};

/// Pass, Break and Continue: nothing but a kind and a range.
class SimpleStmt final : public Stmt {
public:
  SimpleStmt(StmtKind K, SourceRange R) : Stmt(K, R) {}
  static bool classof(const Stmt *S) {
    return S->kind() == StmtKind::Pass || S->kind() == StmtKind::Break || S->kind() == StmtKind::Continue;
  }
};

class ExprStmt final : public Stmt {
public:
  ExprStmt(SourceRange R, Expr *Value) : Stmt(StmtKind::ExprStmt, R), Value(Value) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::ExprStmt; }
  Expr *Value;
};

class AssertStmt final : public Stmt {
public:
  AssertStmt(SourceRange R, Expr *Test, Expr *Msg) : Stmt(StmtKind::Assert, R), Test(Test), Msg(Msg) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Assert; }
  Expr *Test;
  Expr *Msg; ///< nullable
};

/// `import a.b as c` (one alias per imported dotted name).
struct ImportAlias {
  std::string Name;   ///< dotted, "triton.language"; "*" for `from m import *`
  std::string AsName; ///< empty when there is no `as`
  SourceRange Range;
};

class ImportStmt final : public Stmt {
public:
  explicit ImportStmt(SourceRange R) : Stmt(StmtKind::Import, R) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Import; }
  std::vector<ImportAlias> Names;
};

class ImportFromStmt final : public Stmt {
public:
  explicit ImportFromStmt(SourceRange R) : Stmt(StmtKind::ImportFrom, R) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::ImportFrom; }
  std::string Module; ///< dotted, without the leading dots
  int Level = 0;      ///< number of leading dots
  std::vector<ImportAlias> Names;
};

/// A statement tessel never looks inside; PyName is Python's class name
/// ("Raise", "Try", "Global", "Delete", "Match"...).
class UnsupportedStmt final : public Stmt {
public:
  UnsupportedStmt(SourceRange R, std::string PyName) : Stmt(StmtKind::Unsupported, R), PyName(std::move(PyName)) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Unsupported; }
  std::string PyName;
  /// Where Triton's error points: the statement keyword (`raise`, `try`...).
  SourceRange KeywordRange;
  std::vector<Block> Blocks; ///< nested bodies (try/except/finally...), kept for symbol passes
};

class ErrorStmt final : public Stmt {
public:
  explicit ErrorStmt(SourceRange R) : Stmt(StmtKind::Error, R) {}
  static bool classof(const Stmt *S) { return S->kind() == StmtKind::Error; }
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// A place where tree-sitter could not parse the text.
struct SyntaxError {
  SourceRange Range;
  std::string Message; ///< "invalid syntax", "expected ':'"...
};

/// Owns AST nodes: they are placed in large blocks instead of one heap
/// allocation each, and destroyed with the arena. Several modules may share
/// one arena (an incremental reparse reuses the statements an edit did not
/// touch), so a module holds its arenas by shared_ptr.
class NodeArena {
public:
  NodeArena() = default;
  NodeArena(const NodeArena &) = delete;
  NodeArena &operator=(const NodeArena &) = delete;
  ~NodeArena();

  template <typename T, typename... Args> T *make(Args &&...A) {
    static_assert(std::is_base_of_v<Expr, T> || std::is_base_of_v<Stmt, T>);
    T *Node = new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(A)...);
    if constexpr (std::is_base_of_v<Expr, T>)
      Exprs.push_back(Node);
    else
      Stmts.push_back(Node);
    return Node;
  }

  /// The bytes of the blocks the nodes live in (their strings and vectors
  /// aside).
  size_t blockBytes() const { return Total; }

private:
  void *allocate(size_t Size, size_t Align);
  std::vector<std::unique_ptr<std::byte[]>> Blocks;
  size_t Used = 0, Capacity = 0, Total = 0;
  std::vector<Expr *> Exprs; ///< to run destructors (nodes own strings and vectors)
  std::vector<Stmt *> Stmts;
};

/// One parsed file: its statements, its syntax errors, and the arenas that
/// own every node.
class Module {
public:
  Block Body;
  std::vector<SyntaxError> SyntaxErrors;

  template <typename T, typename... Args> T *make(Args &&...A) { return Nodes->make<T>(std::forward<Args>(A)...); }

  /// The arena make() allocates from.
  std::shared_ptr<const NodeArena> arena() const { return Nodes; }
  /// Keeps A's nodes alive as long as this module, so that Body may hold
  /// statements built in A (by another module or another thread).
  void keep(std::shared_ptr<const NodeArena> A);

private:
  std::shared_ptr<NodeArena> Nodes = std::make_shared<NodeArena>();
  std::vector<std::shared_ptr<const NodeArena>> Kept;
};

//===----------------------------------------------------------------------===//
// LLVM-style casting (isa / cast / dyn_cast through classof)
//===----------------------------------------------------------------------===//

template <typename To, typename From> bool isa(const From *N) { return N && To::classof(N); }
template <typename To, typename From> To *dyn_cast(From *N) { return isa<To>(N) ? static_cast<To *>(N) : nullptr; }
template <typename To, typename From> const To *dyn_cast(const From *N) {
  return isa<To>(N) ? static_cast<const To *>(N) : nullptr;
}
template <typename To, typename From> To *cast(From *N) { return static_cast<To *>(N); }
template <typename To, typename From> const To *cast(const From *N) { return static_cast<const To *>(N); }

/// The dotted name of `a.b.c` (Names and Attributes only), or "" otherwise.
std::string dottedName(const Expr *E);

} // namespace tessel::ast

#endif // TESSEL_COMPILER_FRONTEND_AST_H
