//===- Specializations.cpp - the ways a file launches a kernel ------------===//
#include "compiler/sema/Specializations.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace tessel::sema {

namespace {
/// What one source (a config, a launch site) contributes.
struct Source {
  std::vector<std::pair<std::string, PyValue>> Values;
  std::optional<int64_t> NumWarps, NumStages;
  SourceRange Range;
};
} // namespace

static bool isParam(const JitFunction &Fn, const std::string &Name) {
  for (const ast::Param &P : Fn.Def->Params)
    if (P.Name == Name)
      return true;
  return false;
}

/// A value a launch or a config gives a parameter: an imported name tessel
/// did not resolve (`BLOCK=MAX_FUSED_SIZE` from `.utils`) is a qualified
/// path outside triton, whose value is unknown, not the path itself.
static PyValue argumentValue(const PyValue &V) {
  if (V.kind() == PyValue::Kind::Qualified && V.qualifiedPath().rfind("triton.", 0) != 0)
    return PyValue();
  return V;
}

static void takeOption(Source &S, const std::string &Name, const PyValue &V) {
  if (!V.isIntLike())
    return;
  if (Name == "num_warps")
    S.NumWarps = V.asInt();
  else if (Name == "num_stages")
    S.NumStages = V.asInt();
}

static Source fromConfig(const JitFunction &Fn, const AutotuneConfig &C) {
  Source S;
  S.Range = C.Range;
  for (const auto &[K, V] : C.Config.Kwargs)
    if (K.isStr() && isParam(Fn, K.asStr()))
      S.Values.emplace_back(K.asStr(), argumentValue(V));
  S.NumWarps = C.Config.NumWarps;
  S.NumStages = C.Config.NumStages;
  return S;
}

static Source fromLaunch(const JitFunction &Fn, const LaunchSite &L) {
  Source S;
  S.Range = L.Range;
  for (const auto &[K, V] : L.Keywords) {
    takeOption(S, K, V);
    if (isParam(Fn, K) && V.isKnown())
      S.Values.emplace_back(K, argumentValue(V));
  }
  return S;
}

static std::string describe(const Specialization &S, bool Options) {
  std::string D;
  for (const auto &[K, V] : S.Constexprs) {
    if (V.isUnknown())
      continue;
    D += (D.empty() ? "" : ", ") + K + "=" + V.repr();
  }
  if (Options)
    D += (D.empty() ? "" : ", ") + std::string("num_warps=") + std::to_string(S.NumWarps) +
         ", num_stages=" + std::to_string(S.NumStages);
  return D;
}

std::vector<Specialization> specializationsOf(const JitFunction &Fn, size_t Max) {
  std::vector<Source> Configs, Launches;
  for (const AutotuneConfig &C : Fn.Configs)
    Configs.push_back(fromConfig(Fn, C));
  for (const LaunchSite &L : Fn.Launches)
    Launches.push_back(fromLaunch(Fn, L));
  if (Configs.empty())
    Configs.emplace_back();
  if (Launches.empty())
    Launches.emplace_back();
  bool HasSources = !Fn.Configs.empty() || !Fn.Launches.empty();

  std::vector<Specialization> Out;
  std::set<std::string> Seen;
  for (const Source &C : Configs) {
    for (const Source &L : Launches) {
      Specialization S;
      for (const std::string &H : Fn.HeuristicNames)
        S.Constexprs[H] = PyValue();
      for (const auto &[K, V] : L.Values)
        S.Constexprs[K] = V;
      for (const auto &[K, V] : C.Values) // the autotuner's values win over the call's
        S.Constexprs[K] = V;
      S.NumWarps = C.NumWarps.value_or(L.NumWarps.value_or(4));
      S.NumStages = C.NumStages.value_or(L.NumStages.value_or(3));
      S.Source = !C.Range.empty() ? C.Range : L.Range;
      S.Description = HasSources ? describe(S, true) : std::string();
      std::string Key = describe(S, true);
      if (!Seen.insert(Key).second)
        continue;
      Out.push_back(std::move(S));
      if (Out.size() >= Max)
        return Out;
    }
  }
  return Out;
}

} // namespace tessel::sema
