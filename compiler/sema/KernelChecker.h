//===- KernelChecker.h - Triton's CodeGenerator, as a checker ---*- C++ -*-===//
/// \file
/// Walks one @jit function the way Triton's CodeGenerator
/// (python/triton/compiler/code_generator.py) does, under one
/// specialization: constexpr `if`s take one branch, `static_range` loops
/// unroll, nested @jit calls are inlined with the caller's argument types,
/// and every builtin applies semantic.py's rules. Where Triton raises, the
/// checker reports a Problem with Triton's sentence at the same node, marks
/// the value Poison and carries on, so independent mistakes are all
/// reported while one mistake is reported once.
///
/// Given an ir::Builder (setBuilder), the same walk also emits the kernel's
/// tile IR, as Triton's CodeGenerator checks and emits in one pass: every
/// Tensor value then carries its ir::Value. Without one (analyzeFile), no
/// emission code runs beyond a null check.
///
/// Internal to sema: analyzeFile() in Analysis.cpp and lowerKernel() in
/// Lowering.cpp are the public entries.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_KERNELCHECKER_H
#define TESSEL_COMPILER_SEMA_KERNELCHECKER_H

#include "compiler/frontend/Discovery.h"
#include "compiler/project/Project.h"
#include "compiler/sema/Analysis.h"
#include "compiler/sema/PointerParams.h"
#include "compiler/sema/Promotion.h"
#include "compiler/sema/Value.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace tessel::ir {
class Builder;
}

namespace tessel::sema {

/// Constexpr values and launch options of one specialization of a kernel.
struct Specialization {
  std::map<std::string, PyValue> Constexprs; ///< only the values this specialization fixes
  int64_t NumWarps = 4;
  int64_t NumStages = 3;
  std::string Description;
  SourceRange Source;
  /// Lowering only: element types of the non-constexpr parameters (from the
  /// launch) and the int parameters Triton specializes to the constant 1.
  std::map<std::string, ElemType> ArgTypes;
  std::set<std::string> EqualToOne;
  /// Lowering only: the parameters that receive a host TensorDescriptor and
  /// its block shape (LoweringRequest::DescriptorBlocks).
  std::map<std::string, std::vector<int64_t>> DescriptorBlocks;
  /// program_id axes that every launch site of the kernel sizes by floor
  /// division (`grid = (N_CTX // BLOCK_M, ...)`), as 1, or not at all: no
  /// program starts past the last full block, so an offset that slides with
  /// that program id alone is not reported (floorDividedGridAxes).
  std::set<int64_t> FloorDividedGridAxes;
  /// (program_id axis, parameter P) where every launch site sizes the axis
  /// `cdiv(N, B)` and passes P as N rounded up to a multiple of B
  /// (`math.ceil(N / 128) * 128`, B dividing 128): a block window at
  /// `row * P + pid * B` stays in its row of P elements (paddedRowPitches).
  std::set<std::pair<int64_t, std::string>> PaddedRowPitches;
  /// The other modules read to find FloorDividedGridAxes (a validator the
  /// launching function calls): inputs of the kernel's analysis.
  project::Reads HostReads;
};

/// The module whose names a frame resolves: the checked file, or a module
/// it imports a @jit helper from (Triton runs a helper with its own
/// module's globals, imports and constexprs).
struct ModuleScope {
  const ParsedFile *File = nullptr;
  const ModuleInfo *Info = nullptr;
  project::ModuleRef Ref;
  std::shared_ptr<const project::Module> Mod; ///< null for the checked file
};

/// An evaluated call argument.
struct Arg {
  Value V;
  const ast::Expr *E = nullptr; ///< null for an implicit `self` or a default
  SourceRange Range;
};

class KernelChecker {
public:
  KernelChecker(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts, ProblemSink &Sink,
                KernelAnalysis &Out);

