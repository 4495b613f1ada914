//===- CheckStatements.cpp - statements of a @jit function ----------------===//
/// \file
/// The statement half of KernelChecker: which Python statements Triton
/// compiles, how constexpr `if`s and `static_range` loops are taken at
/// compile time, and the consistency rules for values that cross a branch or
/// a loop iteration (visit_If / visit_For / visit_While in Triton's
/// code_generator.py).
//===----------------------------------------------------------------------===//
#include "compiler/sema/KernelChecker.h"

#include "compiler/frontend/AstWalk.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/ir/Builder.h"
#include "compiler/sema/ParamAnnotations.h"
#include "compiler/sema/PointerParams.h"
#include "compiler/sema/Promotion.h"

#include <algorithm>
#include <functional>
#include <set>
#include <utility>

namespace tessel::sema {

using namespace ast;

/// Loop bodies unrolled by tl.static_range beyond this count are checked once
/// with an unknown induction variable instead.
static constexpr int64_t MaxUnroll = 64;
/// While lowering, tl.static_range is always unrolled (as Triton does) up to
/// this many iterations; beyond it the loop is a lowering limit.
static constexpr int64_t MaxLoweredUnroll = 4096;

bool isConstexprAnnotation(const ModuleInfo &Info, const Expr *A) {
  if (!A)
    return false;
  if (const auto *C = dyn_cast<ConstantExpr>(A))
    return C->CK == ConstantKind::String && C->StrValue.find("constexpr") != std::string::npos;
  std::string Q = Info.qualify(A);
  if (Q.empty())
    Q = dottedName(A);
  return Q.size() >= 9 && Q.compare(Q.size() - 9, 9, "constexpr") == 0;
}

std::optional<ElemType> annotationType(const ModuleInfo &Info, const Expr *A) {
  if (!A)
    return std::nullopt;
  if (const auto *C = dyn_cast<ConstantExpr>(A)) {
    if (C->CK != ConstantKind::String)
      return std::nullopt;
    std::string_view S = C->StrValue;
    int Depth = 0;
    bool Const = false; // "*kfp32": Triton's signature string for a tl.const pointer
    while (!S.empty() && S.front() == '*') {
      ++Depth;
      S.remove_prefix(1);
      if (!S.empty() && S.front() == 'k') {
        Const = Depth == 1;
        S.remove_prefix(1);
      }
    }
    for (int K = static_cast<int>(ScalarKind::I1); K <= static_cast<int>(ScalarKind::FP64); ++K) {
      auto SK = static_cast<ScalarKind>(K);
      std::string Short(shortName(SK));
      // Signature strings spell ints "i32"/"u8" and floats "fp32".
      std::string Sig = Short;
      if (Short.rfind("int", 0) == 0)
        Sig = "i" + Short.substr(3);
      else if (Short.rfind("uint", 0) == 0)
        Sig = "u" + Short.substr(4);
      if (S == Sig || S == Short)
        return ElemType{SK, Depth, Const};
    }
    return std::nullopt;
  }
  std::string Q = Info.qualify(A);
  const std::string Prefix = "triton.language.";
  if (Q.rfind(Prefix, 0) != 0)
    return std::nullopt;
  if (auto K = scalarKindFromLanguageName(std::string_view(Q).substr(Prefix.size())))
    return ElemType{*K};
  return std::nullopt;
}

void KernelChecker::checkUncalledHelper(const JitFunction &Fn, const Specialization &S) {
  UncalledHelper = true;
  checkKernel(Fn, S, ParamKinds{});
  UncalledHelper = false;
}

static bool isConstPointerAnnotation(const ModuleInfo &Info, const Expr *A) {
  std::string Q = Info.qualify(A);
  return Q == "triton.language.const" || Q == "triton.language.core.const";
}

/// A parameter that receives a host TensorDescriptor: the descriptor value
/// tl.make_tensor_descriptor would give, over the parameters Triton expands
/// it to when it does not lower descriptors to TMA (launch::descriptorParams).
static Value hostDescriptor(ir::Builder *IRB, const std::string &Name, ElemType Ptr,
                            const std::vector<int64_t> &Block) {
  Value V = Value::tensor(TileType{Ptr, {}});
  V.IsBlockPtr = V.IsDescriptor = true;
  V.BlockShape = Block;
  if (!IRB)
    return V;
  std::vector<ir::Value *> ShapeI32, StrideI64;
  ir::Value *Padding = nullptr;
  for (const launch::DescriptorParam &D : launch::descriptorParams(Name, Block.size())) {
    using K = launch::DescriptorParam::Kind;
    ScalarKind Scalar = D.K == K::Padding || D.K == K::RoundF32ToTF32 ? ScalarKind::I1
                        : D.K == K::ShapeI32                          ? ScalarKind::I32
                                                                      : ScalarKind::I64;
    ir::Value *P =
        IRB->function().addParam(D.K == K::Base ? TileType{Ptr, {}} : TileType{ElemType{Scalar}, {}}, D.Name);
    switch (D.K) {
    case K::Base:
      V.IR = P;
      break;
    case K::Shape:
    case K::Stride:
      V.BlockParts.push_back(P);
      break;
    case K::Padding:
      Padding = P;
      break;
    case K::RoundF32ToTF32:
      break;
    case K::ShapeI32:
      ShapeI32.push_back(P);
      break;
    case K::StrideI64:
      StrideI64.push_back(P);
      break;
    }
  }
  // A host descriptor's last stride is 1 (TensorDescriptor asserts it, and
  // Triton's launcher again): the block's rows are contiguous, which the
  // accesses' vectorization reads from this constant.
  if (!V.BlockParts.empty())
    V.BlockParts.back() = IRB->constantInt({}, 1, TileType{ElemType{ScalarKind::I64}, {}});
  V.HostDescParts.push_back(Padding);
  V.HostDescParts.insert(V.HostDescParts.end(), ShapeI32.begin(), ShapeI32.end());
  V.HostDescParts.insert(V.HostDescParts.end(), StrideI64.begin(), StrideI64.end());
  return V;
}

void KernelChecker::checkKernel(const JitFunction &Fn, const Specialization &S, const ParamKinds &Kinds) {
  Spec = &S;
  Scope = &Root;
  Frames.clear();
  Frames.emplace_back();
  Frame &F = frame();
  F.Fn = Fn.Def;
  F.IsKernel = !UncalledHelper;
  F.Scope = &Root;
  for (const Param &P : Fn.Def->Params) {
    F.Params.insert(P.Name);
    Value V;
    auto Launched = S.ArgTypes.find(P.Name);
    if (UncalledHelper && !isConstexprAnnotation(Info, P.Annotation)) {
      // Whatever a caller passes: every check on it stays silent.
      V = Value::poison();
    } else if (auto None = S.Constexprs.find(P.Name); IRB && None != S.Constexprs.end() && None->second.isNone() &&
                                                      !isConstexprAnnotation(Info, P.Annotation)) {
      // Lowering: a None argument is a constexpr of Triton's signature
      // (`weight=None` for `if weight_ptr is None:`), not a value the kernel
      // receives. (The front tier's checks keep reading it as unknown.)
      V = Value::constant(None->second);
    } else if (S.EqualToOne.count(P.Name) && !isConstexprAnnotation(Info, P.Annotation)) {
      // Triton's specialization of integer arguments equal to 1: a constant.
      V = Value::constant(PyValue::integer(1));
    } else if (isConstexprAnnotation(Info, P.Annotation)) {
      auto It = S.Constexprs.find(P.Name);
      if (It != S.Constexprs.end())
        V = Value::constant(It->second);
      else if (P.Default)
        V = evalDefault(P.Default);
      else
        V = Value::constant(PyValue());
      if (!V.isConstexpr())
        V = Value::constant(PyValue());
      V.IntLike = V.Const.isUnknown() && Kinds.Sizes.count(P.Name);
    } else if (auto Desc = S.DescriptorBlocks.find(P.Name);
               Desc != S.DescriptorBlocks.end() && Launched != S.ArgTypes.end()) {
      V = hostDescriptor(IRB, P.Name, Launched->second, Desc->second);
      F.Vars[P.Name] = V;
      recordValue(P.NameRange, P.Name, V);
      continue;
    } else if (Launched != S.ArgTypes.end()) {
      V = Value::tensor(TileType{Launched->second, {}});
    } else if (auto T = annotationType(Info, P.Annotation)) {
      V = Value::tensor(TileType{*T, {}});
    } else if (Kinds.Pointers.count(P.Name)) {
      V = Value::tensor(TileType{ElemType{ScalarKind::Unknown, 1}, {}});
    } else if (Kinds.Ints.count(P.Name)) {
      V = Value::tensor(TileType{ElemType{ScalarKind::I32}, {}});
    } else {
      // The host passes a number (or a tensor tessel cannot see): unknown.
      V = Value::tensor(TileType{ElemType{ScalarKind::Unknown}, {}});
    }
    if (IRB && V.isTensor()) {
      if (V.Type.Elem.Scalar == ScalarKind::Unknown) {
        error(ProblemKind::UnsupportedConstruct, P.NameRange,
              "the type of parameter `" + P.Name +
                  "` is not known: give it in a launch spec (`# tessel: launch` or --spec) to lower the kernel");
        V = Value::poison();
      } else {
        V.IR = IRB->function().addParam(V.Type, P.Name);
      }
    } else if (IRB && V.isConstexpr() && V.Const.isUnknown()) {
      error(ProblemKind::UnsupportedConstruct, P.NameRange,
            "the value of constexpr `" + P.Name + "` is not known under this specialization: lowering needs it");
    }
    if (V.isTensor() && !V.Type.isBlock())
      V.Facts.Param = P.Name;
    // `p: tl.const` (JITFunction's is_const): a pointer Triton will not store through.
    if (V.isTensor() && P.Annotation && isConstPointerAnnotation(Info, P.Annotation)) {
      if (!V.Type.Elem.isPointer())
        V.Type.Elem = ElemType{ScalarKind::Unknown, 1};
      V.Type.Elem.IsConst = true;
    }
    F.Vars[P.Name] = V;
    recordValue(P.NameRange, P.Name, V);
  }
  // Lowering needs every parameter: after a missing one, the body would
  // only repeat the same problem at each use.
  if (!(IRB && ErrorsReported > 0))
    execBlock(Fn.Def->Body);
  if (UncalledHelper)
    return; // a helper returns what its callers use
  for (const auto &[V, R] : frame().Returns) {
    if (V.isConstexpr() && V.Const.isNone())
      continue;
    error(ProblemKind::KernelReturnsValue, R,
          "kernel returns a value; a @triton.jit kernel launched from the host must return None (Triton fails "
          "later with `PassManager::run failed`)");
  }
  Out.Completed = true;
}

void KernelChecker::execBlock(const Block &B) {
  if (!IRB) {
    // CodeGenerator.visit_compound_statement stops at a `return`: what
    // follows it in the same block is dead code Triton never looks at.
    for (const Stmt *S : B) {
      exec(S);
      if (S->kind() == StmtKind::Return)
        break;
    }
    return;
  }
  // Lowering: statements after a `return` are dead code, never emitted.
  for (size_t I = 0; I < B.size() && !frame().Returned; ++I)
    lowerStatement(B, I);
}

void KernelChecker::lowerStatement(const Block &B, size_t I) {
  CurBlock = &B;
  CurIndex = I;
  exec(B[I]);
  // A statement that evaluates to Poison while no error was ever reported
  // is something the checker does not model, which the lowering cannot
  // silently drop (after an error, Poison is that error's echo).
  if (ErrorsReported == 0 && LastStatementPoison)
    loweringLimit(B[I]->Range, "`" + std::string(sourceText(B[I]->Range)) + "`");
  LastStatementPoison = false;
}

static SourceRange keywordRange(const Stmt *S, uint32_t Length) {
  return SourceRange{S->Range.Begin, std::min(S->Range.End, S->Range.Begin + Length)};
}

void KernelChecker::exec(const Stmt *S) {
  switch (S->kind()) {
  case StmtKind::FunctionDef: {
    const auto *D = cast<FunctionDefStmt>(S);
    SourceRange R = D->DefKeywordRange.empty() ? keywordRange(S, 3) : D->DefKeywordRange;
    error(ProblemKind::UnsupportedConstruct, R, "nested function definition is not supported.");
    return;
  }
  case StmtKind::ClassDef:
    error(ProblemKind::UnsupportedConstruct, keywordRange(S, 5), "unsupported AST node type: ClassDef");
    return;
  case StmtKind::Assign:
    return execAssign(cast<AssignStmt>(S));
  case StmtKind::AnnAssign:
    return execAnnAssign(cast<AnnAssignStmt>(S));
  case StmtKind::AugAssign:
    return execAugAssign(cast<AugAssignStmt>(S));
  case StmtKind::Return:
    return execReturn(cast<ReturnStmt>(S));
  case StmtKind::If:
    return execIf(cast<IfStmt>(S));
  case StmtKind::For:
    return execFor(cast<ForStmt>(S));
  case StmtKind::While:
    return execWhile(cast<WhileStmt>(S));
  case StmtKind::With: {
    const auto *W = cast<WithStmt>(S);
    for (const WithItem &I : W->Items)
      eval(I.ContextExpr);
    return execBlock(W->Body);
  }
  case StmtKind::Pass:
    return;
  case StmtKind::Break:
    error(ProblemKind::UnsupportedConstruct, keywordRange(S, 5), "unsupported AST node type: Break");
    return;
  case StmtKind::Continue:
    error(ProblemKind::UnsupportedConstruct, keywordRange(S, 8), "unsupported AST node type: Continue");
    return;
  case StmtKind::ExprStmt:
    LastStatementPoison = eval(cast<ExprStmt>(S)->Value).isPoison();
    return;
  case StmtKind::Assert: {
    // visit_Assert is tl.device_assert(test, msg).
    const auto *A = cast<AssertStmt>(S);
    Value Test = eval(A->Test);
    Value Msg = A->Msg ? eval(A->Msg) : Value::constant(PyValue::string(""));
    if (IRB && Test.isTensor())
      IRB->deviceAssert(S->Range, lowerAs(Test, TileType{ElemType{ScalarKind::I1}, Test.Type.Shape}, A->Test->Range),
                        Msg.isKnownConstexpr() && Msg.Const.isStr() ? Msg.Const.asStr() : std::string());
    return;
  }
  case StmtKind::Import:
    error(ProblemKind::UnsupportedConstruct, keywordRange(S, 6), "unsupported AST node type: Import");
    return;
  case StmtKind::ImportFrom:
    error(ProblemKind::UnsupportedConstruct, keywordRange(S, 4), "unsupported AST node type: ImportFrom");
    return;
  case StmtKind::Unsupported: {
    const auto *U = cast<UnsupportedStmt>(S);
    SourceRange R = U->KeywordRange.empty() ? S->Range : U->KeywordRange;
    error(ProblemKind::UnsupportedConstruct, R, "unsupported AST node type: " + U->PyName);
    return;
  }
  case StmtKind::Error:
    return; // the parser reported it
  }
}

void KernelChecker::recordValue(SourceRange NameRange, const std::string &Name, const Value &V) {
  // A helper of another module: its names are in that file, not this one.
  if (!Opts.RecordValueFacts || Scope != &Root)
    return;
  ValueFact F;
  F.Name = Name;
  F.Range = NameRange;
  if (V.isTensor()) {
    F.Type = V.Type;
    if (V.DimNames.size() == V.Type.Shape.size())
      F.DimNames = V.DimNames;
  } else if (V.isConstexpr())
    F.Constexpr = V.Const;
  else
    return;
  Out.Values.push_back(std::move(F));
}

void KernelChecker::assignTarget(const Expr *Target, Value V, bool Record) {
  if (const auto *N = dyn_cast<NameExpr>(Target)) {
    if (Record)
      recordValue(N->Range, N->Id, V);
    frame().Vars[N->Id] = std::move(V);
    return;
  }
  if (isa<TupleExpr>(Target) || isa<ListExpr>(Target)) {
    const std::vector<Expr *> &Elts =
        isa<TupleExpr>(Target) ? cast<TupleExpr>(Target)->Elts : cast<ListExpr>(Target)->Elts;
    std::vector<Value> Parts;
    if (V.K == Value::Kind::Tuple)
      Parts = V.Elts;
    else if (V.isKnownConstexpr() && V.Const.isSequence())
      for (const PyValue &P : V.Const.elements())
        Parts.push_back(Value::constant(P));
    // assignTarget binds `target.elts[i]` to `value.values[i]`: extra values
    // are dropped (`a, b = x, y, z` binds a and b), missing ones fail.
    bool IsSequence = V.K == Value::Kind::Tuple || (V.isKnownConstexpr() && V.Const.isSequence());
    if (IsSequence && Parts.size() > Elts.size())
      Parts.resize(Elts.size());
    if (Parts.size() != Elts.size()) {
      if (!V.isPoison() && !(V.isConstexpr() && V.Const.isUnknown()))
        error(ProblemKind::BadCall, Target->Range,
              "cannot unpack " + V.describe() + " into " + std::to_string(Elts.size()) + " values");
      for (const Expr *E : Elts)
        assignTarget(E, V.isConstexpr() ? Value::constant(PyValue()) : Value::poison(), Record);
      return;
    }
    for (size_t I = 0; I < Elts.size(); ++I)
      assignTarget(Elts[I], std::move(Parts[I]), Record);
    return;
  }
  if (isa<SubscriptExpr>(Target)) {
    error(ProblemKind::UnsupportedConstruct, Target->Range, "__setitem__ is not supported in triton");
    return;
  }
  if (isa<AttributeExpr>(Target)) {
    error(ProblemKind::UnsupportedConstruct, Target->Range, "Attribute assignment is not supported in triton");
    return;
  }
  if (!isa<ErrorExpr>(Target))
    error(ProblemKind::UnsupportedConstruct, Target->Range,
          "unsupported AST node type: " + std::string(Target->pyName()));
}

/// visit_Assign's _sanitize_value: a constexpr number (or bool) assigned to
/// a name becomes a scalar tensor (`BLOCK = 128` is no constexpr, triton#2604;
/// `scale = 0.5` is an fp32 tensor). Only `x: tl.constexpr = ...` keeps a
/// constexpr. Dtypes, None and other Python objects are kept as they are.
Value KernelChecker::sanitizeAssigned(Value V, SourceRange R) {
  if (V.isKnownConstexpr() && (V.Const.isNumber() || V.Const.isBool()))
    return toTensor(V, R);
  // A tuple's elements are sanitized one by one (measured: `shape = x.shape`
  // or `shape = (BLOCK, BLOCK)` cannot size tl.zeros afterwards).
  auto IsNumber = [](const Value &E) { return E.isKnownConstexpr() && (E.Const.isNumber() || E.Const.isBool()); };
  if (V.isKnownConstexpr() && V.Const.isSequence()) {
    // An unknown element may be a number too: keep such a tuple whole rather
    // than report against the wrong element.
    const PyList &Ps = V.Const.elements();
    if (std::any_of(Ps.begin(), Ps.end(), [](const PyValue &P) { return P.isUnknown(); }))
      return V;
    std::vector<Value> Elts;
    for (const PyValue &P : Ps)
      Elts.push_back(sanitizeAssigned(Value::constant(P), R));
    if (std::any_of(Elts.begin(), Elts.end(), [](const Value &E) { return E.isTensor(); }))
      return Value::tuple(std::move(Elts));
    return V;
  }
  auto IsUnknown = [](const Value &E) { return E.isConstexpr() && E.Const.isUnknown(); };
  if (V.K == Value::Kind::Tuple && std::any_of(V.Elts.begin(), V.Elts.end(), IsNumber) &&
      std::none_of(V.Elts.begin(), V.Elts.end(), IsUnknown)) {
    std::vector<Value> Elts;
    for (Value &E : V.Elts)
      Elts.push_back(sanitizeAssigned(std::move(E), R));
    return Value::tuple(std::move(Elts));
  }
  return V;
}

void KernelChecker::execAssign(const AssignStmt *S) {
  Value V = eval(S->Value);
  LastStatementPoison = V.isPoison();
  // _sanitize_value calls to_tensor on a string too, which refuses it.
  if (V.isKnownConstexpr() && V.Const.isStr() && S->Targets.size() == 1 && isa<NameExpr>(S->Targets[0])) {
    error(ProblemKind::InvalidOperands, S->Range,
          "cannot convert " + V.Const.asStr() + " of type <class 'str'> to tensor");
    V = Value::poison();
  }
  for (const Expr *T : S->Targets) {
    if (isa<NameExpr>(T)) {
      // The last target may take V itself (`a = b = x` copies it for `a`).
      assignTarget(T, sanitizeAssigned(T == S->Targets.back() ? std::move(V) : V, S->Value->Range));
      continue;
    }
    // `a, b = 1, 2`: each element is sanitized (as language.tuple values are).
    if ((isa<TupleExpr>(T) || isa<ListExpr>(T)) && V.isKnownConstexpr() && V.Const.isSequence()) {
      std::vector<Value> Parts;
      for (const PyValue &P : V.Const.elements())
        Parts.push_back(sanitizeAssigned(Value::constant(P), S->Value->Range));
      assignTarget(T, Value::tuple(std::move(Parts)));
      continue;
    }
    if ((isa<TupleExpr>(T) || isa<ListExpr>(T)) && V.K == Value::Kind::Tuple) {
      std::vector<Value> Parts;
      for (const Value &P : V.Elts)
        Parts.push_back(sanitizeAssigned(P, S->Value->Range));
      assignTarget(T, Value::tuple(std::move(Parts)));
      continue;
    }
    assignTarget(T, V);
  }
}

void KernelChecker::execAnnAssign(const AnnAssignStmt *S) {
  const auto *Name = dyn_cast<NameExpr>(S->Target);
  if (Name && isConstexprAnnotation(info(), S->Annotation)) {
    if (frame().Vars.count(Name->Id)) {
      error(ProblemKind::ConstexprReassigned, S->Range,
            Name->Id + " is already defined. constexpr cannot be reassigned.");
      return;
    }
    // visit_AnnAssign wraps whatever the value is in constexpr(...) without
    // a check; a wrapped tensor still works as an operand of tensor
    // operations (core.py unwraps it), as a tensor passed to a constexpr
    // parameter does (tutorial 06). So a tensor value stays a tensor here and
    // only uses that need a compile-time value complain.
    Value V = S->Value ? eval(S->Value) : Value::constant(PyValue());
    assignTarget(S->Target, std::move(V));
    return;
  }
  if (!S->Value)
    return;
  Value V = eval(S->Value);
  if (isa<NameExpr>(S->Target))
    V = sanitizeAssigned(std::move(V), S->Value->Range);
  if (auto T = annotationType(info(), S->Annotation); T && V.isTensor() && !V.Type.isBlock()) {
    V.Type.Elem = *T;
    V.IR = coerce(V.IR, V.Type, S->Value->Range);
  }
  assignTarget(S->Target, std::move(V));
}

void KernelChecker::execAugAssign(const AugAssignStmt *S) {
  if (isa<SubscriptExpr>(S->Target) || isa<AttributeExpr>(S->Target)) {
    assignTarget(S->Target, Value::poison());
    return;
  }
  Value Old = eval(S->Target);
  Value Rhs = eval(S->Value);
  LastStatementPoison = Old.isPoison() || Rhs.isPoison();
  // visit_AugAssign is an Assign of the BinOp: the result is sanitized too.
  assignTarget(S->Target, sanitizeAssigned(binaryOp(S->Op, Old, Rhs, S->Range), S->Range));
}

/// Does the block return (anywhere inside its ifs)?
static bool containsReturn(const Block &B) {
  for (const Stmt *S : B) {
    if (isa<ReturnStmt>(S))
      return true;
    if (const auto *I = dyn_cast<IfStmt>(S); I && (containsReturn(I->Body) || containsReturn(I->OrElse)))
      return true;
  }
  return false;
}

void KernelChecker::execReturn(const ReturnStmt *S) {
  if (frame().LoopDepth > 0 && frame().IfDepthInLoop == 0) {
    error(ProblemKind::ReturnInLoop, keywordRange(S, 6),
          "Cannot have `return` statements inside `while` or `for` statements in triton.");
  }
  Value V = S->Value ? eval(S->Value) : Value::constant(PyValue::none());
  frame().Returns.emplace_back(V, S->Range);
  frame().ReturnUndecided.push_back(UndecidedBranchDepth > frame().EntryUndecidedDepth);
  if (IRB) {
    LastStatementPoison = V.isPoison();
    frame().Returned = true;
  }
}

/// The type a value has once it is carried through a loop or a branch: a
/// constexpr number becomes a tensor there.
static std::optional<TileType> carriedType(const Value &V) {
  if (V.isTensor())
    return V.Type;
  if (V.isKnownConstexpr() && V.Const.isNumber()) {
    OrError<ScalarKind> K = literalType(V.Const);
    if (K)
      return TileType{ElemType{*K.Result}, {}};
  }
  return std::nullopt;
}

static bool typesKnown(const TileType &T) { return T.Elem.Scalar != ScalarKind::Unknown && !T.hasUnknownDim(); }

void KernelChecker::promoteLoopCarried(const Block &Body, SourceRange LoopRange) {
  // Triton turns live-in values the loop reassigns into loop-carried
  // tensors (`to_tensor`), so `acc = 0` enters the loop as an int32.
  std::set<std::string> Assigned;
  for (const Stmt *S : Body)
    boundNames(S, Assigned);
  for (const std::string &Name : Assigned) {
    auto It = frame().Vars.find(Name);
    if (It != frame().Vars.end() && It->second.isKnownConstexpr() && It->second.Const.isNumber())
      It->second = toTensor(It->second, LoopRange);
  }
}

void KernelChecker::checkLoopCarried(const std::map<std::string, Value> &Before, SourceRange KeywordR) {
  for (const auto &[Name, Old] : Before) {
    auto It = frame().Vars.find(Name);
    if (It == frame().Vars.end())
      continue;
    auto T0 = carriedType(Old), T1 = carriedType(It->second);
    if (!T0 || !T1 || !typesKnown(*T0) || !typesKnown(*T1) || *T0 == *T1)
      continue;
    error(ProblemKind::ControlFlowType, KeywordR,
          "Loop-carried variable " + Name + " has initial type " + T0->tritonStr() + " but is re-assigned to " +
              T1->tritonStr() + " in loop! Please make sure that the type stays consistent.");
    It->second = Value::poison();
  }
}

void KernelChecker::mergeBranches(const std::map<std::string, Value> &Before, std::map<std::string, Value> Then,
                                  std::map<std::string, Value> Else, SourceRange IfRange) {
  std::map<std::string, Value> Merged = Before;
  // visit_then_else_blocks checks a live-in tensor first: a branch may not
  // give it another type (then block first), even when both branches agree.
  for (const auto &[Name, Old] : Before) {
    if (!Old.isTensor() || !typesKnown(Old.Type))
      continue;
    for (auto [Defs, Block] : {std::pair{&Then, "then"}, std::pair{&Else, "else"}}) {
      auto It = Defs->find(Name);
      if (It == Defs->end())
        continue;
      auto New = carriedType(It->second);
      if (!New || !typesKnown(*New) || *New == Old.Type)
        continue;
      error(ProblemKind::ControlFlowType, IfRange,
            "initial value for `" + Name + "` is of type " + Old.Type.tensorRepr() + ", but the " + Block +
                " block redefines it as " + New->tensorRepr());
      Then[Name] = Value::poison();
      Else[Name] = Value::poison();
      break;
    }
  }
  for (auto &[Name, TV] : Then) {
    auto EIt = Else.find(Name);
    if (EIt == Else.end())
      continue; // defined on one side only: not visible after the `if` unless it was before
    const Value &EV = EIt->second;
    auto T0 = carriedType(TV), T1 = carriedType(EV);
    if (T0 && T1 && typesKnown(*T0) && typesKnown(*T1) && !(*T0 == *T1)) {
      error(ProblemKind::ControlFlowType, IfRange,
            "Mismatched type for " + Name + " between then block (" + T0->tritonStr() + ") and else block (" +
                T1->tritonStr() + ")");
      Merged[Name] = Value::poison();
      continue;
    }
    if (TV.isTensor()) {
      Value M = TV;
      M.Facts.resize(M.Facts.Axes.size());
      for (size_t I = 0; I < M.Facts.Axes.size() && EV.isTensor() && I < EV.Facts.Axes.size(); ++I)
        if (EV.Facts.Axes[I] == AxisIndex::Sliding && M.Facts.Axes[I] != AxisIndex::Sliding)
          M.Facts.setAxis(I, AxisIndex::Sliding, I < EV.Facts.AxisCauses.size() ? EV.Facts.AxisCauses[I] : "");
      Merged[Name] = M;
    } else if (TV.isConstexpr() && EV.isConstexpr()) {
      Merged[Name] = TV.Const.equals(EV.Const).value_or(false) ? TV : Value::constant(PyValue());
    } else if (T0) {
      Merged[Name] = Value::tensor(*T0);
    } else {
      Merged[Name] = Value::poison();
    }
  }
  frame().Vars = std::move(Merged);
}

std::vector<Problem> KernelChecker::takeProblemsFrom(size_t Mark) {
  std::vector<Problem> All = Sink.take();
  std::vector<Problem> Tail;
  for (size_t I = 0; I < All.size(); ++I) {
    if (I < Mark)
      Sink.report(std::move(All[I]));
    else
      Tail.push_back(std::move(All[I]));
  }
  return Tail;
}

void KernelChecker::keepProblemsOfBothArms(std::vector<Problem> Then, const std::vector<Problem> &Else) {
  size_t Dropped = Then.size() + Else.size();
  for (Problem &P : Then) {
    bool InBoth = std::any_of(Else.begin(), Else.end(), [&](const Problem &Q) {
      return Q.Kind == P.Kind && Q.Range == P.Range && Q.Message == P.Message;
    });
    if (!InBoth)
      continue;
    Dropped -= 2;
    Sink.report(std::move(P));
  }
  ErrorsReported -= std::min(ErrorsReported, Dropped);
}

void KernelChecker::execIf(const IfStmt *S) {
  SourceRange KeywordR = keywordRange(S, S->IsElif ? 4 : 2);
  if (frame().LoopDepth > 0 && frame().IfDepthInLoop == 0 && (containsReturn(S->Body) || containsReturn(S->OrElse)))
    error(ProblemKind::ReturnInLoop, KeywordR,
          "Cannot have `return` statements inside `while` or `for` statements in triton.");
  if (frame().LoopDepth > 0)
    ++frame().IfDepthInLoop;
  execIfBranches(S, KeywordR);
  if (frame().LoopDepth > 0)
    --frame().IfDepthInLoop;
  boundByEarlyReturn(S);
}

void KernelChecker::boundByEarlyReturn(const IfStmt *S) {
  // `if pid >= n: return`: the programs past the end stop here, so what the
  // program id computes afterwards stays in range by the author's own guard.
  if (frame().LoopDepth > 0 || S->Body.size() != 1 || !isa<ReturnStmt>(S->Body[0]) || !S->OrElse.empty())
    return;
  const auto *C = dyn_cast<CompareExpr>(S->Test);
  if (!C || C->Comparators.size() != 1)
    return;
  // The guarded side may scale or offset the program id (fused MoE's `if
  // pid_m * BLOCK_SIZE_M >= num_tokens_post_padded: return`, whose bound is
  // a loaded value): the name it scales is the one bounded.
  std::function<void(const Expr *)> Bound = [&](const Expr *Side) {
    if (const auto *B = dyn_cast<BinOpExpr>(Side)) {
      if (B->Op == BinOpKind::Mult || B->Op == BinOpKind::Add || B->Op == BinOpKind::Sub) {
        Bound(B->Lhs);
        Bound(B->Rhs);
      }
      return;
    }
    const auto *N = dyn_cast<NameExpr>(Side);
    auto It = N ? frame().Vars.find(N->Id) : frame().Vars.end();
    if (It == frame().Vars.end() || !It->second.isTensor() || !It->second.Facts.DynScalar)
      return;
    It->second.Facts.DynScalar = false;
  };
  for (const Expr *Side : {C->Lhs, C->Comparators[0]})
    Bound(Side);
}

void KernelChecker::execIfBranches(const IfStmt *S, SourceRange KeywordR) {
  Value Test = eval(S->Test);
  if (Test.isConstexpr() || Test.isPoison()) {
    std::optional<bool> Truth = Test.isPoison() ? std::nullopt : Test.Const.truthy();
    if (Truth) {
      if (IRB)
        frame().Transparent.emplace_back(CurBlock, CurIndex);
      execBlock(*Truth ? S->Body : S->OrElse);
      if (IRB)
        frame().Transparent.pop_back();
      return;
    }
    if (IRB && !Test.isPoison()) {
      loweringLimit(S->Test->Range, "an `if` on a constexpr whose value is unknown");
      return;
    }
    // An unknown constexpr: Triton would take one branch; both are checked,
    // and no type agreement is required between them. A problem found in one
    // arm only may be in the arm Triton never compiles (`if dtype is
    // tl.int64: ... else: raise`), so only what both arms report is kept.
    std::map<std::string, Value> Before = frame().Vars;
    size_t Mark = Sink.size();
    ++UndecidedBranchDepth;
    execBlock(S->Body);
    std::vector<Problem> ThenProblems = takeProblemsFrom(Mark);
    std::map<std::string, Value> Then = frame().Vars;
    frame().Vars = Before;
    execBlock(S->OrElse);
    --UndecidedBranchDepth;
    std::vector<Problem> ElseProblems = takeProblemsFrom(Mark);
    keepProblemsOfBothArms(std::move(ThenProblems), ElseProblems);
    for (auto &[Name, V] : Then) {
      auto It = frame().Vars.find(Name);
      if (It == frame().Vars.end())
        frame().Vars[Name] = V;
      else if (!(carriedType(It->second) == carriedType(V)))
        It->second = V.isConstexpr() ? Value::constant(PyValue()) : Value::poison();
    }
    return;
  }
  // visit_If rejects a block of more than one element only; a [1] block is
  // unsplatted (with a warning).
  if (Test.isBlock() && Test.Type.numel().value_or(1) != 1) {
    error(ProblemKind::InvalidOperands, S->Test->Range,
          "Boolean value of Tensor with more than one value is ambiguous");
    Test = Value::poison();
  }
  if (IRB) {
    // A constant condition (a helper's constexpr result, decayed to a tensor
    // by visit_Return: FlagGems' `if is_floating(a):` in a combine_fn):
    // Triton's canonicalizer folds the scf.if to the branch taken.
    const auto *C = Test.IR ? ir::dyn_cast<ir::ConstantOp>(Test.IR->definingOp()) : nullptr;
    if (C && Test.isTensor() && Test.Type.Shape.empty()) {
      bool Truth = isFloat(Test.Type.Elem.Scalar) ? C->floatValue() != 0 : C->intValue() != 0;
      frame().Transparent.emplace_back(CurBlock, CurIndex);
      execBlock(Truth ? S->Body : S->OrElse);
      frame().Transparent.pop_back();
      return;
    }
    if (Test.isPoison() && ErrorsReported == 0)
      loweringLimit(S->Test->Range, "`" + std::string(sourceText(S->Test->Range)) + "`");
    return lowerRuntimeIf(S, Test, KeywordR);
  }
  std::map<std::string, Value> Before = frame().Vars;
  execBlock(S->Body);
  std::map<std::string, Value> Then = std::move(frame().Vars);
  frame().Vars = Before;
  execBlock(S->OrElse);
  std::map<std::string, Value> Else = std::move(frame().Vars);
  // A name assigned in one branch only keeps its value from before the if.
  for (const auto &[Name, V] : Before) {
    Then.emplace(Name, V);
    Else.emplace(Name, V);
  }
  mergeBranches(Before, std::move(Then), std::move(Else), KeywordR);
}

void KernelChecker::execFor(const ForStmt *S) {
  SourceRange KeywordR = keywordRange(S, 3);
  const auto *Call = dyn_cast<CallExpr>(S->Iter);
  Value Callee = Call ? eval(Call->Func) : eval(S->Iter);
  std::string Iterator;
  if (Callee.isConstexpr() && Callee.Const.kind() == PyValue::Kind::Qualified)
    Iterator = Callee.Const.qualifiedPath();
  bool IsStatic = Iterator == "triton.language.static_range";
  bool IsRange = Iterator == "triton.language.range" || Iterator == "builtins.range";
  if (!Call || (!IsStatic && !IsRange)) {
    if (!Callee.isPoison())
      error(ProblemKind::UnsupportedConstruct, S->Iter->Range,
            "Only `range` and `static_range` iterators are currently supported");
    return;
  }
  std::vector<Value> Bounds;
  for (const Expr *A : Call->Args)
    Bounds.push_back(eval(A));
  // tl.range(..., num_stages=N) pipelines this loop over N stages (the
  // code generator's Pipeliner.h); 0: the kernel's num_stages.
  int64_t LoopStages = 0;
  for (const Keyword &K : Call->Keywords) {
    Value V = eval(K.Value);
    if (Iterator == "triton.language.range" && K.Name == "num_stages" && V.isKnownConstexpr() && V.Const.isIntLike())
      LoopStages = std::max<int64_t>(1, V.Const.asInt());
  }
  const auto *Target = dyn_cast<NameExpr>(S->Target);

  if (IsStatic) {
    bool AllKnown = !Bounds.empty() && Bounds.size() <= 3;
    static const char *Which[] = {"start", "end", "step"};
    for (size_t I = 0; I < Bounds.size() && I < 3; ++I) {
      if (Bounds[I].isTensor()) {
        error(ProblemKind::ConstexprRequired, Call->Args[I]->Range,
              Bounds[I].Type.tensorRepr() + " used as tl.static_range " + Which[I] + " value is not a constexpr");
        AllKnown = false;
      } else if (!Bounds[I].isKnownConstexpr() || !Bounds[I].Const.isIntLike()) {
        AllKnown = false;
      }
    }
    int64_t Start = 0, End = 0, Step = 1;
    if (AllKnown) {
      if (Bounds.size() == 1) {
        End = Bounds[0].Const.asInt();
      } else {
        Start = Bounds[0].Const.asInt();
        End = Bounds[1].Const.asInt();
        if (Bounds.size() == 3)
          Step = Bounds[2].Const.asInt();
      }
    }
    int64_t Trips =
        (AllKnown && Step != 0) ? std::max<int64_t>(0, (End - Start + Step - (Step > 0 ? 1 : -1)) / Step) : -1;
    if (Trips >= 0 && Trips <= (IRB ? MaxLoweredUnroll : MaxUnroll)) {
      for (int64_t I = 0; I < Trips; ++I) {
        if (Target)
          assignTarget(Target, Value::constant(PyValue::integer(Start + I * Step)), I == 0);
        execBlock(S->Body);
      }
      return;
    }
    if (IRB) {
      loweringLimit(S->Iter->Range,
                    "a tl.static_range loop whose trip count is unknown or above " + std::to_string(MaxLoweredUnroll));
      return;
    }
    if (Target)
      assignTarget(Target, Value::constant(PyValue()));
    execBlock(S->Body);
    return;
  }

  // A dynamic loop: bounds become tensors and must be integers.
  std::vector<std::string> Names;
  bool Bad = false;
  // visit_For: the induction variable has integer_promote_impl of the bounds'
  // types (a missing bound is a constexpr int32); unknown if one is unknown.
  ScalarKind IndVar = ScalarKind::I32;
  for (size_t I = 0; I < Bounds.size(); ++I) {
    TypingOnly Typing(*this); // lowerRangeFor emits the bounds in the induction variable's type
    Value T = toTensor(Bounds[I], Call->Args[I]->Range);
    if (!T.isTensor()) {
      Names.push_back("?");
      IndVar = ScalarKind::Unknown;
      continue;
    }
    Names.push_back(T.Type.tritonStr());
    ScalarKind K = T.Type.Elem.Scalar;
    if (K != ScalarKind::Unknown && (!isInt(K) || T.Type.Elem.isPointer()))
      Bad = true;
    else if (K == ScalarKind::Unknown || T.Type.Elem.isPointer())
      IndVar = ScalarKind::Unknown;
    else if (IndVar != ScalarKind::Unknown)
      IndVar = integerPromote(IndVar, K);
  }
  if (Bad) {
    while (Names.size() < 3)
      Names.push_back("int32");
    error(ProblemKind::InvalidOperands, S->Iter->Range,
          "For loop bounds and step must all be ints, are (" + Names[0] + ", " + Names[1] + ", " + Names[2] + ")");
  }
  promoteLoopCarried(S->Body, KeywordR);
  if (IRB)
    return lowerRangeFor(S, std::move(Bounds), IndVar, KeywordR, LoopStages);
  if (Target) {
    IndexFacts F;
    F.DynScalar = true;
    F.Cause = "the loop variable `" + Target->Id + "`";
    // range(n) and range(a, b) step by one; a step of BLOCK moves a block.
    F.UnitStep = Bounds.size() < 3 ||
                 (Bounds[2].isKnownConstexpr() && Bounds[2].Const.isIntLike() && Bounds[2].Const.asInt() == 1);
    // `for h in range(NUM_KV_HEADS)`, a count the kernel is given as a
    // constexpr (a parameter or a constexpr global, not a `cdiv` it
    // computes): `h * HEAD + tl.arange(0, HEAD)` covers N whole blocks, as a
    // grid of a plain count does (floorDividedGridAxes), so it does not slide.
    const auto *Count = Bounds.size() == 1 ? dyn_cast<NameExpr>(Call->Args[0]) : nullptr;
    if (Count && Bounds[0].isConstexpr() && (frame().Params.count(Count->Id) || !frame().Vars.count(Count->Id)))
      F.DynScalar = false;
    assignTarget(Target, Value::tensor(TileType{ElemType{IndVar}, {}}, std::move(F)));
  } else if (S->Target) {
    assignTarget(S->Target, Value::poison());
  }
  // visit_For binds the induction variable before it records the live-ins,
  // so an earlier value of the same name is no loop-carried variable.
  std::map<std::string, Value> Before = frame().Vars;
  execLoopBody(S->Body);
  checkLoopCarried(Before, KeywordR);
}

void KernelChecker::execLoopBody(const Block &Body) {
  // A `return` directly in this body is at loop level again, and the
  // constexpr ifs around the loop are outside its region.
  int SavedIfDepth = std::exchange(frame().IfDepthInLoop, 0);
  auto SavedTransparent = std::exchange(frame().Transparent, {});
  ++frame().LoopDepth;
  execBlock(Body);
  --frame().LoopDepth;
  frame().Transparent = std::move(SavedTransparent);
  frame().IfDepthInLoop = SavedIfDepth;
}

void KernelChecker::execWhile(const WhileStmt *S) {
  SourceRange KeywordR = keywordRange(S, 5);
  if (!S->OrElse.empty()) {
    error(ProblemKind::UnsupportedConstruct, S->ElseRange.empty() ? KeywordR : S->ElseRange,
          "Not implemented: `while ... else` is not supported in triton");
  }
  promoteLoopCarried(S->Body, KeywordR);
  if (IRB)
    return lowerWhile(S, KeywordR);
  std::map<std::string, Value> Before = frame().Vars;
  Value Test = eval(S->Test);
  if (Test.isBlock())
    error(ProblemKind::InvalidOperands, S->Test->Range,
          "Boolean value of Tensor with more than one value is ambiguous");
  execLoopBody(S->Body);
  checkLoopCarried(Before, KeywordR);
}

} // namespace tessel::sema
