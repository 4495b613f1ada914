//===- KernelContext.h - the kernel a piece of host code is about -*- C++ -*-===//
/// \file
/// Config keys, `key=[...]` entries, heuristics' `args["..."]` and a grid
/// lambda's `meta["..."]` name a kernel's parameters in strings. Completion
/// offers those names and rename follows them, so both ask the same
/// question: which kernels does the code at this offset configure?
///  - in the decorators of a `def`: that function;
///  - in a host function: the kernels it launches, and the autotuned kernels
///    whose decorators call it (a `get_configs()` helper).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_FEATURES_KERNELCONTEXT_H
#define TESSEL_LSP_FEATURES_KERNELCONTEXT_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"

#include <vector>

namespace tessel::lsp {

std::vector<const JitFunction *> kernelsAround(const ParsedFile &File, const ModuleInfo &Info, uint32_t Offset);

/// True when P is annotated `tl.constexpr` (through any import alias).
bool isConstexprParam(const ast::Param &P, const ModuleInfo &Info);

} // namespace tessel::lsp

#endif // TESSEL_LSP_FEATURES_KERNELCONTEXT_H
