//===- Discovery.h - the kernels of a file and how they are launched -*- C++ -*-===//
/// \file
/// Reads a parsed module the way Python would import it, without running it:
/// which local names mean `triton`, `triton.language` and their members
/// (under any import style), which functions are `@triton.jit` kernels or
/// helpers, their `@triton.autotune` configs and `@triton.heuristics`,
/// module-level `tl.constexpr` globals, and launch sites
/// `kernel[grid](..., BLOCK=1024, num_warps=8)`.
///
/// Config lists written inline, returned by a helper function or built by a
/// comprehension are evaluated by ConstEval (plain Python subset); whatever
/// cannot be evaluated stays Unknown.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_DISCOVERY_H
#define TESSEL_COMPILER_FRONTEND_DISCOVERY_H

#include "compiler/frontend/Ast.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/PyValue.h"
#include "compiler/support/Problem.h"
#include "compiler/support/SharedMap.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessel {

/// One `triton.Config(...)` of an `@triton.autotune`, evaluated.
struct AutotuneConfig {
  PyConfig Config;
  SourceRange Range; ///< the Config(...) call, or the expression that produced it
};

/// A `kernel[grid](...)` call found in the file.
struct LaunchSite {
  SourceRange Range;     ///< the whole call
  SourceRange GridRange; ///< the subscript
  const ast::CallExpr *Call = nullptr;
  /// Keyword arguments evaluated where possible (Unknown otherwise),
  /// including num_warps / num_stages / num_ctas / maxnreg.
  std::vector<std::pair<std::string, PyValue>> Keywords;
  std::vector<SourceRange> KeywordRanges; ///< parallel to Keywords
  size_t NumPositional = 0;
};

struct JitFunction {
  const ast::FunctionDefStmt *Def = nullptr;
  std::string Name;
  /// True for a kernel launched from the host or decorated with autotune /
  /// heuristics; false for a helper only called from other @jit functions.
  /// Functions never called from anywhere count as kernels.
  bool IsKernel = true;
  /// Launched in this file, or decorated with autotune / heuristics: a
  /// kernel for sure. An IsKernel function without either is a kernel only
  /// where something else launches it (another file, a launch directive).
  bool Launched = false;
  bool HasAutotune = false;
  std::vector<AutotuneConfig> Configs; ///< empty without @autotune (and with one whose configs are unknown)
  bool ConfigsUnknown = false;         ///< @autotune whose config list could not be evaluated
  std::vector<std::string> AutotuneKey;
  /// `@triton.heuristics(values={'BLOCK': lambda args: ...})`: the names the
  /// heuristics set (their values are unknown statically).
  std::vector<std::string> HeuristicNames;
  std::vector<LaunchSite> Launches;
  /// `@triton.jit(do_not_specialize=[...], debug=True, ...)` keywords.
  std::vector<std::pair<std::string, PyValue>> JitOptions;
  SourceRange DecoratorRange; ///< the @jit decorator
  size_t Position = 0;        ///< its index in ModuleInfo::Order
};

/// A module-level name and what is known of it.
struct GlobalSymbol {
  std::string Name;
  SourceRange Range;        ///< the defining statement
  PyValue Value;            ///< evaluated value (Unknown if not computable)
  bool IsConstexpr = false; ///< `X = tl.constexpr(...)` or `X: tl.constexpr = ...`
  /// The value is a `tl.constexpr(...)` instance, annotated or not: all that
  /// Triton 3.6's `_is_constexpr_global` asks (`X: tl.constexpr = 1` is not one).
  bool IsConstexprInstance = false;
};

