//===- Completion.h - tl. members with their signatures ---------*- C++ -*-===//
/// \file
/// After `tl.` (or whatever name the file imported `triton.language` as, or
/// `triton.language.` spelled out), the documented builtins whose names start
/// with what is typed, each with its signature and documentation.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_COMPLETION_H
#define TESSEL_LSP_FEATURES_COMPLETION_H

#include "lsp/features/BuiltinDocs.h"

#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct CompletionInfo {
  std::string Label;
  BuiltinKind Kind;
  std::string Signature;
  std::string Doc;
};

std::vector<CompletionInfo> complete(const AnalyzedFile &F, uint32_t Offset);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_COMPLETION_H
