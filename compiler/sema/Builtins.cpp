//===- Builtins.cpp - the table of triton.language builtins ---------------===//
/// \file
/// Registers every modelled `tl.*` builtin with its Python signature, binds
/// call arguments as Python does, and answers "is this a member of
/// triton.language" for attribute checks. Builtins tessel does not model yet
/// evaluate to Poison (silence), never to a guess.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessel::sema {

static std::vector<BuiltinParam> parseSignature(std::string_view Sig) {
  std::vector<BuiltinParam> Params;
  while (!Sig.empty()) {
    size_t Comma = Sig.find(',');
    std::string_view Tok = Sig.substr(0, Comma);
    Sig = Comma == std::string_view::npos ? std::string_view() : Sig.substr(Comma + 1);
    while (!Tok.empty() && Tok.front() == ' ')
      Tok.remove_prefix(1);
    while (!Tok.empty() && Tok.back() == ' ')
      Tok.remove_suffix(1);
    if (Tok.empty())
      continue;
    BuiltinParam P;
    if (Tok.front() == '*') {
      P.VarArgs = true;
      Tok.remove_prefix(1);
    }
    if (Tok.back() == '=') {
      P.HasDefault = true;
      Tok.remove_suffix(1);
    }
    if (Tok.size() > 2 && Tok.substr(Tok.size() - 2) == ":C") {
      P.Constexpr = true;
      Tok.remove_suffix(2);
    }
    P.Name = std::string(Tok);
    Params.push_back(std::move(P));
  }
  return Params;
}

namespace {
struct Registered {
  std::vector<BuiltinParam> Params;
  BuiltinHandler Handler;
};
} // namespace

static const std::map<std::string, Registered, std::less<>> &registry() {
  static const std::map<std::string, Registered, std::less<>> R = [] {
    std::map<std::string, Registered, std::less<>> M;
    for (auto *Family :
         {&shapeBuiltins, &memoryBuiltins, &mathBuiltins, &reductionBuiltins, &miscBuiltins, &sortBuiltins})
      for (const BuiltinEntry &E : Family())
        M[std::string(E.Name)] = Registered{parseSignature(E.Signature), E.Handler};
    return M;
  }();
  return R;
}

/// Every public name of triton.language in Triton 3.6 (for "module has no
/// attribute" errors), beyond the modelled builtins. Not here, because 3.6
/// has them no longer: `_experimental_descriptor_load` / `_store` (replaced by
/// tensor descriptors), and Triton 2's `libdevice` (now `tl.extra.*`).
static const std::set<std::string, std::less<>> &otherLanguageNames() {
  static const std::set<std::string, std::less<>> Names = {"constexpr",
                                                           "int1",
                                                           "int8",
                                                           "int16",
                                                           "int32",
                                                           "int64",
                                                           "uint8",
                                                           "uint16",
                                                           "uint32",
                                                           "uint64",
                                                           "float16",
                                                           "bfloat16",
                                                           "float32",
                                                           "float64",
                                                           "float8e5",
                                                           "float8e5b16",
                                                           "float8e4nv",
                                                           "float8e4b8",
                                                           "float8e4b15",
                                                           "block_type",
                                                           "tuple",
                                                           "tuple_type",
                                                           "tensor",
                                                           "void",
                                                           "pi32_t",
                                                           "const",
                                                           "PropagateNan",
                                                           "TRITON_MAX_TENSOR_NUMEL",
                                                           "dtype",
                                                           "range",
                                                           "static_range",
                                                           "condition",
                                                           "math",
                                                           "extra",
                                                           "core",
                                                           "standard",
                                                           "random",
                                                           "semantic",
                                                           "dot_scaled",
                                                           "map_elementwise",
                                                           "interleave",
                                                           "tensor_descriptor",
                                                           "philox",
                                                           "philox_impl",
                                                           "randint4x",
                                                           "rand4x",
                                                           "randn4x",
                                                           "uint_to_uniform_float",
                                                           "pair_uniform_to_normal",
                                                           "static_print",
                                                           "device_print",
                                                           "assume",
                                                           "item",
                                                           "clamp",
                                                           "div_rn",
                                                           "sqrt_rn",
                                                           "umulhi",
                                                           "fdiv",
                                                           "log1p",
                                                           "expm1",
                                                           "erf",
                                                           "tanh",
                                                           "cosh",
                                                           "sinh",
                                                           "is_tensor",
                                                           "full_like",
                                                           "zeros_like",
                                                           "ones_like",
                                                           "ravel",
                                                           "cat",
                                                           "view",
                                                           "split",
                                                           "join",
                                                           "broadcast",
                                                           "minimum",
                                                           "maximum",
                                                           "float8e4b15x4",
                                                           "to_tensor",
                                                           "multiple_of",
                                                           "max_contiguous",
                                                           "max_constancy",
                                                           "debug_barrier",
                                                           "associative_scan",
                                                           "reduce",
                                                           "cumsum",
                                                           "cumprod"};
  return Names;
}

