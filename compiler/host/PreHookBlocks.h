//===- PreHookBlocks.h - descriptor block shapes from pre_hooks -*- C++ -*-===//
/// \file
/// Kernels that take host TensorDescriptors are autotuned with a pre_hook
/// that gives each descriptor the block shape of the config being run
/// (`nargs["a_desc"].block_shape = [BLOCK_M, BLOCK_K]`): the wrapper built
/// them with a dummy block. Where no launch of such a kernel is reached (its
/// wrapper takes a branch tessel does not follow), the block shapes are
/// still the pre_hook's, which depend on the config alone: it is run on
/// made-up descriptors of the ranks the kernel's accesses give.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_PREHOOKBLOCKS_H
#define TESSEL_COMPILER_HOST_PREHOOKBLOCKS_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/PyValue.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessel::host {

/// The block shape Config's pre_hook gives each descriptor parameter of
/// Ranks (parameter -> rank), after File's module-level code has run as an
/// import; parameters it leaves unset (or every one, without a pre_hook)
/// are absent. Args: the other arguments the launch is planned with (the
/// hook may read `nargs["BLOCK_K"]` that the launch, not the config, sets).
std::map<std::string, std::vector<int64_t>> preHookBlockShapes(const ParsedFile &File, const ModuleInfo &Info,
                                                               const PyConfig &Config,
                                                               const std::map<std::string, size_t> &Ranks,
                                                               const PyDict &Args);

} // namespace tessel::host

#endif // TESSEL_COMPILER_HOST_PREHOOKBLOCKS_H
