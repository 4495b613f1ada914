//===- GuessedTypes.cpp - settle the argument types a plan guessed -------===//
/// \file
/// The search of GuessedTypes.h. Only Triton's type rules decide: a lowering
/// limit of tessel's ("not supported by tessel's lowering yet") is no type
/// error, and no change of types is tried for it.
//===----------------------------------------------------------------------===//
#include "compiler/sema/GuessedTypes.h"
#include "compiler/sema/LoweringReach.h"

#include "compiler/ir/TypeUtils.h"

#include <array>
#include <vector>

namespace tessel::sema {

namespace {

/// The types worth trying for a guessed pointer: the element types real
/// kernels' tensors have, the common ones first (a tie keeps the earlier);
/// last, an integer: a parameter that is a pointer under one
/// specialization and a count under another (`if USE_COUNTS:
/// tl.load(counts + i) else: ... < counts`).
/// int16 and uint8 for mixed-precision and quantized kernels
/// (`tl.static_assert(b.dtype == tl.int16)`, packed int4 weights in bytes).
const std::array<ElemType, 9> PointerCandidates = {
    ElemType{ScalarKind::FP32, 1}, ElemType{ScalarKind::FP16, 1}, ElemType{ScalarKind::I32, 1},
    ElemType{ScalarKind::I64, 1},  ElemType{ScalarKind::BF16, 1}, ElemType{ScalarKind::I8, 1},
    ElemType{ScalarKind::I16, 1},  ElemType{ScalarKind::U8, 1},   ElemType{ScalarKind::I32, 0}};
const std::array<ElemType, 2> ScalarCandidates = {ElemType{ScalarKind::I32}, ElemType{ScalarKind::FP32}};

/// L with parameter Name of type To (a tensor of its element type, or a
/// number of its kind), its request rebuilt as the plan built it.
PlannedLaunch retyped(const JitFunction &Fn, const ModuleInfo &Info, const PlannedLaunch &L, const std::string &Name,
                      ElemType To, int64_t Size) {
  PlannedLaunch Out = L;
  ScalarKind K = To.Scalar;
  if (!To.isPointer())
    for (auto It = Out.Launch.Tensors.begin(); It != Out.Launch.Tensors.end(); ++It)
      if (It->Name == Name) {
        Out.Launch.Tensors.erase(It);
        launch::ConcreteValue V;
        V.Name = Name;
        V.Int = Size;
        Out.Launch.Values.push_back(V);
        break;
      }
  for (launch::ConcreteTensor &T : Out.Launch.Tensors)
    if (T.Name == Name)
      T.DType = std::string(ir::scalarName(K));
  for (launch::ConcreteValue &V : Out.Launch.Values)
    if (V.Name == Name && !V.IsStr) {
      bool Float = isFloat(K);
      if (Float && !V.IsFloat)
        V.Float = V.IsBool ? 0.5 : double(V.Int);
      else if (!Float && V.IsFloat)
        V.Int = Size;
      V.IsFloat = Float;
      V.IsBool = false;
    }
  Out.Request = loweringRequestFor(Fn, Info, Out.Launch);
  // What the plan added beyond the launch's values (constexprs it cannot
  // spell as numbers) does not depend on the types.
  for (const auto &[Key, V] : L.Request.Constexprs)
    Out.Request.Constexprs.emplace(Key, V);
  return Out;
}

std::string describeArg(const PlannedLaunch &L, const std::string &Name) {
  for (const launch::ConcreteTensor &T : L.Launch.Tensors)
    if (T.Name == Name) {
      std::string Dims;
      for (size_t I = 0; I < T.Shape.size(); ++I)
        Dims += (I ? ", " : "") + std::to_string(T.Shape[I]);
      return Name + "=" + T.DType + "[" + Dims + "]";
    }
  if (const launch::ConcreteValue *V = L.Launch.value(Name))
    return Name + "=" + (V->IsFloat ? PyValue::floating(V->Float).repr() : std::to_string(V->Int));
  return Name;
}

} // namespace

void settleGuessedTypes(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts, LaunchPlan &Plan) {
  const JitFunction *Fn = Info.jit(Plan.Kernel);
  if (!Fn || !Fn->Def)
    return;
  AnalyzeOptions AO = Opts;
  AO.RecordValueFacts = false;
  PlannedLaunch Best = Plan.Launches.front();
  Outcome Reached = lowerUnder(File, Info, AO, Best.Request);
  if (Reached.Typed)
    return;
  constexpr int64_t Size = 1024; // a scalar that becomes an integer: the plan's default size
  std::map<std::string, std::pair<ElemType, ElemType>> Changed; // name -> (guessed, settled)
  int Budget = 96;
  // Two loaded values meeting in one operation (`tl.cdiv(seq_len,
  // block_seq)`, `tl.dot(k, qT)`) move the error only together: every
  // pointer guessed fp32 becomes int32 (then fp16, then bf16: a half- or
  // bfloat16-precision model's tensors, as when the kernel casts its
  // probabilities `.to(tl.bfloat16)` for a dot with a loaded tile) at once,
  // and those the kernel then does not need so go back one by one.
  for (ScalarKind To : {ScalarKind::I32, ScalarKind::FP16, ScalarKind::BF16}) {
    if (Reached.Typed)
      break;
    PlannedLaunch Joint = Best;
    std::vector<std::string> Moved;
    for (const std::string &Name : Plan.GuessedTypes)
      if (auto Ty = Joint.Request.ArgTypes.find(Name);
          Ty != Joint.Request.ArgTypes.end() && Ty->second == ElemType{ScalarKind::FP32, 1}) {
        Joint = retyped(*Fn, Info, Joint, Name, ElemType{To, 1}, Size);
        Moved.push_back(Name);
      }
    if (Moved.size() < 2 || !lowerUnder(File, Info, AO, Joint.Request).Typed)
      continue;
    for (const std::string &Name : Moved) {
      PlannedLaunch Back = retyped(*Fn, Info, Joint, Name, ElemType{ScalarKind::FP32, 1}, Size);
      if (lowerUnder(File, Info, AO, Back.Request).Typed)
        Joint = std::move(Back);
      else
        Changed.emplace(Name, std::pair{ElemType{ScalarKind::FP32, 1}, ElemType{To, 1}});
    }
    Best = std::move(Joint);
    Reached.Typed = true;
  }
  for (bool Improved = true; Improved && !Reached.Typed && Budget > 0;) {
    Improved = false;
    for (const std::string &Name : Plan.GuessedTypes) {
      auto Ty = Best.Request.ArgTypes.find(Name);
      if (Ty == Best.Request.ArgTypes.end())
        continue;
      ElemType Now = Ty->second;
      bool Pointer = Now.isPointer();
      std::optional<std::pair<PlannedLaunch, Outcome>> Pick;
      auto Try = [&](ElemType K) {
        if (K == Now || Budget-- <= 0)
          return;
        PlannedLaunch Trial = retyped(*Fn, Info, Best, Name, K, Size);
        Outcome O = lowerUnder(File, Info, AO, Trial.Request);
        if (further(O, Pick ? Pick->second : Reached))
          Pick.emplace(std::move(Trial), O);
      };
      if (Pointer)
        for (ElemType K : PointerCandidates)
          Try(K);
      else
        for (ElemType K : ScalarCandidates)
          Try(K);
      if (!Pick)
        continue;
      ElemType To = Pick->first.Request.ArgTypes.at(Name);
      auto [It, New] = Changed.try_emplace(Name, Now, To);
      if (!New)
        It->second.second = To;
      Best = std::move(Pick->first);
      Reached = Pick->second;
      Improved = true;
      if (Reached.Typed)
        break;
    }
  }
  // A search that ends with a type error changes nothing: the kernel's
  // failure is then reported under the types the evidence chose.
  if (!Reached.Typed)
    return;
  for (const auto &[Name, Types] : Changed) {
    if (Types.first == Types.second)
      continue;
    for (PlannedLaunch &L : Plan.Launches)
      L = retyped(*Fn, Info, L, Name, Types.second, Size);
    auto Spell = [](ElemType T) {
      return std::string(T.isPointer() ? "" : "a scalar ") + std::string(ir::scalarName(T.Scalar));
    };
    std::string Text = describeArg(Plan.Launches.front(), Name) + " assumed: the kernel type-checks with " +
                       Spell(Types.second) + " here and not with " + Spell(Types.first);
    for (std::string &A : Plan.Assumptions)
      if (A.compare(0, Name.size() + 1, Name + "=") == 0) {
        const std::string Suffix = " (no launch spec)";
        bool Derived = A.size() >= Suffix.size() && A.compare(A.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
        A = Text + (Derived ? Suffix : "");
      }
  }
}

} // namespace tessel::sema
