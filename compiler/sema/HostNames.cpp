//===- HostNames.cpp - what a host module's top-level names mean ----------===//
#include "compiler/sema/HostNames.h"

#include <memory>

namespace tessel::sema {

HostNames moduleHostNames(const ModuleInfo &Info, const project::ModuleRef &Ref, project::Project *P,
                          project::Reads *Reads) {
  HostNames N;
  N.Integer = [&Info, Ref, P, Reads](const std::string &Name) -> std::optional<int64_t> {
    if (auto G = Info.Globals.find(Name); G != Info.Globals.end())
      return G->second.Value.isInt() ? std::optional<int64_t>(G->second.Value.asInt()) : std::nullopt;
    auto I = Info.Imports.find(Name);
    if (!P || I == Info.Imports.end())
      return std::nullopt;
    project::Symbol S = P->resolve(I->second, Ref, Reads);
    if (S.K == project::Symbol::Kind::Global && S.Global && S.Global->Value.isInt())
      return S.Global->Value.asInt();
    return std::nullopt;
  };
  N.Function = [&Info, Ref, P, Reads](const std::string &Name, HostFunction &Out) {
    if (auto F = Info.Functions.find(Name); F != Info.Functions.end()) {
      Out.Def = F->second;
      Out.Names = moduleHostNames(Info, Ref, P, Reads);
      return Out.Def != nullptr;
    }
    auto I = Info.Imports.find(Name);
    if (!P || I == Info.Imports.end())
      return false;
    project::Symbol S = P->resolve(I->second, Ref, Reads);
    if (S.K != project::Symbol::Kind::Function || !S.Def || !S.Mod)
      return false;
    Out.Def = S.Def;
    // The answers read the callee's module: keep it alive with them.
    std::shared_ptr<const project::Module> Mod = S.Mod;
    HostNames Inner = moduleHostNames(Mod->Info, Mod->Ref, P, Reads);
    Out.Names.Integer = [Mod, Inner](const std::string &X) { return Inner.Integer(X); };
    Out.Names.Function = [Mod, Inner](const std::string &X, HostFunction &O) { return Inner.Function(X, O); };
    return true;
  };
  return N;
}

} // namespace tessel::sema
