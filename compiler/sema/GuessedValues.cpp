//===- GuessedValues.cpp - settle the constexpr values a plan assumed -----===//
/// \file
/// The search of GuessedValues.h: greedy, one constexpr at a time, keeping
/// a value when the kernel's first error moves later or goes away.
//===----------------------------------------------------------------------===//
#include "compiler/sema/GuessedValues.h"

#include "compiler/sema/LoweringReach.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace tessel::sema {

namespace {

/// The values tried, the sizes real kernels use first: 1 (a GEMV's one
/// row, a flag-like count), then the powers of two of blocks, then 0 (an
/// additive term such as an overlap).
constexpr std::array<int64_t, 12> Candidates = {1, 16, 32, 64, 128, 256, 2, 4, 8, 0, 512, 1024};

/// L with constexpr Name set to V, its request rebuilt as the plan built it.
PlannedLaunch revalued(const JitFunction &Fn, const ModuleInfo &Info, const PlannedLaunch &L, const std::string &Name,
                       int64_t V) {
  PlannedLaunch Out = L;
  for (launch::ConcreteValue &C : Out.Launch.Values)
    if (C.Name == Name)
      C.Int = V;
  Out.Request = loweringRequestFor(Fn, Info, Out.Launch);
  // What the plan added beyond the launch's values stays.
  for (const auto &[Key, Value] : L.Request.Constexprs)
    Out.Request.Constexprs.emplace(Key, Value);
  return Out;
}

} // namespace

void settleAssumedConstexprs(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts,
                             LaunchPlan &Plan) {
  const JitFunction *Fn = Info.jit(Plan.Kernel);
  if (!Fn || !Fn->Def || Plan.Launches.empty())
    return;
  // Only integers the plan assumed, as the launch holds them.
  std::vector<std::string> Names;
  for (const std::string &Name : Plan.AssumedConstexprs)
    if (const launch::ConcreteValue *V = Plan.Launches.front().Launch.value(Name);
        V && !V->IsFloat && !V->IsBool && !V->IsStr)
      Names.push_back(Name);
  if (Names.empty())
    return;
  AnalyzeOptions AO = Opts;
  AO.RecordValueFacts = false;
  PlannedLaunch Best = Plan.Launches.front();
  Outcome Reached = lowerUnder(File, Info, AO, Best.Request);
  if (Reached.Typed)
    return;
  const std::string FirstFailure = Reached.FirstMessage;
  std::map<std::string, std::pair<int64_t, int64_t>> Changed; // name -> (assumed, settled)
  int Budget = 64;
  // First improvement, then the names are ordered again for the error the
  // kernel now stops at: each static assert or size check usually needs
  // one constexpr, and the next check another.
  for (bool Improved = true; Improved && !Reached.Lowered && Budget > 0;) {
    Improved = false;
    // The constexprs written where the kernel fails first are tried first
    // (`tl.arange(0, (1 + OVERLAP) * RATIO)`): the budget goes to them.
    std::string_view At = Reached.FirstRange ? File.text().slice(*Reached.FirstRange) : std::string_view();
    auto Written = [&](const std::string &Name) {
      for (size_t P = At.find(Name); P != std::string_view::npos; P = At.find(Name, P + 1)) {
        auto Ident = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
        if ((P == 0 || !Ident(At[P - 1])) && (P + Name.size() == At.size() || !Ident(At[P + Name.size()])))
          return true;
      }
      return false;
    };
    std::stable_partition(Names.begin(), Names.end(), Written);
    for (const std::string &Name : Names) {
      int64_t Now = Best.Launch.value(Name)->Int;
      for (int64_t V : Candidates) {
        if (V == Now)
          continue;
        if (Budget-- <= 0)
          break;
        PlannedLaunch Trial = revalued(*Fn, Info, Best, Name, V);
        Outcome O = lowerUnder(File, Info, AO, Trial.Request);
        if (O.Lowered != Reached.Lowered ? !O.Lowered : !further(O, Reached))
          continue;
        auto [It, New] = Changed.try_emplace(Name, Now, V);
        if (!New)
          It->second.second = V;
        Best = std::move(Trial);
        Reached = std::move(O);
        Improved = true;
        break;
      }
      if (Improved)
        break;
    }
  }
  // Only values under which the kernel compiles: a value that trades
  // Triton's error for a limit of tessel's (no branch binds a name) says
  // nothing of the kernel.
  if (!Reached.Lowered)
    return;
  for (const auto &[Name, Values] : Changed) {
    if (Values.first == Values.second)
      continue;
    for (PlannedLaunch &L : Plan.Launches)
      L = revalued(*Fn, Info, L, Name, Values.second);
    for (std::string &A : Plan.Assumptions)
      if (A.compare(0, Name.size() + 1, Name + "=") == 0) {
        size_t Why = A.find(" assumed: ");
        A = Name + "=" + std::to_string(Values.second) +
            " assumed: " + (Why == std::string::npos ? std::string() : A.substr(Why + 10) + "; ") +
            "the kernel does not compile with " + std::to_string(Values.first) + " (" + FirstFailure + ")";
      }
  }
}

} // namespace tessel::sema