struct ModuleInfo {
  /// Local name -> qualified path it was imported as ("tl" ->
  /// "triton.language", "jit" -> "triton.jit", "np" -> "numpy").
  std::map<std::string, std::string> Imports;
  /// Top-level functions by name, @jit or not. Shared maps: the next
  /// version of the file takes them, changing the entries of the function
  /// an edit changed only (rediscover).
  SharedMap<std::string, const ast::FunctionDefStmt *> Functions;
  /// @jit functions by name, in source order in Order.
  SharedMap<std::string, JitFunction> Jit;
  std::vector<std::string> Order;
  /// Module-level assignments (last one wins, as at import time).
  std::map<std::string, GlobalSymbol> Globals;
  /// `from m import *`, as the module paths Imports would hold ("pkg.m",
  /// "..m"), in source order: the project model resolves names through them.
  std::vector<std::string> StarImports;
  /// `k[grid](...)` where k is not a @jit function of this file (an
  /// imported kernel): the dotted callee and the call, for the project
  /// model's kernel-or-helper decision.
  std::vector<std::pair<std::string, SourceRange>> OtherLaunches;
  /// The functions whose bodies an `@autotune` config list was read from
  /// (configCalls): the only bodies discovery reads besides the names in
  /// @jit bodies, so rediscover() needs them.
  std::set<std::string> ConfigBodies;
  /// A value above (a config's, a launch's, an option's, a global's) names
  /// a function or lambda of the file: a pointer into this version's tree,
  /// so rediscover() cannot carry the facts to the next version.
  bool RefersToTree = false;
  /// The other files of the project that the resolver's answers read where
  /// an answer changed a meaning (path -> content hash): a change to one of
  /// them may change what this module's imports mean (`from pkg.triton_utils
  /// import tl` no longer re-exporting triton), so the analyses built on this
  /// ModuleInfo read them too.
  std::map<std::string, uint64_t> ProjectReads;
  /// An import of a path of the project (neither triton nor another
  /// external root) was seen: discovery with a resolver may differ from
  /// discovery without one.
  bool ImportsProjectPaths = false;
  /// `@jit`-looking functions whose decorator did not resolve to
  /// `triton.jit` though their bodies read like Triton (`x.program_id(...)`,
  /// `x.arange(...)` with `x.load`/`x.store`): the decorators' ranges, so a
  /// file of kernels tessel cannot see gets a note, not "0 kernels checked".
  std::vector<SourceRange> UnresolvedJit;
  /// `@...jit` functions with such bodies defined inside other functions
  /// (built lazily by a factory): discovery reads module-level ones only.
  std::vector<SourceRange> NestedJit;
  /// `@...jit` functions defined only in a module-level branch that Python
  /// does not run on a machine with Triton 3.6 (the `else:` of `if
  /// Version(triton.__version__) >= Version("3.0.0"):`): a file whose only
  /// kernels these are says why it has none.
  std::vector<SourceRange> UntakenJit;

  /// The qualified path a dotted expression names through the imports:
  /// `tl.arange` -> "triton.language.arange", `triton.jit` -> "triton.jit",
  /// and "" when the head is not an imported name.
  std::string qualify(const ast::Expr *E) const;
  const JitFunction *jit(const std::string &Name) const;
  /// The @jit functions in Order, from one pass over Jit (no lookup by name).
  std::vector<const JitFunction *> inOrder() const;
};

/// What discovery asks the project model (which lies above it) about a path
/// imported from a module of the project: the path outside the project it
/// stands for (`pkg.triton_utils.tl` -> "triton.language", through any chain
/// of re-exports, aliases and conditional imports), or "" when it is none or
/// cannot be resolved. Every file it read goes to Reads with its hash.
using ExternalResolver = std::function<std::string(const std::string &Path, std::map<std::string, uint64_t> &Reads)>;

/// Discovers everything above. Problems (e.g. a malformed Config) go to Sink.
/// With a Resolver, an import of a project path that stands for triton
/// (`from pkg.triton_utils import tl, triton`) binds what it stands for, so
/// its `@triton.jit` functions are kernels like any other; without one (a
/// lone file) such imports stay as written.
ModuleInfo discover(const ast::Module &M, ProblemSink &Sink, const ExternalResolver &Resolver = {});

/// discover(New) from what discover gave for an earlier version Old (Info,
/// and its Problems, which are moved in place): when the edit changed the
/// body of one @jit function only (one piece, one `def` of the same name,
/// the text before its body equal, the same @jit names in its body, a body
/// no config list reads), every other fact of the module is the same, its
/// ranges and tree pointers moved to New. Nullopt otherwise (and Problems
/// untouched): the caller discovers New afresh. The result equals
/// discover(New) (IncrementalTest compares them); a keystroke inside a
/// kernel of a 13,000-kernel file no longer runs the module again (issue 14).
std::optional<ModuleInfo> rediscover(const ParsedFile &Old, const ModuleInfo &Info, const ParsedFile &New,
                                     const ParsedFile::PieceDiff &Diff, std::vector<Problem> &Problems);

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_DISCOVERY_H
