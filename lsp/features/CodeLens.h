//===- CodeLens.h - what each kernel costs, and how to run it ---*- C++ -*-===//
/// \file
/// Above each kernel's `def`: Run actions (CPU interpreter; GPU when the
/// machine has one) and one line per specialization the file reveals
/// (autotune config or launch site) saying what is known of it. Registers,
/// spills, shared memory and occupancy come from the server's JIT tier
/// (lsp/JitTier.h) once it has compiled the kernel: the summary lens shows
/// the first config's, each config's lens its own; until then the lens says
/// the kernel is compiling (or, with the tier off, "not yet known") rather
/// than guessing. A config's lens sits on its own `triton.Config(...)` call
/// when the file has one for it alone (so the config under the cursor shows
/// its figures there), else above the kernel.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_CODELENS_H
#define TESSEL_LSP_FEATURES_CODELENS_H

#include "compiler/support/SourceRange.h"
#include "diagnostics/JitCheck.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct AnalyzedFile;

struct CodeLensInfo {
  SourceRange Range; ///< the kernel's name in its `def`, or a config's `triton.Config` callee
  std::string Title;
  /// Set for a Run lens: the kernel and "cpu" or "gpu". Unset lenses only
  /// inform (no command).
  std::optional<std::string> RunDevice;
  std::string Kernel;
  /// The "+N configs" lens: its command opens configTable for Kernel.
  bool ShowsConfigs = false;
  /// The Tune lens of a kernel with several autotune configs: its command
  /// (`tessel.tuneKernel`) times every config under every launch instance.
  bool Tunes = false;
  /// A GPU Run lens of a kernel with a CUDA reference (`# tessel: reference`): the run
  /// runs the reference too (`tessel run --reference`) and reports the gap.
  bool Reference = false;
};

/// One config's compile (Config nullopt: a kernel without autotune configs).
struct JitFigures {
  std::optional<size_t> Config;
  diag::JitSummary Summary;
};

/// What the JIT tier knows of one kernel of the version.
struct KernelJitLens {
  bool Pending = false;            ///< queued or compiling, nothing valid yet
  std::vector<JitFigures> Configs; ///< results valid for this version
};

struct CodeLensOptions {
  bool GpuAvailable = false;
  /// The JIT tier is on: kernels without figures are "compiling".
  bool JitEnabled = false;
  std::map<std::string, KernelJitLens> Jit; ///< by kernel name
};

/// `24 regs · 0 spills · 0 B smem · 100% occupancy`, or why there is none.
std::string jitFiguresText(const diag::JitSummary &S);

std::vector<CodeLensInfo> codeLenses(const AnalyzedFile &F, const CodeLensOptions &Opts);

/// Every autotune config of Kernel with its figures, as a Markdown table:
/// what the "+N configs" lens opens (the lens line shows one config).
/// Empty when Kernel is no autotuned kernel of F.
std::string configTable(const AnalyzedFile &F, const CodeLensOptions &Opts, const std::string &Kernel);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_CODELENS_H
