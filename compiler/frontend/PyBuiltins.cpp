//===- PyBuiltins.cpp - Python builtins and library calls on PyValues -----===//
/// \file
/// Implements PyBuiltins.h with Python's semantics: `int()` truncates,
/// `round()` rounds half to even, `min`/`max` without `key=`, `range` with a
/// size bound, `triton.Config` with Triton's defaults (4 warps, 3 stages,
/// 1 CTA) and `triton.cdiv` as `(a + b - 1) // b`.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/PyBuiltins.h"

#include "compiler/frontend/PyOps.h"
#include "compiler/frontend/TorchDTypes.h"
#include "compiler/types/Types.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace tessel::pybuiltins {

using ast::BinOpKind;
using ast::CmpOpKind;
using ast::UnaryOpKind;

bool isBuiltinName(const std::string &N) {
  static const char *const Names[] = {"range",      "len",    "min",      "max",  "sum",   "abs",       "int",
                                      "float",      "bool",   "str",      "list", "tuple", "enumerate", "zip",
                                      "isinstance", "sorted", "reversed", "dict", "round", "print"};
  for (const char *B : Names)
    if (N == B)
      return true;
  return false;
}

/// `triton.runtime.autotuner.Config` and friends all name triton.Config.
static bool isPath(const std::string &P, std::initializer_list<const char *> Options) {
  for (const char *O : Options)
    if (P == O)
      return true;
  return false;
}

PyValue targetAttribute(const std::string &Attr) {
  if (Attr == "backend")
    return PyValue::string("cuda");
  if (Attr == "warp_size")
    return PyValue::integer(32);
  return PyValue();
}

SliceBounds adjustSlice(int64_t N, std::optional<int64_t> Lo, std::optional<int64_t> Hi, int64_t Step) {
  auto Adjust = [&](std::optional<int64_t> X, int64_t Default) {
    if (!X)
      return Default;
    int64_t I = *X;
    if (I < 0) {
      I += N;
      if (I < 0)
        I = Step < 0 ? -1 : 0;
    } else if (I >= N) {
      I = Step < 0 ? N - 1 : N;
    }
    return I;
  };
  SliceBounds B;
  B.Start = Adjust(Lo, Step < 0 ? N - 1 : 0);
  B.Stop = Adjust(Hi, Step < 0 ? -1 : N);
  if (Step > 0 && B.Stop > B.Start)
    B.Length = (B.Stop - B.Start + Step - 1) / Step;
  else if (Step < 0 && B.Start > B.Stop)
    B.Length = (B.Start - B.Stop - Step - 1) / -Step;
  return B;
}

std::optional<int64_t> intOf(const PyValue &V) {
  if (V.isIntLike())
    return V.asInt();
  return std::nullopt;
}

/// The elements of an iterable value, or nullopt (dict iterates its keys,
/// str its characters, as in Python).
std::optional<PyList> iterate(const PyValue &V) {
  if (V.isSequence())
    return V.elements();
  if (V.kind() == PyValue::Kind::Dict) {
    PyList Keys;
    for (const auto &KV : V.items())
      Keys.push_back(KV.first);
    return Keys;
  }
  if (V.isStr()) {
    PyList Chars;
    for (char C : V.asStr())
      Chars.push_back(PyValue::string(std::string(1, C)));
    return Chars;
  }
  return std::nullopt;
}

static std::string strOf(const PyValue &V) {
  if (V.isStr())
    return V.asStr();
  return V.repr();
}

const PyValue *kwarg(const PyDict &Kwargs, const char *Name) {
  for (const auto &KV : Kwargs)
    if (KV.first.isStr() && KV.first.asStr() == Name)
      return &KV.second;
  return nullptr;
}

