//===- HostLaunches.h - the launches a file's host code makes ---*- C++ -*-===//
/// \file
/// Runs a file's module-level code the way `python file.py` would, without
/// Python (ConstEval in host mode: tensors modelled by shape, stride and
/// dtype), and records each `kernel[grid](...)` it reaches: the tutorial
/// pattern `x = torch.randn(1823, 781); y = softmax(x)`, where `softmax`
/// computes BLOCK_SIZE with `triton.next_power_of_2`, allocates outputs
/// with `torch.empty_like` and launches. The arguments are bound to the
/// kernel's parameters as Python binds them; a grid callable is called with
/// Triton's META dict (the bound arguments, the launch keywords and the
/// chosen autotune config). Values the host code computes from something
/// tessel cannot know (device properties, tensor contents) stay Unknown,
/// with the source range of the argument that carries them, so a caller can
/// say which value a launch needs.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_HOSTLAUNCHES_H
#define TESSEL_COMPILER_FRONTEND_HOSTLAUNCHES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/PyValue.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel {

/// One argument of a host launch: a kernel parameter and what it received.
struct HostArgument {
  std::string Param;
  PyValue Value;            ///< Unknown when the host value is not known
  SourceRange Range;        ///< the argument expression; empty for a default
  bool FromDefault = false; ///< not passed: the parameter's default
};

struct HostLaunch {
  SourceRange Range; ///< the `kernel[grid](...)` call
  SourceRange GridRange;
  std::vector<HostArgument> Args; ///< one per parameter the launch or a default binds, in parameter order
  /// Launch keywords that are no parameters (num_warps, num_stages, ...).
  std::vector<std::pair<std::string, PyValue>> Options;
  /// The grid, up to three dimensions; empty when unknown.
  std::vector<int64_t> Grid;
  /// The host functions that led to it, outermost first ("test_softmax",
  /// "softmax"); empty for a launch in module-level code.
  std::vector<std::string> Callers;
  /// Why the launch does not bind the kernel's parameters (a missing
  /// argument, an unknown `*args`); empty when it does.
  std::string BindError;

  const HostArgument *arg(const std::string &Param) const;
};

/// The launches of Kernel that running File's module-level code reaches,
/// in the order it reaches them, at most Max. ConfigKwargs are the
/// constexprs the chosen autotune config sets (part of a grid callable's
/// META, as at a real launch).
std::vector<HostLaunch> findHostLaunches(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Kernel,
                                         const PyDict &ConfigKwargs, size_t Max = 1);

/// The first launch of every kernel that running File's host code reaches,
/// by kernel name, in one run (grids evaluated without an autotune config).
std::map<std::string, HostLaunch> firstHostLaunches(const ParsedFile &File, const ModuleInfo &Info);

/// firstHostLaunches of one version of a file, with the text that run read:
/// every top-level statement, except that of a @jit function only its
/// header (decorators and signature) counts, as host code binds arguments
/// to a kernel's parameters but never runs its body. The next version of
/// the file takes the table, its ranges moved, while that text is the same:
/// a keystroke inside a kernel does not run the module's host code again.
struct HostLaunchTable {
  std::map<std::string, HostLaunch> Launches;
  std::vector<SourceRange> Segments; ///< in source order
  /// False when a launch holds a function or lambda (a pointer into this
  /// version's tree): such a table is never carried to another version.
  bool Reusable = true;
  bool Reused = false; ///< taken from the previous version
};

/// The table of File: Previous's (the table of PreviousFile, an earlier
/// version of the same document) moved to File when the host code's text is
/// unchanged and no syntax error touches it, else a new run of the host code.
/// The result equals a fresh firstHostLaunches either way.
std::shared_ptr<const HostLaunchTable> hostLaunchTable(const ParsedFile &File, const ModuleInfo &Info,
                                                       const HostLaunchTable *Previous = nullptr,
                                                       const ParsedFile *PreviousFile = nullptr);

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_HOSTLAUNCHES_H
