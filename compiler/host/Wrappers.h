//===- Wrappers.h - host wrappers run with arguments nobody passed -*- C++ -*-===//
/// \file
/// A library's kernels are launched by wrappers (`def rms_norm(x, w, eps)`,
/// `Softmax.forward`) that the file itself never calls: its tests, models
/// and benchmarks do, elsewhere. To read the launch a wrapper makes, tessel
/// imports the module in host mode (its module-level code runs with
/// `__name__` not "__main__") and calls the wrapper with arguments made up
/// for it: SymbolicLaunch with prime-sized tensors to find which sizes
/// follow which, the representative launch (WrapperLaunches.h) with sizes a
/// plan can run.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_WRAPPERS_H
#define TESSEL_COMPILER_HOST_WRAPPERS_H

#include "compiler/frontend/ConstEval.h"
#include "compiler/host/HostLaunches.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tessel::host {

/// The host functions of File that launch something and are no @jit
/// function: top-level functions ("rms_norm") and methods of top-level
/// classes ("Softmax.forward"), in source order, at most MaxWrappers.
std::vector<std::pair<std::string, const ast::FunctionDefStmt *>> hostWrappers(const ParsedFile &File,
                                                                               const ModuleInfo &Info);

/// File's module imported in host mode: its module-level code has run (as
/// an import: `if __name__ == "__main__":` blocks do not), and its functions
/// can be called; each call returns the launches it reached.
class ModuleRun {
public:
  /// Library answers what the code calls outside the module (torch, the
  /// device, the project's other modules) and must outlive the run.
  /// Config is the autotune config a launch runs under: its constexprs are
  /// in a grid callable's META, its pre_hook runs on the arguments
  /// (default: none chosen).
  ModuleRun(const ParsedFile &File, const ModuleInfo &Info, const HostLibrary &Library, PyConfig Config = {});
  ModuleRun(const ModuleRun &) = delete;
  ModuleRun &operator=(const ModuleRun &) = delete;

  ConstEval &eval() { return Eval; }
  /// Calls Fn; the launches it made, with their kernels' names, at most 16.
  std::vector<std::pair<std::string, HostLaunch>> call(const ast::FunctionDefStmt *Fn, const PyList &Args);

private:
  std::map<std::string, PyValue> Scope;
  PyConfig Config;
  ConstEval Eval;
  std::vector<std::pair<std::string, HostLaunch>> *Sink = nullptr;
};

/// What a made-up call passes for each positional parameter of Fn: its
/// default when it has one; nothing (Unknown) for `self` / `ctx` / `cls`
/// and for parameters annotated float, bool or str; Int(name) for those
/// annotated int (nullopt: the wrapper cannot be called so); Tensor(name)
/// for every other one. nullopt when Int refused or Tensor gave no tensor
/// (then nothing about sizes can be learnt).
std::optional<PyList> wrapperArguments(const ast::FunctionDefStmt &Fn, ConstEval &Eval,
                                       const std::function<std::optional<int64_t>(const std::string &)> &Int,
                                       const std::function<PyValue(const std::string &)> &Tensor);

/// The parameters of Fn its body uses as tensors: an attribute only a tensor
/// has is read (`x.shape`, `x.stride(0)`, `x.view(-1)`, `x.dtype`), or it is
/// the model of a `torch.*_like` call. A wrapper's other parameters (`eps`,
/// `casting_mode`, `causal`) are scalars or flags tessel cannot know.
std::set<std::string> tensorParameters(const ast::FunctionDefStmt &Fn);

/// A contiguous tensor of Shape made by the host code for parameter Origin;
/// DType "" leaves the element type unknown.
PyValue madeUpTensor(const std::vector<int64_t> &Shape, const std::string &DType, const std::string &Origin);

/// The launch ConstEval reached (HostLaunches.cpp): arguments bound to the
/// kernel's parameters, Config's pre_hook run on them as the autotuner runs
/// it (`nargs["a_desc"].block_shape = ...`), the grid evaluated with
/// Config's constexprs in META.
HostLaunch recordLaunch(const ConstEval::HostLaunchCall &Call, const PyConfig &Config, ConstEval &Eval);

/// Autotuner.run's `config.pre_hook(full_nargs)`: Config's pre_hook, if it
/// has one, called with Nargs (the launch's arguments by name) and then the
/// config's keywords and options.
void runPreHook(const PyConfig &Config, PyDict Nargs, ConstEval &Eval);

} // namespace tessel::host

#endif // TESSEL_COMPILER_HOST_WRAPPERS_H
