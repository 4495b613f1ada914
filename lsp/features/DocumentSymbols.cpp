//===- DocumentSymbols.cpp - the kernels of a file ------------------------===//
/// \file
/// Symbols come out in source order, which is what outline views expect:
/// kernels and helpers with their parameters, host functions, constexpr
/// globals.
//===----------------------------------------------------------------------===//
#include "lsp/features/DocumentSymbols.h"
#include "lsp/AnalyzedFile.h"

#include <algorithm>

namespace tessel::lsp {

std::vector<SymbolInfo> documentSymbols(const AnalyzedFile &F) {
  std::vector<SymbolInfo> Out;
  if (!F.Report.Analysis)
    return Out;
  const ModuleInfo &Info = F.Report.Analysis->Info;
  for (const std::string &Name : Info.Order) {
    const JitFunction *J = Info.jit(Name);
    if (!J || !J->Def)
      continue;
    SymbolInfo S{Name,
                 J->IsKernel ? "@triton.jit kernel" : "@triton.jit helper",
                 SymbolKind::Function,
                 J->Def->Range,
                 J->Def->NameRange,
                 {}};
    if (J->HasAutotune)
      S.Detail += J->ConfigsUnknown ? " · autotune" : " · " + std::to_string(J->Configs.size()) + " configs";
    for (const ast::Param &P : J->Def->Params)
      S.Children.push_back(
          {P.Name, std::string(F.Parsed->text().slice(P.Range)), SymbolKind::Variable, P.Range, P.NameRange, {}});
    Out.push_back(std::move(S));
  }
  // Host functions (wrappers, config builders) too: an outline of a kernel
  // file is also where its launches live.
  for (const auto &[Name, Def] : Info.Functions) {
    if (!Def || Info.jit(Name))
      continue;
    Out.push_back({Name, "host function", SymbolKind::Function, Def->Range, Def->NameRange, {}});
  }
  for (const auto &[Name, G] : Info.Globals) {
    if (!G.IsConstexpr)
      continue;
    SourceRange Sel = G.Range;
    Out.push_back(
        {Name, G.Value.isKnown() ? "= " + G.Value.repr() : "tl.constexpr", SymbolKind::Constant, G.Range, Sel, {}});
  }
  std::sort(Out.begin(), Out.end(), [](const SymbolInfo &A, const SymbolInfo &B) { return A.Range < B.Range; });
  return Out;
}

} // namespace tessel::lsp
