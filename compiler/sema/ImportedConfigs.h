//===- ImportedConfigs.h - autotune configs another module defines -*- C++ -*-===//
/// \file
/// `@triton.autotune(configs=quant_configs, ...)` with `quant_configs`
/// imported from another module of the project: discovery reads one module
/// and leaves such a list unknown (JitFunction::ConfigsUnknown); the project
/// knows the other module's globals, so the kernel is specialized under the
/// configs Python would give it (torchao's blockwise kernels share one list).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_IMPORTEDCONFIGS_H
#define TESSEL_COMPILER_SEMA_IMPORTEDCONFIGS_H

#include "compiler/frontend/Discovery.h"
#include "compiler/project/Project.h"

#include <vector>

namespace tessel::sema {

/// The configs of Fn's `@triton.autotune` when discovery could not evaluate
/// them and its `configs` argument is a name imported from a module of the
/// project whose value is a list of `triton.Config`; empty otherwise. The
/// modules read go to Reads.
std::vector<AutotuneConfig> importedAutotuneConfigs(const JitFunction &Fn, const ModuleInfo &Info,
                                                    const project::ModuleRef &Ref, project::Project &P,
                                                    project::Reads &Reads);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_IMPORTEDCONFIGS_H