static PyValue config(const PyList &Args, const PyDict &Kwargs) {
  PyConfig C;
  const PyValue *KwargsValue = Args.empty() ? kwarg(Kwargs, "kwargs") : &Args[0];
  if (!KwargsValue || KwargsValue->kind() != PyValue::Kind::Dict || Args.size() > 1)
    return PyValue();
  C.Kwargs = KwargsValue->items();
  struct {
    const char *Name;
    int64_t *Field;
  } Ints[] = {{"num_warps", &C.NumWarps}, {"num_stages", &C.NumStages}, {"num_ctas", &C.NumCtas}};
  for (auto &I : Ints) {
    const PyValue *V = kwarg(Kwargs, I.Name);
    if (!V || V->isNone())
      continue;
    if (!V->isIntLike())
      return PyValue();
    *I.Field = V->asInt();
  }
  if (const PyValue *R = kwarg(Kwargs, "maxnreg"); R && !R->isNone()) {
    if (!R->isIntLike())
      return PyValue();
    C.MaxNReg = R->asInt();
  }
  if (const PyValue *H = kwarg(Kwargs, "pre_hook");
      H && (H->kind() == PyValue::Kind::Function || H->kind() == PyValue::Kind::Lambda))
    C.PreHook = std::make_shared<const PyValue>(*H);
  return PyValue::config(std::move(C));
}

static PyValue math(const std::string &F, const PyList &Args) {
  if (Args.size() != 1 || !Args[0].isNumber())
    return PyValue();
  double X = Args[0].asFloat();
  auto Int = [](double D) {
    return std::isfinite(D) && std::fabs(D) < 9.2e18 ? PyValue::integer(static_cast<int64_t>(D)) : PyValue();
  };
  if (F == "ceil")
    return Args[0].isIntLike() ? PyValue::integer(Args[0].asInt()) : Int(std::ceil(X));
  if (F == "floor")
    return Args[0].isIntLike() ? PyValue::integer(Args[0].asInt()) : Int(std::floor(X));
  if (F == "log2" && X > 0)
    return PyValue::floating(std::log2(X));
  if (F == "sqrt" && X >= 0)
    return PyValue::floating(std::sqrt(X));
  return PyValue();
}

static bool sortValues(PyList &Items) {
  for (const PyValue &V : Items)
    if (!V.isNumber() && !V.isStr())
      return false;
  bool Ok = true;
  std::stable_sort(Items.begin(), Items.end(), [&](const PyValue &A, const PyValue &B) {
    std::optional<bool> T = pyCompare(CmpOpKind::Lt, A, B).truthy();
    Ok &= T.has_value();
    return T.value_or(false);
  });
  return Ok;
}

static PyValue range(const PyList &Args) {
  std::vector<int64_t> N;
  for (const PyValue &A : Args) {
    std::optional<int64_t> I = intOf(A);
    if (!I)
      return PyValue();
    N.push_back(*I);
  }
  int64_t Start = 0, Stop = 0, Step = 1;
  if (N.size() == 1)
    Stop = N[0];
  else if (N.size() == 2 || N.size() == 3) {
    Start = N[0];
    Stop = N[1];
    if (N.size() == 3)
      Step = N[2];
  } else
    return PyValue();
  if (Step == 0)
    return PyValue();
  __int128 Count = Step > 0 ? (static_cast<__int128>(Stop) - Start + Step - 1) / Step
                            : (static_cast<__int128>(Start) - Stop - Step - 1) / -Step;
  if (Count > MaxElements)
    return PyValue();
  PyList Out;
  for (int64_t I = Start; Step > 0 ? I < Stop : I > Stop; I += Step)
    Out.push_back(PyValue::integer(I));
  return PyValue::list(std::move(Out));
}

static PyValue minMax(bool Max, const PyList &Args, const PyDict &Kwargs) {
  const PyValue *Default = kwarg(Kwargs, "default");
  if (Kwargs.size() > (Default ? 1u : 0u))
    return PyValue(); // key= is a function of arbitrary code
  PyList Items;
  if (Args.size() == 1) {
    std::optional<PyList> It = iterate(Args[0]);
    if (!It)
      return PyValue();
    Items = std::move(*It);
  } else {
    Items = Args;
  }
  if (Items.empty())
    return Default ? *Default : PyValue();
  PyValue Best = Items[0];
  for (size_t I = 1; I < Items.size(); ++I) {
    std::optional<bool> Better = pyCompare(Max ? CmpOpKind::Gt : CmpOpKind::Lt, Items[I], Best).truthy();
    if (!Better)
      return PyValue();
    if (*Better)
      Best = Items[I];
  }
  return Best;
}