  /// Params: inferParamKinds(*Fn.Def, Info), computed once per kernel.
  void checkKernel(const JitFunction &Fn, const Specialization &Spec, const ParamKinds &Params);
  /// A @jit function nothing launches or calls: only what holds whatever
  /// its arguments are (its non-constexpr parameters are Poison, so every
  /// check on them is silent, and it may return a value).
  void checkUncalledHelper(const JitFunction &Fn, const Specialization &Spec);
  /// The other files the walk read (imported modules), with their hashes.
  const project::Reads &reads() const { return Reads; }
  /// Emit tile IR through B during checkKernel (B inserts into the kernel's
  /// Function, whose parameters the walk adds).
  void setBuilder(ir::Builder *B) { IRB = B; }
  size_t errorsReported() const { return ErrorsReported; }
  /// Lowering: what it took without proof, once each (an unknown host value
  /// called as a libdevice function of its name).
  const std::vector<std::string> &assumptions() const { return Assumptions; }
  /// The specialization being checked (null outside checkKernel).
  const Specialization *specialization() const { return Spec; }

  //===--- Emission (Emit.cpp); all of it is a no-op without a builder ---===//
  ir::Builder *builder() const { return IRB; }
  /// The IR value of a tensor, or of a constexpr number as a constant of its
  /// literal type. A value the lowering cannot express yet is reported at R
  /// (once) and replaced by a zero of its type, so the walk goes on.
  ir::Value *lower(const Value &V, SourceRange R);
  /// V converted to T exactly as Triton's implicit conversions do: cast of
  /// the element type, then splat / expand_dims / broadcast to T's shape.
  ir::Value *lowerAs(const Value &V, const TileType &T, SourceRange R);
  ir::Value *coerce(ir::Value *X, const TileType &T, SourceRange R);
  /// Reports a construct tessel checks but cannot lower yet.
  void loweringLimit(SourceRange R, const std::string &What);
  /// Suspends emission while a builtin types a computation it emits itself
  /// (tl.fma types as `x * y + z` but is one fma op).
  class TypingOnly {
  public:
    explicit TypingOnly(KernelChecker &C) : C(C), Saved(C.IRB) { C.IRB = nullptr; }
    ~TypingOnly() { C.IRB = Saved; }
    TypingOnly(const TypingOnly &) = delete;
    TypingOnly &operator=(const TypingOnly &) = delete;

  private:
    KernelChecker &C;
    ir::Builder *Saved;
  };

