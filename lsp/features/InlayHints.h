//===- InlayHints.h - tile types shown inline -------------------*- C++ -*-===//
/// \file
/// After each name that is assigned a tile, its shape and dtype:
/// `offs: [1024] i32`. When the kernel's specializations disagree (an
/// autotuned BLOCK), the distinct types are joined with " | ". Parameters get
/// no hint (their type comes from the launch), nor do scalars (they add noise
/// and say little).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_INLAYHINTS_H
#define TESSEL_LSP_FEATURES_INLAYHINTS_H

#include "compiler/support/SourceRange.h"

#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct InlayHint {
  uint32_t Offset; ///< where the hint sits: the end of the name
  std::string Label;
};

/// The hints whose position lies in Within, ordered by position.
std::vector<InlayHint> inlayHints(const AnalyzedFile &F, SourceRange Within);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_INLAYHINTS_H