const PyValue *languageMember(std::string_view Name) {
  static const std::map<std::string, PyValue, std::less<>> Members = [] {
    std::map<std::string, PyValue, std::less<>> M;
    for (const auto &[N, R] : registry())
      M.emplace(N, PyValue::qualified("triton.language." + N));
    for (const std::string &N : otherLanguageNames())
      M.emplace(N, PyValue::qualified("triton.language." + N));
    return M;
  }();
  auto It = Members.find(Name);
  return It == Members.end() ? nullptr : &It->second;
}

bool isLanguageMember(std::string_view Name) { return languageMember(Name) != nullptr; }

bool isTensorMethod(std::string_view Name) {
  static const std::set<std::string, std::less<>> Methods = {"to",
                                                             "cast",
                                                             "sum",
                                                             "max",
                                                             "min",
                                                             "argmax",
                                                             "argmin",
                                                             "xor_sum",
                                                             "reduce_or",
                                                             "reshape",
                                                             "view",
                                                             "trans",
                                                             "permute",
                                                             "expand_dims",
                                                             "broadcast_to",
                                                             "split",
                                                             "join",
                                                             "cumsum",
                                                             "cumprod",
                                                             "exp",
                                                             "exp2",
                                                             "log",
                                                             "log2",
                                                             "cos",
                                                             "sin",
                                                             "sqrt",
                                                             "rsqrt",
                                                             "erf",
                                                             "floor",
                                                             "ceil",
                                                             "abs",
                                                             "sigmoid",
                                                             "softmax",
                                                             "ravel",
                                                             "flip",
                                                             "sort",
                                                             "reduce",
                                                             "associative_scan",
                                                             "logical_and",
                                                             "logical_or",
                                                             "item",
                                                             "histogram",
                                                             "gather",
                                                             "store",
                                                             "load",
                                                             "atomic_add",
                                                             "atomic_max",
                                                             "atomic_min",
                                                             "atomic_and",
                                                             "atomic_or",
                                                             "atomic_xor",
                                                             "atomic_xchg",
                                                             "atomic_cas",
                                                             "fma",
                                                             "umulhi",
                                                             "fdiv",
                                                             "multiple_of",
                                                             "max_contiguous",
                                                             "max_constancy",
                                                             "advance",
                                                             "clamp",
                                                             "cat"};
  return Methods.count(Name) > 0;
}

std::optional<size_t> normaliseAxis(int64_t Axis, size_t Rank) {
  int64_t R = static_cast<int64_t>(Rank);
  if (Axis < 0)
    Axis += R;
  if (Axis < 0 || Axis >= R)
    return std::nullopt;
  return static_cast<size_t>(Axis);
}

int64_t standardLog2(int64_t N) {
  int64_t Log = 0;
  while (N > 1) {
    N >>= 1;
    ++Log;
  }
  return Log;
}

std::optional<ScalarKind> intDtype(int64_t Bits, bool Signed) {
  if (Bits == 1)
    return ScalarKind::I1;
  return scalarKindFromLanguageName((Signed ? "int" : "uint") + std::to_string(Bits));
}

bool BuiltinCall::bind(std::vector<Arg> Args, std::vector<std::pair<std::string, Arg>> Kw) {
  Bound.assign(Params.size(), std::nullopt);
  size_t Next = 0;
  for (Arg &A : Args) {
    while (Next < Params.size() && Params[Next].VarArgs == false && Bound[Next])
      ++Next;
    if (Next >= Params.size()) {
      size_t Max = std::count_if(Params.begin(), Params.end(), [](const BuiltinParam &P) { return !P.VarArgs; });
      error(ProblemKind::BadCall, Name + "() takes " + std::to_string(Max) + " positional argument" +
                                      (Max == 1 ? "" : "s") + " but " + std::to_string(Args.size()) + " were given");
      return false;
    }
    if (Params[Next].VarArgs) {
      Rest.push_back(std::move(A));
      continue;
    }
    Bound[Next++] = std::move(A);
  }
  for (auto &[K, A] : Kw) {
    auto It = std::find_if(Params.begin(), Params.end(), [&](const BuiltinParam &P) { return P.Name == K; });
    if (It == Params.end() || It->VarArgs) {
      error(ProblemKind::BadCall, Name + "() got an unexpected keyword argument '" + K + "'");
      return false;
    }
    size_t I = It - Params.begin();
    if (Bound[I]) {
      error(ProblemKind::BadCall, Name + "() got multiple values for argument '" + K + "'");
      return false;
    }
    Bound[I] = std::move(A);
  }
  for (size_t I = 0; I < Params.size(); ++I) {
    const BuiltinParam &P = Params[I];
    if (P.VarArgs || P.HasDefault || Bound[I])
      continue;
    error(ProblemKind::BadCall, Name + "() missing 1 required positional argument: '" + P.Name + "'");
    return false;
  }
  return true;
}

