//===- TileIR.h - a kernel's tile IR for the editor's IR view ---*- C++ -*-===//
/// \file
/// What `tessel/viewIR` with kind "tir" shows: the kernel lowered under its
/// first planned launch (sema::planLaunch with the chosen autotune config),
/// printed with line:column locations and preceded by what the launch
/// assumed, or why it cannot be lowered.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_TILEIR_H
#define TESSEL_LSP_FEATURES_TILEIR_H

#include "lsp/AnalyzedFile.h"

#include <cstddef>
#include <optional>
#include <string>

namespace tessel::lsp {

struct TileIRView {
  std::string Text;  ///< the printed IR (empty on failure)
  std::string Error; ///< why there is none: "kernel 'k' cannot be lowered: ..."
};

TileIRView tileIRView(const AnalyzedFile &F, const std::string &Kernel, std::optional<size_t> Config);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_TILEIR_H
