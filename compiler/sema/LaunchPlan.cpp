//===- LaunchPlan.cpp - how one kernel of a file is launched --------------===//
/// \file
/// Spec selection (command line, directives, derivation), the values a file
/// fixes on its own (parameter defaults, launch-site keywords, the chosen
/// autotune config) merged into a spec before it is evaluated, and Triton's
/// argument specialization rules for the LoweringRequest.
//===----------------------------------------------------------------------===//
#include "compiler/sema/LaunchPlan.h"

#include "compiler/frontend/ConstEval.h"
#include "compiler/frontend/PyBuiltins.h"
#include "compiler/host/HostLaunches.h"
#include "compiler/host/PreHookBlocks.h"
#include "compiler/host/TensorDescriptorModel.h"
#include "compiler/host/TorchModel.h"
#include "compiler/host/WrapperLaunches.h"
#include "compiler/ir/TypeUtils.h"
#include "compiler/sema/GuessedTypes.h"
#include "compiler/sema/GuessedValues.h"
#include "compiler/sema/Lowering.h"
#include "compiler/sema/ParamAnnotations.h"
#include "compiler/sema/PointerParams.h"
#include "compiler/sema/RepresentativeValues.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <limits>
#include <set>

namespace tessel::sema {

namespace {

/// A value the file fixes without a spec, and where it came from.
struct FixedValue {
  PyValue Value;
  std::string Source;   ///< "autotune config 0", "the launch site", "its default"
  bool Assumed = false; ///< a representative value; Source says why
};

/// What the file fixes for one kernel: constexprs and launch options.
struct FileFacts {
  std::map<std::string, FixedValue> Values;
  std::optional<int64_t> NumWarps, NumStages;
  std::string OptionsSource;
};

} // namespace

/// Values a constexpr can take from the file: numbers and strings enter the
/// spec; other constants (None) go straight into the lowering request, as a
/// spec cannot spell them.
static bool isConstant(const PyValue &V) { return V.isNumber() || V.isStr() || V.isNone(); }

static std::optional<launch::SpecExpr> toSpecExpr(const PyValue &V) {
  launch::SpecExpr E;
  if (V.isBool()) {
    E.K = launch::SpecExpr::Kind::Bool;
    E.Int = V.asBool();
  } else if (V.isInt()) {
    E.K = launch::SpecExpr::Kind::Int;
    E.Int = V.asInt();
  } else if (V.isFloat()) {
    E.K = launch::SpecExpr::Kind::Float;
    E.Float = V.asFloat();
  } else if (V.isStr()) {
    E.K = launch::SpecExpr::Kind::Str;
    E.Name = V.asStr();
  } else {
    return std::nullopt;
  }
  return E;
}

static PyValue toPyValue(const launch::ConcreteValue &V) {
  if (V.IsStr)
    return PyValue::string(V.Str);
  if (V.IsBool)
    return PyValue::boolean(V.Int != 0);
  if (V.IsFloat)
    return PyValue::floating(V.Float);
  return PyValue::integer(V.Int);
}

static const ast::Param *paramNamed(const JitFunction &Fn, std::string_view Name) {
  for (const ast::Param &P : Fn.Def->Params)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

/// Parameter defaults, then the first launch site's literal keywords, then
/// the chosen autotune config: later sources win, as at a real launch where
/// the autotuner's values override the call's.
static FileFacts fileFacts(const JitFunction &Fn, const ModuleInfo &Info, size_t ConfigIndex) {
  FileFacts F;
  ConstEval Eval(Info, [&Info](const std::string &Name) {
    auto It = Info.Globals.find(Name);
    return It == Info.Globals.end() ? PyValue() : It->second.Value;
  });
  for (const ast::Param &P : Fn.Def->Params) {
    if (!P.Default)
      continue;
    PyValue V = Eval.eval(P.Default);
    if (isConstant(V))
      F.Values[P.Name] = {V, "its default"};
  }
  if (!Fn.Launches.empty()) {
    const LaunchSite &L = Fn.Launches.front();
    for (const auto &[Name, V] : L.Keywords) {
      if (!V.isIntLike())
        continue;
      if (Name == "num_warps" || Name == "num_stages") {
        (Name == "num_warps" ? F.NumWarps : F.NumStages) = V.asInt();
        F.OptionsSource = "the launch site";
      }
    }
    for (const auto &[Name, V] : L.Keywords)
      if (paramNamed(Fn, Name) && isConstant(V))
        F.Values[Name] = {V, "the launch site"};
  }
  if (ConfigIndex < Fn.Configs.size()) {
    const PyConfig &C = Fn.Configs[ConfigIndex].Config;
    std::string Source = "autotune config " + std::to_string(ConfigIndex);
    for (const auto &[K, V] : C.Kwargs)
      if (K.isStr() && isConstant(V))
        F.Values[K.asStr()] = {V, Source};
    F.NumWarps = C.NumWarps;
    F.NumStages = C.NumStages;
    F.OptionsSource = Source;
  }
  return F;
}

/// Adds what the file fixes to a spec that does not say it, noting each.
static void completeSpec(launch::LaunchSpec &Spec, const FileFacts &F, std::vector<std::string> &Assumptions) {
  for (const auto &[Name, Fixed] : F.Values) {
    if (Spec.value(Name) || Spec.tensor(Name))
      continue;
    std::optional<launch::SpecExpr> E = toSpecExpr(Fixed.Value);
    Assumptions.push_back(Name + "=" + Fixed.Value.repr() + (Fixed.Assumed ? " assumed: " : " from ") + Fixed.Source);
    if (!E)
      continue;
    E->Range = Spec.Range;
    launch::ValueSpec V;
    V.Name = Name;
    V.Range = Spec.Range;
    V.Instances.push_back(*E);
    Spec.Values.push_back(std::move(V));
  }
  auto Option = [&](std::optional<launch::SpecExpr> &Slot, std::optional<int64_t> Value, const char *Name) {
    if (Slot || !Value)
      return;
    launch::SpecExpr E;
    E.K = launch::SpecExpr::Kind::Int;
    E.Int = *Value;
    E.Range = Spec.Range;
    Slot = E;
    Assumptions.push_back(std::string(Name) + "=" + std::to_string(*Value) + " from " + F.OptionsSource);
  };
  Option(Spec.NumWarps, F.NumWarps, "num_warps");
  Option(Spec.NumStages, F.NumStages, "num_stages");
}

/// The parameters of Fn named or used as strides.
static std::set<std::string> strideParams(const ast::FunctionDefStmt &Fn) {
  std::set<std::string> Out;
  for (const ast::Param &P : Fn.Params) {
    std::string Lower = P.Name;
    for (char &C : Lower)
      C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    if (Lower.find("stride") != std::string::npos)
      Out.insert(P.Name);
  }
  return Out;
}

namespace {
/// How a kernel's parameters are used, read once per plan from its body.
struct ParamUse {
  ParamKinds Kinds;
  std::set<std::string> Strides; ///< named as strides
  std::set<std::string> Inner;   ///< of those, the innermost ones
};
} // namespace

static ParamUse paramUse(const ast::FunctionDefStmt &Fn, const ModuleInfo &Info) {
  ParamUse U;
  U.Kinds = inferParamKinds(Fn, Info);
  U.Strides = strideParams(Fn);
  U.Inner = innermostStrides(Fn, Info, U.Strides);
  return U;
}

/// representativeConstexprs, with constexpr strides read as strides: 1
/// where they multiply the innermost axis, Size (a row) elsewhere.
static std::map<std::string, AssumedValue> assumedConstexprs(const JitFunction &Fn, const ModuleInfo &Info,
                                                             const ParamUse &Use, int64_t Size,
                                                             const ImportedDefs &Imported = nullptr) {
  std::set<std::string> Heuristics(Fn.HeuristicNames.begin(), Fn.HeuristicNames.end());
  std::map<std::string, AssumedValue> Out = representativeConstexprs(Fn, Info, Heuristics, Imported);
  // A "stride" the kernel tests as a condition is a flag (vllm's
  // `SAME_STRIDE: tl.constexpr`): the name does not make it a stride.
  for (auto &[Name, A] : Out)
    if (Use.Strides.count(Name) && !A.Value.isUnknown() && !A.Value.isBool())
      A = Use.Inner.count(Name) ? AssumedValue{PyValue::integer(1), "an innermost stride"}
                                : AssumedValue{PyValue::integer(Size), "an outer stride"};
  for (auto &[Name, A] : Out)
    if (Heuristics.count(Name))
      A.Why = "set by @triton.heuristics; " + A.Why;
  // `num_stages: tl.constexpr` takes the launch option's value (loweringRequestFor).
  for (const char *Option : {"num_warps", "num_stages", "num_ctas"})
    Out.erase(Option);
  return Out;
}

/// Representative values (RepresentativeValues.h) for the constexprs, and
/// the names heuristics set, that nothing in the file fixes. One that no
/// value can be assumed for is a problem at the parameter.
/// The functions File's module imports from the project, by the names it
/// imports them as; none without a project or a file on disk.
static ImportedDefs importedDefs(project::Project *P, const ParsedFile &File, const ModuleInfo &Info) {
  const std::string &Path = File.text().path();
  if (!P || Path.empty() || Path == "-")
    return nullptr;
  // The modules stay alive while the caller reads their definitions.
  auto Held = std::make_shared<std::vector<std::shared_ptr<const project::Module>>>();
  return [P, Path, Ref = P->refOf(Path), &Info, Held](const std::string &Name) -> const ast::FunctionDefStmt * {
    auto It = Info.Imports.find(Name);
    project::Symbol S;
    if (It != Info.Imports.end()) {
      S = P->resolve(It->second, Ref);
    } else if (!Info.StarImports.empty() && !Info.Functions.count(Name) && !Info.Globals.count(Name)) {
      // `from .utils import *` (gemlite's kernels and their dequantize):
      // the module's own namespace, star imports last, as Python binds it.
      if (std::shared_ptr<const project::Module> M = P->moduleAt(Path))
        S = P->member(M, Name);
    }
    if (S.K != project::Symbol::Kind::Function || !S.Def)
      return nullptr;
    Held->push_back(S.Mod);
    return S.Def;
  };
}

static void assumeConstexprs(const JitFunction &Fn, const ModuleInfo &Info, const ParamUse &Use, int64_t Size,
                             const ImportedDefs &Imported, FileFacts &F, LaunchPlan &Plan) {
  for (const auto &[Name, A] : assumedConstexprs(Fn, Info, Use, Size, Imported)) {
    if (F.Values.count(Name))
      continue;
    if (A.Value.isUnknown()) {
      const ast::Param *P = nullptr;
      for (const ast::Param &Q : Fn.Def->Params)
        if (Q.Name == Name)
          P = &Q;
      Plan.Problems.push_back(Problem{ProblemKind::LaunchSpec,
                                      P ? P->NameRange : Fn.Def->NameRange,
                                      "no value can be assumed for constexpr parameter '" + Name + "': " + A.Why +
                                          "; give the kernel a `# tessel: launch` directive or pass --spec",
                                      {},
                                      {},
                                      {}});
      continue;
    }
    F.Values[Name] = {A.Value, A.Why, true};
    // Sizes the rules chose may be settled by the kernel's own checks
    // (GuessedValues.h); a value it is compared with, or a flag, is kept.
    if (A.Value.isInt() && A.Why.find("compared") == std::string::npos)
      Plan.AssumedConstexprs.insert(Name);
    Plan.Representative = true;
  }
}

/// The representative value of a scalar parameter no source fixes: a size
/// (Size), an innermost stride (1) or an outer one (Size, the row of a
/// Size x Size tensor), a float where the name or annotation says so.
static launch::SpecExpr representativeScalar(const ast::Param &P, const std::optional<ElemType> &Annotated,
                                             const std::set<std::string> &Ints, const std::set<std::string> &Inner,
                                             int64_t Size) {
  launch::SpecExpr E;
  std::string Lower = P.Name;
  for (char &C : Lower)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  // A word of the name (`eps`, `ln_epsilon`, `attn_softmax_scale`) that
  // names a real number.
  std::vector<std::string> Words;
  for (size_t I = 0; I <= Lower.size();) {
    size_t J = std::min(Lower.find('_', I), Lower.size());
    if (J > I)
      Words.push_back(Lower.substr(I, J - I));
    I = J + 1;
  }
  static const std::set<std::string> RealWords = {
      "eps",   "epsilon", "scale", "alpha",  "beta", "gamma", "temperature", "momentum", "decay",  "dropout",
      "slope", "softcap", "theta", "factor", "coef", "ratio", "prob",        "sigma",    "margin", "lr"};
  bool IsEps = false, FloatName = false;
  for (const std::string &W : Words) {
    FloatName = FloatName || RealWords.count(W);
    IsEps = IsEps || W == "eps" || W == "epsilon";
  }
  // `beta_stride_b`, `scale_row_stride`, `alpha_size`: a float's stride or
  // size is an integer.
  for (const char *W : {"stride", "offset", "size", "idx", "index", "len", "num", "count", "dim"})
    FloatName = FloatName && Lower.find(W) == std::string::npos;
  if ((Annotated && isFloat(Annotated->Scalar)) || (!Annotated && FloatName && !Ints.count(P.Name))) {
    E.K = launch::SpecExpr::Kind::Float;
    E.Float = IsEps ? 1e-6 : 0.5;
  } else if (Annotated && Annotated->Scalar == ScalarKind::I1) {
    E.K = launch::SpecExpr::Kind::Bool;
    E.Int = 1;
  } else {
    E.K = launch::SpecExpr::Kind::Int;
    E.Int = Inner.count(P.Name) ? 1 : Size;
  }
  return E;
}

static std::string specExprText(const launch::SpecExpr &E) {
  switch (E.K) {
  case launch::SpecExpr::Kind::Float: {
    std::string S = PyValue::floating(E.Float).repr();
    return S;
  }
  case launch::SpecExpr::Kind::Bool:
    return E.Int ? "True" : "False";
  default:
    return std::to_string(E.Int);
  }
}

static launch::SpecExpr intExpr(int64_t V) {
  launch::SpecExpr E;
  E.K = launch::SpecExpr::Kind::Int;
  E.Int = V;
  return E;
}

/// The spec docs/launch-spec.md "Without a spec" describes: constexprs
/// come from F (assumeConstexprs has filled it), pointers are tensors of the
/// dtype their annotation or RepresentativeValues gives, scalars take
/// representativeScalar's values. Sets Plan.Representative where it
/// assumes a pointer's dtype.
static launch::LaunchSpec deriveSpec(const JitFunction &Fn, const ModuleInfo &Info, const ParamUse &Use, int64_t Size,
                                     std::vector<std::string> &Assumptions, LaunchPlan &Plan,
                                     const ImportedDefs &Imported,
                                     const std::map<std::string, std::vector<int64_t>> &DescriptorBlocks) {
  launch::LaunchSpec Spec;
  Spec.Range = Fn.Def->NameRange;
  const ParamKinds &Kinds = Use.Kinds;
  const std::set<std::string> &Strides = Use.Strides, &Inner = Use.Inner;
  std::map<std::string, AssumedPointer> Guessed = representativePointers(*Fn.Def, Info, Kinds.Pointers, Imported);
  // A kernel that addresses rows (an outer stride) reads Size x Size tensors.
  bool Rows = std::any_of(Strides.begin(), Strides.end(), [&](const std::string &S) { return !Inner.count(S); });
  for (const ast::Param &P : Fn.Def->Params) {
    if (isConstexprAnnotation(Info, P.Annotation))
      continue;
    if (P.PKind == ast::Param::ParamKind::VarArgs || P.PKind == ast::Param::ParamKind::VarKeywords)
      continue;
    // `mask=None` (gemlite's atomic_add_cas): a call that omits it passes
    // None, which Triton specializes as a constexpr; the default stands.
    if (const auto *D = P.Default ? dyn_cast<ast::ConstantExpr>(P.Default) : nullptr;
        D && D->CK == ast::ConstantKind::None)
      continue;
    if (Kinds.Descriptors.count(P.Name)) {
      // A host TensorDescriptor: the block shape its config's pre_hook
      // gives (none: requireDescriptors says so), over a tensor of Size
      // rows and columns whose leading dimensions are one block each.
      auto Block = DescriptorBlocks.find(P.Name);
      if (Block == DescriptorBlocks.end())
        continue;
      launch::TensorSpec T;
      T.Name = P.Name;
      T.Range = Spec.Range;
      T.DType = "fp16";
      std::string Dims, BlockText;
      size_t Rank = Block->second.size();
      for (size_t D = 0; D < Rank; ++D) {
        int64_t N = D + 2 >= Rank ? Size : Block->second[D];
        T.Dims.push_back(intExpr(N));
        T.DescBlock.push_back(intExpr(Block->second[D]));
        Dims += (D ? ", " : "") + std::to_string(N);
        BlockText += (D ? ", " : "") + std::to_string(Block->second[D]);
      }
      Spec.Tensors.push_back(std::move(T));
      Plan.AssumedDtypes = true;
      Assumptions.push_back(P.Name + "=TensorDescriptor(fp16[" + Dims + "], block_shape=[" + BlockText +
                            "]): the block shape the config's pre_hook sets, the dtype and sizes assumed");
      continue;
    }
    std::optional<ElemType> Annotated = annotationType(Info, P.Annotation);
    bool IsPointer = Annotated ? Annotated->isPointer() : Kinds.Pointers.count(P.Name) > 0;
    if (IsPointer) {
      ScalarKind K = ScalarKind::FP32;
      std::string Why;
      if (Annotated && Annotated->PointerDepth == 1) {
        K = Annotated->Scalar;
      } else if (auto G = Guessed.find(P.Name); G != Guessed.end()) {
        K = G->second.Scalar;
        Why = G->second.Why;
        Plan.AssumedDtypes = true;
        Plan.GuessedTypes.insert(P.Name);
      }
      launch::TensorSpec T;
      T.Name = P.Name;
      T.Range = Spec.Range;
      T.DType = std::string(ir::scalarName(K));
      T.Dims.push_back(intExpr(Size));
      if (Rows)
        T.Dims.push_back(intExpr(Size));
      Spec.Tensors.push_back(std::move(T));
      std::string Dims = std::to_string(Size) + (Rows ? ", " + std::to_string(Size) : "");
      Assumptions.push_back(P.Name + "=" + std::string(ir::scalarName(K)) + "[" + Dims + "]" +
                            (Why.empty() ? "" : ": " + Why));
      continue;
    }
    launch::ValueSpec V;
    V.Name = P.Name;
    V.Range = Spec.Range;
    launch::SpecExpr E = representativeScalar(P, Annotated, Kinds.Ints, Inner, Size);
    // A parameter used neither as a pointer nor as an integer: its type is a guess.
    if (!Annotated && !Kinds.Ints.count(P.Name) && !Strides.count(P.Name)) {
      Plan.AssumedDtypes = true;
      Plan.GuessedTypes.insert(P.Name);
    }
    V.Instances.push_back(E);
    Spec.Values.push_back(std::move(V));
    Assumptions.push_back(P.Name + "=" + specExprText(E));
  }
  Assumptions.push_back("grid=(1,)");
  return Spec;
}

/// The kernel a directive is for: the one it names, else the first @jit
/// function defined below it.
static std::string targetKernel(const launch::LaunchDirective &D, const launch::LaunchSpec &Spec,
                                const ModuleInfo &Info) {
  if (!Spec.Kernel.empty())
    return Spec.Kernel;
  std::string Target;
  uint32_t Best = std::numeric_limits<uint32_t>::max();
  for (const auto &[Name, J] : Info.Jit)
    if (J.Def && J.Def->Range.Begin >= D.Range.End && J.Def->Range.Begin < Best) {
      Best = J.Def->Range.Begin;
      Target = Name;
    }
  return Target;
}

/// The parsed directives (of the file's Directives) that apply to Fn.
static std::vector<launch::ParsedLaunchSpec> directivesFor(const JitFunction &Fn, const ParsedFile &File,
                                                           const ModuleInfo &Info,
                                                           const std::vector<launch::LaunchDirective> &Directives) {
  std::vector<launch::ParsedLaunchSpec> Out;
  for (const launch::LaunchDirective &D : Directives) {
    launch::ParsedLaunchSpec P = launch::parseLaunchSpec(File.text().slice(D.Body), D.Body.Begin);
    if (targetKernel(D, P.Spec, Info) == Fn.Name)
      Out.push_back(std::move(P));
  }
  return Out;
}

std::set<std::string> directedKernels(const ParsedFile &File, const ModuleInfo &Info) {
  std::set<std::string> Out;
  for (const launch::LaunchDirective &D : File.launchDirectives()) {
    launch::ParsedLaunchSpec P = launch::parseLaunchSpec(File.text().slice(D.Body), D.Body.Begin);
    Out.insert(targetKernel(D, P.Spec, Info));
  }
  return Out;
}

std::vector<Problem> checkLaunchDirectives(const ParsedFile &File, const ModuleInfo &Info) {
  std::vector<Problem> Out;
  for (const launch::LaunchDirective &D : File.launchDirectives()) {
    launch::ParsedLaunchSpec P = launch::parseLaunchSpec(File.text().slice(D.Body), D.Body.Begin);
    if (!P.Problems.empty()) {
      for (Problem &Pr : P.Problems)
        Out.push_back(std::move(Pr));
      continue;
    }
    const JitFunction *Fn = Info.jit(targetKernel(D, P.Spec, Info));
    if (Fn && Fn->Def) {
      std::vector<std::string> Unused;
      completeSpec(P.Spec, fileFacts(*Fn, Info, 0), Unused);
    }
    ProblemSink Sink;
    launch::instantiate(P.Spec, Sink);
    for (Problem &Pr : Sink.take())
      Out.push_back(std::move(Pr));
  }
  return Out;
}

/// Triton code names pointer parameters `x_ptr`; a spec may call the tensor
/// plain `x` (docs/launch-spec.md), which then binds `x_ptr` unless `x` is
/// itself a parameter or `x_ptr` has its own entry.
static void bindTensorNames(const JitFunction &Fn, launch::ConcreteLaunch &L) {
  auto Named = [&L](const std::string &Name) {
    return std::find_if(L.Tensors.begin(), L.Tensors.end(),
                        [&Name](const launch::ConcreteTensor &T) { return T.Name == Name; });
  };
  for (const ast::Param &P : Fn.Def->Params) {
    const std::string Suffix = "_ptr";
    if (P.Name.size() <= Suffix.size() || P.Name.compare(P.Name.size() - Suffix.size(), Suffix.size(), Suffix) != 0)
      continue;
    std::string Short = P.Name.substr(0, P.Name.size() - Suffix.size());
    if (Named(P.Name) != L.Tensors.end() || paramNamed(Fn, Short))
      continue;
    auto It = Named(Short);
    if (It != L.Tensors.end())
      It->Name = P.Name;
  }
}

/// A planned launch: tensor names bound to parameters, then the request.
static PlannedLaunch planned(const JitFunction &Fn, const ModuleInfo &Info, const FileFacts &Facts,
                             launch::ConcreteLaunch L) {
  bindTensorNames(Fn, L);
  LoweringRequest R = loweringRequestFor(Fn, Info, L);
  for (const auto &[Name, Fixed] : Facts.Values)
    if (!Fixed.Value.isNumber() && !Fixed.Value.isStr() && !L.value(Name) && paramNamed(Fn, Name))
      R.Constexprs.emplace(Name, Fixed.Value);
  return {std::move(L), std::move(R)};
}

static launch::TensorInit tensorInit(PyTensor::Fill F) {
  switch (F) {
  case PyTensor::Fill::Zeros:
    return launch::TensorInit::Zeros;
  case PyTensor::Fill::Ones:
    return launch::TensorInit::Ones;
  case PyTensor::Fill::Randn:
    return launch::TensorInit::Randn;
  case PyTensor::Fill::Arange:
    return launch::TensorInit::Arange;
  case PyTensor::Fill::Randint:
    return launch::TensorInit::Randint;
  case PyTensor::Fill::Empty:
  case PyTensor::Fill::Rand:
  case PyTensor::Fill::Full:
  case PyTensor::Fill::Unknown:
    return launch::TensorInit::Rand;
  }
  return launch::TensorInit::Rand;
}

static launch::ConcreteTensor concreteTensor(const std::string &Name, const PyTensor &T) {
  launch::ConcreteTensor C;
  C.Name = Name;
  C.DType = T.DType;
  C.Shape = T.Shape;
  C.Strides = T.Strides;
  C.StorageElements = torchmodel::reach(T); // a view reaches the rest of its base's allocation
  C.IsOutput = T.Init == PyTensor::Fill::Empty;
  C.Init = tensorInit(T.Init);
  C.Low = T.Low;
  C.High = T.High;
  return C;
}

static std::optional<launch::ConcreteValue> concreteNumber(const std::string &Name, const PyValue &V) {
  launch::ConcreteValue C;
  C.Name = Name;
  if (V.isBool()) {
    C.IsBool = true;
    C.Int = V.asBool();
  } else if (V.isInt()) {
    C.Int = V.asInt();
  } else if (V.isFloat()) {
    C.IsFloat = true;
    C.Float = V.asFloat();
  } else {
    return std::nullopt;
  }
  return C;
}

/// The tensor a host TensorDescriptor argument describes, seen through the
/// descriptor's shape and strides (the allocation is its base's), with its
/// block shape: after the config's pre_hook has set it, as at the launch.
/// Nullopt when a size is not known (added to Unassumable: no block shape
/// can be assumed for the user) or, for TypesOnly, the dtype.
static std::optional<launch::ConcreteTensor> hostDescriptor(const std::string &Param, const PyDescriptor &D,
                                                            const std::string &Where, bool TypesOnly, LaunchPlan &Plan,
                                                            std::vector<std::string> &Unassumable) {
  std::optional<std::vector<int64_t>> Shape = descriptormodel::intsOf(D.Shape),
                                      Strides = descriptormodel::intsOf(D.Strides),
                                      Block = descriptormodel::intsOf(D.BlockShape);
  if (!Shape || !Strides || !Block) {
    if (!TypesOnly)
      Unassumable.push_back("`" + Param + "`: the " +
                            (!Block   ? "block shape"
                             : !Shape ? "shape"
                                      : "strides") +
                            " of the TensorDescriptor " + Where + " passes is not known");
    return std::nullopt;
  }
  // TensorDescriptor's validate_block_shape (a block the host code sets
  // later, in a pre_hook, is not checked there: the kernel would not compile);
  // a 0 passes it, but gives no block to plan with.
  std::string Problem = blockShapeProblem(*Block).Message;
  if (Problem.empty() && std::find(Block->begin(), Block->end(), 0) != Block->end())
    Problem = "a block dimension of 0";
  if (!Problem.empty()) {
    if (!TypesOnly)
      Unassumable.push_back("`" + Param + "`: the block shape of the TensorDescriptor " + Where +
                            " passes is not one Triton accepts (" + Problem + ")");
    return std::nullopt;
  }
  if (D.Base.DType.empty() && TypesOnly)
    return std::nullopt;
  launch::ConcreteTensor C = concreteTensor(Param, D.Base);
  C.Shape = *Shape;
  C.Strides = *Strides;
  C.DescBlock = *Block;
  C.PadNan = D.Padding == "nan";
  std::string Why = " from " + (D.Base.Origin.empty() ? std::string("the host code") : D.Base.Origin) + " in " + Where;
  if (C.DType.empty()) {
    // A made-up call's tensors have no dtype: the most common of TMA's.
    C.DType = "fp16";
    Why = " assumed (the dtype of the tensor it describes is not known)";
    Plan.AssumedDtypes = true;
  }
  auto List = [](const std::vector<int64_t> &V) {
    std::string S;
    for (size_t I = 0; I < V.size(); ++I)
      S += (I ? ", " : "") + std::to_string(V[I]);
    return S;
  };
  Plan.Assumptions.push_back(Param + "=TensorDescriptor(" + C.DType + "[" + List(C.Shape) + "], block_shape=[" +
                             List(C.DescBlock) + "]" + (C.PadNan ? ", padding='nan'" : "") + ")" + Why);
  return C;
}

/// The launch the file's own host code makes (HostLaunches.h), when running
/// its module-level code reaches one: tensors with the shapes and dtypes it
/// builds, scalars and constexprs as it computes them, its grid. A value the
/// host code computes from something tessel cannot know takes a
/// representative value (as a derived spec's), named in an assumption with
/// the expression it stands for, and the plan is Representative.
/// TypesOnly: the launch is wanted for its argument types alone
/// (launchArgTypes), so values it cannot know are left out, not assumed;
/// otherwise Use is how the kernel uses its parameters (paramUse).
static void planHostLaunch(const JitFunction &Fn, const ModuleInfo &Info, const ParsedFile &File, const HostLaunch &H,
                           const PyConfig *Config, size_t ConfigIndex, bool TypesOnly, int64_t Size,
                           const ParamUse *Use, LaunchPlan &Plan) {
  const SourceText &Text = File.text();
  auto Quote = [&Text](SourceRange R) {
    std::string S(Text.slice(R));
    return S.size() > 60 ? S.substr(0, 57) + "..." : S;
  };
  std::string Where = "the launch at line " + std::to_string(Text.lineCol(H.Range.Begin).Line + 1);
  if (!H.MadeUpCall.empty() && !TypesOnly) {
    // Nothing in the file makes this call: its sizes are tessel's.
    Plan.Assumptions.push_back("launch of the host wrapper " + H.MadeUpCall);
    Plan.Representative = true;
    Plan.FromMadeUpCall = true;
  }
  if (!H.Callers.empty()) {
    Where += " (reached through ";
    for (size_t I = 0; I < H.Callers.size(); ++I)
      Where += (I ? " -> " : "") + H.Callers[I] + "()";
    Where += ")";
  }

  // What to assume for values the host code leaves unknown, read once.
  struct Fill {
    std::map<std::string, AssumedValue> Constexprs;
    std::map<std::string, AssumedPointer> Pointers;
  };
  std::optional<Fill> Assume;
  auto Assumed = [&]() -> Fill & {
    if (!Assume) {
      Assume.emplace();
      Assume->Constexprs = assumedConstexprs(Fn, Info, *Use, Size);
      Assume->Pointers = representativePointers(*Fn.Def, Info, Use->Kinds.Pointers);
    }
    return *Assume;
  };
  auto Because = [&](SourceRange R) {
    if (R.empty())
      return std::string(" (not passed in " + Where + ")");
    if (!H.MadeUpCall.empty())
      return " (`" + Quote(R) + "` in " + Where + ", from the made-up call)";
    return " (the host code computes `" + Quote(R) + "` from values tessel cannot know)";
  };

  launch::ConcreteLaunch L;
  std::map<std::string, PyValue> OtherConstexprs;
  std::vector<std::string> Unassumable;
  // A representative value for parameter P, which the host code leaves unknown.
  auto AssumeParam = [&](const ast::Param &P, SourceRange R, const PyTensor *Shape) {
    Fill &F = Assumed();
    Plan.MadeUp.insert(P.Name);
    if (isConstexprAnnotation(Info, P.Annotation)) {
      if (P.Name == "num_warps" || P.Name == "num_stages" || P.Name == "num_ctas") {
        Plan.Assumptions.push_back(P.Name + " assumed: the launch option's value" + Because(R));
        return; // loweringRequestFor gives it the option's value
      }
      auto It = F.Constexprs.find(P.Name);
      if (It == F.Constexprs.end() || It->second.Value.isUnknown()) {
        Unassumable.push_back("`" + P.Name + "`" + (It == F.Constexprs.end() ? "" : ": " + It->second.Why));
        return;
      }
      if (std::optional<launch::ConcreteValue> C = concreteNumber(P.Name, It->second.Value))
        L.Values.push_back(*C);
      else
        OtherConstexprs[P.Name] = It->second.Value;
      Plan.Assumptions.push_back(P.Name + "=" + It->second.Value.repr() + " assumed: " + It->second.Why + Because(R));
      Plan.Representative = true;
      return;
    }
    std::optional<ElemType> Annotated = annotationType(Info, P.Annotation);
    if ((Annotated && Annotated->isPointer()) || Use->Kinds.Pointers.count(P.Name) || Shape) {
      ScalarKind K = Annotated && Annotated->PointerDepth == 1 ? Annotated->Scalar : ScalarKind::FP32;
      std::string Why;
      if (!(Annotated && Annotated->PointerDepth == 1))
        if (auto G = F.Pointers.find(P.Name); G != F.Pointers.end()) {
          K = G->second.Scalar;
          Why = ", " + G->second.Why;
          Plan.GuessedTypes.insert(P.Name);
        }
      PyTensor T;
      if (Shape && !Shape->Shape.empty()) {
        T = *Shape;
      } else {
        T.Shape = {Size, Size};
        T.Strides = {Size, 1};
        T.Init = PyTensor::Fill::Randn;
      }
      T.DType = std::string(ir::scalarName(K));
      // An integer tensor whose contents tessel makes up holds ids, counts
      // or offsets: never negative ones (randn's [-64, 64) would make
      // `expert_id * BLOCK + lane` index before a buffer real ids never do).
      if (!isFloat(K) && T.Init == PyTensor::Fill::Randn)
        T.Init = PyTensor::Fill::Rand;
      L.Tensors.push_back(concreteTensor(P.Name, T));
      std::string Dims;
      for (size_t I = 0; I < T.Shape.size(); ++I)
        Dims += (I ? ", " : "") + std::to_string(T.Shape[I]);
      Plan.Assumptions.push_back(P.Name + "=" + T.DType + "[" + Dims + "] assumed" + Why + Because(R));
      // A tensor whose shape the host code knows has only its dtype assumed.
      (Shape && !Shape->Shape.empty() ? Plan.AssumedDtypes : Plan.Representative) = true;
      return;
    }
    launch::SpecExpr E = representativeScalar(P, Annotated, Use->Kinds.Ints, Use->Inner, Size);
    if (!Annotated && !Use->Kinds.Ints.count(P.Name) && !Use->Strides.count(P.Name))
      Plan.GuessedTypes.insert(P.Name);
    launch::ConcreteValue C;
    C.Name = P.Name;
    C.IsFloat = E.K == launch::SpecExpr::Kind::Float;
    C.IsBool = E.K == launch::SpecExpr::Kind::Bool;
    C.Int = E.Int;
    C.Float = E.Float;
    L.Values.push_back(C);
    Plan.Assumptions.push_back(P.Name + "=" + specExprText(E) + " assumed" + Because(R));
  };

  for (const ast::Param &P : Fn.Def->Params) {
    if (P.PKind == ast::Param::ParamKind::VarArgs || P.PKind == ast::Param::ParamKind::VarKeywords)
      continue;
    const HostArgument *A = H.arg(P.Name);
    bool IsConstexpr = isConstexprAnnotation(Info, P.Annotation);
    PyValue V = A ? A->Value : PyValue();
    SourceRange R = A ? A->Range : SourceRange{};
    if (const PyValue *FromConfig = Config ? pybuiltins::kwarg(Config->Kwargs, P.Name.c_str()) : nullptr) {
      V = *FromConfig; // the autotuner's value wins over the call's
      R = {};
    }
    if (!A && V.isUnknown() && std::count(Fn.HeuristicNames.begin(), Fn.HeuristicNames.end(), P.Name)) {
      if (!TypesOnly)
        AssumeParam(P, {}, nullptr);
      continue;
    }
    if (V.isDescriptor()) {
      if (std::optional<launch::ConcreteTensor> C =
              hostDescriptor(P.Name, V.asDescriptor(), Where, TypesOnly, Plan, Unassumable))
        L.Tensors.push_back(std::move(*C));
      continue;
    }
    if (V.isTensor()) {
      const PyTensor &T = V.asTensor();
      if (T.DType.empty()) {
        if (!TypesOnly)
          AssumeParam(P, R, &T);
        continue;
      }
      L.Tensors.push_back(concreteTensor(P.Name, T));
      std::string Shape;
      for (size_t I = 0; I < T.Shape.size(); ++I)
        Shape += (I ? ", " : "") + std::to_string(T.Shape[I]);
      Plan.Assumptions.push_back(P.Name + "=" + T.DType + "[" + Shape + "] from " +
                                 (T.Origin.empty() ? "the host code" : T.Origin) + " in " + Where);
      continue;
    }
    if (std::optional<launch::ConcreteValue> C = concreteNumber(P.Name, V)) {
      L.Values.push_back(*C);
      continue;
    }
    if ((IsConstexpr || V.isNone()) && V.isKnown()) {
      OtherConstexprs[P.Name] = V; // strings, None, dtypes: constexprs the spec language cannot spell
      continue;
    }
    if (!TypesOnly)
      AssumeParam(P, R, nullptr);
  }
  // Heuristics' names that are no parameters.
  for (const std::string &Name : Fn.HeuristicNames)
    if (!TypesOnly && !paramNamed(Fn, Name) && !L.value(Name)) {
      const AssumedValue &A = Assumed().Constexprs[Name];
      if (std::optional<launch::ConcreteValue> C = concreteNumber(Name, A.Value)) {
        L.Values.push_back(*C);
        Plan.MadeUp.insert(Name);
        Plan.Assumptions.push_back(Name + "=" + A.Value.repr() + " assumed: " + A.Why);
        Plan.Representative = true;
      }
    }
  auto Option = [&](const char *Name, int64_t &Slot) {
    for (const auto &[K, V] : H.Options)
      if (K == Name) {
        if (V.isIntLike())
          Slot = V.asInt();
        else if (!TypesOnly) {
          Plan.MadeUp.insert(Name);
          Plan.Assumptions.push_back(std::string(Name) + "=" + std::to_string(Slot) +
                                     " assumed: Triton's default (the host code computes it from values tessel "
                                     "cannot know)");
        }
      }
  };
  Option("num_warps", L.NumWarps);
  Option("num_stages", L.NumStages);
  Option("num_ctas", L.NumCtas);
  if (Config) {
    L.NumWarps = Config->NumWarps;
    L.NumStages = Config->NumStages;
    L.NumCtas = Config->NumCtas;
    Plan.Assumptions.push_back("autotune config " + std::to_string(ConfigIndex) + ": " +
                               PyValue::config(*Config).repr());
  }
  if (!Unassumable.empty() && !TypesOnly) {
    std::string List;
    for (size_t I = 0; I < Unassumable.size(); ++I)
      List += (I == 0 ? "" : I + 1 == Unassumable.size() ? " and " : ", ") + Unassumable[I];
    Plan.Problems.push_back(Problem{ProblemKind::LaunchSpec,
                                    H.Range,
                                    "cannot run " + Where + ": no value can be assumed for " + List +
                                        "; give the kernel a `# tessel: launch` directive or pass --spec",
                                    {},
                                    {},
                                    {}});
    return;
  }
  for (size_t I = 0; I < H.Grid.size() && I < 3; ++I)
    L.Grid[I] = H.Grid[I];
  if (H.Grid.empty()) {
    Plan.MadeUp.insert("grid");
    Plan.Assumptions.push_back("grid=(1, 1, 1) assumed (the host code computes it from values tessel cannot know)");
  } else
    Plan.Assumptions.push_back("grid=(" + std::to_string(L.Grid[0]) + ", " + std::to_string(L.Grid[1]) + ", " +
                               std::to_string(L.Grid[2]) + ") from " + Where);
  launch::addDescriptorValues(L);
  LoweringRequest Request = loweringRequestFor(Fn, Info, L);
  for (auto &[Name, V] : OtherConstexprs)
    Request.Constexprs[Name] = V;
  Plan.Launches.push_back({std::move(L), std::move(Request)});
}

static bool planFromHost(const JitFunction &Fn, const ModuleInfo &Info, const ParsedFile &File, size_t ConfigIndex,
                         const std::map<std::string, HostLaunch> *Known, bool FromWrappers, project::Project *Project,
                         int64_t Size, const ParamUse &Use, LaunchPlan &Plan) {
  const PyConfig *Config = ConfigIndex < Fn.Configs.size() ? &Fn.Configs[ConfigIndex].Config : nullptr;
  std::vector<HostLaunch> Found;
  // The host code reaches the same launches whatever config a grid is then
  // evaluated under; only a config's META needs the launch evaluated again.
  auto It = Known ? Known->find(Fn.Name) : std::map<std::string, HostLaunch>::const_iterator();
  if (Known && It != Known->end() && !Config)
    Found.push_back(It->second);
  else if (!Known || It != Known->end())
    Found = findHostLaunches(File, Info, Fn, Config ? *Config : PyConfig{});
  if (Found.empty() && FromWrappers)
    if (std::optional<HostLaunch> W =
            host::wrapperLaunch(File, Info, Project, Fn.Name, Config ? *Config : PyConfig{}, Size))
      Found.push_back(std::move(*W));
  if (Found.empty() || !Found.front().BindError.empty())
    return false;
  planHostLaunch(Fn, Info, File, Found.front(), Config, ConfigIndex, /*TypesOnly=*/false, Size, &Use, Plan);
  return true;
}

/// A function or lambda value: sema's reuse keys cannot hold one.
static bool holdsFunction(const PyValue &V) {
  return V.kind() == PyValue::Kind::Function || V.kind() == PyValue::Kind::Lambda;
}

/// The types every launch agrees on.
static std::map<std::string, ElemType> agreedTypes(const std::vector<PlannedLaunch> &Launches) {
  std::map<std::string, ElemType> Out;
  std::set<std::string> Disputed;
  for (const PlannedLaunch &L : Launches)
    for (const auto &[Name, T] : L.Request.ArgTypes) {
      if (L.Request.DescriptorBlocks.count(Name))
        continue; // the front tier reads a descriptor as a parameter of unknown kind
      auto [It, New] = Out.emplace(Name, T);
      if (!New && !(It->second == T))
        Disputed.insert(Name);
    }
  for (const std::string &D : Disputed)
    Out.erase(D);
  for (auto It = Out.begin(); It != Out.end();)
    It = It->second.Scalar == ScalarKind::Unknown ? Out.erase(It) : std::next(It);
  return Out;
}

LaunchFacts launchFacts(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Fn,
                        const std::vector<launch::LaunchDirective> &Directives, const HostLaunch *Host) {
  LaunchFacts Out;
  if (!Fn.Def)
    return Out;
  std::vector<launch::ParsedLaunchSpec> Specs = directivesFor(Fn, File, Info, Directives);
  LaunchPlan Plan;
  if (!Specs.empty()) {
    FileFacts Facts = fileFacts(Fn, Info, 0);
    for (launch::ParsedLaunchSpec &P : Specs) {
      if (!P.Problems.empty())
        return Out;
      std::vector<std::string> Unused;
      completeSpec(P.Spec, Facts, Unused);
      ProblemSink Sink;
      for (launch::ConcreteLaunch &L : launch::instantiate(P.Spec, Sink))
        Plan.Launches.push_back(planned(Fn, Info, Facts, std::move(L)));
    }
  } else if (Host && Host->BindError.empty()) {
    // No autotune config here: the check's specializations bring their own,
    // and they win over the call's values as at a real launch.
    planHostLaunch(Fn, Info, File, *Host, nullptr, 0, /*TypesOnly=*/true, 1024, nullptr, Plan);
    for (const PlannedLaunch &L : Plan.Launches)
      for (const auto &[Name, V] : L.Request.Constexprs)
        if (V.isKnown() && !holdsFunction(V))
          Out.Constexprs.emplace(Name, V);
  }
  Out.ArgTypes = agreedTypes(Plan.Launches);
  return Out;
}

static LaunchPlan planUnchecked(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                const LaunchPlanOptions &Opts);

/// A kernel that uses a parameter as a tensor descriptor (`desc.load([m,
/// k])`) lowers only where each launch passes one with a known block shape:
/// a host TensorDescriptor, or a spec's `desc=fp16[M, K]:desc(BM, BK)`.
static void requireDescriptors(const JitFunction &Fn, const ModuleInfo &Info, LaunchPlan &Plan) {
  if (!Plan.Error.empty() || Plan.Launches.empty())
    return;
  std::set<std::string> Missing;
  for (const std::string &D : inferParamKinds(*Fn.Def, Info).Descriptors)
    for (const PlannedLaunch &L : Plan.Launches)
      if (auto C = L.Request.Constexprs.find(D);
          !L.Request.DescriptorBlocks.count(D) && !(C != L.Request.Constexprs.end() && C->second.isNone()))
        Missing.insert(D);
  if (Missing.empty())
    return;
  std::string List;
  for (const std::string &D : Missing)
    List += (List.empty() ? "`" : ", `") + D + "`";
  Plan.Error = "kernel '" + Plan.Kernel + "' uses " + List +
               " as tensor descriptors, but no launch tessel can see passes one with a known block shape: give the "
               "kernel a `# tessel: launch` directive that declares each, as in `" +
               *Missing.begin() + "=fp16[M, K]:desc(BLOCK_M, BLOCK_K)`";
  Plan.Launches.clear();
}

static LaunchPlan planUnsettled(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                const LaunchPlanOptions &Opts) {
  LaunchPlan Plan = planUnchecked(File, Info, Kernel, Opts);
  if (const JitFunction *Fn = Info.jit(Plan.Kernel); Fn && Fn->Def)
    requireDescriptors(*Fn, Info, Plan);
  return Plan;
}

static LaunchPlan planUnchecked(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                const LaunchPlanOptions &Opts) {
  LaunchPlan Plan;
  Plan.Kernel = std::string(Kernel);
  const JitFunction *Fn = Info.jit(Plan.Kernel);
  if (!Fn || !Fn->Def) {
    std::string Known;
    for (const std::string &Name : Info.Order) {
      const JitFunction &J = Info.Jit.at(Name);
      if (J.IsKernel && J.Def)
        Known += (Known.empty() ? "" : ", ") + Name;
    }
    Plan.Error = "no @triton.jit kernel named '" + Plan.Kernel + "'" +
                 (Known.empty() ? " (the file defines none)" : "; the file defines " + Known);
    return Plan;
  }
  if (Opts.Config && *Opts.Config >= Fn->Configs.size()) {
    Plan.Error = Fn->Configs.empty() ? "kernel '" + Plan.Kernel + "' has no autotune configs, so --config " +
                                           std::to_string(*Opts.Config) + " names none"
                                     : "kernel '" + Plan.Kernel + "' has " + std::to_string(Fn->Configs.size()) +
                                           " autotune configs (0 to " + std::to_string(Fn->Configs.size() - 1) +
                                           "), not " + std::to_string(*Opts.Config);
    return Plan;
  }
  FileFacts Facts = fileFacts(*Fn, Info, Opts.Config.value_or(0));

  std::vector<launch::ParsedLaunchSpec> Specs;
  if (Opts.SpecText) {
    Plan.Origin = SpecOrigin::CommandLine;
    Specs.push_back(launch::parseLaunchSpec(*Opts.SpecText, 0));
  } else {
    Specs = directivesFor(*Fn, File, Info, Opts.Directives ? *Opts.Directives : File.launchDirectives());
    Plan.Origin = Specs.empty() ? SpecOrigin::Derived : SpecOrigin::Directive;
  }

  if (Plan.Origin == SpecOrigin::Derived && !Fn->IsKernel) {
    // A helper's arguments are tiles its callers build: nothing in the file says how to launch it.
    Plan.Error = "'" + Plan.Kernel +
                 "' is a @triton.jit helper called from other @jit functions, not a kernel "
                 "launched from the host; run the kernel that calls it, or give it a launch spec";
    return Plan;
  }
  ParamUse Use = paramUse(*Fn->Def, Info);
  if (Plan.Origin == SpecOrigin::Derived &&
      planFromHost(*Fn, Info, File, Opts.Config.value_or(0), Opts.HostLaunches, Opts.FromWrappers,
                   Opts.Settle ? Opts.Settle->Project : nullptr, Opts.DefaultSize, Use, Plan)) {
    Plan.Origin = SpecOrigin::HostCode;
    return Plan;
  }
  if (Plan.Origin == SpecOrigin::Derived) {
    std::vector<std::string> Guessed;
    ImportedDefs Imported = importedDefs(Opts.Settle ? Opts.Settle->Project : nullptr, File, Info);
    assumeConstexprs(*Fn, Info, Use, Opts.DefaultSize, Imported, Facts, Plan);
    std::map<std::string, std::vector<int64_t>> Blocks;
    if (size_t C = Opts.Config.value_or(0); C < Fn->Configs.size()) {
      PyDict Known;
      for (const auto &[Name, Fixed] : Facts.Values)
        Known.emplace_back(PyValue::string(Name), Fixed.Value);
      Blocks = host::preHookBlockShapes(File, Info, Fn->Configs[C].Config, Use.Kinds.DescriptorRanks, Known);
    }
    // A descriptor no pre_hook sizes that the kernel compares with None
    // (`if a_desc is not None:`, vllm's LoRA kernels) takes None.
    std::set<std::string> Unsized;
    for (const std::string &D : Use.Kinds.Descriptors)
      if (!Blocks.count(D) && !Facts.Values.count(D))
        Unsized.insert(D);
    if (!Unsized.empty())
      for (const auto &[Name, A] : representativeConstexprs(*Fn, Info, Unsized, Imported))
        if (Unsized.count(Name) && A.Value.isNone())
          Facts.Values[Name] = {A.Value, A.Why, true};
    launch::LaunchSpec Spec = deriveSpec(*Fn, Info, Use, Opts.DefaultSize, Guessed, Plan, Imported, Blocks);
    completeSpec(Spec, Facts, Plan.Assumptions);
    for (std::string &G : Guessed)
      Plan.Assumptions.push_back(std::move(G) + " (no launch spec)");
    if (!Plan.Problems.empty())
      return Plan;
    ProblemSink Sink;
    for (launch::ConcreteLaunch &L : launch::instantiate(Spec, Sink))
      Plan.Launches.push_back(planned(*Fn, Info, Facts, std::move(L)));
    for (Problem &P : Sink.take())
      Plan.Problems.push_back(std::move(P));
    return Plan;
  }

  for (launch::ParsedLaunchSpec &P : Specs) {
    if (!P.Problems.empty()) {
      for (Problem &Pr : P.Problems)
        Plan.Problems.push_back(std::move(Pr));
      continue;
    }
    if (Plan.Origin == SpecOrigin::CommandLine && !P.Spec.Kernel.empty() && P.Spec.Kernel != Plan.Kernel) {
      Plan.Problems.push_back(Problem{ProblemKind::LaunchSpec,
                                      P.Spec.Range,
                                      "the spec is for kernel '" + P.Spec.Kernel + "', not '" + Plan.Kernel + "'",
                                      {},
                                      {},
                                      {}});
      continue;
    }
    std::vector<std::string> Added;
    completeSpec(P.Spec, Facts, Added);
    for (std::string &A : Added)
      if (std::find(Plan.Assumptions.begin(), Plan.Assumptions.end(), A) == Plan.Assumptions.end())
        Plan.Assumptions.push_back(std::move(A));
    ProblemSink Sink;
    for (launch::ConcreteLaunch &L : launch::instantiate(P.Spec, Sink))
      Plan.Launches.push_back(planned(*Fn, Info, Facts, std::move(L)));
    for (Problem &Pr : Sink.take())
      Plan.Problems.push_back(std::move(Pr));
  }
  return Plan;
}

void replaceMadeUpLaunch(LaunchPlan &Derived, const std::string &Why) {
  Derived.Assumptions.insert(Derived.Assumptions.begin(), "not the launch of the host wrapper at tessel's made-up "
                                                          "sizes (" +
                                                              Why + "): the file's own values and representative ones");
}

/// The most elements one value of L holds.
static int64_t largestTile(const LoweredKernel &L) {
  int64_t Largest = 1;
  std::function<void(const ir::Block &)> Walk = [&](const ir::Block &B) {
    for (const auto &O : B.ops()) {
      for (const ir::Value *R : O->results())
        Largest = std::max(Largest, R->type().numel().value_or(1));
      for (const auto &Region : O->regions())
        Walk(*Region);
    }
  };
  Walk(L.Function->body());
  return Largest;
}

LaunchPlan planLaunch(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                      const LaunchPlanOptions &Opts) {
  LaunchPlan Plan = planUnsettled(File, Info, Kernel, Opts);
  if (Opts.Settle && !Plan.GuessedTypes.empty() && !Plan.Launches.empty() && Plan.Problems.empty())
    settleGuessedTypes(File, Info, *Opts.Settle, Plan);
  if (Opts.Settle && !Plan.AssumedConstexprs.empty() && !Plan.Launches.empty() && Plan.Problems.empty())
    settleAssumedConstexprs(File, Info, *Opts.Settle, Plan);
  if (!Opts.Settle || Plan.Launches.empty() || !Plan.Problems.empty())
    return Plan;
  // Where the plan is for compiling, its first launch is lowered once here:
  // what the lowering assumed belongs with the plan's other assumptions.
  LoweredKernel L = lowerKernel(File, Info, Plan.Launches.front().Request, *Opts.Settle);
  for (std::string &A : L.Assumptions)
    if (std::find(Plan.Assumptions.begin(), Plan.Assumptions.end(), A) == Plan.Assumptions.end())
      Plan.Assumptions.push_back(std::move(A));
  if (Plan.FromMadeUpCall) {
    // Sizes tessel made up can make a wrapper build blocks no real launch
    // has (a block of a whole 1024 x 1024 tensor, a 1024-wide head): such a
    // launch says nothing of the kernel, and compiling it takes minutes.
    std::optional<int64_t> Tile = L.Function ? std::optional<int64_t>(largestTile(L)) : std::nullopt;
    if (!Tile || *Tile > MaxMadeUpTile) {
      LaunchPlanOptions Own = Opts;
      Own.FromWrappers = false;
      LaunchPlan Derived = planLaunch(File, Info, Kernel, Own);
      std::string Why = "it does not lower there";
      if (!Tile && !L.Problems.empty())
        Why += ": " + L.Problems.front().Message.substr(0, L.Problems.front().Message.find('\n'));
      replaceMadeUpLaunch(Derived, Tile ? "it builds a tile of " + std::to_string(*Tile) + " elements there" : Why);
      return Derived;
    }
  }
  return Plan;
}

/// Parameters Triton does not specialize on value (`do_not_specialize`,
/// given by name or by position).
static std::set<std::string> notSpecialized(const JitFunction &Fn) {
  std::set<std::string> Out;
  for (const auto &[Key, V] : Fn.JitOptions) {
    if (Key != "do_not_specialize" || !V.isSequence())
      continue;
    for (const PyValue &E : V.elements()) {
      if (E.isStr())
        Out.insert(E.asStr());
      else if (E.isInt() && E.asInt() >= 0 && static_cast<size_t>(E.asInt()) < Fn.Def->Params.size())
        Out.insert(Fn.Def->Params[static_cast<size_t>(E.asInt())].Name);
    }
  }
  return Out;
}

/// Triton's type of an integer argument: i32 when it fits, else i64 (u64
/// above i64's range, which an int64_t cannot hold).
static ScalarKind intArgKind(int64_t V) {
  return V >= std::numeric_limits<int32_t>::min() && V <= std::numeric_limits<int32_t>::max() ? ScalarKind::I32
                                                                                              : ScalarKind::I64;
}

LoweringRequest loweringRequestFor(const JitFunction &Fn, const ModuleInfo &Info, const launch::ConcreteLaunch &L) {
  LoweringRequest R;
  R.Kernel = Fn.Name;
  R.NumWarps = L.NumWarps;
  R.NumStages = L.NumStages;
  std::set<std::string> Plain = notSpecialized(Fn);
  // A parameter named like a launch option (the tutorial softmax's
  // `num_stages: tl.constexpr`) takes the option's value where the spec
  // gives no separate one: `num_stages=4` in a spec sets both, as the
  // keyword does at a Triton launch.
  std::vector<launch::ConcreteValue> Shadows;
  for (const ast::Param &P : Fn.Def->Params) {
    std::optional<int64_t> Option = P.Name == "num_warps"    ? std::optional<int64_t>(L.NumWarps)
                                    : P.Name == "num_stages" ? std::optional<int64_t>(L.NumStages)
                                    : P.Name == "num_ctas"   ? std::optional<int64_t>(L.NumCtas)
                                                             : std::nullopt;
    if (Option && !L.value(P.Name))
      Shadows.push_back({P.Name, false, false, *Option, 0, false, {}});
  }
  auto ValueOf = [&](const std::string &Name) -> const launch::ConcreteValue * {
    if (const launch::ConcreteValue *V = L.value(Name))
      return V;
    for (const launch::ConcreteValue &V : Shadows)
      if (V.Name == Name)
        return &V;
    return nullptr;
  };
  for (const ast::Param &P : Fn.Def->Params) {
    if (isConstexprAnnotation(Info, P.Annotation)) {
      if (const launch::ConcreteValue *V = ValueOf(P.Name))
        R.Constexprs[P.Name] = toPyValue(*V);
      continue;
    }
    bool IsTensor = false;
    for (const launch::ConcreteTensor &T : L.Tensors) {
      if (T.Name != P.Name)
        continue;
      std::optional<ScalarKind> K = ir::scalarFromName(T.DType);
      R.ArgTypes[P.Name] = ElemType{K.value_or(ScalarKind::Unknown), 1};
      if (!T.DescBlock.empty())
        R.DescriptorBlocks[P.Name] = T.DescBlock;
      IsTensor = true;
    }
    if (IsTensor)
      continue;
    const launch::ConcreteValue *V = ValueOf(P.Name);
    if (!V || V->IsStr)
      continue;
    if (V->IsBool) {
      R.ArgTypes[P.Name] = ElemType{ScalarKind::I1};
    } else if (V->IsFloat) {
      R.ArgTypes[P.Name] = ElemType{ScalarKind::FP32};
    } else {
      R.ArgTypes[P.Name] = ElemType{intArgKind(V->Int)};
      if (V->Int == 1 && !Plain.count(P.Name))
        R.EqualToOne.insert(P.Name);
      else if (V->Int % 16 == 0 && !Plain.count(P.Name))
        R.DivisibleBy16.insert(P.Name);
    }
  }
  // Heuristics set constexprs that are not always parameters the spec names.
  for (const std::string &H : Fn.HeuristicNames)
    if (const launch::ConcreteValue *V = L.value(H))
      R.Constexprs[H] = toPyValue(*V);
  return R;
}

} // namespace tessel::sema