const Arg *BuiltinCall::get(std::string_view Param) const {
  for (size_t I = 0; I < Params.size(); ++I)
    if (Params[I].Name == Param && Bound[I])
      return &*Bound[I];
  return nullptr;
}

const Value &BuiltinCall::value(std::string_view Param) const {
  static const Value None = Value::constant(PyValue::none());
  const Arg *A = get(Param);
  return A ? A->V : None;
}

bool BuiltinCall::given(std::string_view Param) const { return get(Param) != nullptr; }

bool BuiltinCall::present(std::string_view Param) const {
  const Arg *A = get(Param);
  return A && !(A->V.isConstexpr() && A->V.Const.isNone());
}

SourceRange BuiltinCall::rangeOf(std::string_view Param) const {
  const Arg *A = get(Param);
  return A ? A->Range : Call->Range;
}

std::string BuiltinCall::str(std::string_view Param) const {
  Value V = value(Param);
  return V.isKnownConstexpr() && V.Const.isStr() ? V.Const.asStr() : std::string();
}

bool BuiltinCall::flag(std::string_view Param, bool Default) const {
  Value V = value(Param);
  if (!V.isKnownConstexpr() || V.Const.isNone())
    return Default;
  return V.Const.truthy().value_or(Default);
}

bool BuiltinCall::anyPoison() const {
  for (const auto &A : Bound)
    if (A && A->V.isPoison())
      return true;
  return std::any_of(Rest.begin(), Rest.end(), [](const Arg &A) { return A.V.isPoison(); });
}

std::optional<int64_t> BuiltinCall::constInt(std::string_view Param) {
  const Arg *A = get(Param);
  if (!A || !A->V.isKnownConstexpr() || !A->V.Const.isIntLike())
    return std::nullopt;
  return A->V.Const.asInt();
}

std::optional<ScalarKind> BuiltinCall::dtype(std::string_view Param) {
  const Arg *A = get(Param);
  std::optional<ScalarKind> K = A ? A->V.dtypeKind() : std::nullopt;
  // dtype.to_ir refuses the fp8 types the target lacks (options.supported_fp8_dtypes).
  if (K && isFP8(*K)) {
    bool HasE4NV = C.options().Arch >= 89;
    if (!(*K == ScalarKind::FP8E5 || *K == ScalarKind::FP8E4B15 || (*K == ScalarKind::FP8E4NV && HasE4NV))) {
      error(ProblemKind::InvalidOperands, "type " + std::string(shortName(*K)) +
                                              " not supported in this architecture. The supported fp8 dtypes are " +
                                              (HasE4NV ? "('fp8e4b15', 'fp8e4nv', 'fp8e5')" : "('fp8e4b15', 'fp8e5')"));
      return std::nullopt;
    }
  }
  return K;
}

std::vector<Value> elementsOf(const Value &V) {
  if (V.K == Value::Kind::Tuple)
    return V.Elts;
  std::vector<Value> Out;
  if (V.isKnownConstexpr() && V.Const.isSequence()) {
    for (const PyValue &P : V.Const.elements())
      Out.push_back(Value::constant(P));
    return Out;
  }
  return {V};
}

std::optional<ElemType> BuiltinCall::elemType(std::string_view Param) {
  const Arg *A = get(Param);
  if (A && A->V.isKnownConstexpr() && A->V.Const.kind() == PyValue::Kind::Qualified)
    if (std::optional<ElemType> P = pointerTypeFromPath(A->V.Const.qualifiedPath()))
      return P;
  if (std::optional<ScalarKind> K = dtype(Param))
    return ElemType{*K};
  return std::nullopt;
}

