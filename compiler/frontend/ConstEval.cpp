//===- ConstEval.cpp - evaluation of a plain-Python subset ----------------===//
/// \file
/// A tiny Python interpreter over the AST for module-level code: what a
/// file computes at import time for its autotune configs, launch keywords
/// and constexpr globals. It runs only what it understands and answers
/// Unknown for the rest; it never guesses. Operators come from PyOps (the
/// one implementation shared with sema), builtins and Triton's host helpers
/// from PyBuiltins; this file is the interpreter. Helper calls get a fresh local
/// scope; list mutation (`xs.append(v)`, `xs += [...]`, `xs.extend(...)`)
/// rebinds the local, which is exact for the way config helpers are
/// written. Steps and call depth are bounded.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ConstEval.h"

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/PyBuiltins.h"
#include "compiler/frontend/PyOps.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace tessel {

using namespace ast;
using namespace pybuiltins;

ConstEval::ConstEval(const ModuleInfo &Info, GlobalLookup Lookup) : Info(Info), Lookup(std::move(Lookup)) {}

/// What a statement did to control flow.
enum class Flow { Normal, Return, Break, Continue, Abort };

/// A fresh local scope for a call, restoring the caller's on exit. When the
/// caller's locals are the module namespace (exec), ModuleScope follows
/// them into the saved map so the callee still reads module globals.
struct ConstEval::Frame {
  ConstEval &S;
  std::map<std::string, PyValue> Saved;
  explicit Frame(ConstEval &S) : S(S), Saved(std::move(S.Locals)) {
    S.Locals.clear();
    if (S.ModuleScope == &S.Locals)
      S.ModuleScope = &Saved;
  }
  ~Frame() {
    S.Locals = std::move(Saved);
    if (S.ModuleScope == &Saved)
      S.ModuleScope = &S.Locals;
  }
};

struct ConstEval::Impl {
  ConstEval &S;
  PyValue ReturnValue;

