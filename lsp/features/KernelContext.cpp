//===- KernelContext.cpp - the kernel a piece of host code is about ------===//
/// \file
/// A linear pass over the kernels of the file; their launch sites and
/// decorators are already in ModuleInfo.
//===----------------------------------------------------------------------===//
#include "lsp/features/KernelContext.h"
#include "lsp/features/AstSearch.h"

#include <algorithm>

namespace tessel::lsp {

using namespace ast;

bool isConstexprParam(const Param &P, const ModuleInfo &Info) {
  if (!P.Annotation)
    return false;
  std::string Q = Info.qualify(P.Annotation);
  if (Q == "triton.language.constexpr" || Q == "triton.language.core.constexpr")
    return true;
  auto *N = dyn_cast<NameExpr>(P.Annotation);
  return N && N->Id == "constexpr";
}

std::vector<const JitFunction *> kernelsAround(const ParsedFile &File, const ModuleInfo &Info, uint32_t Offset) {
  std::vector<const JitFunction *> Out;
  const FunctionDefStmt *Fn = functionAt(File.module(), Offset);
  if (!Fn) {
    // Decorators being typed above a `def` that is not parsed with them yet,
    // or the end of the file: the next `def`.
    for (const Stmt *S : File.module().Body)
      if (auto *D = dyn_cast<FunctionDefStmt>(S); D && D->Range.Begin > Offset) {
        Fn = D;
        break;
      }
    if (Fn && Info.jit(Fn->Name))
      Out.push_back(Info.jit(Fn->Name));
    return Out;
  }
  if (Offset < Fn->DefKeywordRange.Begin) {
    if (const JitFunction *J = Info.jit(Fn->Name))
      Out.push_back(J);
    return Out;
  }
  if (Info.jit(Fn->Name))
    return Out;
  for (const std::string &Name : Info.Order) {
    const JitFunction &J = Info.Jit.at(Name);
    bool Launched = std::any_of(J.Launches.begin(), J.Launches.end(),
                                [&](const LaunchSite &L) { return Fn->Range.contains(L.Range); });
    bool NamesFn = false;
    if (J.Def)
      for (const Expr *D : J.Def->Decorators)
        forEachExpr(*D, [&](const Expr &E) {
          if (auto *N = dyn_cast<NameExpr>(&E); N && N->Id == Fn->Name)
            NamesFn = true;
        });
    if (Launched || NamesFn)
      Out.push_back(&J);
  }
  return Out;
}

} // namespace tessel::lsp
