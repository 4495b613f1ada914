//===- ConstEval.h - evaluation of a plain-Python subset ---------*- C++ -*-===//
/// \file
/// Evaluates module-level Python without running Python: literals,
/// arithmetic, comparisons, boolean logic, lists/tuples/dicts, list
/// comprehensions, `range`, `len`, `min`/`max`, `triton.Config`,
/// `triton.cdiv` / `triton.next_power_of_2`, `tl.constexpr(...)`, and calls of
/// local helper functions whose bodies use only those (assignments, `for`,
/// `if`, `return`, `list.append`). Anything else evaluates to Unknown. The
/// evaluation is bounded (steps and recursion depth) so a pathological file
/// cannot hang the checker.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_CONSTEVAL_H
#define TESSEL_COMPILER_FRONTEND_CONSTEVAL_H

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/PyOps.h" // operators: use pyBinaryOp / pyUnaryOp / pyCompare
#include "compiler/frontend/PyValue.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace tessel {

struct ModuleInfo;

/// The libraries host code calls (torch, the device it runs on), as host
/// mode models them. compiler/host implements it; ConstEval only dispatches
/// to it, so the evaluator stays below the host model.
class HostLibrary {
public:
  virtual ~HostLibrary() = default;
  /// A call of a library function by qualified path (`torch.empty`,
  /// `torch.cuda.get_device_properties`), or nullopt when the model has none.
  virtual std::optional<PyValue> call(const std::string &Path, const PyList &Args, const PyDict &Kwargs) const = 0;
  /// An attribute of a value the model made (a tensor, device properties),
  /// or nullopt when V is none of them.
  virtual std::optional<PyValue> attribute(const PyValue &V, const std::string &Attr) const = 0;
  /// `obj.attr = X` on a value the model made with identity (a host
  /// TensorDescriptor); false when it keeps no such attribute.
  virtual bool setAttribute(const PyValue &V, const std::string &Attr, const PyValue &X) const = 0;
  /// `t.stride(0)`, `t.view(-1)`: a method of a tensor.
  virtual PyValue tensorMethod(const PyTensor &T, const std::string &Name, const PyList &Args,
                               const PyDict &Kwargs) const = 0;
  /// An arithmetic operator with a tensor operand.
  virtual PyValue elementwise(const PyValue &A, const PyValue &B, bool TrueDivision) const = 0;
  /// `t[:, 28:]`: a view of a tensor by basic indexing.
  virtual PyValue tensorIndex(const PyTensor &T, const std::vector<TensorIndexPart> &Parts) const = 0;
};

class ConstEval {
public:
  /// Names resolve first in the local scope, then through Lookup (module
  /// globals, imports); Lookup returns Unknown for anything it does not know.
  using GlobalLookup = std::function<PyValue(const std::string &)>;

  ConstEval(const ModuleInfo &Info, GlobalLookup Lookup);

  PyValue eval(const ast::Expr *E);
  /// Calls a local function with evaluated arguments.
  PyValue call(const ast::FunctionDefStmt *Fn, const PyList &Args, const PyDict &Kwargs);
  /// Runs module-level statements (`configs = []`, a `for` that appends
  /// Configs) with Scope as the namespace, writing what they bind back to
  /// Scope. False when execution stopped on something it cannot know; the
  /// caller then treats the names the statements bind as Unknown.
  bool exec(const ast::Block &Body, std::map<std::string, PyValue> &Scope);

  /// Host mode: run the host code around kernels (module-level statements,
  /// wrappers, test functions) the way Python would before a launch, to
  /// find the launches it makes. Tensors are modelled (Library); an
  /// `if` or loop whose condition is unknown runs every way and merges what
  /// the ways assign (a name they disagree on is Unknown); a path that
  /// raises ends; `with` and `try` run their bodies; classes deriving from
  /// torch.autograd.Function can be applied. Each `kernel[grid](...)` of a
  /// module-level @jit function reached is handed to OnLaunch with its
  /// evaluated grid and arguments. Module-level code sees `__name__` as
  /// "__main__".
  struct HostLaunchCall {
    const ast::CallExpr *Call = nullptr; ///< the `kernel[grid](...)` call
    const ast::FunctionDefStmt *Kernel = nullptr;
    PyValue Grid;
    PyList Args;
    PyDict Kwargs;
    /// The host functions on the way, outermost first ("test_softmax", "softmax").
    std::vector<std::string> Callers;
  };
  using LaunchObserver = std::function<void(const HostLaunchCall &)>;
  void setHostMode(LaunchObserver OnLaunch, const HostLibrary &Library);
  bool hostMode() const { return static_cast<bool>(OnLaunch); }

  /// Calls a function, lambda or library value with evaluated arguments
  /// (a grid lambda with the launch's META dict, say).
  PyValue callValue(const PyValue &Callee, const PyList &Args, const PyDict &Kwargs);

  /// Evaluation budget; exceeded budgets yield Unknown.
  static constexpr int MaxSteps = 100000;
  static constexpr int MaxDepth = 32;

private:
  struct Impl;
  struct Frame;
  const ModuleInfo &Info;
  GlobalLookup Lookup;
  std::map<std::string, PyValue> Locals;
  /// During exec(): the module namespace (Locals at top level, a caller's
  /// saved map inside helper calls), consulted before Lookup.
  std::map<std::string, PyValue> *ModuleScope = nullptr;
  int Steps = 0;
  int Depth = 0;
  LaunchObserver OnLaunch;
  const HostLibrary *Library = nullptr;                     ///< host mode: torch and the device
  std::vector<std::string> Callers;                         ///< host mode: the functions being run
  std::map<std::string, const ast::ClassDefStmt *> Classes; ///< host mode: classes defined so far
  friend struct Impl;
  friend struct Frame;
};

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_CONSTEVAL_H
