//===- SignatureHelp.h - the parameters of the call being typed -*- C++ -*-===//
/// \file
/// textDocument/signatureHelp: inside `tl.load(p, |` or `helper(x, |` or
/// `kernel[grid](a, |`, the callee's signature with the parameter the cursor
/// is on and which parameters Triton needs as compile-time constants.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_SIGNATUREHELP_H
#define TESSEL_LSP_FEATURES_SIGNATUREHELP_H

#include "lsp/features/Signatures.h"

#include <optional>

namespace tessel::lsp {

struct AnalyzedFile;

struct SignatureHelpInfo {
  SignatureInfo Signature;
  int ActiveParameter = -1; ///< -1: none (an extra argument, or a launch option not yet named)
};

/// Imported: the signatures of callees other modules define (optional).
std::optional<SignatureHelpInfo> signatureHelp(const AnalyzedFile &F, uint32_t Offset,
                                               const ImportedSignatures *Imported = nullptr);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_SIGNATUREHELP_H