static PyValue toInt(const PyList &Args) {
  if (Args.empty())
    return PyValue::integer(0);
  const PyValue &V = Args[0];
  if (V.isIntLike() && Args.size() == 1)
    return PyValue::integer(V.asInt());
  if (V.isFloat() && Args.size() == 1) {
    double D = std::trunc(V.asFloat());
    return std::isfinite(D) && std::fabs(D) < 9.2e18 ? PyValue::integer(static_cast<int64_t>(D)) : PyValue();
  }
  if (V.isStr()) {
    int Base = 10;
    if (Args.size() == 2) {
      std::optional<int64_t> B = intOf(Args[1]);
      if (!B || *B < 2 || *B > 36)
        return PyValue();
      Base = static_cast<int>(*B);
    }
    std::string T = V.asStr();
    T.erase(std::remove(T.begin(), T.end(), '_'), T.end());
    size_t B = T.find_first_not_of(" \t\n"), E = T.find_last_not_of(" \t\n");
    if (B == std::string::npos)
      return PyValue();
    T = T.substr(B, E - B + 1);
    char *End = nullptr;
    errno = 0;
    long long X = std::strtoll(T.c_str(), &End, Base);
    if (errno || !End || *End != '\0')
      return PyValue();
    return PyValue::integer(X);
  }
  return PyValue();
}

static PyValue isInstance(const PyList &Args) {
  if (Args.size() != 2 || Args[0].isUnknown())
    return PyValue();
  PyList Types = Args[1].kind() == PyValue::Kind::Tuple ? Args[1].elements() : PyList{Args[1]};
  const PyValue &V = Args[0];
  for (const PyValue &T : Types) {
    if (T.kind() != PyValue::Kind::Qualified)
      return PyValue();
    const std::string &P = T.qualifiedPath();
    std::optional<bool> Match;
    if (P == "builtins.int")
      Match = V.isIntLike();
    else if (P == "builtins.float")
      Match = V.isFloat();
    else if (P == "builtins.bool")
      Match = V.isBool();
    else if (P == "builtins.str")
      Match = V.isStr();
    else if (P == "builtins.list")
      Match = V.kind() == PyValue::Kind::List;
    else if (P == "builtins.tuple")
      Match = V.kind() == PyValue::Kind::Tuple;
    else if (P == "builtins.dict")
      Match = V.kind() == PyValue::Kind::Dict;
    if (!Match)
      return PyValue();
    if (*Match)
      return PyValue::boolean(true);
  }
  return PyValue::boolean(false);
}