  //===--- Used by the builtins ---------------------------------------===//
  void error(ProblemKind K, SourceRange R, std::string Message);
  const AnalyzeOptions &options() const { return Opts; }
  std::string_view sourceText(SourceRange R) const { return Scope->File->text().slice(R); }
  /// A constexpr number becomes a scalar tensor (Triton's `to_tensor`).
  Value toTensor(const Value &V, SourceRange R);
  /// Checks and builds a block type (`validate_block_shape`); Poison-free
  /// callers get false after an error was reported at R.
  bool validateShape(const std::vector<int64_t> &Shape, SourceRange R);
  /// Broadcasts a tensor value to Shape (facts follow).
  Value broadcastTo(const Value &V, const std::vector<int64_t> &Shape, SourceRange R = {});
  /// A Python operator on two values; Rules overrides the typing rules of Op
  /// (tl.where pairs x and y as ArithKind::Select, for instance).
  /// The element type and broadcast shape of a binary operation (semantic.py's
  /// binary_op_type_checking_impl); reports and returns nullopt when Triton raises.
  std::optional<TileType> promote(const BinaryOperand &A, const BinaryOperand &B, ArithKind Kind, const Value &L,
                                  const Value &R, SourceRange Range);
  Value binaryOp(ast::BinOpKind Op, const Value &L, const Value &R, SourceRange Range,
                 std::optional<ArithKind> Rules = std::nullopt);
  Value compareOp(ast::CmpOpKind Op, const Value &L, const Value &R, SourceRange Range);
  /// The op of a binary operator on operands promoted to Computation.
  ir::Value *emitBinary(ast::BinOpKind Op, const Value &L, const Value &R, const TileType &Computation,
                        const TileType &ResultType, SourceRange Range);
  /// Accesses inside a helper of another module are not this file's (their
  /// ranges are in the other file): the checks of that module's own kernels
  /// see them.
  void recordAccess(MemoryAccess A) {
    A.InUndecidedBranch = UndecidedBranchDepth > 0;
    if (Scope == &Root)
      Out.Accesses.push_back(std::move(A));
  }
  /// A tl.dot of this file's kernel (see recordAccess).
  void recordDot(DotFact D) {
    D.InUndecidedBranch = UndecidedBranchDepth > 0;
    if (Scope == &Root)
      Out.Dots.push_back(std::move(D));
  }
  /// The access recorded for a tl.load / tl.store call, if any.
  MemoryAccess *accessFor(const ast::CallExpr *Call) {
    if (Scope != &Root)
      return nullptr;
    for (MemoryAccess &A : Out.Accesses)
      if (A.CallRange == Call->Range)
        return &A;
    return nullptr;
  }
  /// Calls a @jit function (inlined, as Triton does) with evaluated arguments.
  Value callJit(const ast::FunctionDefStmt &Fn, std::vector<Arg> Args, std::vector<std::pair<std::string, Arg>> Kw,
                const ast::CallExpr *Call);
  /// The module the current frame's names resolve in.
  const ModuleInfo &info() const { return *Scope->Info; }

private:
  struct Frame {
    const ast::FunctionDefStmt *Fn = nullptr;
    std::map<std::string, Value> Vars;
    std::set<std::string> Params;
    int LoopDepth = 0;
    /// `if`s entered inside a loop; Triton reports a return there at the `if`.
    int IfDepthInLoop = 0;
    bool IsKernel = false;
    std::vector<std::pair<Value, SourceRange>> Returns;
    /// Per return: it sits in an arm of an `if` on a constexpr whose value
    /// is unknown (entered in this function), one Triton may never compile.
    std::vector<bool> ReturnUndecided;
    size_t EntryUndecidedDepth = 0; ///< UndecidedBranchDepth when the call began
    const ast::CallExpr *CallSite = nullptr;
    const ModuleScope *Scope = nullptr; ///< where Fn is defined
    /// Lowering: a `return` ran in the current block, so the statements
    /// after it are dead code (Python semantics) and are not emitted.
    bool Returned = false;
    /// Lowering: where the constexpr `if`s being walked sit in their blocks
    /// (outermost first), since the last region boundary; their remaining
    /// statements follow the current block's when an early exit moves them.
    std::vector<std::pair<const ast::Block *, size_t>> Transparent;
  };
  static_assert(std::is_nothrow_move_constructible_v<Frame>,
                "evalView's references into a frame's variables must survive a call pushing a frame");
  /// The parameter of a noinline @jit function bound to a block (see
  /// callJit), or nullptr.
  const std::string *blockArgumentOfNoinline(const ast::FunctionDefStmt &Fn, const Frame &Callee) const;

  //===--- Statements (CheckStatements.cpp) ----------------------------===//
  void execBlock(const ast::Block &B);
  /// Lowering: runs statement I of B (see execBlock).
  void lowerStatement(const ast::Block &B, size_t I);
  void exec(const ast::Stmt *S);
  void execAssign(const ast::AssignStmt *S);
  /// R: where a constant the sanitizing creates comes from (the value).
  Value sanitizeAssigned(Value V, SourceRange R);
  void execAnnAssign(const ast::AnnAssignStmt *S);
  void execAugAssign(const ast::AugAssignStmt *S);
  void execIf(const ast::IfStmt *S);
  void execIfBranches(const ast::IfStmt *S, SourceRange KeywordR);
  void execFor(const ast::ForStmt *S);
  void execWhile(const ast::WhileStmt *S);
  /// A loop's body, one level deeper in loops (return and early-exit rules).
  void execLoopBody(const ast::Block &Body);
  void execReturn(const ast::ReturnStmt *S);
  void assignTarget(const ast::Expr *Target, Value V, bool Record = true);
  /// Reports a loop-carried or if/else type change between two scopes.
  void promoteLoopCarried(const ast::Block &Body, SourceRange LoopRange);
  void checkLoopCarried(const std::map<std::string, Value> &Before, SourceRange LoopRange);
  void mergeBranches(const std::map<std::string, Value> &Before, std::map<std::string, Value> Then,
                     std::map<std::string, Value> Else, SourceRange IfRange);
  /// A hover / inlay-hint fact for the name at NameRange (when options ask for them).
  void recordValue(SourceRange NameRange, const std::string &Name, const Value &V);
  /// Runtime control flow while emitting (Emit.cpp): the names a region
  /// carries out, and the region ops with their yields.
  void lowerRuntimeIf(const ast::IfStmt *S, const Value &Test, SourceRange KeywordR);
  void lowerRangeFor(const ast::ForStmt *S, std::vector<Value> Bounds, ScalarKind IndVar, SourceRange KeywordR,
                     int64_t NumStages);
  void lowerWhile(const ast::WhileStmt *S, SourceRange KeywordR);
  std::vector<std::string> carriedNames(const ast::Block &Body, SourceRange R);
  /// The IR values carried for Names (tensors, block pointers' parts,
  /// tuples' elements), and at the end of a region the values to yield for
  /// them, in the structure of their values in Protos.
  std::vector<ir::Value *> carriedInits(const std::vector<std::string> &Names, SourceRange R);
  std::vector<ir::Value *> carriedYields(const std::vector<std::string> &Names,
                                         const std::map<std::string, Value> &Protos, SourceRange R);
  std::vector<ir::Value *> flattenAs(const Value &V, const Value &Proto, SourceRange R);