std::optional<std::vector<int64_t>> BuiltinCall::shape(std::string_view Param) {
  std::vector<Value> Dims;
  std::vector<SourceRange> Ranges;
  const Arg *A = get(Param);
  auto Add = [&](const Value &V, SourceRange R, const ast::Expr *E) {
    // Element ranges, where the shape is written as a literal tuple or list.
    const std::vector<ast::Expr *> *Elts = nullptr;
    if (const auto *T = ast::dyn_cast<ast::TupleExpr>(E))
      Elts = &T->Elts;
    else if (const auto *L = ast::dyn_cast<ast::ListExpr>(E))
      Elts = &L->Elts;
    auto ElementRange = [&](size_t I) { return Elts && I < Elts->size() ? (*Elts)[I]->Range : R; };
    if (V.isKnownConstexpr() && V.Const.isSequence()) {
      for (const PyValue &P : V.Const.elements()) {
        Ranges.push_back(ElementRange(Dims.size()));
        Dims.push_back(Value::constant(P));
      }
    } else if (V.K == Value::Kind::Tuple) {
      for (const Value &X : V.Elts) {
        Ranges.push_back(ElementRange(Dims.size()));
        Dims.push_back(X);
      }
    } else {
      Dims.push_back(V);
      Ranges.push_back(R);
    }
  };
  if (A)
    Add(A->V, A->Range, A->E);
  else if (Rest.size() == 1)
    Add(Rest[0].V, Rest[0].Range, Rest[0].E);
  else
    for (const Arg &R : Rest)
      Add(R.V, R.Range, nullptr);
  std::vector<int64_t> Shape;
  for (size_t I = 0; I < Dims.size(); ++I) {
    const Value &D = Dims[I];
    if (D.isPoison())
      return std::nullopt;
    if (D.isTensor()) {
      errorAt(ProblemKind::ConstexprRequired, Ranges[I],
              "Shape element " + std::to_string(I) +
                  " must have type `constexpr[int]`, got `constexpr[<class 'triton.language.core.tensor'>]`");
      return std::nullopt;
    }
    if (D.isKnownConstexpr() && D.Const.isIntLike())
      Shape.push_back(D.Const.asInt());
    else
      Shape.push_back(TileType::UnknownDim);
  }
  return Shape;
}

/// The generic constexpr requirement of a `:C` parameter given a tensor.
static bool checkConstexprParams(BuiltinCall &B) {
  for (size_t I = 0; I < B.Params.size(); ++I) {
    const BuiltinParam &P = B.Params[I];
    if (!P.Constexpr || !B.Bound[I] || !B.Bound[I]->V.isTensor())
      continue;
    if (P.Name == "shape" || P.Name == "dims")
      continue; // BuiltinCall::shape reports these with Triton's shape wording
    if (B.Name == "arange") {
      B.error(ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr");
      return false;
    }
    B.errorAt(ProblemKind::ConstexprRequired, B.Bound[I]->Range,
              "`" + P.Name + "` argument of tl." + B.Name +
                  " must be a tl.constexpr (known at compile time), but it is a tensor of type " +
                  B.Bound[I]->V.Type.tritonStr());
    return false;
  }
  return true;
}

/// While lowering, a builtin whose handler typed a tensor without emitting
/// it is a lowering limit at the call, never a silent gap in the IR.
static void requireLowered(KernelChecker &C, Value &V, std::string_view Name, SourceRange R) {
  if (V.K == Value::Kind::Tuple)
    for (Value &E : V.Elts)
      requireLowered(C, E, Name, R);
  if (V.isTensor() && !V.IR) {
    C.loweringLimit(R, "tl." + std::string(Name));
    V.IR = C.lower(V, R);
  }
}

Value callLanguageBuiltin(KernelChecker &C, std::string_view Name, const ast::CallExpr *Call, std::vector<Arg> Args,
                          std::vector<std::pair<std::string, Arg>> Kw) {
  auto It = registry().find(Name);
  if (It == registry().end()) {
    if (C.builder())
      C.loweringLimit(Call->Range, "tl." + std::string(Name));
    return Value::poison();
  }
  BuiltinCall B(C, Name, Call);
  B.Params = It->second.Params;
  if (!B.bind(std::move(Args), std::move(Kw)))
    return Value::poison();
  if (B.anyPoison()) {
    recordPoisonedWrite(B);
    return Value::poison();
  }
  if (!checkConstexprParams(B))
    return Value::poison();
  Value V = It->second.Handler(B);
  if (C.builder())
    requireLowered(C, V, Name, Call->Range);
  return V;
}

} // namespace tessel::sema