static PyValue builtin(const std::string &F, const PyList &Args, const PyDict &Kwargs) {
  if (F == "range")
    return range(Args);
  if (F == "len") {
    if (Args.size() != 1)
      return PyValue();
    const PyValue &V = Args[0];
    if (V.isSequence())
      return PyValue::integer(static_cast<int64_t>(V.elements().size()));
    if (V.kind() == PyValue::Kind::Dict)
      return PyValue::integer(static_cast<int64_t>(V.items().size()));
    if (V.isStr())
      return PyValue::integer(static_cast<int64_t>(V.asStr().size()));
    return PyValue();
  }
  if (F == "min" || F == "max")
    return minMax(F == "max", Args, Kwargs);
  if (F == "sum") {
    if (Args.empty() || Args.size() > 2)
      return PyValue();
    std::optional<PyList> Items = iterate(Args[0]);
    if (!Items)
      return PyValue();
    PyValue Acc = Args.size() == 2 ? Args[1] : PyValue::integer(0);
    for (const PyValue &V : *Items)
      Acc = pyBinaryOp(BinOpKind::Add, Acc, V);
    return Acc;
  }
  if (F == "abs") {
    if (Args.size() != 1 || !Args[0].isNumber())
      return PyValue();
    if (Args[0].isFloat())
      return PyValue::floating(std::fabs(Args[0].asFloat()));
    return Args[0].asInt() < 0 ? pyUnaryOp(UnaryOpKind::USub, Args[0]) : PyValue::integer(Args[0].asInt());
  }
  if (F == "int")
    return toInt(Args);
  if (F == "float") {
    if (Args.empty())
      return PyValue::floating(0);
    if (Args[0].isNumber())
      return PyValue::floating(Args[0].asFloat());
    if (Args[0].isStr()) {
      std::string T = Args[0].asStr();
      char *End = nullptr;
      double D = std::strtod(T.c_str(), &End);
      return End && *End == '\0' && !T.empty() ? PyValue::floating(D) : PyValue();
    }
    return PyValue();
  }
  if (F == "bool") {
    if (Args.empty())
      return PyValue::boolean(false);
    std::optional<bool> T = Args[0].truthy();
    return T ? PyValue::boolean(*T) : PyValue();
  }
  if (F == "str") {
    if (Args.empty())
      return PyValue::string("");
    if (Args[0].isUnknown() || Args[0].kind() == PyValue::Kind::Function)
      return PyValue();
    return PyValue::string(strOf(Args[0]));
  }
  if (F == "list" || F == "tuple" || F == "sorted" || F == "reversed") {
    if (Args.empty())
      return F == "tuple" ? PyValue::tuple({}) : PyValue::list({});
    std::optional<PyList> Items = iterate(Args[0]);
    if (!Items || Args.size() != 1 || (!Kwargs.empty() && F != "sorted"))
      return PyValue();
    if (F == "reversed")
      std::reverse(Items->begin(), Items->end());
    if (F == "sorted") {
      const PyValue *Rev = kwarg(Kwargs, "reverse");
      if (Kwargs.size() > (Rev ? 1u : 0u) || !sortValues(*Items))
        return PyValue();
      if (Rev && Rev->truthy().value_or(false))
        std::reverse(Items->begin(), Items->end());
    }
    return F == "tuple" ? PyValue::tuple(std::move(*Items)) : PyValue::list(std::move(*Items));
  }
  if (F == "dict") {
    if (!Args.empty())
      return PyValue();
    return PyValue::dict(Kwargs);
  }
  if (F == "enumerate") {
    std::optional<PyList> Items = Args.empty() ? std::nullopt : iterate(Args[0]);
    if (!Items)
      return PyValue();
    int64_t Start = 0;
    if (Args.size() > 1 || kwarg(Kwargs, "start")) {
      std::optional<int64_t> St = intOf(Args.size() > 1 ? Args[1] : *kwarg(Kwargs, "start"));
      if (!St)
        return PyValue();
      Start = *St;
    }
    PyList Out;
    for (size_t I = 0; I < Items->size(); ++I)
      Out.push_back(PyValue::tuple({PyValue::integer(Start + static_cast<int64_t>(I)), (*Items)[I]}));
    return PyValue::list(std::move(Out));
  }
  if (F == "zip") {
    std::vector<PyList> Lists;
    size_t N = SIZE_MAX;
    for (const PyValue &A : Args) {
      std::optional<PyList> Items = iterate(A);
      if (!Items)
        return PyValue();
      N = std::min(N, Items->size());
      Lists.push_back(std::move(*Items));
    }
    if (Lists.empty() || !Kwargs.empty())
      return Lists.empty() ? PyValue::list({}) : PyValue();
    PyList Out;
    for (size_t I = 0; I < N; ++I) {
      PyList Row;
      for (const PyList &L : Lists)
        Row.push_back(L[I]);
      Out.push_back(PyValue::tuple(std::move(Row)));
    }
    return PyValue::list(std::move(Out));
  }
  if (F == "isinstance")
    return isInstance(Args);
  if (F == "round") {
    if (Args.size() != 1 || !Args[0].isNumber())
      return PyValue();
    if (Args[0].isIntLike())
      return PyValue::integer(Args[0].asInt());
    double X = Args[0].asFloat();
    double R = std::nearbyint(X); // banker's rounding, as Python's round()
    return std::isfinite(R) && std::fabs(R) < 9.2e18 ? PyValue::integer(static_cast<int64_t>(R)) : PyValue();
  }
  return PyValue();
}

