//===- ImportedConfigs.cpp - autotune configs another module defines ------===//
#include "compiler/sema/ImportedConfigs.h"

namespace tessel::sema {

std::vector<AutotuneConfig> importedAutotuneConfigs(const JitFunction &Fn, const ModuleInfo &Info,
                                                    const project::ModuleRef &Ref, project::Project &P,
                                                    project::Reads &Reads) {
  if (!Fn.HasAutotune || !Fn.ConfigsUnknown || !Fn.Configs.empty() || !Fn.Def)
    return {};
  for (const ast::Expr *D : Fn.Def->Decorators) {
    const auto *Call = dyn_cast<ast::CallExpr>(D);
    if (!Call || Info.qualify(Call->Func) != "triton.autotune")
      continue;
    const ast::Expr *Configs = nullptr;
    if (const ast::Keyword *K = Call->keyword("configs"))
      Configs = K->Value;
    else if (!Call->Args.empty())
      Configs = Call->Args[0];
    const auto *Name = Configs ? dyn_cast<ast::NameExpr>(Configs) : nullptr;
    auto Import = Name ? Info.Imports.find(Name->Id) : Info.Imports.end();
    if (Import == Info.Imports.end())
      return {};
    project::Symbol S = P.resolve(Import->second, Ref, &Reads);
    if (S.K != project::Symbol::Kind::Global || !S.Global || !S.Global->Value.isSequence())
      return {};
    std::vector<AutotuneConfig> Out;
    for (const PyValue &C : S.Global->Value.elements()) {
      if (C.kind() != PyValue::Kind::Config)
        return {}; // one config tessel cannot read: the list stays unknown
      Out.push_back({C.asConfig(), Configs->Range});
      // Its pre_hook is a function of the other module's tree, which this
      // kernel's analysis does not keep alive.
      Out.back().Config.PreHook.reset();
    }
    return Out;
  }
  return {};
}

} // namespace tessel::sema
