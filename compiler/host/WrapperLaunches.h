//===- WrapperLaunches.h - the launch an uncalled wrapper makes -*- C++ -*-===//
/// \file
/// Where nothing in a file reaches a kernel's launch (a library: the
/// wrapper `rms_norm(x, w, eps)` is called by tests and models elsewhere),
/// the launch the wrapper itself makes when called with representative
/// tensors is the best evidence of how the kernel is launched: its
/// constexprs (`BLOCK = triton.next_power_of_2(N)`), num_warps, grid and
/// the relations between sizes, strides and buffers come out as Python
/// computes them, so a plan built from it is one consistent launch rather
/// than each parameter assumed alone.
///
/// The made-up call: every tensor parameter is a contiguous tensor of one
/// shape (rank 2 first, [Size, Size]; then rank 1 [Size], rank 3
/// [4, Size / 4, Size / 4], rank 4 [2, 4, Size / 4, 64]: the first rank the
/// wrapper launches the kernel with) whose element type is left unknown,
/// for the plan to take from the kernel's own evidence; `int` parameters
/// are Size; defaults are used.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_WRAPPERLAUNCHES_H
#define TESSEL_COMPILER_HOST_WRAPPERLAUNCHES_H

#include "compiler/host/HostLaunches.h"
#include "compiler/project/Project.h"

#include <optional>
#include <string>

namespace tessel::host {

/// The first launch of Kernel that calling File's host wrappers (Wrappers.h)
/// with made-up arguments reaches, with HostLaunch::MadeUpCall set; nullopt
/// when none launches it. Config: the chosen autotune config (its
/// constexprs, which a grid callable's META holds, and its pre_hook).
/// Project (may be null): where helpers the wrappers import from other
/// modules are run (ProjectLibrary.h).
std::optional<HostLaunch> wrapperLaunch(const ParsedFile &File, const ModuleInfo &Info, project::Project *Project,
                                        const std::string &Kernel, const PyConfig &Config, int64_t Size);

} // namespace tessel::host

#endif // TESSEL_COMPILER_HOST_WRAPPERLAUNCHES_H