/// `torch.finfo.<dtype>.<attr>` / `torch.iinfo.<dtype>.<attr>` (what
/// callLibrary makes of `torch.finfo(torch.float16)`): PyTorch's limits.
static std::optional<PyValue> numericLimit(std::string_view Path) {
  struct Float {
    const char *Name;
    double Max, Eps, Tiny;
    int Bits;
  };
  static const Float Floats[] = {{"fp16", 65504.0, 0.0009765625, 6.103515625e-05, 16},
                                 {"bf16", 3.3895313892515355e38, 0.0078125, 1.1754943508222875e-38, 16},
                                 {"fp32", 3.4028234663852886e38, 1.1920928955078125e-07, 1.1754943508222875e-38, 32},
                                 {"fp64", 1.7976931348623157e308, 2.220446049250313e-16, 2.2250738585072014e-308, 64},
                                 {"fp8e4nv", 448.0, 0.125, 0.015625, 8},
                                 {"fp8e5", 57344.0, 0.25, 6.103515625e-05, 8}};
  struct Int {
    const char *Name;
    int64_t Min, Max;
    int Bits;
  };
  static const Int Ints[] = {{"i8", -128, 127, 8},
                             {"i16", -32768, 32767, 16},
                             {"i32", INT32_MIN, INT32_MAX, 32},
                             {"i64", INT64_MIN, INT64_MAX, 64},
                             {"u8", 0, 255, 8},
                             {"i1", 0, 1, 8}};
  auto Split = [&](std::string_view Prefix) -> std::optional<std::pair<std::string_view, std::string_view>> {
    if (Path.substr(0, Prefix.size()) != Prefix)
      return std::nullopt;
    std::string_view Rest = Path.substr(Prefix.size());
    size_t Dot = Rest.find('.');
    if (Dot == std::string_view::npos)
      return std::nullopt;
    return std::pair{Rest.substr(0, Dot), Rest.substr(Dot + 1)};
  };
  if (auto P = Split("torch.finfo."))
    for (const Float &F : Floats)
      if (P->first == F.Name) {
        if (P->second == "max")
          return PyValue::floating(F.Max);
        if (P->second == "min")
          return PyValue::floating(-F.Max);
        if (P->second == "eps")
          return PyValue::floating(F.Eps);
        if (P->second == "tiny" || P->second == "smallest_normal")
          return PyValue::floating(F.Tiny);
        if (P->second == "bits")
          return PyValue::integer(F.Bits);
      }
  if (auto P = Split("torch.iinfo."))
    for (const Int &I : Ints)
      if (P->first == I.Name) {
        if (P->second == "max")
          return PyValue::integer(I.Max);
        if (P->second == "min")
          return PyValue::integer(I.Min);
        if (P->second == "bits")
          return PyValue::integer(I.Bits);
      }
  return std::nullopt;
}

/// The dtype a `triton.language.<dtype>.<member>` path is a member of, and
/// the member's name.
static std::optional<std::pair<ScalarKind, std::string_view>> dtypeMember(std::string_view Path) {
  constexpr std::string_view Lang = "triton.language.";
  if (Path.substr(0, Lang.size()) != Lang)
    return std::nullopt;
  Path.remove_prefix(Lang.size());
  size_t Dot = Path.find('.');
  if (Dot == std::string_view::npos)
    return std::nullopt;
  std::optional<ScalarKind> K = scalarKindFromLanguageName(Path.substr(0, Dot));
  if (!K)
    return std::nullopt;
  return std::pair{*K, Path.substr(Dot + 1)};
}