  //===--- Expressions (CheckExpressions.cpp) --------------------------===//
public:
  Value eval(const ast::Expr *E);

private:
  /// After `if pid >= n: return`, pid no longer slides (see execIf).
  void boundByEarlyReturn(const ast::IfStmt *S);
  /// Removes and returns the problems reported after the first Mark.
  std::vector<Problem> takeProblemsFrom(size_t Mark);
  /// Reports the problems of an undecided `if` that both arms found (once).
  void keepProblemsOfBothArms(std::vector<Problem> Then, const std::vector<Problem> &Else);
  /// E's value, without copying it when E names a local variable: a
  /// reference to the variable, else to Storage set to eval(E). Expressions
  /// never rebind or erase a variable of the frame that evaluates them, and
  /// frames move (not copy) when a call pushes one, so the reference stays
  /// valid while the expression that asked for it is evaluated.
  const Value &evalView(const ast::Expr *E, Value &Storage);
  /// A parameter's default, as Python evaluates it where the function is
  /// defined (a module global named there is its value, not a global access).
  Value evalDefault(const ast::Expr *Default);
  Value evalName(const ast::NameExpr *E);
  Value evalGlobal(const std::string &Name, SourceRange R) { return evalGlobalIn(*Scope, Name, R); }
  /// Name looked up in S's module namespace; R is the reference (in the
  /// current scope's file).
  Value evalGlobalIn(const ModuleScope &S, const std::string &Name, SourceRange R);

  //===--- Names of other modules (CheckImports.cpp) -------------------===//
  /// The value an import path of module S names (`.utils.exp2`, `pkg.ops`):
  /// resolved through the project; `triton.*` and `math.*` paths stay
  /// qualified for the builtins; what cannot be resolved is Unknown.
  Value importedValue(const ModuleScope &S, const std::string &Path, SourceRange R);
  /// The value of attribute Attr of the project module named Path.
  Value moduleAttribute(const std::string &Path, const std::string &Attr, SourceRange R);
  Value symbolValue(const project::Symbol &Sym, SourceRange R);
  /// Name through S's `from m import *` statements.
  Value starImported(const ModuleScope &S, const std::string &Name, SourceRange R);
  /// The scope of an imported module (the checked file's own when M is it).
  const ModuleScope *scopeFor(const std::shared_ptr<const project::Module> &M);
  /// The module a function value was defined in.
  const ModuleScope *ownerOf(const ast::FunctionDefStmt *Fn) const;
  /// A function value defined in S.
  Value functionIn(const ModuleScope &S, const ast::FunctionDefStmt *Fn);
  /// Where a problem found at R in the current scope is reported: R itself
  /// in the checked file; else the call in the checked file that entered the
  /// other module, with R (in its file) first among the related locations.
  void placeProblem(Problem &P) const;
  Value evalAttribute(const ast::AttributeExpr *E);
  Value evalSubscript(const ast::SubscriptExpr *E);
  Value evalBinOp(const ast::BinOpExpr *E);
  Value evalUnaryOp(const ast::UnaryOpExpr *E);
  Value evalBoolOp(const ast::BoolOpExpr *E);
  Value evalCompare(const ast::CompareExpr *E);
  Value evalIfExp(const ast::IfExpExpr *E);
  Value lowerIfExp(const ast::IfExpExpr *E, const Value &Test);
  Value evalCall(const ast::CallExpr *E);
  Value callValue(const Value &Callee, const ast::CallExpr *Call, std::vector<Arg> Args,
                  std::vector<std::pair<std::string, Arg>> Kw);
  /// libdevice's two-operand pow (`tl.extra.cuda.libdevice.pow`).
  Value libdevicePow(const ast::CallExpr *Call, const Arg &X, const Arg &Y);
  /// The libdevice function a call of a value the host code computes (and
  /// tessel does not) stands for, by the name it is spelled with; "" if none.
  std::string assumedLibdevice(const ast::CallExpr *Call) const;
  /// A plain function decorated `@tl.constexpr` or
  /// `@triton.constexpr_function`: Triton calls it at compile time.
  static bool isConstexprFunction(const ModuleInfo &Info, const ast::FunctionDefStmt &Fn);
  Value callConstexprFunction(const ast::FunctionDefStmt &Fn, const std::vector<Arg> &Args,
                              const std::vector<std::pair<std::string, Arg>> &Kw);
  Value callPythonBuiltin(const std::string &Name, const ast::CallExpr *Call, std::vector<Arg> &Args);
  void unsupported(const ast::Expr *E, std::string_view PyName);

