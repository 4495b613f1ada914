//===- BoundsCache.cpp - bounds verdicts reused per kernel ----------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A map from a kernel's input key to its verdicts and the file they were
/// computed on (kept alive so that sema::Rebaser can compare segments),
/// evicted oldest-first beyond a fixed number of kernels.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/BoundsCache.h"

#include "compiler/frontend/LaunchSpec.h"
#include "compiler/sema/KernelReuse.h"

#include <deque>
#include <map>
#include <mutex>

namespace tessel::analysis {

namespace {

struct Entry {
  std::shared_ptr<const ParsedFile> File;
  sema::KernelInputs Inputs;
  KernelBounds Bounds;
};

struct Cache {
  std::mutex Lock;
  std::map<std::string, Entry> Entries;
  std::deque<std::string> Order;
  BoundsCacheStats Stats;
  static constexpr size_t Capacity = 512;
};

Cache &cache() {
  static Cache C;
  return C;
}

std::string keyOf(const ParsedFile &File, const sema::KernelRecord &R, const std::string &Directives,
                  const ProverOptions &Opts) {
  std::string Key = R.Kernel + '\0' + R.Inputs.Facts + '\0' + Directives + '\0' + std::to_string(Opts.QueryRlimit) +
                    '/' + std::to_string(Opts.NonlinearQueryRlimit) + '/' + std::to_string(Opts.KernelRlimit);
  for (const SourceRange &S : R.Inputs.Segments) {
    Key += '\0';
    Key += File.text().slice(S);
  }
  return Key;
}

bool rebase(const sema::Rebaser &Move, KernelBounds &K) {
  if (!Move.rebase(K.NameRange))
    return false;
  for (AccessBounds &A : K.Accesses)
    if (!Move.rebase(A.Range))
      return false;
  return true;
}

} // namespace

std::vector<KernelBounds> proveFileCached(const sema::FileAnalysis &FA, const ProverOptions &Opts) {
  std::vector<KernelBounds> Out;
  if (!FA.File)
    return Out;
  const ParsedFile &File = *FA.File;
  std::string Directives;
  for (const launch::LaunchDirective &D : launch::findLaunchDirectives(File.text().text())) {
    Directives += File.text().slice(D.Range);
    Directives += '\n';
  }
  Cache &C = cache();
  for (const sema::KernelRecord &R : FA.Records) {
    const JitFunction *J = FA.Info.jit(R.Kernel);
    if (!J || !J->IsKernel || !J->Def)
      continue;
    std::string Key = keyOf(File, R, Directives, Opts);
    if (R.Inputs.Reusable) {
      std::lock_guard<std::mutex> G(C.Lock);
      auto It = C.Entries.find(Key);
      if (It != C.Entries.end()) {
        std::optional<sema::Rebaser> Move = sema::Rebaser::match(*It->second.File, It->second.Inputs, File, R.Inputs);
        KernelBounds K = It->second.Bounds;
        if (Move && rebase(*Move, K)) {
          ++C.Stats.Hits;
          Out.push_back(std::move(K));
          continue;
        }
      }
    }
    KernelBounds K = proveKernel(File, FA.Info, R.Kernel, Opts);
    std::lock_guard<std::mutex> G(C.Lock);
    ++C.Stats.Misses;
    // Limits are resource units, so a kernel they cut short is cut short the same way next time: kept too.
    if (R.Inputs.Reusable && !C.Entries.count(Key)) {
      C.Entries.emplace(Key, Entry{FA.File, R.Inputs, K});
      C.Order.push_back(Key);
      while (C.Order.size() > Cache::Capacity) {
        C.Entries.erase(C.Order.front());
        C.Order.pop_front();
      }
    }
    Out.push_back(std::move(K));
  }
  return Out;
}

BoundsCacheStats boundsCacheStats() {
  std::lock_guard<std::mutex> G(cache().Lock);
  return cache().Stats;
}

void clearBoundsCache() {
  Cache &C = cache();
  std::lock_guard<std::mutex> G(C.Lock);
  C.Entries.clear();
  C.Order.clear();
  C.Stats = {};
}

} // namespace tessel::analysis
