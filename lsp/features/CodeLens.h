//===- CodeLens.h - what each kernel costs, and how to run it ---*- C++ -*-===//
/// \file
/// Above each kernel's `def`: Run actions (CPU interpreter; GPU when the
/// machine has one) and one line per specialization the file reveals
/// (autotune config or launch site) saying what is known of it. Registers,
/// shared memory, spills and occupancy come from the code generator, which
/// does not exist yet: the lens says "not yet known" rather than guessing.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_CODELENS_H
#define TESSEL_LSP_FEATURES_CODELENS_H

#include "compiler/support/SourceRange.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct CodeLensInfo {
  SourceRange Range; ///< the kernel's name in its `def`
  std::string Title;
  /// Set for a Run lens: the kernel and "cpu" or "gpu". Unset lenses only
  /// inform (no command).
  std::optional<std::string> RunDevice;
  std::string Kernel;
};

struct CodeLensOptions {
  bool GpuAvailable = false;
};

std::vector<CodeLensInfo> codeLenses(const AnalyzedFile &F, const CodeLensOptions &Opts);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_CODELENS_H