  const ParsedFile &File;
  const ModuleInfo &Info;
  const AnalyzeOptions &Opts;
  ModuleScope Root;                 ///< the checked file
  const ModuleScope *Scope = &Root; ///< the current frame's module
  std::map<const project::Module *, std::unique_ptr<ModuleScope>> Imported;
  std::map<const ast::FunctionDefStmt *, const ModuleScope *> Owners;
  project::Reads Reads;
  bool UncalledHelper = false;
  ProblemSink &Sink;
  KernelAnalysis &Out;
  const Specialization *Spec = nullptr;
  std::vector<Frame> Frames;
  /// The functions whose parameter defaults are being evaluated (callJit): a
  /// default that calls its own function, directly or through another's
  /// default, would otherwise recurse without end (Python has no such function
  /// yet where the default is evaluated).
  std::vector<const ast::FunctionDefStmt *> DefaultsOf;
  size_t ErrorsReported = 0;
  std::vector<std::string> Assumptions;
  ir::Builder *IRB = nullptr;
  /// The statement execBlock is running (lowering moves the rest of a
  /// function body into the else region of an `if` whose then branch returns).
  const ast::Block *CurBlock = nullptr;
  size_t CurIndex = 0;
  /// Set by exec when the statement's value was Poison (see execBlock).
  bool LastStatementPoison = false;
  /// How many arms of constexpr `if`s whose condition is unknown enclose the
  /// statement being checked (execIfBranches): Triton compiles only one arm.
  size_t UndecidedBranchDepth = 0;
  /// Ranges already reported as lowering limits (one report per construct).
  std::set<std::pair<uint32_t, uint32_t>> LimitsReported;

  Frame &frame() { return Frames.back(); }
};

/// The qualified name of every member of `triton.language` (for "has no
/// attribute" checks) and dispatch of those tessel models.
bool isLanguageMember(std::string_view Name);
/// The value of `tl.<Name>` (a qualified path), made once per process and
/// shared by every use; null when triton.language has no such member.
const PyValue *languageMember(std::string_view Name);
/// Calls builtin `tl.<Name>`; Self is set for tensor member calls (`x.sum()`).
/// The DimNames of a result of Shape that Operands broadcast to: each
/// dimension named by the first operand that has it at full size.
std::vector<std::string> broadcastDimNames(std::initializer_list<const Value *> Operands,
                                           const std::vector<int64_t> &Shape);

Value callLanguageBuiltin(KernelChecker &C, std::string_view Name, const ast::CallExpr *Call, std::vector<Arg> Args,
                          std::vector<std::pair<std::string, Arg>> Kw);
/// Is `Name` a member function of tl.tensor (`x.to`, `x.sum`...)?
bool isTensorMethod(std::string_view Name);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_KERNELCHECKER_H
