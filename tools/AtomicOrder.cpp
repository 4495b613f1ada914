//===- AtomicOrder.cpp - outputs holding what atomics returned ------------===//
/// \file
/// Two forward propagations over the tile IR to a fixed point: which values
/// derive from an atomic's result (and from which atomic), and which pointer
/// parameters each pointer value may be derived from. Structured control
/// flow is joined coarsely: whatever reaches a region's terminator or its
/// parent's operands reaches the parent's results and the regions' block
/// arguments.
//===----------------------------------------------------------------------===//
#include "tools/AtomicOrder.h"

#include <set>
#include <vector>

namespace tessel::tools {

namespace {

struct Facts {
  std::map<const ir::Value *, SourceRange> FromAtomic;
  std::map<const ir::Value *, std::set<std::string>> Roots;

  /// Merges what From carries into To; true when To changed.
  bool flow(const ir::Value *From, const ir::Value *To) {
    bool Changed = false;
    if (auto It = FromAtomic.find(From); It != FromAtomic.end() && !FromAtomic.count(To)) {
      FromAtomic.emplace(To, It->second);
      Changed = true;
    }
    if (To->type().Elem.isPointer())
      if (auto It = Roots.find(From); It != Roots.end()) {
        std::set<std::string> &R = Roots[To];
        size_t Before = R.size();
        R.insert(It->second.begin(), It->second.end());
        Changed |= R.size() != Before;
      }
    return Changed;
  }
};

/// Every op under B, and the op owning each region's terminator.
void collect(const ir::Block &B, std::vector<const ir::Op *> &Ops, std::map<const ir::Op *, const ir::Op *> &Owner) {
  for (const auto &O : B.ops()) {
    Ops.push_back(O.get());
    for (const auto &R : O->regions()) {
      if (const ir::Op *T = R->terminator())
        Owner[T] = O.get();
      collect(*R, Ops, Owner);
    }
  }
}

} // namespace

std::map<std::string, SourceRange> atomicOrderedOutputs(const ir::Function &F) {
  std::vector<const ir::Op *> Ops;
  std::map<const ir::Op *, const ir::Op *> Owner;
  collect(F.body(), Ops, Owner);
  Facts S;
  for (const ir::Value *P : F.params())
    if (P->type().Elem.isPointer())
      S.Roots[P].insert(P->name());
  for (const ir::Op *O : Ops)
    if (O->kind() == ir::OpKind::AtomicRMW || O->kind() == ir::OpKind::AtomicCas)
      for (const ir::Value *R : O->results())
        S.FromAtomic.emplace(R, O->loc());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const ir::Op *O : Ops) {
      for (const ir::Value *In : O->operands()) {
        for (const ir::Value *Out : O->results())
          Changed |= S.flow(In, Out);
        for (const auto &R : O->regions())
          for (const ir::Value *A : R->arguments())
            Changed |= S.flow(In, A);
      }
      // A terminator hands its operands to the parent's results and to the
      // next iteration's block arguments.
      auto It = Owner.find(O);
      if (It == Owner.end())
        continue;
      for (const ir::Value *In : O->operands()) {
        for (const ir::Value *Out : It->second->results())
          Changed |= S.flow(In, Out);
        for (const auto &Region : It->second->regions())
          for (const ir::Value *A : Region->arguments())
            Changed |= S.flow(In, A);
      }
    }
  }
  std::map<std::string, SourceRange> Out;
  for (const ir::Op *O : Ops) {
    const ir::Value *Written = nullptr;
    if (O->kind() == ir::OpKind::Store || O->kind() == ir::OpKind::AtomicRMW)
      Written = O->operand(1);
    else if (O->kind() == ir::OpKind::AtomicCas)
      Written = O->operand(2);
    if (!Written)
      continue;
    auto From = S.FromAtomic.find(Written);
    auto Roots = S.Roots.find(O->operand(0));
    if (From == S.FromAtomic.end() || Roots == S.Roots.end())
      continue;
    for (const std::string &Name : Roots->second)
      Out.emplace(Name, From->second);
  }
  return Out;
}

} // namespace tessel::tools