/// packaging.version.parse("3.6.0"): the release numbers as a tuple, which
/// compares as Version objects do for releases; a pre-, post- or dev
/// release or a local part (`3.6.0+git`, `3.0.0rc1`) is Unknown.
static PyValue versionTuple(const std::string &Text) {
  PyList Parts;
  size_t I = 0;
  while (I < Text.size()) {
    size_t J = I;
    while (J < Text.size() && std::isdigit(static_cast<unsigned char>(Text[J])))
      ++J;
    if (J == I || J - I > 9)
      return PyValue();
    Parts.push_back(PyValue::integer(std::stoll(Text.substr(I, J - I))));
    if (J == Text.size())
      break;
    if (Text[J] != '.')
      return PyValue();
    I = J + 1;
  }
  return Parts.empty() ? PyValue() : PyValue::tuple(std::move(Parts));
}

/// A library call that parses a version: packaging's, distutils' and
/// pkg_resources', and any library's own `Version` (unsloth's is
/// `unsloth_zoo.utils.Version`, a wrapper of packaging's): libraries compare
/// `X(triton.__version__)` with `X("3.0.0")` to pick a code path.
static bool parsesVersion(const std::string &Path) {
  if (isPath(Path, {"packaging.version.parse", "pkg_resources.parse_version", "pkg_resources.packaging.version.parse"}))
    return true;
  std::string_view Last = std::string_view(Path).substr(Path.rfind('.') + 1);
  return Last == "Version" || Last == "LooseVersion" || Last == "StrictVersion";
}

