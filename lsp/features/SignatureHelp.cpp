//===- SignatureHelp.cpp - the parameters of the call being typed --------===//
/// \file
/// The innermost open call with a signature tessel knows wins; a call to an
/// unknown function (`torch.empty(`) inside `tl.load(` gives nothing rather
/// than the outer call's help, as the user is typing the inner one.
//===----------------------------------------------------------------------===//
#include "lsp/features/SignatureHelp.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/CursorContext.h"

namespace tessel::lsp {

std::optional<SignatureHelpInfo> signatureHelp(const AnalyzedFile &F, uint32_t Offset,
                                               const ImportedSignatures *Imported) {
  if (!F.Report.Analysis)
    return std::nullopt;
  CursorContext Ctx = cursorContext(F.Doc.Text->text(), Offset);
  if (!Ctx.Call || Ctx.InComment)
    return std::nullopt;
  auto S = signatureOf(F.Report.Analysis->Info, *F.Doc.Text, Ctx.Call->Callee, Ctx.Call->IsLaunch, Imported);
  if (!S)
    return std::nullopt;
  SignatureHelpInfo H;
  H.ActiveParameter = activeParameter(*S, Ctx.Call->Positional, Ctx.Call->Keyword);
  H.Signature = std::move(*S);
  return H;
}

} // namespace tessel::lsp
