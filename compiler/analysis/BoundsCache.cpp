//===- BoundsCache.cpp - bounds verdicts reused per kernel ----------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A map from a kernel's input key to its verdicts and the segments they
/// were computed on, evicted oldest-first beyond a fixed number of kernels.
/// The key holds the segments' texts, so an entry needs no file: one that
/// kept its ParsedFile alive pinned a 5 MB file's tree per version (issue 9:
/// memory kept after the file was closed), and 512 entries could not hold a
/// file of 13,000 kernels, so every keystroke re-proved most of them.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/BoundsCache.h"

#include "compiler/analysis/IsolatedProof.h"

#include "compiler/frontend/LaunchSpec.h"
#include "compiler/sema/KernelReuse.h"
#include "compiler/support/TextDigest.h"

#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace tessel::analysis {

namespace {

struct Entry {
  std::vector<SourceRange> Segments; ///< where the key's texts sat
  KernelBounds Bounds;
};

/// Keyed by the digest of the kernel's texts (keyOf): the texts themselves,
/// kept twice (map and order), were kilobytes an entry.
struct Cache {
  std::mutex Lock;
  std::map<TextDigest, Entry> Entries;
  std::deque<TextDigest> Order;
  BoundsCacheStats Stats;
  static constexpr size_t Capacity = 512;
};

Cache &cache() {
  static Cache C;
  return C;
}

std::string keyOf(const ParsedFile &File, const sema::KernelRecord &R, const std::string &Directives,
                  const ProverOptions &Opts) {
  std::string Key = R.Kernel + '\0' + R.Inputs.Facts.str() + '\0' + Directives + '\0' +
                    std::to_string(Opts.QueryRlimit) + '/' + std::to_string(Opts.NonlinearQueryRlimit) + '/' +
                    std::to_string(Opts.IntegerQueryRlimit) + '/' + std::to_string(Opts.KernelRlimit);
  for (const SourceRange &S : R.Inputs.Segments) {
    Key += '\0';
    Key += File.text().slice(S);
  }
  return Key;
}

std::string directivesText(const ParsedFile &File, const std::vector<launch::LaunchDirective> &Found) {
  std::string Out;
  for (const launch::LaunchDirective &D : Found) {
    Out += File.text().slice(D.Range);
    Out += '\n';
  }
  return Out;
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

FileProofs::FileProofs(const sema::FileAnalysis &FA, const ProverOptions &Opts) : FA(FA), Opts(Opts) {
  if (!FA.File)
    return;
  Found = FA.File->launchDirectives();
  Directives = directivesText(*FA.File, Found);
  // The uncalled wrappers' launches (computed once per host code's text)
  // are part of each kernel's key: a wrapper's edit re-proves its kernel.
  if (FA.Host)
    Wrappers = &FA.Host->symbolic(*FA.File, FA.Info);
}

std::string FileProofs::launchKey(const std::string &Kernel) const {
  if (!Wrappers)
    return {};
  auto It = Wrappers->find(Kernel);
  return It == Wrappers->end() ? std::string() : It->second.key();
}

bool FileProofs::isProvable(const sema::KernelRecord &R) const {
  // An uncalled helper has no launch of its own: its callers' proofs cover it.
  // R is one of FA's records, each a @jit kernel with a def.
  return FA.File && !R.Role.helper();
}

std::optional<KernelBounds> FileProofs::known(const sema::KernelRecord &R, const sema::FileAnalysis *Previous,
                                              const sema::KernelRecord *PreviousRecord,
                                              const KernelBounds *PreviousBounds) const {
  if (!isProvable(R))
    return std::nullopt;
  const ParsedFile &File = *FA.File;
  Cache &C = cache();
  std::string Wrapper = launchKey(R.Kernel);
  // A proof whose process failed is tried again, whatever changed.
  if (Previous && Previous->File && PreviousRecord && PreviousBounds && PreviousBounds->LaunchKey == Wrapper &&
      PreviousBounds->Failure.empty()) {
    // A record analyzeFile moved from PreviousRecord has its segments' texts.
    std::optional<sema::Rebaser> Move =
        R.MovedFromPrevious ? sema::Rebaser::matchMoved(*Previous->File, PreviousRecord->Inputs, File, R.Inputs)
                            : sema::Rebaser::match(*Previous->File, PreviousRecord->Inputs, File, R.Inputs);
    if (Move) {
      KernelBounds K = *PreviousBounds;
      if (rebase(*Move, K)) {
        std::lock_guard<std::mutex> G(C.Lock);
        ++C.Stats.PreviousHits;
        return K;
      }
    }
  }
  if (!R.Inputs.Reusable)
    return std::nullopt;
  TextDigest Key = textDigest(keyOf(File, R, Directives, Opts) + '\0' + Wrapper);
  std::lock_guard<std::mutex> G(C.Lock);
  auto It = C.Entries.find(Key);
  if (It == C.Entries.end())
    return std::nullopt;
  sema::KernelInputs Old;
  Old.Facts = R.Inputs.Facts;
  Old.Segments = It->second.Segments;
  std::optional<sema::Rebaser> Move = sema::Rebaser::matchKnownText(Old, File, R.Inputs);
  KernelBounds K = It->second.Bounds;
  if (!Move || !rebase(*Move, K))
    return std::nullopt;
  ++C.Stats.Hits;
  return K;
}

KernelBounds FileProofs::prove(const sema::KernelRecord &R) const {
  const ParsedFile &File = *FA.File;
  FileLaunches Shared{&Found, FA.Host ? &FA.Host->Launches : nullptr, Wrappers};
  KernelBounds K = Opts.Isolated ? proveKernelIsolated(File, FA.Info, R.Kernel, Opts, Shared)
                                 : proveKernel(File, FA.Info, R.Kernel, Opts, Shared);
  if (!K.Failure.empty())
    return K;
  // Only verdicts no syntax error touches may be moved to another file.
  bool Clean = sema::Rebaser::match(File, R.Inputs, File, R.Inputs).has_value();
  TextDigest Key = textDigest(keyOf(File, R, Directives, Opts) + '\0' + launchKey(R.Kernel));
  Cache &C = cache();
  std::lock_guard<std::mutex> G(C.Lock);
  ++C.Stats.Misses;
  // Limits are resource units, so a kernel they cut short is cut short the same way next time: kept too.
  if (Clean && !C.Entries.count(Key)) {
    C.Entries.emplace(Key, Entry{R.Inputs.Segments, K});
    C.Order.push_back(Key);
    while (C.Order.size() > Cache::Capacity) {
      C.Entries.erase(C.Order.front());
      C.Order.pop_front();
    }
  }
  return K;
}

std::vector<KernelBounds> proveFileCached(const sema::FileAnalysis &FA, const ProverOptions &Opts,
                                          const sema::FileAnalysis *Previous,
                                          const std::vector<KernelBounds> *PreviousBounds,
                                          std::vector<std::string> *Unproved,
                                          const std::vector<std::string> *PreviousUnproved) {
  std::vector<KernelBounds> Out;
  if (!FA.File)
    return Out;
  FileProofs Proofs(FA, Opts);
  // The previous version's verdicts hold only under the same directives
  // (every kernel's key includes them). Its records, verdicts and unproved
  // kernels are all in source order, so a cursor into each finds a kernel's
  // where the kernels kept their order; a name index (built on the first
  // miss) otherwise.
  bool SameDirectives = Previous && PreviousBounds && Previous->File &&
                        directivesText(*Previous->File, Previous->File->launchDirectives()) == Proofs.directives();
  const std::vector<sema::KernelRecord> Empty;
  const std::vector<sema::KernelRecord> &OldRecords = SameDirectives ? Previous->Records : Empty;
  const std::vector<KernelBounds> NoBounds;
  const std::vector<KernelBounds> &OldBounds = SameDirectives ? *PreviousBounds : NoBounds;
  std::unordered_map<std::string_view, const sema::KernelRecord *> RecordByName;
  std::unordered_map<std::string_view, const KernelBounds *> BoundsByName;
  std::unordered_set<std::string_view> UnprovedNames;
  size_t NextBounds = 0, NextUnproved = 0;
  auto PreviousOf = [&](size_t I,
                        const sema::KernelRecord &R) -> std::pair<const sema::KernelRecord *, const KernelBounds *> {
    if (OldRecords.empty())
      return {nullptr, nullptr};
    const sema::KernelRecord *PR = nullptr;
    if (I < OldRecords.size() && OldRecords[I].Kernel == R.Kernel) {
      PR = &OldRecords[I];
    } else {
      if (RecordByName.empty())
        for (const sema::KernelRecord &Old : OldRecords)
          RecordByName.emplace(Old.Kernel, &Old);
      if (auto It = RecordByName.find(R.Kernel); It != RecordByName.end())
        PR = It->second;
    }
    if (NextBounds < OldBounds.size() && OldBounds[NextBounds].Kernel == R.Kernel)
      return {PR, &OldBounds[NextBounds++]};
    if (BoundsByName.empty())
      for (const KernelBounds &K : OldBounds)
        BoundsByName.emplace(K.Kernel, &K);
    auto It = BoundsByName.find(R.Kernel);
    return {PR, It == BoundsByName.end() ? nullptr : It->second};
  };
  // A kernel the previous version left unproved whose inputs are that
  // version's, moved, stays unproved without a cache lookup: while the user
  // types, the proof tier has not run yet, and building the keys of the
  // thousands of kernels it has not reached was a tenth of a keystroke. The
  // lookup skipped could only have found a verdict another document proved
  // since; the proof tier finds it there.
  auto LeftUnproved = [&](const sema::KernelRecord &R) {
    if (!SameDirectives || !PreviousUnproved)
      return false;
    const std::vector<std::string> &Old = *PreviousUnproved;
    // The cursor passes the edited kernel too (not moved, so looked up
    // below), or it would stop there and every kernel after it would miss.
    if (NextUnproved < Old.size() && Old[NextUnproved] == R.Kernel) {
      ++NextUnproved;
      return R.MovedFromPrevious;
    }
    if (!R.MovedFromPrevious)
      return false;
    if (UnprovedNames.empty())
      UnprovedNames.insert(Old.begin(), Old.end());
    return UnprovedNames.count(R.Kernel) > 0;
  };
  for (size_t I = 0; I < FA.Records.size(); ++I) {
    const sema::KernelRecord &R = FA.Records[I];
    if (!Proofs.isProvable(R))
      continue;
    if (Unproved && LeftUnproved(R)) {
      Unproved->push_back(R.Kernel);
      continue;
    }
    auto [PR, PB] = PreviousOf(I, R);
    if (std::optional<KernelBounds> K = Proofs.known(R, Previous, PR, PB)) {
      Out.push_back(std::move(*K));
      continue;
    }
    if (Unproved) {
      Unproved->push_back(R.Kernel);
      continue;
    }
    Out.push_back(Proofs.prove(R));
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