  bool budget() {
    if (S.Steps >= MaxSteps)
      return false;
    ++S.Steps;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Names
  //===--------------------------------------------------------------------===//

  PyValue name(const std::string &N) {
    auto It = S.Locals.find(N);
    if (It != S.Locals.end())
      return It->second;
    if (S.ModuleScope && S.ModuleScope != &S.Locals) {
      auto M = S.ModuleScope->find(N);
      if (M != S.ModuleScope->end())
        return M->second;
    }
    PyValue G = S.Lookup(N);
    if (G.isKnown())
      return G;
    bool Shadowed = S.Info.Globals.count(N) || S.Info.Functions.count(N) || S.Info.Imports.count(N);
    if (!Shadowed && isBuiltinName(N))
      return PyValue::qualified("builtins." + N);
    return PyValue();
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// Values nested deeper than this (`x = [x]` in a loop) become Unknown:
  /// repr, equality and destruction recurse through the nesting.
  static constexpr int MaxValueNesting = 64;

  PyValue eval(const Expr *E) {
    PyValue V = evalUnchecked(E);
    return V.nesting() > MaxValueNesting ? PyValue() : V;
  }

  PyValue evalUnchecked(const Expr *E) {
    if (!E || !budget())
      return PyValue();
    switch (E->kind()) {
    case ExprKind::Constant:
      return constant(cast<ConstantExpr>(E));
    case ExprKind::Name:
      return name(cast<NameExpr>(E)->Id);
    case ExprKind::Attribute:
      return attribute(cast<AttributeExpr>(E));
    case ExprKind::Call:
      return call(cast<CallExpr>(E));
    case ExprKind::Subscript: {
      const auto *Sub = cast<SubscriptExpr>(E);
      return subscript(eval(Sub->Value), Sub->Index);
    }
    case ExprKind::Tuple:
    case ExprKind::List: {
      const auto &Elts = E->kind() == ExprKind::Tuple ? cast<TupleExpr>(E)->Elts : cast<ListExpr>(E)->Elts;
      std::optional<PyList> Out = elements(Elts);
      if (!Out)
        return PyValue();
      return E->kind() == ExprKind::Tuple ? PyValue::tuple(std::move(*Out)) : PyValue::list(std::move(*Out));
    }
    case ExprKind::Dict: {
      const auto *D = cast<DictExpr>(E);
      PyDict Items;
      for (size_t I = 0; I < D->Keys.size(); ++I) {
        if (!D->Keys[I]) { // `**mapping`
          PyValue M = eval(D->Values[I]);
          if (M.kind() != PyValue::Kind::Dict)
            return PyValue();
          for (const auto &KV : M.items())
            setItem(Items, KV.first, KV.second);
          continue;
        }
        PyValue K = eval(D->Keys[I]);
        if (K.isUnknown())
          return PyValue(); // an unknown key could collide with any other
        setItem(Items, K, eval(D->Values[I]));
      }
      return PyValue::dict(std::move(Items));
    }
    case ExprKind::ListComp:
      return listComp(cast<ListCompExpr>(E));
    case ExprKind::BinOp: {
      const auto *B = cast<BinOpExpr>(E);
      PyValue L = eval(B->Lhs), R = eval(B->Rhs);
      if (L.isTensor() || R.isTensor())
        return B->Op == BinOpKind::MatMult || !S.Library ? PyValue()
                                                         : S.Library->elementwise(L, R, B->Op == BinOpKind::Div);
      return pyBinaryOp(B->Op, L, R);
    }
    case ExprKind::UnaryOp: {
      const auto *U = cast<UnaryOpExpr>(E);
      PyValue X = eval(U->Operand);
      if (X.isTensor())
        return U->Op == UnaryOpKind::Not || !S.Library ? PyValue()
                                                       : S.Library->elementwise(X, PyValue::integer(0), false);
      return pyUnaryOp(U->Op, X);
    }
    case ExprKind::BoolOp: {
      // Python returns the deciding operand itself, not a bool.
      const auto *B = cast<BoolOpExpr>(E);
      PyValue Last;
      for (const Expr *V : B->Values) {
        Last = eval(V);
        std::optional<bool> T = Last.truthy();
        if (!T)
          return PyValue();
        if (*T == (B->Op == BoolOpKind::Or))
          return Last;
      }
      return Last;
    }
    case ExprKind::Compare: {
      const auto *C = cast<CompareExpr>(E);
      PyValue L = eval(C->Lhs);
      for (size_t I = 0; I < C->Ops.size(); ++I) {
        PyValue R = eval(C->Comparators[I]);
        PyValue B = pyCompare(C->Ops[I], L, R);
        std::optional<bool> T = B.truthy();
        if (!T)
          return PyValue();
        if (!*T)
          return PyValue::boolean(false);
        L = R;
      }
      return PyValue::boolean(true);
    }
    case ExprKind::IfExp: {
      const auto *I = cast<IfExpExpr>(E);
      std::optional<bool> T = eval(I->Test).truthy();
      if (T)
        return eval(*T ? I->Body : I->OrElse);
      // `tl.constexpr(x) if HAS_TRITON else x` (vllm): whichever branch
      // runs, the value is the same.
      PyValue Body = eval(I->Body);
      if (Body.isUnknown() || Body.kind() == PyValue::Kind::Tensor || Body.kind() == PyValue::Kind::Function ||
          Body.kind() == PyValue::Kind::Lambda)
        return PyValue();
      PyValue Else = eval(I->OrElse);
      return Else.kind() == Body.kind() && Else.repr() == Body.repr() ? Body : PyValue();
    }
    case ExprKind::Lambda:
      return PyValue::lambda(cast<LambdaExpr>(E));
    case ExprKind::Slice:
    case ExprKind::JoinedStr:
    case ExprKind::Starred:
    case ExprKind::Unsupported:
    case ExprKind::Error:
      return PyValue();
    }
    return PyValue();
  }

  static void setItem(PyDict &Items, const PyValue &K, PyValue V) {
    for (auto &KV : Items) {
      std::optional<bool> Eq = KV.first.equals(K);
      if (Eq && *Eq) {
        KV.second = std::move(V);
        return;
      }
    }
    Items.emplace_back(K, std::move(V));
  }

  PyValue constant(const ConstantExpr *C) { return literalValue(*C); }

  /// Evaluates list/tuple elements, splicing `*xs`.
  std::optional<PyList> elements(const std::vector<Expr *> &Elts) {
    PyList Out;
    for (const Expr *X : Elts) {
      if (const auto *St = dyn_cast<StarredExpr>(X)) {
        std::optional<PyList> Inner = iterate(eval(St->Value));
        if (!Inner)
          return std::nullopt;
        Out.insert(Out.end(), Inner->begin(), Inner->end());
        continue;
      }
      Out.push_back(eval(X));
    }
    if (static_cast<int64_t>(Out.size()) > MaxElements)
      return std::nullopt;
    return Out;
  }

  PyValue attribute(const AttributeExpr *A) {
    PyValue V = eval(A->Value);
    if (S.Library)
      if (std::optional<PyValue> R = S.Library->attribute(V, A->Attr))
        return *R;
    if (V.isTensor())
      return PyValue();
    if (V.kind() == PyValue::Kind::Qualified) {
      if (V.qualifiedPath() == CurrentTarget)
        return targetAttribute(A->Attr);
      std::string Path = V.qualifiedPath() + "." + A->Attr;
      if (std::optional<PyValue> C = pybuiltins::libraryConstant(Path))
        return *C;
      return PyValue::qualified(std::move(Path));
    }
    if (V.kind() == PyValue::Kind::Config) {
      const PyConfig &C = V.asConfig();
      if (A->Attr == "kwargs" || A->Attr == "all_kwargs")
        return A->Attr == "kwargs" ? PyValue::dict(C.Kwargs) : PyValue();
      if (A->Attr == "num_warps")
        return PyValue::integer(C.NumWarps);
      if (A->Attr == "num_stages")
        return PyValue::integer(C.NumStages);
      if (A->Attr == "num_ctas")
        return PyValue::integer(C.NumCtas);
      if (A->Attr == "maxnreg")
        return C.MaxNReg ? PyValue::integer(*C.MaxNReg) : PyValue::none();
    }
    return PyValue();
  }

  static std::optional<int64_t> normIndex(int64_t I, size_t Size) {
    int64_t N = static_cast<int64_t>(Size);
    if (I < 0)
      I += N;
    if (I < 0 || I >= N)
      return std::nullopt;
    return I;
  }

  /// `t[i]`, `t[:, lo:hi]`, `t[..., None]` of a host tensor: its view, as
  /// the library models it. Advanced indexing (a tensor or list index) is
  /// Unknown.
  PyValue tensorSubscript(const PyTensor &T, const Expr *IndexExpr) {
    if (!S.Library)
      return PyValue();
    std::vector<const Expr *> Items;
    if (const auto *Tup = dyn_cast<TupleExpr>(IndexExpr))
      Items.assign(Tup->Elts.begin(), Tup->Elts.end());
    else
      Items.push_back(IndexExpr);
    std::vector<TensorIndexPart> Parts;
    for (const Expr *E : Items) {
      TensorIndexPart P;
      if (const auto *Sl = dyn_cast<SliceExpr>(E)) {
        P.K = TensorIndexPart::Kind::Slice;
        if (!sliceBound(Sl->Lower, P.Lower) || !sliceBound(Sl->Upper, P.Upper) || !sliceBound(Sl->Step, P.Step))
          return PyValue();
      } else if (const auto *C = dyn_cast<ConstantExpr>(E); C && C->CK == ConstantKind::Ellipsis) {
        P.K = TensorIndexPart::Kind::Ellipsis;
      } else {
        PyValue I = eval(E);
        if (I.isNone()) {
          P.K = TensorIndexPart::Kind::None;
        } else if (std::optional<int64_t> N = I.isBool() ? std::nullopt : intOf(I)) {
          P.Start = *N;
        } else {
          return PyValue();
        }
      }
      Parts.push_back(P);
    }
    return S.Library->tensorIndex(T, Parts);
  }

  PyValue subscript(const PyValue &V, const Expr *IndexExpr) {
    if (V.isTensor())
      return tensorSubscript(V.asTensor(), IndexExpr);
    if (const auto *Sl = dyn_cast<SliceExpr>(IndexExpr))
      return slice(V, Sl);
    PyValue Index = eval(IndexExpr);
    if (V.kind() == PyValue::Kind::Dict) {
      if (Index.isUnknown())
        return PyValue();
      const PyValue *Found = V.lookup(Index);
      return Found ? *Found : PyValue();
    }
    std::optional<int64_t> I = intOf(Index);
    if (!I)
      return PyValue();
    if (V.isSequence()) {
      std::optional<int64_t> N = normIndex(*I, V.elements().size());
      return N ? V.elements()[static_cast<size_t>(*N)] : PyValue();
    }
    if (V.isStr()) {
      std::optional<int64_t> N = normIndex(*I, V.asStr().size());
      return N ? PyValue::string(std::string(1, V.asStr()[static_cast<size_t>(*N)])) : PyValue();
    }
    return PyValue();
  }

  /// One bound of a slice: absent or None leaves Out empty; false when it
  /// is not an integer.
  bool sliceBound(const Expr *E, std::optional<int64_t> &Out) {
    if (!E)
      return true;
    PyValue B = eval(E);
    if (B.isNone())
      return true;
    Out = intOf(B);
    return Out.has_value();
  }

  /// Python's slice semantics (PySlice_AdjustIndices) on sequences and str.
  PyValue slice(const PyValue &V, const SliceExpr *Sl) {
    size_t Size;
    if (V.isSequence())
      Size = V.elements().size();
    else if (V.isStr())
      Size = V.asStr().size();
    else
      return PyValue();
    std::optional<int64_t> Lo, Hi, St;
    if (!sliceBound(Sl->Lower, Lo) || !sliceBound(Sl->Upper, Hi) || !sliceBound(Sl->Step, St))
      return PyValue();
    int64_t Step = St.value_or(1);
    if (Step == 0)
      return PyValue();
    SliceBounds B = adjustSlice(static_cast<int64_t>(Size), Lo, Hi, Step);
    std::vector<size_t> Picks;
    for (int64_t I = B.Start; Step > 0 ? I < B.Stop : I > B.Stop; I += Step)
      Picks.push_back(static_cast<size_t>(I));
    if (V.isStr()) {
      std::string Out;
      for (size_t P : Picks)
        Out += V.asStr()[P];
      return PyValue::string(std::move(Out));
    }
    PyList Out;
    for (size_t P : Picks)
      Out.push_back(V.elements()[P]);
    return V.kind() == PyValue::Kind::Tuple ? PyValue::tuple(std::move(Out)) : PyValue::list(std::move(Out));
  }

  /// Binds a `for` / comprehension / assignment target; false when the
  /// target is not a plain name or an unpacking of names.
  bool bind(const Expr *Target, const PyValue &V) {
    if (const auto *N = dyn_cast<NameExpr>(Target)) {
      S.Locals[N->Id] = V;
      return true;
    }
    const std::vector<Expr *> *Elts = nullptr;
    if (const auto *T = dyn_cast<TupleExpr>(Target))
      Elts = &T->Elts;
    else if (const auto *L = dyn_cast<ListExpr>(Target))
      Elts = &L->Elts;
    if (!Elts)
      return false;
    std::optional<PyList> Items = iterate(V);
    if (!Items || Items->size() != Elts->size()) {
      // Unknown value: every name it would bind becomes Unknown.
      for (const Expr *E : *Elts)
        if (!bind(E, PyValue()))
          return false;
      return V.isUnknown();
    }
    for (size_t I = 0; I < Elts->size(); ++I)
      if (!bind((*Elts)[I], (*Items)[I]))
        return false;
    return true;
  }

  static void targetNames(const Expr *T, std::vector<std::string> &Out) {
    if (const auto *N = dyn_cast<NameExpr>(T))
      Out.push_back(N->Id);
    else if (const auto *Tu = dyn_cast<TupleExpr>(T))
      for (const Expr *E : Tu->Elts)
        targetNames(E, Out);
    else if (const auto *Li = dyn_cast<ListExpr>(T))
      for (const Expr *E : Li->Elts)
        targetNames(E, Out);
  }

  PyValue listComp(const ListCompExpr *L) {
    // Comprehension variables live in their own scope: save and restore
    // just those names (copying the scope would make module code quadratic).
    std::vector<std::string> Names;
    for (const Comprehension &G : L->Generators)
      targetNames(G.Target, Names);
    std::vector<std::optional<PyValue>> Saved;
    for (const std::string &N : Names) {
      auto It = S.Locals.find(N);
      Saved.push_back(It == S.Locals.end() ? std::nullopt : std::optional<PyValue>(It->second));
    }
    PyList Out;
    bool Ok = generate(L, 0, Out);
    for (size_t I = Names.size(); I-- > 0;) {
      if (Saved[I])
        S.Locals[Names[I]] = *Saved[I];
      else
        S.Locals.erase(Names[I]);
    }
    return Ok ? PyValue::list(std::move(Out)) : PyValue();
  }

  bool generate(const ListCompExpr *L, size_t G, PyList &Out) {
    if (G == L->Generators.size()) {
      if (static_cast<int64_t>(Out.size()) >= MaxElements)
        return false;
      Out.push_back(eval(L->Elt));
      return true;
    }
    const Comprehension &C = L->Generators[G];
    std::optional<PyList> Items = iterate(eval(C.Iter));
    if (!Items)
      return false;
    for (const PyValue &Item : *Items) {
      if (!budget() || !bind(C.Target, Item))
        return false;
      bool Keep = true;
      for (const Expr *If : C.Ifs) {
        std::optional<bool> T = eval(If).truthy();
        if (!T)
          return false;
        Keep &= *T;
        if (!Keep)
          break;
      }
      if (Keep && !generate(L, G + 1, Out))
        return false;
    }
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Calls
  //===--------------------------------------------------------------------===//

  /// The keyword arguments of a call; nullopt when a `**d` is not a known dict.
  std::optional<PyDict> keywords(const CallExpr *C) {
    PyDict Kwargs;
    for (const Keyword &K : C->Keywords) {
      if (K.Name.empty()) {
        PyValue M = eval(K.Value);
        if (M.kind() != PyValue::Kind::Dict)
          return std::nullopt;
        for (const auto &KV : M.items())
          Kwargs.push_back(KV);
        continue;
      }
      Kwargs.emplace_back(PyValue::string(K.Name), eval(K.Value));
    }
    return Kwargs;
  }

  /// The module-level @jit function V names, or null.
  const FunctionDefStmt *jitFunction(const PyValue &V) const {
    if (V.kind() != PyValue::Kind::Function)
      return nullptr;
    const FunctionDefStmt *Fn = V.asFunction();
    auto It = S.Info.Functions.find(Fn->Name);
    return S.Info.Jit.count(Fn->Name) && It != S.Info.Functions.end() && It->second == Fn ? Fn : nullptr;
  }

  /// Host mode: `kernel[grid](...)` hands the launch to the observer.
  std::optional<PyValue> launch(const CallExpr *C) {
    const auto *Sub = dyn_cast<SubscriptExpr>(C->Func);
    if (!Sub)
      return std::nullopt;
    const FunctionDefStmt *Kernel = jitFunction(eval(Sub->Value));
    if (!Kernel)
      return std::nullopt;
    HostLaunchCall L;
    L.Call = C;
    L.Kernel = Kernel;
    L.Grid = eval(Sub->Index);
    for (const Expr *A : C->Args)
      L.Args.push_back(isa<StarredExpr>(A) ? PyValue() : eval(A));
    std::optional<PyDict> Kw = keywords(C);
    L.Kwargs = Kw ? std::move(*Kw) : PyDict();
    L.Callers = S.Callers;
    S.OnLaunch(L);
    return PyValue::none();
  }

  PyValue call(const CallExpr *C) {
    if (S.OnLaunch)
      if (std::optional<PyValue> R = launch(C))
        return *R;
    if (const auto *A = dyn_cast<AttributeExpr>(C->Func)) {
      if (S.OnLaunch) {
        PyValue Obj = eval(A->Value);
        // `kernel.warmup(...)` compiles without launching; launching the
        // handle it returns (`compiled[grid](...)`) launches the kernel.
        if (A->Attr == "warmup" && jitFunction(Obj))
          return Obj;
        if (Obj.isTensor()) {
          std::optional<PyList> Args = elements(C->Args);
          std::optional<PyDict> Kwargs = keywords(C);
          return Args && Kwargs ? S.Library->tensorMethod(Obj.asTensor(), A->Attr, *Args, *Kwargs) : PyValue();
        }
      }
      if (std::optional<PyValue> R = method(C, A))
        return *R;
    }
    PyValue Callee = eval(C->Func);
    if (Callee.isUnknown())
      return PyValue();
    std::optional<PyList> Args = elements(C->Args);
    if (!Args)
      return PyValue();
    std::optional<PyDict> Kwargs = keywords(C);
    if (!Kwargs)
      return PyValue();
    return S.callValue(Callee, *Args, *Kwargs);
  }

  /// Host mode: `Cls.apply(...)` of a torch.autograd.Function subclass runs
  /// its `forward` with an unknown ctx; `Cls.method(...)` a static method.
  PyValue callClassMember(const std::string &Path, const PyList &Args, const PyDict &Kwargs) {
    std::string_view Rest = std::string_view(Path).substr(10); // after "__class__."
    size_t Dot = Rest.find('.');
    if (Dot == std::string_view::npos)
      return PyValue();
    auto It = S.Classes.find(std::string(Rest.substr(0, Dot)));
    if (It == S.Classes.end())
      return PyValue();
    std::string_view Member = Rest.substr(Dot + 1);
    bool Apply = Member == "apply";
    for (const Stmt *St : It->second->Body) {
      const auto *Fn = dyn_cast<FunctionDefStmt>(St);
      if (!Fn || Fn->Name != (Apply ? "forward" : Member))
        continue;
      if (!Apply)
        return S.call(Fn, Args, Kwargs);
      PyList WithCtx{PyValue()};
      WithCtx.insert(WithCtx.end(), Args.begin(), Args.end());
      return S.call(Fn, WithCtx, Kwargs);
    }
    return PyValue();
  }

  /// `xs.append(v)`, `xs.extend(ys)` on a local list rebind it;
  /// `d.items()` / `d.keys()` / `d.values()` / `d.get(k, default)` read.
  std::optional<PyValue> method(const CallExpr *C, const AttributeExpr *A) {
    const std::string &M = A->Attr;
    bool Mutating = M == "append" || M == "extend" || M == "insert";
    bool Reading = M == "items" || M == "keys" || M == "values" || M == "get" || M == "copy" || M == "index" ||
                   M == "count" || M == "upper" || M == "lower";
    if (!Mutating && !Reading)
      return std::nullopt;
    PyValue Obj = eval(A->Value);
    if (Obj.kind() == PyValue::Kind::Qualified || Obj.isUnknown())
      return Obj.isUnknown() ? std::optional<PyValue>(PyValue()) : std::nullopt;
    std::optional<PyList> Args = elements(C->Args);
    if (!Args || !C->Keywords.empty())
      return PyValue();
    if (Mutating) {
      const auto *N = dyn_cast<NameExpr>(A->Value);
      if (!N || Obj.kind() != PyValue::Kind::List || !S.Locals.count(N->Id))
        return PyValue();
      PyList L = Obj.elements();
      if (M == "append" && Args->size() == 1) {
        L.push_back((*Args)[0]);
      } else if (M == "extend" && Args->size() == 1) {
        std::optional<PyList> More = iterate((*Args)[0]);
        if (!More) {
          S.Locals[N->Id] = PyValue(); // the list's contents are no longer known
          return PyValue();
        }
        L.insert(L.end(), More->begin(), More->end());
      } else if (M == "insert" && Args->size() == 2 && intOf((*Args)[0])) {
        int64_t I =
            std::clamp<int64_t>(*intOf((*Args)[0]), -static_cast<int64_t>(L.size()), static_cast<int64_t>(L.size()));
        if (I < 0)
          I += static_cast<int64_t>(L.size());
        L.insert(L.begin() + I, (*Args)[1]);
      } else {
        S.Locals[N->Id] = PyValue();
        return PyValue();
      }
      if (static_cast<int64_t>(L.size()) > MaxElements)
        return PyValue();
      S.Locals[N->Id] = PyValue::list(std::move(L));
      return PyValue::none();
    }
    if (Obj.kind() == PyValue::Kind::Dict) {
      PyList Out;
      if (M == "get" && !Args->empty()) {
        const PyValue *Found = Obj.lookup((*Args)[0]);
        return Found ? *Found : (Args->size() > 1 ? (*Args)[1] : PyValue::none());
      }
      if (M == "copy")
        return Obj;
      for (const auto &KV : Obj.items())
        Out.push_back(M == "items" ? PyValue::tuple({KV.first, KV.second}) : M == "keys" ? KV.first : KV.second);
      if (M == "items" || M == "keys" || M == "values")
        return PyValue::list(std::move(Out));
      return PyValue();
    }
    if (Obj.isSequence() && M == "copy")
      return Obj;
    if (Obj.isSequence() && (M == "index" || M == "count") && Args->size() == 1) {
      int64_t Count = 0;
      for (size_t I = 0; I < Obj.elements().size(); ++I) {
        std::optional<bool> Eq = Obj.elements()[I].equals((*Args)[0]);
        if (!Eq)
          return PyValue();
        if (*Eq && M == "index")
          return PyValue::integer(static_cast<int64_t>(I));
        Count += *Eq;
      }
      return M == "count" ? PyValue::integer(Count) : PyValue();
    }
    if (Obj.isStr() && (M == "upper" || M == "lower") && Args->empty()) {
      std::string Out = Obj.asStr();
      for (char &Ch : Out)
        Ch = static_cast<char>(M == "upper" ? std::toupper(static_cast<unsigned char>(Ch))
                                            : std::tolower(static_cast<unsigned char>(Ch)));
      return PyValue::string(std::move(Out));
    }
    return PyValue();
  }

  PyValue callQualified(const std::string &Path, const PyList &Args, const PyDict &Kwargs) {
    if (S.OnLaunch) {
      if (std::optional<PyValue> R = S.Library->call(Path, Args, Kwargs))
        return *R;
      if (Path.rfind("__class__.", 0) == 0)
        return callClassMember(Path, Args, Kwargs);
    }
    return callLibrary(Path, Args, Kwargs);
  }

  PyValue callLambda(const LambdaExpr *L, const PyList &Args, const PyDict &Kwargs) {
    if (S.Depth >= MaxDepth)
      return PyValue();
    Frame F(S);
    // Host mode calls a grid lambda at the launch, inside the function that
    // defined it: its free names are that function's locals, as a closure's.
    if (S.OnLaunch && S.ModuleScope != &F.Saved)
      S.Locals = F.Saved;
    ++S.Depth;
    PyValue R;
    if (bindParams(L->Params, Args, Kwargs))
      R = eval(L->Body);
    --S.Depth;
    return R;
  }

  /// Binds arguments to parameters as Python does; false on a mismatch.
  bool bindParams(const std::vector<Param> &Params, const PyList &Args, const PyDict &Kwargs) {
    size_t NextArg = 0;
    std::vector<bool> Used(Kwargs.size(), false);
    for (const Param &P : Params) {
      switch (P.PKind) {
      case Param::ParamKind::VarArgs: {
        PyList Rest(Args.begin() + static_cast<std::ptrdiff_t>(std::min(NextArg, Args.size())), Args.end());
        NextArg = Args.size();
        S.Locals[P.Name] = PyValue::tuple(std::move(Rest));
        continue;
      }
      case Param::ParamKind::VarKeywords: {
        PyDict Rest;
        for (size_t I = 0; I < Kwargs.size(); ++I)
          if (!Used[I])
            Rest.push_back(Kwargs[I]);
        std::fill(Used.begin(), Used.end(), true);
        S.Locals[P.Name] = PyValue::dict(std::move(Rest));
        continue;
      }
      default:
        break;
      }
      if (P.PKind == Param::ParamKind::Positional && NextArg < Args.size()) {
        S.Locals[P.Name] = Args[NextArg++];
        continue;
      }
      bool Found = false;
      for (size_t I = 0; I < Kwargs.size(); ++I)
        if (!Used[I] && Kwargs[I].first.isStr() && Kwargs[I].first.asStr() == P.Name) {
          S.Locals[P.Name] = Kwargs[I].second;
          Used[I] = Found = true;
          break;
        }
      if (Found)
        continue;
      if (!P.Default)
        return false;
      // Defaults belong to the defining scope (module level here).
      PyValue D;
      {
        Frame Outer(S);
        D = eval(P.Default);
      }
      S.Locals[P.Name] = D;
    }
    return NextArg >= Args.size() && std::all_of(Used.begin(), Used.end(), [](bool B) { return B; });
  }

  //===--------------------------------------------------------------------===//
  // Statements (bodies of helper functions)
  //===--------------------------------------------------------------------===//

  Flow exec(const Block &B) {
    for (const Stmt *St : B) {
      Flow F = exec(St);
      if (F != Flow::Normal)
        return F;
    }
    return Flow::Normal;
  }

  Flow assignTo(const Expr *Target, const PyValue &V) {
    if (bind(Target, V))
      return Flow::Normal;
    // `nargs["a_desc"].block_shape = [BM, BK]`: an object the host model
    // gives identity (a TensorDescriptor) changes where every name sees it.
    if (const auto *A = dyn_cast<AttributeExpr>(Target); A && S.Library) {
      PyValue Obj = eval(A->Value);
      return S.Library->setAttribute(Obj, A->Attr, V) ? Flow::Normal : Flow::Abort;
    }
    // `d[k] = v` / `xs[i] = v` on a local container: rebuild it.
    const auto *Sub = dyn_cast<SubscriptExpr>(Target);
    const auto *N = Sub ? dyn_cast<NameExpr>(Sub->Value) : nullptr;
    if (N && S.Locals.count(N->Id) && S.Locals[N->Id].isTensor()) {
      // `idx[idx > 5] = 0`, `out[:, 0] = 1`: the same tensor, its contents
      // no longer what its factory made.
      S.Locals[N->Id] = contentsChanged(S.Locals[N->Id].asTensor());
      return Flow::Normal;
    }
    if (!N || !S.Locals.count(N->Id) || isa<SliceExpr>(Sub->Index))
      return Flow::Abort;
    PyValue Container = S.Locals[N->Id];
    PyValue Key = eval(Sub->Index);
    if (Container.kind() == PyValue::Kind::Dict && Key.isKnown()) {
      PyDict Items = Container.items();
      setItem(Items, Key, V);
      S.Locals[N->Id] = PyValue::dict(std::move(Items));
      return Flow::Normal;
    }
    std::optional<int64_t> I = intOf(Key);
    if (Container.kind() == PyValue::Kind::List && I) {
      std::optional<int64_t> At = normIndex(*I, Container.elements().size());
      if (!At)
        return Flow::Abort;
      PyList L = Container.elements();
      L[static_cast<size_t>(*At)] = V;
      S.Locals[N->Id] = PyValue::list(std::move(L));
      return Flow::Normal;
    }
    return Flow::Abort;
  }

  static PyValue contentsChanged(PyTensor T) {
    T.Init = PyTensor::Fill::Unknown;
    T.Low = T.High = 0;
    return PyValue::tensor(std::move(T));
  }

  /// An expression statement. `idx.clamp_(0, 3)`, `x.normal_()`: PyTorch's
  /// in-place methods (a trailing underscore) change the tensor the name
  /// holds.
  void applyInPlace(const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E);
    const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr;
    const auto *N = A ? dyn_cast<NameExpr>(A->Value) : nullptr;
    bool InPlace = N && A->Attr.size() >= 2 && A->Attr.back() == '_' && A->Attr[A->Attr.size() - 2] != '_' &&
                   S.Locals.count(N->Id) && S.Locals[N->Id].isTensor();
    PyValue R = eval(E);
    if (!InPlace)
      return;
    auto It = S.Locals.find(N->Id);
    if (It == S.Locals.end() || !It->second.isTensor())
      return;
    const PyTensor &Before = It->second.asTensor();
    if (R.isTensor() && R.asTensor().Shape == Before.Shape && R.asTensor().Strides == Before.Strides &&
        R.asTensor().Init != PyTensor::Fill::Unknown)
      It->second = R; // a fill the model knows (normal_, zero_)
    else
      It->second = contentsChanged(Before);
  }

  /// Host mode: what a statement that cannot be followed exactly assigns
  /// becomes Unknown, and execution goes on.
  Flow assignOrForget(const Expr *Target, const PyValue &V) {
    Flow F = assignTo(Target, V);
    if (F != Flow::Abort || !S.OnLaunch)
      return F;
    // `B, H, S, D = q.shape` of a matrix raises ValueError: that way ends.
    const auto *Tu = dyn_cast<TupleExpr>(Target);
    const auto *Li = dyn_cast<ListExpr>(Target);
    if (Tu || Li)
      if (std::optional<PyList> Items = iterate(V); Items && Items->size() != (Tu ? Tu->Elts : Li->Elts).size())
        return Flow::Abort;
    forget(Target);
    return Flow::Normal;
  }

  void forget(const Expr *Target) {
    std::vector<std::string> Names;
    targetNames(Target, Names);
    if (const auto *Sub = dyn_cast<SubscriptExpr>(Target))
      if (const auto *N = dyn_cast<NameExpr>(Sub->Value))
        Names.push_back(N->Id);
    for (const std::string &N : Names)
      S.Locals[N] = PyValue();
  }

  static bool sameValue(const PyValue &A, const PyValue &B) {
    if (A.isTensor() && B.isTensor()) {
      const PyTensor &X = A.asTensor(), &Y = B.asTensor();
      return X.Shape == Y.Shape && X.Strides == Y.Strides && X.DType == Y.DType && X.Init == Y.Init && X.Low == Y.Low &&
             X.High == Y.High && X.Extent == Y.Extent;
    }
    std::optional<bool> E = A.equals(B);
    return E && *E;
  }

  /// The names two ways through the code agree on keep their value; the
  /// others become Unknown.
  static std::map<std::string, PyValue> join(const std::map<std::string, PyValue> &A,
                                             const std::map<std::string, PyValue> &B) {
    std::map<std::string, PyValue> Out;
    for (const auto &[Name, V] : A) {
      auto It = B.find(Name);
      Out[Name] = It != B.end() && sameValue(V, It->second) ? V : PyValue();
    }
    for (const auto &[Name, V] : B)
      if (!A.count(Name))
        Out[Name] = PyValue();
    return Out;
  }

  /// Host mode: both arms of an `if` whose test is unknown, merged. A way
  /// that raises or returns drops out of the merge; the code after the
  /// `if` runs on what the others leave.
  Flow execBothWays(const Block &Then, const Block &Else) {
    std::map<std::string, PyValue> Before = S.Locals;
    Flow A = exec(Then);
    PyValue RetA = ReturnValue;
    std::map<std::string, PyValue> AfterA = std::move(S.Locals);
    S.Locals = std::move(Before);
    Flow B = exec(Else);
    auto Continues = [](Flow F) { return F == Flow::Normal || F == Flow::Break || F == Flow::Continue; };
    if (!Continues(A) && Continues(B))
      return B;
    if (Continues(A) && !Continues(B)) {
      S.Locals = std::move(AfterA);
      return A;
    }
    if (A == Flow::Return && B == Flow::Return && !sameValue(RetA, ReturnValue))
      ReturnValue = PyValue();
    S.Locals = join(AfterA, S.Locals);
    return A == B ? A : Flow::Normal;
  }

  /// Host mode: a loop whose trip count is unknown runs its body once,
  /// on an unknown target, merged with not running it.
  Flow execMaybe(const Expr *Target, const Block &Body) {
    std::map<std::string, PyValue> Before = S.Locals;
    if (Target)
      forget(Target);
    Flow F = exec(Body);
    if (F == Flow::Abort) {
      S.Locals = std::move(Before);
      return Flow::Normal;
    }
    S.Locals = join(Before, S.Locals);
    return Flow::Normal;
  }

  Flow exec(const Stmt *St) {
    if (!budget())
      return Flow::Abort;
    switch (St->kind()) {
    case StmtKind::Assign: {
      const auto *A = cast<AssignStmt>(St);
      PyValue V = eval(A->Value);
      for (const Expr *T : A->Targets)
        if (assignOrForget(T, V) == Flow::Abort)
          return Flow::Abort;
      return Flow::Normal;
    }
    case StmtKind::AnnAssign: {
      const auto *A = cast<AnnAssignStmt>(St);
      return A->Value ? assignOrForget(A->Target, eval(A->Value)) : Flow::Normal;
    }
    case StmtKind::AugAssign: {
      const auto *A = cast<AugAssignStmt>(St);
      PyValue Cur;
      if (const auto *Sub = dyn_cast<SubscriptExpr>(A->Target))
        Cur = subscript(eval(Sub->Value), Sub->Index);
      else
        Cur = eval(A->Target);
      return assignOrForget(A->Target, pyBinaryOp(A->Op, Cur, eval(A->Value)));
    }
    case StmtKind::Return: {
      const auto *R = cast<ReturnStmt>(St);
      ReturnValue = R->Value ? eval(R->Value) : PyValue::none();
      return Flow::Return;
    }
    case StmtKind::If: {
      const auto *I = cast<IfStmt>(St);
      std::optional<bool> T = eval(I->Test).truthy();
      if (!T)
        return S.OnLaunch ? execBothWays(I->Body, I->OrElse) : Flow::Abort;
      return exec(*T ? I->Body : I->OrElse);
    }
    case StmtKind::For: {
      const auto *F = cast<ForStmt>(St);
      std::optional<PyList> Items = iterate(eval(F->Iter));
      if (!Items || F->IsAsync)
        return S.OnLaunch ? execMaybe(F->Target, F->Body) : Flow::Abort;
      for (const PyValue &Item : *Items) {
        if (!bind(F->Target, Item)) {
          if (!S.OnLaunch)
            return Flow::Abort;
          forget(F->Target);
        }
        Flow Fl = exec(F->Body);
        if (Fl == Flow::Break)
          return Flow::Normal;
        if (Fl == Flow::Return || Fl == Flow::Abort)
          return Fl;
      }
      return exec(F->OrElse);
    }
    case StmtKind::While: {
      const auto *W = cast<WhileStmt>(St);
      while (true) {
        std::optional<bool> T = eval(W->Test).truthy();
        if (!T)
          return S.OnLaunch ? execMaybe(nullptr, W->Body) : Flow::Abort;
        if (!*T)
          return exec(W->OrElse);
        Flow Fl = exec(W->Body);
        if (Fl == Flow::Break)
          return Flow::Normal;
        if (Fl == Flow::Return || Fl == Flow::Abort)
          return Fl;
      }
    }
    case StmtKind::Pass:
      return Flow::Normal;
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    case StmtKind::ExprStmt:
      if (S.OnLaunch)
        applyInPlace(cast<ExprStmt>(St)->Value);
      else
        (void)eval(cast<ExprStmt>(St)->Value);
      return Flow::Normal;
    case StmtKind::Assert: {
      std::optional<bool> T = eval(cast<AssertStmt>(St)->Test).truthy();
      return T && !*T ? Flow::Abort : Flow::Normal; // a failing assert raises
    }
    case StmtKind::FunctionDef: {
      const auto *F = cast<FunctionDefStmt>(St);
      // Host mode runs decorated host functions as if undecorated: wrappers
      // (`@torch.no_grad()`, `@ensure_contiguous`) call through to them.
      S.Locals[F->Name] = F->Decorators.empty() || S.OnLaunch ? PyValue::function(F) : PyValue();
      return Flow::Normal;
    }
    case StmtKind::ClassDef: {
      if (!S.OnLaunch)
        return Flow::Abort;
      const auto *C = cast<ClassDefStmt>(St);
      S.Classes[C->Name] = C;
      S.Locals[C->Name] = PyValue::qualified("__class__." + C->Name);
      return Flow::Normal;
    }
    case StmtKind::With: {
      if (!S.OnLaunch)
        return Flow::Abort;
      const auto *W = cast<WithStmt>(St);
      for (const WithItem &Item : W->Items) {
        (void)eval(Item.ContextExpr);
        if (Item.OptionalVars)
          forget(Item.OptionalVars);
      }
      return exec(W->Body);
    }
    case StmtKind::Unsupported: {
      if (!S.OnLaunch)
        return Flow::Abort;
      const auto *U = cast<UnsupportedStmt>(St);
      if (U->PyName == "Raise")
        return Flow::Abort; // this way through the code raises: no launch after it
      if ((U->PyName == "Try" || U->PyName == "TryStar") && !U->Blocks.empty()) {
        Flow F = exec(U->Blocks.front());
        if (F == Flow::Abort && U->Blocks.size() > 1)
          return exec(U->Blocks[1]); // the first handler
        return F;
      }
      return Flow::Normal;
    }
    case StmtKind::Import: {
      for (const ImportAlias &A : cast<ImportStmt>(St)->Names) {
        if (!A.AsName.empty())
          S.Locals[A.AsName] = PyValue::qualified(A.Name);
        else
          S.Locals[A.Name.substr(0, A.Name.find('.'))] = PyValue::qualified(A.Name.substr(0, A.Name.find('.')));
      }
      return Flow::Normal;
    }
    case StmtKind::ImportFrom: {
      const auto *I = cast<ImportFromStmt>(St);
      if (I->Level != 0) {
        if (!S.OnLaunch)
          return Flow::Abort;
        // The path as ModuleInfo::Imports spells it ("..utils.helper"): the
        // host library may resolve it in the project.
        std::string Base = std::string(static_cast<size_t>(I->Level), '.') + I->Module;
        for (const ImportAlias &A : I->Names)
          if (A.Name != "*")
            S.Locals[A.AsName.empty() ? A.Name : A.AsName] =
                PyValue::qualified(Base.back() == '.' ? Base + A.Name : Base + "." + A.Name);
        return Flow::Normal;
      }
      for (const ImportAlias &A : I->Names) {
        if (A.Name == "*")
          return S.OnLaunch ? Flow::Normal : Flow::Abort;
        S.Locals[A.AsName.empty() ? A.Name : A.AsName] = PyValue::qualified(I->Module + "." + A.Name);
      }
      return Flow::Normal;
    }
    default:
      return S.OnLaunch ? Flow::Normal : Flow::Abort; // beyond this evaluator
    }
  }
};

PyValue ConstEval::eval(const Expr *E) {
  Impl I{*this, PyValue()};
  return I.eval(E);
}

void ConstEval::setHostMode(LaunchObserver Observer, const HostLibrary &L) {
  OnLaunch = std::move(Observer);
  Library = &L;
}

PyValue ConstEval::callValue(const PyValue &Callee, const PyList &Args, const PyDict &Kwargs) {
  Impl I{*this, PyValue()};
  switch (Callee.kind()) {
  case PyValue::Kind::Function: {
    if (I.jitFunction(Callee))
      return PyValue(); // calling a @jit function on the host is an error in Triton
    return call(Callee.asFunction(), Args, Kwargs);
  }
  case PyValue::Kind::Lambda:
    return I.callLambda(Callee.asLambda(), Args, Kwargs);
  case PyValue::Kind::Qualified:
    return I.callQualified(Callee.qualifiedPath(), Args, Kwargs);
  default:
    return PyValue();
  }
}

PyValue ConstEval::call(const FunctionDefStmt *Fn, const PyList &Args, const PyDict &Kwargs) {
  if (!Fn || Depth >= MaxDepth || Steps >= MaxSteps)
    return PyValue();
  Frame Fr(*this);
  ++Depth;
  if (OnLaunch)
    Callers.push_back(Fn->Name);
  Impl I{*this, PyValue()};
  PyValue Result;
  if (I.bindParams(Fn->Params, Args, Kwargs)) {
    Flow F = I.exec(Fn->Body);
    if (F == Flow::Return)
      Result = I.ReturnValue;
    else if (F == Flow::Normal)
      Result = PyValue::none();
  }
  if (OnLaunch)
    Callers.pop_back();
  --Depth;
  return Result;
}

bool ConstEval::exec(const Block &Body, std::map<std::string, PyValue> &Scope) {
  // Moved in and out, never copied: module code runs statement by statement.
  std::map<std::string, PyValue> Saved = std::move(Locals);
  std::map<std::string, PyValue> *PrevModule = ModuleScope;
  Locals = std::move(Scope);
  ModuleScope = &Locals;
  Impl I{*this, PyValue()};
  bool Ok = I.exec(Body) == Flow::Normal;
  Scope = std::move(Locals);
  Locals = std::move(Saved);
  ModuleScope = PrevModule;
  return Ok;
}

} // namespace tessel