PyValue callLibrary(const std::string &Path, const PyList &Args, const PyDict &Kwargs) {
  if (parsesVersion(Path) && Args.size() == 1 && Args[0].isStr())
    return versionTuple(Args[0].asStr());
  // `tl.float16.is_fp16()`, `x.dtype.is_int()`: a dtype's predicates.
  if (auto M = dtypeMember(Path); M && Args.empty() && Kwargs.empty())
    if (std::optional<bool> Is = dtypePredicate(M->first, M->second))
      return PyValue::boolean(*Is);
  if (isPath(Path, {"triton.Config", "triton.runtime.Config", "triton.runtime.autotuner.Config"}))
    return config(Args, Kwargs);
  if (isPath(Path, {"triton.language.constexpr", "triton.language.core.constexpr"}))
    return Args.size() == 1 ? Args[0] : PyValue();
  // `triton.runtime.jit.constexpr_function(core.get_int_dtype)`: the same
  // function, now callable from kernels at compile time.
  if (isPath(Path, {"triton.constexpr_function", "triton.runtime.jit.constexpr_function",
                    "triton.runtime.constexpr_function"}) &&
      Args.size() == 1 && Kwargs.empty() &&
      (Args[0].kind() == PyValue::Kind::Qualified || Args[0].kind() == PyValue::Kind::Function))
    return Args[0];
  if (isPath(Path, {"triton.cdiv", "triton.language.cdiv"})) {
    if (Args.size() != 2 || !Args[0].isIntLike() || !Args[1].isIntLike())
      return PyValue();
    return pyBinaryOp(BinOpKind::FloorDiv,
                      pyBinaryOp(BinOpKind::Sub, pyBinaryOp(BinOpKind::Add, Args[0], Args[1]), PyValue::integer(1)),
                      Args[1]);
  }
  // `torch.finfo(torch.float16).max`: a value whose attributes libraryConstant knows.
  // PyTorch raises for finfo of an integer type or iinfo of a float one:
  // that (and any dtype tessel does not know) is Unknown, never a value.
  if (isPath(Path, {"torch.finfo", "torch.iinfo"}) && Args.size() == 1)
    if (std::string D = torchdtypes::tritonDType(Args[0]); !D.empty())
      if (numericLimit(Path + "." + D + ".max"))
        return PyValue::qualified(Path + "." + D);
  // `float.fromhex("0x1p-126")`: vllm spells float32's smallest normal so.
  // strtod reads C99's hex floats, which is Python's syntax (and inf, nan).
  if (Path == "builtins.float.fromhex" && Args.size() == 1 && Kwargs.empty() && Args[0].isStr()) {
    std::string T = Args[0].asStr();
    T.erase(0, T.find_first_not_of(" \t\n"));
    T.erase(T.find_last_not_of(" \t\n") + 1);
    // The `0x` is optional in Python, and digits are hex without it.
    size_t Digits = !T.empty() && (T[0] == '+' || T[0] == '-') ? 1 : 0;
    std::string Lower = T.substr(Digits);
    std::transform(Lower.begin(), Lower.end(), Lower.begin(), [](unsigned char C) { return std::tolower(C); });
    if (Lower.rfind("0x", 0) != 0 && Lower.rfind("inf", 0) != 0 && Lower.rfind("nan", 0) != 0)
      T.insert(Digits, "0x");
    char *End = nullptr;
    errno = 0;
    double D = std::strtod(T.c_str(), &End);
    if (T.empty() || !End || *End != '\0' || (errno == ERANGE && std::isinf(D)))
      return PyValue();
    return PyValue::floating(D);
  }
  // A library reads its switches from the environment (`FLA_USE_FAST_OPS`,
  // `TRITON_INTERPRET`); tessel checks the code a user's shell runs with
  // none of them set: the default.
  if (isPath(Path, {"os.environ.get", "os.getenv"}) && !Args.empty() && Args[0].isStr())
    return Args.size() >= 2 ? Args[1] : PyValue::none();
  if (isPath(Path, {"triton.next_power_of_2"})) {
    std::optional<int64_t> N = Args.size() == 1 ? intOf(Args[0]) : std::nullopt;
    if (!N || *N > (int64_t(1) << 62))
      return PyValue();
    int64_t P = 1;
    while (P < *N)
      P <<= 1;
    return PyValue::integer(P);
  }
  // The target tessel compiles for is an NVIDIA GPU: host code that picks
  // configs by backend (`get_current_target().backend == "cuda"`, the
  // tutorials' is_cuda()) reads the CUDA branch. The arch and the device's
  // properties stay unknown here.
  if (isPath(Path, {"triton.runtime.driver.active.get_current_target", "triton.runtime.driver.get_current_target"}) &&
      Args.empty())
    return PyValue::qualified(std::string(CurrentTarget));
  if (Path.rfind("math.", 0) == 0)
    return math(Path.substr(5), Args);
  if (Path.rfind("builtins.", 0) == 0)
    return builtin(Path.substr(9), Args, Kwargs);
  return PyValue();
}

std::optional<PyValue> libraryConstant(std::string_view Path) {
  // Libraries pick code paths by Triton's version (`TRITON_VERSION >=
  // version.parse('3.0.0')`): tessel is Triton 3.6.0.
  if (Path == "triton.__version__")
    return PyValue::string("3.6.0");
  // The PyTorch of a machine with an NVIDIA GPU is a CUDA build: libraries
  // test `torch.version.hip is not None` for AMD's (torchao's atomics).
  if (Path == "torch.version.hip")
    return PyValue::none();
  if (Path == "math.pi")
    return PyValue::floating(M_PI);
  if (Path == "math.e")
    return PyValue::floating(M_E);
  if (Path == "math.tau")
    return PyValue::floating(2 * M_PI);
  if (Path == "math.inf")
    return PyValue::floating(INFINITY);
  if (Path == "math.nan")
    return PyValue::floating(NAN);
  if (std::optional<PyValue> L = numericLimit(Path))
    return L;
  if (auto M = dtypeMember(Path)) {
    if (M->second == "primitive_bitwidth" || (M->second == "int_bitwidth" && isInt(M->first)))
      return PyValue::integer(bitWidth(M->first));
    // A predicate is a method: its path is called (callLibrary).
    if (dtypePredicate(M->first, M->second))
      return PyValue::qualified(std::string(Path));
  }
  return std::nullopt;
}

} // namespace tessel::pybuiltins
