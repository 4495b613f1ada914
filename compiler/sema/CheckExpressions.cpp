//===- CheckExpressions.cpp - expressions of a @jit function --------------===//
/// \file
/// The expression half of KernelChecker: name lookup with Triton's global
/// rules, attributes and subscripts on tensors and modules, Python operators
/// on tensors (semantic.py's promotion and broadcasting) and on constexprs
/// (plain Python), and calls: builtins, inlined @jit functions, and the plain
/// Python functions Triton refuses.
//===----------------------------------------------------------------------===//
#include "compiler/sema/KernelChecker.h"

#include "compiler/frontend/ConstEval.h"
#include "compiler/frontend/PyBuiltins.h"
#include "compiler/frontend/PyOps.h"
#include "compiler/ir/Builder.h"
#include "compiler/sema/BuiltinCall.h"
#include "compiler/sema/CalledName.h"
#include "compiler/sema/MaskFacts.h"
#include "compiler/sema/PointerParams.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <utility>

namespace tessel::sema {

using namespace ast;

/// Inlining depth at which a @jit call chain is considered runaway recursion.
static constexpr size_t MaxInlineDepth = 16;

KernelChecker::KernelChecker(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts,
                             ProblemSink &Sink, KernelAnalysis &Out)
    : File(File), Info(Info), Opts(Opts), Sink(Sink), Out(Out) {
  Root.File = &File;
  Root.Info = &Info;
  if (Opts.Project && !File.text().path().empty() && File.text().path() != "-")
    Root.Ref = Opts.Project->refOf(File.text().path());
}

void KernelChecker::error(ProblemKind K, SourceRange R, std::string Message) {
  Problem P{K, R, std::move(Message), {}, {}, Spec ? Spec->Description : std::string()};
  // Inside an inlined helper, Triton reports the call site with the callee's
  // error as its cause; tessel reports the callee's token and points back at
  // each call on the way.
  for (size_t I = Frames.size(); I-- > 1;) {
    const Frame &F = Frames[I];
    if (!F.CallSite)
      continue;
    std::string Caller = Frames[I - 1].Fn ? Frames[I - 1].Fn->Name : std::string("kernel");
    const ModuleScope *CallerScope = Frames[I - 1].Scope;
    P.Related.push_back({F.CallSite->Range,
                         "in the call of `" + (F.Fn ? F.Fn->Name : std::string()) + "` from `" + Caller + "`",
                         CallerScope && CallerScope != &Root ? CallerScope->File->textPtr() : nullptr});
  }
  placeProblem(P);
  ++ErrorsReported;
  Sink.report(std::move(P));
}

std::optional<ScalarKind> Value::dtypeKind() const {
  if (!isKnownConstexpr() || Const.kind() != PyValue::Kind::Qualified ||
      Const.qualifiedPath().rfind("triton.language.", 0) != 0)
    return std::nullopt;
  return scalarKindFromLanguageName(std::string_view(Const.qualifiedPath()).substr(16));
}

bool Value::isDtype() const { return dtypeKind().has_value(); }

std::string Value::describe() const {
  switch (K) {
  case Kind::Tensor:
    return Type.tritonStr();
  case Kind::Constexpr:
    return "constexpr[" + Const.repr() + "]";
  case Kind::Tuple:
    return "tuple";
  case Kind::Method:
    return "method";
  case Kind::Poison:
    return "?";
  }
  return "?";
}

void KernelChecker::unsupported(const Expr *E, std::string_view PyName) {
  error(ProblemKind::UnsupportedConstruct, E->Range, "unsupported AST node type: " + std::string(PyName));
}

Value KernelChecker::eval(const Expr *E) {
  if (!E)
    return Value::poison();
  switch (E->kind()) {
  case ExprKind::Name:
    return evalName(cast<NameExpr>(E));
  case ExprKind::Constant:
    return Value::constant(literalValue(*cast<ConstantExpr>(E)));
  case ExprKind::Attribute:
    return evalAttribute(cast<AttributeExpr>(E));
  case ExprKind::Call:
    return evalCall(cast<CallExpr>(E));
  case ExprKind::Subscript:
    return evalSubscript(cast<SubscriptExpr>(E));
  case ExprKind::Tuple:
  case ExprKind::List: {
    const std::vector<Expr *> &Elts = isa<TupleExpr>(E) ? cast<TupleExpr>(E)->Elts : cast<ListExpr>(E)->Elts;
    std::vector<Value> Vals;
    bool AllConst = true;
    for (const Expr *X : Elts) {
      Vals.push_back(eval(X));
      AllConst &= Vals.back().isConstexpr();
    }
    if (AllConst) {
      PyList L;
      for (const Value &V : Vals)
        L.push_back(V.Const);
      return Value::constant(PyValue::tuple(std::move(L)));
    }
    return Value::tuple(std::move(Vals));
  }
  case ExprKind::ListComp:
    error(ProblemKind::UnsupportedConstruct, E->Range, "only tuple comprehensions are supported");
    return Value::poison();
  case ExprKind::BinOp:
    return evalBinOp(cast<BinOpExpr>(E));
  case ExprKind::UnaryOp:
    return evalUnaryOp(cast<UnaryOpExpr>(E));
  case ExprKind::BoolOp:
    return evalBoolOp(cast<BoolOpExpr>(E));
  case ExprKind::Compare:
    return evalCompare(cast<CompareExpr>(E));
  case ExprKind::IfExp:
    return evalIfExp(cast<IfExpExpr>(E));
  case ExprKind::JoinedStr:
    for (const Expr *V : cast<JoinedStrExpr>(E)->Values)
      eval(V);
    return Value::constant(PyValue());
  case ExprKind::Slice:
  case ExprKind::Lambda:
  case ExprKind::Dict:
  case ExprKind::Starred:
    unsupported(E, E->pyName());
    return Value::poison();
  case ExprKind::Unsupported:
    unsupported(E, cast<UnsupportedExpr>(E)->PyName);
    return Value::poison();
  case ExprKind::Error:
    return Value::poison();
  }
  return Value::poison();
}

/// Names Triton resolves inside kernels without an import
/// (CodeGenerator.builtin_namespace). Other Python builtins are not visible
/// there: `abs`, `bool` and `tuple` are "not defined" (measured).
static bool isKernelBuiltinName(const std::string &N) {
  static const char *Names[] = {"len",     "list",    "range", "float", "int", "isinstance",
                                "getattr", "hasattr", "print", "min",   "max"};
  return std::find(std::begin(Names), std::end(Names), N) != std::end(Names);
}

Value KernelChecker::evalDefault(const Expr *Default) {
  // Python evaluates a default where the function is defined, and Triton
  // receives the value: a module-level `BLOCK_DEFAULT = 128` named there is
  // 128, not a global the kernel reads (which would need a tl.constexpr).
  if (const auto *N = dyn_cast<NameExpr>(Default)) {
    const ModuleInfo &Info = *Scope->Info;
    if (auto G = Info.Globals.find(N->Id);
        G != Info.Globals.end() && !Info.Imports.count(N->Id) && !Info.Jit.count(N->Id) && !G->second.Value.isUnknown())
      return Value::constant(G->second.Value);
  }
  return eval(Default);
}

Value KernelChecker::evalName(const NameExpr *E) {
  auto It = frame().Vars.find(E->Id);
  if (It != frame().Vars.end())
    return It->second;
  return evalGlobal(E->Id, E->Range);
}

/// The module-level statement that defines a global (the call a
/// triton.language dtype alias is built by).
static const Stmt *definingStatement(const Module &M, SourceRange R) {
  for (const Stmt *S : M.Body)
    if (S->Range.contains(R) || S->Range == R)
      return S;
  return nullptr;
}

/// `X = tl.pointer_type(tl.int32)` and the like: an instance of a
/// triton.language dtype class, which Triton lets kernels read (its
/// `__module__` is triton.language), though tessel does not know its value.
static bool definesLanguageType(const ModuleInfo &Info, const Stmt *Def) {
  const auto *A = Def ? dyn_cast<AssignStmt>(Def) : nullptr;
  const auto *Call = A ? dyn_cast<CallExpr>(A->Value) : nullptr;
  if (!Call)
    return false;
  std::string Q = Info.qualify(Call->Func);
  for (const char *Ty : {"pointer_type", "block_type", "tuple_type", "dtype"})
    if (Q == std::string("triton.language.") + Ty || Q == std::string("triton.language.core.") + Ty)
      return true;
  return false;
}

Value KernelChecker::evalGlobalIn(const ModuleScope &S, const std::string &Name, SourceRange R) {
  const ModuleInfo &Info = *S.Info;
  if (Info.Jit.count(Name))
    return functionIn(S, Info.Jit.at(Name).Def);
  if (auto It = Info.Imports.find(Name); It != Info.Imports.end())
    return importedValue(S, It->second, R);
  if (auto It = Info.Globals.find(Name); It != Info.Globals.end()) {
    const GlobalSymbol &G = It->second;
    // Triton looks at the value, not the annotation: `X: tl.constexpr =
    // tl.constexpr(1)` is a constexpr, `X: tl.constexpr = 1` is not.
    if (G.IsConstexprInstance)
      return Value::constant(G.Value);
    PyValue::Kind K = G.Value.kind();
    // Modules, dtypes and functions are globals Triton lets kernels use.
    if (K == PyValue::Kind::Qualified)
      return importedValue(S, G.Value.qualifiedPath(), R);
    if (K == PyValue::Kind::Function)
      return functionIn(S, G.Value.asFunction());
    // A value tessel could not compute (a host call, an alias bound inside
    // `try`/`except` or a runtime `if`) may be a module, a builtin or a
    // constexpr Triton accepts: say nothing. A triton.language dtype built
    // by a call is one Triton accepts whatever its value.
    if (G.Value.isUnknown() || definesLanguageType(Info, definingStatement(S.File->module(), G.Range)))
      return Value::constant(PyValue());
    error(ProblemKind::GlobalAccess, R,
          "Cannot access global variable " + Name +
              " from within @jit'ed function. Triton kernels can only access global variables that are "
              "instanstiated as constexpr (`x = triton.language.constexpr(42)`). Note that this is different from "
              "annotating a variable as constexpr (`x: triton.language.constexpr = 42`), which is not supported.  "
              "Alternatively, set the envvar TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, but we do not promise to "
              "support this forever.");
    // Triton stops at the first reference; later ones in this function are
    // the same mistake.
    if (&S == Scope)
      frame().Vars[Name] = Value::poison();
    return Value::poison();
  }
  if (auto It = Info.Functions.find(Name); It != Info.Functions.end())
    return functionIn(S, It->second);
  if (isKernelBuiltinName(Name))
    return Value::constant(PyValue::qualified("builtins." + Name));
  // `from m import *`: the name may come from m (Unknown when m is not
  // in the project).
  if (!Info.StarImports.empty())
    return starImported(S, Name, R);
  error(ProblemKind::UndefinedName, R, Name + " is not defined");
  return Value::poison();
}

static bool isLanguageModule(const std::string &Path) {
  return Path == "triton.language" || Path == "triton.language.core" || Path == "triton.language.math" ||
         Path == "triton.language.standard" || Path == "triton.language.random";
}

/// `desc.load` / `desc.store` (the builtins tl.load_tensor_descriptor and
/// tl.store_tensor_descriptor), and what a tl.tensor_descriptor holds.
static Value descriptorAttribute(const Value &Desc, const AttributeExpr *E) {
  if (E->Attr == "load" || E->Attr == "store")
    return Value::method(Desc, E->Attr + "_tensor_descriptor");
  if (E->Attr == "block_shape") {
    PyList Dims;
    for (int64_t D : Desc.BlockShape)
      Dims.push_back(PyValue::integer(D));
    return Value::constant(PyValue::list(std::move(Dims)));
  }
  if (E->Attr == "dtype" && Desc.Type.Elem.pointee().Scalar != ScalarKind::Unknown)
    return Value::constant(
        PyValue::qualified("triton.language." + std::string(languageName(Desc.Type.Elem.pointee().Scalar))));
  // A host descriptor's shape (i32) and strides (i64) are launch arguments.
  size_t Rank = Desc.BlockShape.size();
  if ((E->Attr == "shape" || E->Attr == "strides") && Desc.HostDescParts.size() == 1 + 2 * Rank) {
    Value T = Value::tuple({});
    bool Shape = E->Attr == "shape";
    for (size_t D = 0; D < Rank; ++D) {
      Value Part = Value::tensor(TileType{ElemType{Shape ? ScalarKind::I32 : ScalarKind::I64}, {}});
      Part.IR = Desc.HostDescParts[1 + (Shape ? 0 : Rank) + D];
      T.Elts.push_back(std::move(Part));
    }
    return T;
  }
  // gather / scatter / atomics, the shape and strides as tensors: not
  // modelled (unknown, never an error).
  return Value::poison();
}

/// The language submodules whose members tessel knows only in part.
static bool isImplementationModule(const std::string &Path) {
  return Path == "triton.language.core" || Path == "triton.language.standard" || Path == "triton.language.random";
}

std::vector<std::string> broadcastDimNames(std::initializer_list<const Value *> Operands,
                                           const std::vector<int64_t> &Shape) {
  std::vector<std::string> Names(Shape.size());
  bool Any = false;
  for (const Value *V : Operands) {
    if (!V->isTensor() || V->DimNames.size() != V->Type.Shape.size())
      continue;
    size_t Lead = Shape.size() >= V->Type.Shape.size() ? Shape.size() - V->Type.Shape.size() : 0;
    for (size_t J = 0; J < V->Type.Shape.size() && Lead + J < Shape.size(); ++J)
      if (Names[Lead + J].empty() && V->Type.Shape[J] == Shape[Lead + J] && !V->DimNames[J].empty()) {
        Names[Lead + J] = V->DimNames[J];
        Any = true;
      }
  }
  return Any ? Names : std::vector<std::string>{};
}

Value KernelChecker::evalAttribute(const AttributeExpr *E) {
  // `p.dtype.element_ty` (any tile of pointers) and `p.type.element_ty` (a
  // scalar pointer) name the pointee's dtype: the idiom stores use to
  // convert to the output's type (`acc.to(out_ptr.dtype.element_ty)`).
  if (const auto *Inner = dyn_cast<AttributeExpr>(E->Value); Inner && isa<NameExpr>(Inner->Value) &&
                                                             E->Attr == "element_ty" &&
                                                             (Inner->Attr == "dtype" || Inner->Attr == "type")) {
    Value PtrStorage;
    const Value &Ptr = evalView(Inner->Value, PtrStorage);
    if (Ptr.isTensor() && Ptr.Type.Elem.PointerDepth == 1 && Ptr.Type.Elem.Scalar != ScalarKind::Unknown &&
        (Inner->Attr == "dtype" || Ptr.Type.Shape.empty()))
      return Value::constant(PyValue::qualified("triton.language." + std::string(languageName(Ptr.Type.Elem.Scalar))));
  }
  Value BaseStorage;
  const Value &Base = evalView(E->Value, BaseStorage);
  if (Base.isPoison())
    return Base;
  if (Base.isConstexpr() && Base.Const.kind() == PyValue::Kind::Qualified) {
    const std::string &Path = Base.Const.qualifiedPath();
    if (isLanguageModule(Path)) {
      const PyValue *Member = languageMember(E->Attr);
      // core.py, standard.py and random.py hold many more module-level names
      // than `triton.language` re-exports (`core.get_int_dtype`,
      // `core.CONSTEXPR_0`, `standard._log2`...): tessel does not list them
      // all, so a name it does not know there is Unknown, not an error.
      if (!Member && isImplementationModule(Path))
        return Value::constant(
            E->Attr == "_log2" || E->Attr == "get_int_dtype" ? PyValue::qualified(Path + "." + E->Attr) : PyValue());
      if (!Member) {
        error(ProblemKind::NoAttribute, E->Range, "module '" + Path + "' has no attribute '" + E->Attr + "'");
        return Value::poison();
      }
      return Value::constant(*Member);
    }
    if (std::optional<ElemType> Ptr = pointerTypeFromPath(Path)) {
      if (E->Attr == "element_ty")
        return Value::constant(PyValue::qualified("triton.language." + std::string(languageName(Ptr->Scalar))));
      return Value::constant(PyValue());
    }
    std::string Member = Path + "." + E->Attr;
    // `math.pi`; a dtype's bit width, or its predicate (`x.dtype.is_int64`).
    if (std::optional<PyValue> C = pybuiltins::libraryConstant(Member))
      return Value::constant(*C);
    if (Path.rfind("triton.language.", 0) == 0 &&
        scalarKindFromLanguageName(std::string_view(Path).substr(16)).has_value())
      return Value::constant(PyValue()); // other dtype attributes
    // PyTorch's numeric limits and build, which kernels read at compile time
    // (`torch.finfo(torch.float32).max`, `torch.version.hip`): what
    // callLibrary and libraryConstant model of torch.
    if (Path == "torch" && (E->Attr == "finfo" || E->Attr == "iinfo" || E->Attr == "float32" || E->Attr == "float16" ||
                            E->Attr == "bfloat16" || E->Attr == "version")) {
      Value V = moduleAttribute(Path, E->Attr, E->Range);
      return V.isConstexpr() && V.Const.isUnknown() ? Value::constant(PyValue::qualified(std::move(Member))) : V;
    }
    if (!project::isExternalRoot(std::string_view(Path).substr(0, Path.find('.'))))
      return moduleAttribute(Path, E->Attr, E->Range);
    return Value::constant(PyValue::qualified(std::move(Member)));
  }
  if (Base.isTensor() && Base.IsDescriptor) {
    Value V = descriptorAttribute(Base, E);
    if (V.isPoison() && IRB)
      loweringLimit(E->Range, "a tensor descriptor's `" + E->Attr + "`");
    return V;
  }
  if (Base.isTensor()) {
    if (E->Attr == "T") {
      if (Base.Type.Shape.size() != 2)
        return Value::poison();
      Value V = Base;
      std::swap(V.Type.Shape[0], V.Type.Shape[1]);
      if (V.DimNames.size() == 2)
        std::swap(V.DimNames[0], V.DimNames[1]);
      V.Facts = permuteFacts(Base.Facts, {1, 0});
      if (IRB)
        V.IR = IRB->permute(E->Range, lower(Base, E->Value->Range), {1, 0});
      return V;
    }
    if (E->Attr == "dtype") {
      // A pointer's dtype is its pointer type (`c_ptr.dtype == tl.float8e4nv`
      // is False for a pointer, as in Triton).
      if (Base.Type.Elem.PointerDepth == 1 && Base.Type.Elem.Scalar != ScalarKind::Unknown)
        return Value::constant(PyValue::qualified(pointerTypePath(Base.Type.Elem.Scalar)));
      if (Base.Type.Elem.isPointer() || Base.Type.Elem.Scalar == ScalarKind::Unknown)
        return Value::constant(PyValue());
      return Value::constant(PyValue::qualified("triton.language." + std::string(languageName(Base.Type.Elem.Scalar))));
    }
    if (E->Attr == "shape") {
      PyList Dims;
      for (int64_t D : Base.Type.Shape)
        Dims.push_back(D == TileType::UnknownDim ? PyValue() : PyValue::integer(D));
      return Value::constant(PyValue::tuple(std::move(Dims)));
    }
    if (E->Attr == "type" || E->Attr == "handle" || E->Attr == "numel")
      return Value::constant(E->Attr == "numel" && Base.Type.numel() ? PyValue::integer(*Base.Type.numel())
                                                                     : PyValue());
    // A parameter of unknown kind may be a host TensorDescriptor (or a tuple,
    // or any object the host passes): `desc.load([m, k])` is then a
    // descriptor method tessel cannot type.
    if (Base.Type.Shape.empty() && Base.Type.Elem.Scalar == ScalarKind::Unknown && !Base.Type.Elem.isPointer() &&
        isTensorDescriptorMember(E->Attr))
      return Value::poison();
    if (isTensorMethod(E->Attr))
      return Value::method(Base, E->Attr);
    error(ProblemKind::NoAttribute, E->AttrRange, "'tensor' object has no attribute '" + E->Attr + "'");
    return Value::poison();
  }
  return Base.isConstexpr() ? Value::constant(PyValue()) : Value::poison();
}

Value KernelChecker::evalSubscript(const SubscriptExpr *E) {
  Value BaseStorage;
  const Value &Base = evalView(E->Value, BaseStorage);
  std::vector<const Expr *> Index;
  if (const auto *T = dyn_cast<TupleExpr>(E->Index))
    Index.assign(T->Elts.begin(), T->Elts.end());
  else
    Index.push_back(E->Index);
  if (Base.isPoison())
    return Base;
  if (Base.isTensor()) {
    std::vector<int64_t> Shape;
    IndexFacts In = Base.Facts;
    In.AxisCauses.resize(In.Axes.size());
    IndexFacts F = In;
    F.Axes.clear();
    F.AxisCauses.clear();
    F.MaskBounds.clear();
    bool IsMask = !Base.Facts.MaskBounds.empty();
    size_t Dim = 0;
    std::vector<std::string> Names; // DimNames of the result, as Shape grows
    auto NameOf = [&](size_t D) { return D < Base.DimNames.size() ? Base.DimNames[D] : std::string(); };
    ir::Value *X = IRB ? lower(Base, E->Value->Range) : nullptr;
    for (const Expr *I : Index) {
      if (const auto *S = dyn_cast<SliceExpr>(I); S && (S->Lower || S->Upper || S->Step)) {
        error(ProblemKind::TensorIndex, E->Range, "unsupported tensor index: <triton.language.core.slice object>");
        return Value::poison();
      }
      if (isa<SliceExpr>(I)) {
        if (Dim < Base.Type.Shape.size()) {
          Shape.push_back(Base.Type.Shape[Dim]);
          Names.push_back(NameOf(Dim));
          F.Axes.push_back(In.Axes[Dim]);
          F.AxisCauses.push_back(In.AxisCauses[Dim]);
          if (IsMask)
            F.MaskBounds.push_back(Base.Facts.MaskBounds[Dim]);
        }
        ++Dim;
        continue;
      }
      Value IV = eval(I);
      if (IV.isConstexpr() && IV.Const.isNone()) {
        if (X)
          X = IRB->expandDims(E->Range, X, static_cast<int>(Shape.size()));
        Shape.push_back(1);
        Names.emplace_back();
        F.Axes.push_back(AxisIndex::None);
        F.AxisCauses.emplace_back();
        if (IsMask)
          F.MaskBounds.push_back(false);
        continue;
      }
      if (IV.isPoison())
        return IV;
      // A scalar of unknown type indexed with an int is most likely a tuple
      // kernel argument (Triton 3.3+: `res[0]`), which tessel does not see.
      if (Base.Type.Shape.empty() && Base.Type.Elem.Scalar == ScalarKind::Unknown && !Base.Type.Elem.isPointer() &&
          IV.isConstexpr() && (IV.Const.isUnknown() || IV.Const.isIntLike()))
        return Value::poison();
      error(ProblemKind::TensorIndex, E->Range, "unsupported tensor index: " + IV.describe());
      return Value::poison();
    }
    for (; Dim < Base.Type.Shape.size(); ++Dim) {
      Shape.push_back(Base.Type.Shape[Dim]);
      Names.push_back(NameOf(Dim));
      F.Axes.push_back(In.Axes[Dim]);
      F.AxisCauses.push_back(In.AxisCauses[Dim]);
      if (IsMask)
        F.MaskBounds.push_back(Base.Facts.MaskBounds[Dim]);
    }
    F.DynScalar = false;
    Value V = Value::tensor(TileType{Base.Type.Elem, std::move(Shape)}, std::move(F), X);
    V.DimNames = std::move(Names);
    if (Base.DimNames.size() != Base.Type.Shape.size() || V.DimNames.size() != V.Type.Shape.size())
      V.DimNames.clear();
    return V;
  }
  if (Index.size() != 1)
    return Value::poison();
  Value IV = eval(Index[0]);
  if (!IV.isKnownConstexpr() || !IV.Const.isIntLike())
    return Base.isConstexpr() ? Value::constant(PyValue()) : Value::poison();
  int64_t I = IV.Const.asInt();
  if (Base.K == Value::Kind::Tuple) {
    int64_t N = static_cast<int64_t>(Base.Elts.size());
    if (I < 0)
      I += N;
    if (I < 0 || I >= N) {
      error(ProblemKind::TensorIndex, E->Index->Range, "tuple index out of range");
      return Value::poison();
    }
    return Base.Elts[I];
  }
  if (Base.isKnownConstexpr() && Base.Const.isSequence()) {
    int64_t N = static_cast<int64_t>(Base.Const.elements().size());
    if (I < 0)
      I += N;
    if (I < 0 || I >= N)
      return Value::constant(PyValue());
    return Value::constant(Base.Const.elements()[I]);
  }
  return Base.isConstexpr() ? Value::constant(PyValue()) : Value::poison();
}

Value KernelChecker::toTensor(const Value &V, SourceRange R) {
  if (V.isTensor() || V.isPoison())
    return V;
  if (!V.isConstexpr())
    return Value::poison();
  if (V.Const.isUnknown())
    return Value::tensor(TileType{ElemType{ScalarKind::Unknown}, {}});
  OrError<ScalarKind> K = literalType(V.Const);
  if (!K)
    return Value::poison();
  return Value::tensor(TileType{ElemType{*K.Result}, {}}, {}, IRB ? lower(V, R) : nullptr);
}

static std::optional<ArithKind> arithKind(BinOpKind Op) {
  switch (Op) {
  case BinOpKind::Add:
    return ArithKind::Add;
  case BinOpKind::Sub:
    return ArithKind::Sub;
  case BinOpKind::Mult:
    return ArithKind::MulLike;
  case BinOpKind::Div:
    return ArithKind::TrueDiv;
  case BinOpKind::FloorDiv:
  case BinOpKind::Mod:
    return ArithKind::FloorDivMod;
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor:
    return ArithKind::Bitwise;
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    return ArithKind::Shift;
  case BinOpKind::Pow:
  case BinOpKind::MatMult:
    return std::nullopt;
  }
  return std::nullopt;
}

static const char *dunder(BinOpKind Op, bool Reflected) {
  if (Op == BinOpKind::Pow)
    return Reflected ? "__rpow__" : "__pow__";
  return Reflected ? "__rmatmul__" : "__matmul__";
}

/// The operand description promotion needs; nullopt for values that are not
/// numbers or tensors.
static std::optional<BinaryOperand> operand(const Value &V) {
  if (V.isTensor())
    return BinaryOperand{V.Type.Elem, false, {}};
  if (!V.isConstexpr())
    return std::nullopt;
  if (V.Const.isUnknown())
    return BinaryOperand{ElemType{V.IntLike ? ScalarKind::I32 : ScalarKind::Unknown}, true, V.Const};
  OrError<ScalarKind> K = literalType(V.Const);
  if (!K)
    return std::nullopt;
  return BinaryOperand{ElemType{*K.Result}, true, V.Const};
}

static std::vector<int64_t> shapeOf(const Value &V) { return V.isTensor() ? V.Type.Shape : std::vector<int64_t>{}; }

std::optional<TileType> KernelChecker::promote(const BinaryOperand &A, const BinaryOperand &B, ArithKind Kind,
                                               const Value &L, const Value &R, SourceRange Range) {
  OrError<ElemType> Elem = binaryComputationType(A, B, Kind);
  if (!Elem) {
    error(ProblemKind::InvalidOperands, Range, Elem.Error);
    return std::nullopt;
  }
  auto Shape = broadcastShapes(shapeOf(L), shapeOf(R));
  if (!Shape) {
    error(ProblemKind::ShapeMismatch, Range, Shape.Error);
    return std::nullopt;
  }
  return TileType{*Elem.Result, *Shape.Result};
}

Value KernelChecker::binaryOp(BinOpKind Op, const Value &L, const Value &R, SourceRange Range,
                              std::optional<ArithKind> Rules) {
  if (L.isPoison() || R.isPoison())
    return Value::poison();
  if (L.isConstexpr() && R.isConstexpr()) {
    // constexpr.__add__ and friends compute in Python, which raises.
    std::string TypeError = pyBinaryOpTypeError(Op, L.Const, R.Const);
    if (!TypeError.empty()) {
      error(ProblemKind::InvalidOperands, Range, TypeError);
      return Value::poison();
    }
    Value Out = Value::constant(pyBinaryOp(Op, L.Const, R.Const));
    // `BLOCK // 2`, `BLOCK * NUM`: ints make an int whatever their values.
    auto IsInt = [](const Value &V) { return V.IntLike || (V.Const.isIntLike() && !V.Const.isBool()); };
    Out.IntLike = Out.Const.isUnknown() && IsInt(L) && IsInt(R) && Op != BinOpKind::Div && Op != BinOpKind::Pow &&
                  Op != BinOpKind::MatMult;
    return Out;
  }
  auto Kind = Rules ? Rules : arithKind(Op);
  if (!Kind) {
    bool Reflected = !L.isTensor();
    error(ProblemKind::NoAttribute, Range,
          std::string("'tensor' object has no attribute '") + dunder(Op, Reflected) + "'");
    return Value::poison();
  }
  auto A = operand(L), B = operand(R);
  if (!A || !B) {
    error(ProblemKind::InvalidOperands, Range,
          "unsupported operand type(s) for " + std::string(spelling(Op)) + ": " + L.describe() + " and " +
              R.describe());
    return Value::poison();
  }
  std::optional<TileType> Promoted = promote(*A, *B, *Kind, L, R, Range);
  if (!Promoted)
    return Value::poison();
  ElemType Result = Promoted->Elem;
  // semantic.floordiv handles integers only (`%` also takes floats).
  if (Op == BinOpKind::FloorDiv && !Result.isPointer() && Result.Scalar != ScalarKind::Unknown &&
      !isInt(Result.Scalar)) {
    error(ProblemKind::InvalidOperands, Range, "unexpected type " + std::string(shortName(Result.Scalar)));
    return Value::poison();
  }
  if (*Kind == ArithKind::TrueDiv && !Result.isPointer() && isInt(Result.Scalar))
    Result = ElemType{ScalarKind::FP32};
  size_t Rank = Promoted->Shape.size();
  IndexFacts F;
  // A mask combines with a mask or with any boolean (`lane_mask & (i < T)`,
  // a scalar condition, bounds what lane_mask bounds); `*` of two masks is
  // their `&`.
  auto IsBool = [](const Value &V) {
    return (V.isTensor() && V.Type.Elem.Scalar == ScalarKind::I1 && !V.Type.Elem.isPointer()) ||
           (V.isKnownConstexpr() && V.Const.isBool());
  };
  auto HasBounds = [](const Value &V) { return V.isTensor() && !V.Facts.MaskBounds.empty(); };
  bool Masks = (HasBounds(L) && (HasBounds(R) || IsBool(R))) || (HasBounds(R) && IsBool(L));
  bool BothMasks = HasBounds(L) && HasBounds(R);
  if (Op == BinOpKind::Add || Op == BinOpKind::Sub)
    F = additiveFacts(L, R, Rank);
  else if (Op == BinOpKind::Mod)
    F = wrapFacts(joinFacts(L, R, Rank));
  else if ((Op == BinOpKind::BitAnd || Op == BinOpKind::BitOr) && Masks)
    F = combineMasks(L, R, Rank, Op == BinOpKind::BitOr);
  else if (Op == BinOpKind::Mult && BothMasks)
    F = combineMasks(L, R, Rank, false);
  else
    F = joinFacts(L, R, Rank);
  // `row * stride` (a program id times a runtime stride) selects a row; the
  // arange added to it spans that row from its start and does not slide with
  // the program id. Only `pid * BLOCK` (a constexpr block) moves a block.
  auto IsRuntimeScalar = [](const Value &V) { return V.isTensor() && !V.Type.isBlock() && !V.Facts.DynScalar; };
  if (Op == BinOpKind::Mult && Rank == 0 &&
      ((L.Facts.DynScalar && IsRuntimeScalar(R)) || (R.Facts.DynScalar && IsRuntimeScalar(L))))
    F.DynScalar = false;
  // `row * P` of a runtime row and a parameter: rows of P elements.
  if (Op == BinOpKind::Mult && Rank == 0 && L.isTensor() && R.isTensor() && !F.DynScalar)
    F.Pitch = !R.Facts.Param.empty() && L.Facts.Param != R.Facts.Param ? R.Facts.Param
              : !L.Facts.Param.empty()                                 ? L.Facts.Param
                                                                       : std::string();
  // `i * BLOCK`: a unit-step index scaled by a block moves a block, by that
  // block (Scale).
  if (Op == BinOpKind::Mult && (L.isConstexpr() || R.isConstexpr())) {
    F.UnitStep = false;
    const Value &C = L.isConstexpr() ? L : R;
    const Value &D = L.isConstexpr() ? R : L;
    bool Known = F.DynScalar && C.isKnownConstexpr() && C.Const.isIntLike() && !C.Const.isBool() &&
                 C.Const.asInt() > 0 && C.Const.asInt() < (int64_t(1) << 31);
    int64_t Prior = D.Facts.Scale > 0 ? D.Facts.Scale : 1;
    F.Scale = Known && Prior < (int64_t(1) << 31) ? Prior * C.Const.asInt() : 0;
  }
  Value Out = Value::tensor(TileType{Result, Promoted->Shape}, std::move(F));
  Out.DimNames = broadcastDimNames({&L, &R}, Promoted->Shape);
  // With Rules, a builtin borrows the typing (tl.where, minimum...) and
  // emits its own op.
  if (IRB && !Rules)
    Out.IR = emitBinary(Op, L, R, *Promoted, Out.Type, Range);
  return Out;
}

static ir::OpKind irBinary(BinOpKind Op) {
  switch (Op) {
  case BinOpKind::Add:
    return ir::OpKind::Add;
  case BinOpKind::Sub:
    return ir::OpKind::Sub;
  case BinOpKind::Mult:
    return ir::OpKind::Mul;
  case BinOpKind::Div:
    return ir::OpKind::Div;
  case BinOpKind::FloorDiv:
    return ir::OpKind::FloorDiv;
  case BinOpKind::Mod:
    return ir::OpKind::Mod;
  case BinOpKind::BitAnd:
    return ir::OpKind::And;
  case BinOpKind::BitOr:
    return ir::OpKind::Or;
  case BinOpKind::BitXor:
    return ir::OpKind::Xor;
  case BinOpKind::LShift:
    return ir::OpKind::Shl;
  case BinOpKind::RShift:
    return ir::OpKind::Shr;
  case BinOpKind::Pow:
  case BinOpKind::MatMult:
    break;
  }
  return ir::OpKind::Add;
}

ir::Value *KernelChecker::emitBinary(BinOpKind Op, const Value &L, const Value &R, const TileType &Computation,
                                     const TileType &ResultType, SourceRange Range) {
  if (Computation.Elem.isPointer()) {
    // semantic.add / sub with a pointer: addptr, the offset keeping its own
    // integer type (negated for `p - off`).
    bool LeftPtr = L.isTensor() && L.Type.Elem.isPointer();
    const Value &P = LeftPtr ? L : R, &Off = LeftPtr ? R : L;
    if ((Op != BinOpKind::Add && Op != BinOpKind::Sub) || (Op == BinOpKind::Sub && !LeftPtr) ||
        (Off.isTensor() && Off.Type.Elem.isPointer())) {
      loweringLimit(Range, "this pointer arithmetic");
      return lower(Value::poison(), Range);
    }
    ElemType OffElem =
        Off.isTensor() ? Off.Type.Elem : ElemType{literalType(Off.Const).Result.value_or(ScalarKind::I32)};
    ir::Value *Offset = lowerAs(Off, TileType{OffElem, Computation.Shape}, Range);
    if (Op == BinOpKind::Sub)
      Offset = IRB->sub(Range, lowerAs(Value::constant(PyValue::integer(0)), Offset->type(), Range), Offset);
    return IRB->addPtr(Range, lowerAs(P, Computation, Range), Offset);
  }
  // `/` converts both sides to the result's float type first.
  const TileType &Operands = Op == BinOpKind::Div ? ResultType : Computation;
  return IRB->binary(Range, irBinary(Op), lowerAs(L, Operands, Range), lowerAs(R, Operands, Range));
}

Value KernelChecker::compareOp(CmpOpKind Op, const Value &L, const Value &R, SourceRange Range) {
  if (L.isPoison() || R.isPoison())
    return Value::poison();
  if (L.isConstexpr() && R.isConstexpr())
    return Value::constant(pyCompare(Op, L.Const, R.Const));
  if (Op == CmpOpKind::Is || Op == CmpOpKind::IsNot)
    return Value::constant(PyValue::boolean(Op == CmpOpKind::IsNot));
  if (Op == CmpOpKind::In || Op == CmpOpKind::NotIn)
    return Value::poison();
  auto A = operand(L), B = operand(R);
  if (!A || !B)
    return Value::poison();
  // tensor.__lt__ & co. call to_tensor(other) before semantic.less_than, so a
  // Python number is no scalar operand there: it promotes like a tensor.
  A->IsPythonScalar = B->IsPythonScalar = false;
  std::optional<TileType> Promoted = promote(*A, *B, ArithKind::Compare, L, R, Range);
  if (!Promoted)
    return Value::poison();
  Value Out =
      Value::tensor(TileType{ElemType{ScalarKind::I1}, Promoted->Shape}, compareFacts(L, R, Promoted->Shape.size()));
  Out.DimNames = broadcastDimNames({&L, &R}, Promoted->Shape);
  if (IRB) {
    static const std::map<CmpOpKind, ir::CmpPredicate> Preds = {
        {CmpOpKind::Eq, ir::CmpPredicate::EQ}, {CmpOpKind::NotEq, ir::CmpPredicate::NE},
        {CmpOpKind::Lt, ir::CmpPredicate::LT}, {CmpOpKind::LtE, ir::CmpPredicate::LE},
        {CmpOpKind::Gt, ir::CmpPredicate::GT}, {CmpOpKind::GtE, ir::CmpPredicate::GE}};
    Out.IR = IRB->cmp(Range, Preds.at(Op), lowerAs(L, *Promoted, Range), lowerAs(R, *Promoted, Range));
  }
  return Out;
}

const Value &KernelChecker::evalView(const Expr *E, Value &Storage) {
  if (const auto *N = dyn_cast<NameExpr>(E))
    if (auto It = frame().Vars.find(N->Id); It != frame().Vars.end())
      return It->second;
  return Storage = eval(E);
}
Value KernelChecker::evalBinOp(const BinOpExpr *E) {
  Value LStorage, RStorage;
  const Value &L = evalView(E->Lhs, LStorage);
  const Value &R = evalView(E->Rhs, RStorage);
  return binaryOp(E->Op, L, R, E->Range);
}

Value KernelChecker::evalUnaryOp(const UnaryOpExpr *E) {
  Value V = eval(E->Operand);
  if (V.isPoison())
    return V;
  if (E->Op == UnaryOpKind::Not && isa<TupleExpr>(E->Operand)) {
    // visit_UnaryOp looks `__not__` up on the tl.tuple a tuple display
    // builds, whose attribute lookup is a search of its field names
    // (measured on 3.6). A list display stays a Python list, and tessel keeps
    // lists as tuples: only the display tells them apart.
    error(ProblemKind::InvalidOperands, E->Range, "'__not__' is not in list");
    return Value::poison();
  }
  if (V.isConstexpr())
    return Value::constant(pyUnaryOp(E->Op, V.Const));
  if (!V.isTensor())
    return Value::poison();
  if (E->Op == UnaryOpKind::Not) {
    Value R = V;
    R.Type.Elem = ElemType{ScalarKind::I1};
    R.Facts.MaskBounds.clear();
    if (IRB) {
      ir::Value *X = lower(V, E->Operand->Range);
      R.IR = IRB->cmp(E->Range, ir::CmpPredicate::EQ, X,
                      lowerAs(Value::constant(PyValue::integer(0)), X->type(), E->Range));
    }
    return R;
  }
  // semantic.invert / semantic.minus reject these operand types by name.
  if (E->Op == UnaryOpKind::Invert && V.Type.Elem.Scalar != ScalarKind::Unknown &&
      (V.Type.Elem.isPointer() || !isInt(V.Type.Elem.Scalar))) {
    error(ProblemKind::InvalidOperands, E->Range,
          "wrong type argument to unary invert (" + typeRepr(V.Type.Elem) + ")");
    return Value::poison();
  }
  if (E->Op == UnaryOpKind::USub && V.Type.Elem.isPointer()) {
    error(ProblemKind::InvalidOperands, E->Range, "wrong type argument to unary minus (" + typeRepr(V.Type.Elem) + ")");
    return Value::poison();
  }
  Value R = V;
  R.Facts.MaskBounds.clear();
  if (IRB && E->Op != UnaryOpKind::UAdd) {
    ir::Value *X = lower(V, E->Operand->Range);
    // semantic.minus is `0 - x` (so -(0.0) is +0.0); invert is a bitwise not.
    R.IR = E->Op == UnaryOpKind::USub
               ? IRB->sub(E->Range, lowerAs(Value::constant(PyValue::integer(0)), X->type(), E->Range), X)
               : IRB->unary(E->Range, ir::OpKind::Not, X);
  }
  return R;
}

Value KernelChecker::evalBoolOp(const BoolOpExpr *E) {
  // Triton's visit_BoolOp: the operands in order; a constexpr that decides the result (falsy for `and`,
  // truthy for `or`) is the result and the operands after it are not evaluated (`i == n - 1 and
  // RETURN_STATE` is a constexpr False, so an `if` on it is static and its body, which may name what only
  // RETURN_STATE defines, is never compiled); one that does not decide is dropped; what is left, tensors,
  // is combined by logical_and / logical_or, the last two first. A constexpr whose value is unknown here
  // (a check without a launch) could do either: every operand is then evaluated, as Python's `and` of
  // values would, and the result combines them all.
  bool And = E->Op == BoolOpKind::And;
  std::vector<Value> Vals;
  bool Unknown = false;
  for (const Expr *X : E->Values) {
    Value V = eval(X);
    if (!Unknown && V.isConstexpr()) {
      std::optional<bool> T = V.Const.truthy();
      if (!T)
        Unknown = true;
      else if (*T != And)
        return V;
    }
    Vals.push_back(std::move(V));
  }
  if (Unknown) {
    if (std::all_of(Vals.begin(), Vals.end(), [](const Value &V) { return V.isConstexpr(); }))
      return Value::constant(PyValue());
  } else {
    // Known constexprs that did not decide drop out; with nothing else left the last operand is the result.
    std::vector<Value> Kept;
    for (const Value &V : Vals)
      if (!V.isConstexpr())
        Kept.push_back(V);
    if (Kept.empty())
      return Vals.back();
    Vals = std::move(Kept);
  }
  // `and` / `or` on tensors are tensor.logical_and / logical_or, which
  // bitcast a non-int1 operand to int1: only 1-bit types survive that.
  for (const Value &V : Vals) {
    const ElemType &T = V.isTensor() ? V.Type.Elem : ElemType{ScalarKind::Unknown};
    if (!T.isPointer() && T.Scalar != ScalarKind::Unknown && bitWidth(T.Scalar) != 1) {
      error(ProblemKind::InvalidOperands, E->Range,
            "Cannot bitcast data-type of size " + std::to_string(bitWidth(T.Scalar)) + " to data-type of size 1");
      return Value::poison();
    }
  }
  Value Acc = Vals.back();
  for (size_t I = Vals.size() - 1; I-- > 0;) {
    Acc = binaryOp(And ? BinOpKind::BitAnd : BinOpKind::BitOr, Vals[I], Acc, E->Range);
    if (Acc.isTensor())
      Acc.Type.Elem = ElemType{ScalarKind::I1};
  }
  return Acc;
}

Value KernelChecker::evalCompare(const CompareExpr *E) {
  if (E->Ops.size() > 1) {
    error(ProblemKind::UnsupportedConstruct, E->Range, "simultaneous multiple comparison is not supported");
    return Value::poison();
  }
  Value LStorage, RStorage;
  const Value &L = evalView(E->Lhs, LStorage);
  const Value &R = evalView(E->Comparators[0], RStorage);
  return compareOp(E->Ops[0], L, R, E->Range);
}

Value KernelChecker::evalIfExp(const IfExpExpr *E) {
  Value Test = eval(E->Test);
  if (Test.isConstexpr()) {
    if (std::optional<bool> T = Test.Const.truthy())
      return eval(*T ? E->Body : E->OrElse);
  }
  if (IRB && Test.isTensor())
    return lowerIfExp(E, Test);
  Value A = eval(E->Body);
  Value B = eval(E->OrElse);
  if (Test.isTensor()) {
    // visit_IfExp with a dynamic condition: both sides become tensors and
    // must have one type.
    A = toTensor(A, E->Body->Range);
    B = toTensor(B, E->OrElse->Range);
    if (A.isTensor() && B.isTensor() && !(A.Type == B.Type) && A.Type.Elem.Scalar != ScalarKind::Unknown &&
        B.Type.Elem.Scalar != ScalarKind::Unknown && !A.Type.hasUnknownDim() && !B.Type.hasUnknownDim()) {
      error(ProblemKind::ControlFlowType, E->Range,
            "Ternary expression with dynamic condition has inconsistent types " + A.Type.tritonStr() + " and " +
                B.Type.tritonStr());
      return Value::poison();
    }
  }
  if (A.isTensor() && B.isTensor() && !(A.Type == B.Type))
    return Value::poison();
  return A;
}

Value KernelChecker::evalCall(const CallExpr *E) {
  Value Callee = eval(E->Func);
  std::vector<Arg> Args;
  std::vector<std::pair<std::string, Arg>> Kw;
  for (const Expr *A : E->Args) {
    if (isa<StarredExpr>(A)) {
      unsupported(A, "Starred");
      return Value::poison();
    }
    Args.push_back(Arg{eval(A), A, A->Range});
  }
  for (const Keyword &K : E->Keywords) {
    if (K.Name.empty()) {
      error(ProblemKind::UnsupportedConstruct, K.Range, "unsupported AST node type: keyword (**kwargs)");
      return Value::poison();
    }
    Kw.emplace_back(K.Name, Arg{eval(K.Value), K.Value, K.Range});
  }
  return callValue(Callee, E, std::move(Args), std::move(Kw));
}

std::string KernelChecker::assumedLibdevice(const CallExpr *Call) const {
  std::string_view Name = calledName(Call);
  return Name == "pow" || Name == "isnan" || Name == "isinf" || unaryMathOp(Name) ? std::string(Name) : std::string();
}

Value KernelChecker::libdevicePow(const CallExpr *Call, const Arg &X, const Arg &Y) {
  // extern_elementwise: both operands become tensors and promote like a
  // binary operation; libdevice has pow for fp32 and fp64 (an int32
  // exponent picks __nv_powif, taken here as the fp32 pow of its value).
  Value XT = toTensor(X.V, X.Range), YT = toTensor(Y.V, Y.Range);
  if (XT.isPoison() || YT.isPoison())
    return Value::poison();
  Value Out;
  {
    TypingOnly Typing(*this);
    Out = binaryOp(BinOpKind::Add, XT, YT, Call->Range);
  }
  if (!Out.isTensor() || Out.Type.Elem.isPointer() ||
      (Out.Type.Elem.Scalar != ScalarKind::FP32 && Out.Type.Elem.Scalar != ScalarKind::FP64)) {
    loweringLimit(Call->Range, "libdevice's pow on " + Out.Type.str());
    return Value::poison();
  }
  Out.Facts = IndexFacts{};
  Out.Facts.resize(Out.Type.Shape.size());
  Out.IR = IRB->binary(Call->Range, ir::OpKind::Pow, lowerAs(XT, Out.Type, X.Range), lowerAs(YT, Out.Type, Y.Range));
  return Out;
}

Value KernelChecker::callValue(const Value &Callee, const CallExpr *Call, std::vector<Arg> Args,
                               std::vector<std::pair<std::string, Arg>> Kw) {
  if (Callee.isPoison())
    return Callee;
  if (Callee.K == Value::Kind::Method) {
    Args.insert(Args.begin(), Arg{*Callee.Self, nullptr, Call->Func->Range});
    return callLanguageBuiltin(*this, Callee.MethodName, Call, std::move(Args), std::move(Kw));
  }
  if (Callee.isTensor()) {
    error(ProblemKind::BadCall, Call->Func->Range, "'tensor' object is not callable");
    return Value::poison();
  }
  if (Callee.K != Value::Kind::Constexpr)
    return Value::poison();
  if (Callee.Const.isUnknown()) {
    // Libraries pick their math functions at import time, by Triton version
    // or vendor (`rsqrt = libdevice_find("rsqrt")`, `pow = tl_extra_shim.pow`
    // through importlib): on CUDA that is libdevice's function of the name.
    // The lowering takes it so, and the figures say so; the front tier stays
    // silent about a value it does not know.
    std::string Fn = IRB ? assumedLibdevice(Call) : std::string();
    if (Fn.empty())
      return Value::poison();
    std::string Note = "`" + std::string(sourceText(Call->Func->Range)) + "` is libdevice's " + Fn +
                       " (the host code that chooses it is not run by tessel)";
    if (std::find(Assumptions.begin(), Assumptions.end(), Note) == Assumptions.end())
      Assumptions.push_back(std::move(Note));
    return callValue(Value::constant(PyValue::qualified("triton.language.extra.libdevice." + Fn)), Call,
                     std::move(Args), std::move(Kw));
  }
  const PyValue &C = Callee.Const;
  if (C.kind() == PyValue::Kind::Function) {
    const FunctionDefStmt *Fn = C.asFunction();
    const JitFunction *J = ownerOf(Fn)->Info->jit(Fn->Name);
    if (J && J->Def == Fn)
      return callJit(*Fn, std::move(Args), std::move(Kw), Call);
    if (isConstexprFunction(*ownerOf(Fn)->Info, *Fn))
      return callConstexprFunction(*Fn, Args, Kw);
    error(ProblemKind::NonJitCall, Call->Range,
          "Unsupported function referenced: <function " + Fn->Name + ">" +
              " (a kernel can only call @triton.jit functions, triton.language builtins and the math module; "
              "decorate `" +
              Fn->Name + "` with @triton.jit)");
    return Value::poison();
  }
  if (C.kind() != PyValue::Kind::Qualified)
    return Value::poison();
  // A builtin reached through its defining module (`fast_expf = tl.math.exp`
  // evaluated at module level keeps the path it was spelled with) is the
  // builtin of triton.language.
  std::string Path = C.qualifiedPath();
  for (std::string_view Sub : {"triton.language.math.", "triton.language.core.", "triton.language.standard."})
    if (Path.starts_with(Sub) && languageMember(std::string_view(Path).substr(Sub.size())))
      Path = "triton.language." + Path.substr(Sub.size());
  if (Path.rfind("builtins.", 0) == 0)
    return callPythonBuiltin(Path.substr(9), Call, Args);
  const std::string Lang = "triton.language.";
  if (Path.rfind(Lang, 0) == 0) {
    std::string Name = Path.substr(Lang.size());
    // standard._log2(n) (bitonic sorts call it on a constexpr): a @jit
    // function of triton.language that floors log2 at compile time.
    if (Name.size() >= 6 && Name.compare(Name.size() - 6, 6, "._log2") == 0 && Args.size() == 1 && Kw.empty() &&
        Args[0].V.isKnownConstexpr() && Args[0].V.Const.isInt()) {
      return Value::constant(PyValue::integer(standardLog2(Args[0].V.Const.asInt())));
    }
    // core.get_int_dtype(bitwidth, signed): int<N> or uint<N>, at compile time.
    if (Name.size() >= 14 && Name.compare(Name.size() - 14, 14, ".get_int_dtype") == 0) {
      std::optional<PyValue> Bits, Signed;
      for (size_t I = 0; I < Args.size() && I < 2; ++I)
        (I == 0 ? Bits : Signed) = Args[I].V.isKnownConstexpr() ? Args[I].V.Const : PyValue();
      for (const auto &[K, A] : Kw)
        (K == "bitwidth" ? Bits : Signed) = A.V.isKnownConstexpr() ? A.V.Const : PyValue();
      if (Bits && Signed && Bits->isInt() && Signed->truthy())
        if (std::optional<ScalarKind> K = intDtype(Bits->asInt(), *Signed->truthy()))
          return Value::constant(PyValue::qualified("triton.language." + std::string(languageName(*K))));
      return Value::constant(PyValue());
    }
    if (size_t Dot = Name.find('.'); Dot != std::string::npos && Args.empty() && Kw.empty() &&
                                     scalarKindFromLanguageName(std::string_view(Name).substr(0, Dot)))
      return Value::constant(pybuiltins::callLibrary(Path, {}, {})); // a dtype's predicate
    // extra.cuda's grid dependency control (gdc.py): PTX statements with a
    // dummy output, as Triton writes them.
    if (std::string_view N(Name); Name.rfind("extra.", 0) == 0 && Args.empty() && Kw.empty() &&
                                  (N.ends_with(".gdc_wait") || N.ends_with(".gdc_launch_dependents"))) {
      if (IRB)
        IRB->inlineAsm(Call->Range,
                       N.ends_with(".gdc_wait") ? "griddepcontrol.wait; // dummy $0"
                                                : "griddepcontrol.launch_dependents; // dummy $0",
                       "=r", {}, {TileType{ElemType{ScalarKind::I32}, {}}}, /*Pure=*/false, /*Pack=*/1);
      return Value::constant(PyValue::none());
    }
    if (Name.find("libdevice.") != std::string::npos || Name.rfind("extra.", 0) == 0) {
      if (IRB) {
        std::string_view Fn = std::string_view(Name).substr(Name.rfind('.') + 1);
        if (Fn == "pow" && Args.size() == 2 && Kw.empty())
          return libdevicePow(Call, Args[0], Args[1]);
        // The one-operand float functions the IR has as ops; others are limits.
        std::optional<ir::OpKind> Op = unaryMathOp(Fn);
        const Value *X = Args.size() == 1 && Kw.empty() ? &Args[0].V : nullptr;
        if (Op && X && X->isTensor() && !X->Type.Elem.isPointer() && isFloat(X->Type.Elem.Scalar))
          return Value::tensor(X->Type, {}, IRB->unary(Call->Range, *Op, lower(*X, Args[0].Range)));
        // libdevice's isnan / isinf answer an int32 (vllm counts NaN logits
        // with `libdevice.isnan(x).to(tl.int1)`): a comparison, widened.
        if ((Fn == "isnan" || Fn == "isinf") && X && X->isTensor() && !X->Type.Elem.isPointer() &&
            isFloat(X->Type.Elem.Scalar)) {
          ir::Value *V = lower(*X, Args[0].Range);
          ir::Value *Test =
              Fn == "isnan" ? IRB->cmp(Call->Range, ir::CmpPredicate::NE, V, V)
                            : IRB->cmp(Call->Range, ir::CmpPredicate::EQ, IRB->unary(Call->Range, ir::OpKind::Abs, V),
                                       lowerAs(Value::constant(PyValue::floating(INFINITY)), X->Type, Args[0].Range));
          TileType I32{ElemType{ScalarKind::I32}, X->Type.Shape};
          return Value::tensor(I32, {}, IRB->cast(Call->Range, Test, I32.Elem));
        }
        loweringLimit(Call->Range, "the extern function `" + Name + "`");
        return Value::poison();
      }
      // Extern math functions: elementwise over their broadcast operands.
      Value Acc;
      for (const Arg &A : Args) {
        if (A.V.isPoison())
          return A.V;
        if (!A.V.isTensor())
          continue;
        Acc = Acc.isTensor() ? binaryOp(BinOpKind::Add, Acc, A.V, Call->Range) : A.V;
      }
      if (Acc.isTensor())
        Acc.Facts = IndexFacts{};
      Acc.Facts.resize(Acc.Type.Shape.size());
      if (std::string_view N(Name); Acc.isTensor() && (N.ends_with(".isnan") || N.ends_with(".isinf")))
        Acc.Type.Elem = ElemType{ScalarKind::I32}; // libdevice answers an int32
      return Acc;
    }
    // `tl.constexpr(v)` inside a kernel is v as a constexpr (an assignment
    // then sanitizes it like any other constexpr).
    if (Name == "constexpr" && Args.size() == 1 && Kw.empty() && Args[0].V.isConstexpr())
      return Args[0].V;
    // `tl.float32(0.0)` reads like a cast, but Triton's dtype has no
    // __call__: the code generator's call raises Python's TypeError.
    if (scalarKindFromLanguageName(Name)) {
      error(ProblemKind::BadCall, Call->Range, "'dtype' object is not callable");
      return Value::poison();
    }
    return callLanguageBuiltin(*this, Name, Call, std::move(Args), std::move(Kw));
  }
  if (Path == "triton.cdiv" || Path == "triton.next_power_of_2") {
    if (Args.size() >= 1 && std::all_of(Args.begin(), Args.end(), [](const Arg &A) { return A.V.isConstexpr(); })) {
      // Python at compile time (the library's own arithmetic; Unknown where an argument is).
      PyList Consts;
      for (const Arg &A : Args)
        Consts.push_back(A.V.Const);
      return Value::constant(pybuiltins::callLibrary(Path, Consts, {}));
    }
    return callLanguageBuiltin(*this, "cdiv", Call, std::move(Args), std::move(Kw));
  }
  // `torch.finfo(torch.float32).max` in a kernel (torchao's quantizers): the
  // code generator calls a library type at compile time on constexprs.
  if (Path.rfind("torch.", 0) == 0 && Kw.empty() &&
      std::all_of(Args.begin(), Args.end(), [](const Arg &A) { return A.V.isKnownConstexpr(); })) {
    PyList Consts;
    for (const Arg &A : Args)
      Consts.push_back(A.V.Const);
    if (PyValue R = pybuiltins::callLibrary(Path, Consts, {}); !R.isUnknown())
      return Value::constant(std::move(R));
  }
  if (Path.rfind("math.", 0) == 0 || Path == "triton.language" || Path.rfind("triton.", 0) == 0 ||
      !project::isExternalRoot(std::string_view(Path).substr(0, Path.find('.'))))
    return Value::constant(PyValue());
  error(ProblemKind::NonJitCall, Call->Range,
        "Unsupported function referenced: " + Path +
            " (a kernel can only call @triton.jit functions, triton.language builtins and the math module)");
  return Value::poison();
}

bool KernelChecker::isConstexprFunction(const ModuleInfo &Info, const FunctionDefStmt &Fn) {
  for (const Expr *D : Fn.Decorators) {
    std::string Q = Info.qualify(D);
    if (Q == "triton.language.constexpr" || Q == "triton.language.core.constexpr" || Q == "triton.constexpr_function" ||
        Q == "triton.language.constexpr_function" || Q == "triton.language.core.constexpr_function")
      return true;
  }
  return false;
}

Value KernelChecker::callConstexprFunction(const FunctionDefStmt &Fn, const std::vector<Arg> &Args,
                                           const std::vector<std::pair<std::string, Arg>> &Kw) {
  // Triton runs it as Python at compile time, on the values it is given
  // (dtypes, constexprs); a tensor argument makes its result unknown here.
  PyList Values;
  PyDict Keywords;
  for (const Arg &A : Args) {
    if (!A.V.isConstexpr())
      return Value::constant(PyValue());
    Values.push_back(A.V.Const);
  }
  for (const auto &[Name, A] : Kw) {
    if (!A.V.isConstexpr())
      return Value::constant(PyValue());
    Keywords.emplace_back(PyValue::string(Name), A.V.Const);
  }
  const ModuleInfo &Info = *ownerOf(&Fn)->Info;
  // Its globals: the module's assignments, imports (`tl.float32`) and functions.
  ConstEval Eval(Info, [&Info](const std::string &Name) {
    if (auto It = Info.Globals.find(Name); It != Info.Globals.end())
      return It->second.Value;
    if (auto It = Info.Imports.find(Name); It != Info.Imports.end())
      return PyValue::qualified(It->second);
    auto F = Info.Functions.find(Name);
    return F == Info.Functions.end() ? PyValue() : PyValue::function(F->second);
  });
  return Value::constant(Eval.call(&Fn, Values, Keywords));
}

Value KernelChecker::callPythonBuiltin(const std::string &Name, const CallExpr *Call, std::vector<Arg> &Args) {
  if (Name == "len" && Args.size() == 1) {
    const Value &V = Args[0].V;
    // tl.tensor has no __len__ (use len(x.shape) or x.shape[0]).
    if (V.isTensor()) {
      error(ProblemKind::BadCall, Call->Range, "object of type 'tensor' has no len()");
      return Value::poison();
    }
    if (V.K == Value::Kind::Tuple)
      return Value::constant(PyValue::integer(static_cast<int64_t>(V.Elts.size())));
    if (V.isKnownConstexpr() && V.Const.isSequence())
      return Value::constant(PyValue::integer(static_cast<int64_t>(V.Const.elements().size())));
    return Value::constant(PyValue());
  }
  if ((Name == "min" || Name == "max") && !Args.empty()) {
    bool AllConst = std::all_of(Args.begin(), Args.end(), [](const Arg &A) { return A.V.isConstexpr(); });
    if (AllConst) {
      PyValue Best = Args[0].V.Const;
      for (size_t I = 1; I < Args.size(); ++I) {
        PyValue Less = pyCompare(CmpOpKind::Lt, Args[I].V.Const, Best);
        if (Less.isUnknown())
          return Value::constant(PyValue());
        if (Less.asBool() == (Name == "min"))
          Best = Args[I].V.Const;
      }
      return Value::constant(Best);
    }
    return callLanguageBuiltin(*this, Name == "min" ? "minimum" : "maximum", Call, Args, {});
  }
  if ((Name == "int" || Name == "float" || Name == "bool") && Args.size() == 1 && Args[0].V.isKnownConstexpr()) {
    const PyValue &V = Args[0].V.Const;
    if (Name == "int" && V.isNumber())
      return Value::constant(PyValue::integer(static_cast<int64_t>(std::trunc(V.asFloat()))));
    if (Name == "float" && V.isNumber())
      return Value::constant(PyValue::floating(V.asFloat()));
    if (Name == "float" && V.isStr()) {
      // float("inf") / float("-inf") / float("nan"): the usual padding values.
      std::string S = V.asStr();
      std::transform(S.begin(), S.end(), S.begin(), [](unsigned char Ch) { return std::tolower(Ch); });
      bool Neg = !S.empty() && S[0] == '-';
      if (!S.empty() && (S[0] == '-' || S[0] == '+'))
        S.erase(0, 1);
      if (S == "inf" || S == "infinity")
        return Value::constant(PyValue::floating(Neg ? -HUGE_VAL : HUGE_VAL));
      if (S == "nan")
        return Value::constant(PyValue::floating(std::nan("")));
      // float("-1e8"): a decimal literal, as Python reads it.
      std::string Text = V.asStr();
      Text.erase(std::remove_if(Text.begin(), Text.end(), [](unsigned char Ch) { return Ch == '_'; }), Text.end());
      char *End = nullptr;
      double D = std::strtod(Text.c_str(), &End);
      while (End && *End && std::isspace(static_cast<unsigned char>(*End)))
        ++End;
      if (!Text.empty() && End && *End == '\0' && !std::isspace(static_cast<unsigned char>(Text[0])) &&
          Text.find_first_of("xXpP") == std::string::npos)
        return Value::constant(PyValue::floating(D));
    }
    if (Name == "bool")
      if (auto T = V.truthy())
        return Value::constant(PyValue::boolean(*T));
  }
  if (Name == "isinstance" && Args.size() == 2 && Args[1].V.isKnownConstexpr()) {
    // Builtins get their constexpr arguments unwrapped: a constexpr is a
    // plain Python value, never a tl.tensor.
    const Value &X = Args[0].V;
    const PyValue &T = Args[1].V.Const;
    bool TensorType = T.kind() == PyValue::Kind::Qualified && (T.qualifiedPath() == "triton.language.tensor" ||
                                                               T.qualifiedPath() == "triton.language.core.tensor");
    if (TensorType && (X.isTensor() || X.isKnownConstexpr()))
      return Value::constant(PyValue::boolean(X.isTensor()));
    // `isinstance(desc_or_ptr, tl.tensor_descriptor)`: a tensor descriptor
    // (made in the kernel) or not (a pointer, a number).
    bool DescriptorType =
        T.kind() == PyValue::Kind::Qualified && (T.qualifiedPath() == "triton.language.tensor_descriptor" ||
                                                 T.qualifiedPath() == "triton.language.core.tensor_descriptor");
    if (DescriptorType && (X.isTensor() || X.isKnownConstexpr()))
      return Value::constant(PyValue::boolean(X.isTensor() && X.IsDescriptor));
    if (X.isKnownConstexpr())
      return Value::constant(pybuiltins::callLibrary("builtins.isinstance", {X.Const, T}, {}));
  }
  if (Name == "print") {
    // Triton's builtin_namespace maps print to tl.device_print(prefix, *args).
    if (IRB) {
      std::string Prefix;
      std::vector<ir::Value *> Values;
      for (size_t I = 0; I < Args.size(); ++I) {
        if (I == 0 && Args[I].V.isKnownConstexpr() && Args[I].V.Const.isStr())
          Prefix = Args[I].V.Const.asStr();
        else
          Values.push_back(lower(Args[I].V, Args[I].Range));
      }
      IRB->devicePrint(Call->Range, Prefix, Values);
    }
    return Value::constant(PyValue::none());
  }
  return Value::constant(PyValue());
}

/// call_JitFunction: a `@triton.jit(noinline=True)` function becomes a real
/// call, which takes scalars only. The first parameter bound to a block (of
/// known type and shape), or nullptr.
const std::string *KernelChecker::blockArgumentOfNoinline(const FunctionDefStmt &Fn, const Frame &Callee) const {
  auto J = Info.Jit.find(Fn.Name);
  if (J == Info.Jit.end() || J->second.Def != &Fn)
    return nullptr;
  bool Noinline = false;
  for (const auto &[Key, V] : J->second.JitOptions)
    Noinline |= Key == "noinline" && V.truthy().value_or(false);
  if (!Noinline)
    return nullptr;
  for (const Param &P : Fn.Params) {
    auto It = Callee.Vars.find(P.Name);
    if (It == Callee.Vars.end() || !It->second.isTensor() || It->second.Type.Shape.empty())
      continue;
    const TileType &T = It->second.Type;
    bool Known = T.Elem.Scalar != ScalarKind::Unknown &&
                 std::none_of(T.Shape.begin(), T.Shape.end(), [](int64_t D) { return D == TileType::UnknownDim; });
    return Known ? &P.Name : nullptr;
  }
  return nullptr;
}

Value KernelChecker::callJit(const FunctionDefStmt &Fn, std::vector<Arg> Args,
                             std::vector<std::pair<std::string, Arg>> Kw, const CallExpr *Call) {
  for (const Frame &F : Frames)
    if (F.Fn == &Fn)
      return Value::poison(); // recursion: Triton cannot inline it either
  if (std::find(DefaultsOf.begin(), DefaultsOf.end(), &Fn) != DefaultsOf.end())
    return Value::poison();
  if (Frames.size() >= MaxInlineDepth)
    return Value::poison();
  Frame Callee;
  Callee.Fn = &Fn;
  Callee.CallSite = Call;
  Callee.Scope = ownerOf(&Fn);
  size_t NumPositional = 0;
  for (const Param &P : Fn.Params)
    if (P.PKind == Param::ParamKind::Positional)
      ++NumPositional;
  if (Args.size() > NumPositional) {
    error(ProblemKind::BadCall, Call->Range,
          Fn.Name + "() takes " + std::to_string(NumPositional) + " positional argument" +
              (NumPositional == 1 ? "" : "s") + " but " + std::to_string(Args.size()) + " were given");
    return Value::poison();
  }
  size_t NextPositional = 0;
  for (const Param &P : Fn.Params) {
    Callee.Params.insert(P.Name);
    if (P.PKind == Param::ParamKind::Positional && NextPositional < Args.size()) {
      Callee.Vars[P.Name] = Args[NextPositional++].V;
      continue;
    }
    auto It = std::find_if(Kw.begin(), Kw.end(), [&](const auto &K) { return K.first == P.Name; });
    if (It != Kw.end()) {
      Callee.Vars[P.Name] = It->second.V;
      Kw.erase(It);
      continue;
    }
    if (P.Default) {
      // Defaults are evaluated where the function is defined.
      const ModuleScope *Saved = Scope;
      Scope = Callee.Scope;
      DefaultsOf.push_back(&Fn);
      Callee.Vars[P.Name] = evalDefault(P.Default);
      DefaultsOf.pop_back();
      Scope = Saved;
      continue;
    }
    if (P.PKind == Param::ParamKind::VarArgs || P.PKind == Param::ParamKind::VarKeywords)
      continue;
    error(ProblemKind::BadCall, Call->Range, Fn.Name + "() missing 1 required positional argument: '" + P.Name + "'");
    return Value::poison();
  }
  if (!Kw.empty()) {
    error(ProblemKind::BadCall, Call->Range,
          Fn.Name + "() got an unexpected keyword argument '" + Kw.front().first + "'");
    return Value::poison();
  }
  if (const std::string *Arg = blockArgumentOfNoinline(Fn, Callee)) {
    const Value &V = Callee.Vars.at(*Arg);
    std::string Dims;
    for (int64_t D : V.Type.Shape)
      Dims += (Dims.empty() ? "constexpr[" : ", constexpr[") + std::to_string(D) + "]";
    error(ProblemKind::UnsupportedConstruct, Call->Range,
          "Function " + Fn.Name + " is marked noinline, but was called with non-scalar argument " + *Arg + ":" +
              V.Type.Elem.str() + "[" + Dims + "]");
    return Value::poison();
  }
  const ModuleScope *CallerScope = Scope;
  Scope = Callee.Scope;
  Callee.EntryUndecidedDepth = UndecidedBranchDepth;
  Frames.push_back(std::move(Callee));
  execBlock(Fn.Body);
  Frame Done = std::move(Frames.back());
  Frames.pop_back();
  Scope = CallerScope;
  if (Done.Returns.empty())
    return Value::constant(PyValue::none());
  // visit_Return's decay: a returned constexpr number is a tensor for the
  // caller (`return BLOCK * 2` cannot size a tl.arange), in tuples too.
  std::function<Value(const Value &)> Decay = [&](const Value &V) -> Value {
    if (V.K == Value::Kind::Tuple) {
      std::vector<Value> Elts;
      for (const Value &E : V.Elts)
        Elts.push_back(Decay(E));
      return Value::tuple(std::move(Elts));
    }
    if (V.isKnownConstexpr() && V.Const.isSequence()) {
      std::vector<Value> Elts;
      for (const PyValue &P : V.Const.elements())
        Elts.push_back(Decay(Value::constant(P)));
      return Value::tuple(std::move(Elts));
    }
    if (V.isKnownConstexpr() && (V.Const.isNumber() || V.Const.isBool()))
      return toTensor(V, Call->Range);
    return V;
  };
  for (auto &[V, R] : Done.Returns)
    V = Decay(V);
  const Value &First = Done.Returns.front().first;
  auto Undecided = [&](size_t I) { return I < Done.ReturnUndecided.size() && Done.ReturnUndecided[I]; };
  for (size_t I = 1; I < Done.Returns.size(); ++I) {
    const Value &Other = Done.Returns[I].first;
    if (First.isTensor() && Other.isTensor() && !(First.Type == Other.Type) &&
        First.Type.Elem.Scalar != ScalarKind::Unknown && Other.Type.Elem.Scalar != ScalarKind::Unknown) {
      // Returns in the arms of an `if dtype is tl.int64:` whose dtype is
      // unknown here: Triton compiles one arm, so their types need not agree.
      if (Undecided(0) || Undecided(I))
        return Value::poison();
      Scope = Done.Scope;
      Frames.push_back(std::move(Done));
      error(ProblemKind::ControlFlowType, Frames.back().Returns[I].second,
            "Inconsistent return types: " + First.Type.tritonStr() + " and " + Other.Type.tritonStr());
      Frames.pop_back();
      Scope = CallerScope;
      return Value::poison();
    }
  }
  return First;
}

} // namespace tessel::sema
