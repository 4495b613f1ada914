//===- HostFacts.h - the integer facts host code states before a launch -*- C++ -*-===//
/// \file
/// What the Python around a launch guarantees about its integers, read
/// without running it: `assert A % D == 0` and `if A % D != 0: raise ...`,
/// `assert X == Y` and `if X != Y: raise ...`, in the launching function
/// before the launch and in the functions it calls first (a validator, in
/// its module or one it imports: HostNames), with the callee's parameters
/// bound to the caller's arguments. Terms are compared by keys that mean the
/// same value in every scope (`dim(n:x,1)` for the launcher's `n` of
/// `m, n = x.shape` and for a validator's `A.shape[1]` called with x as A;
/// `#128` for a constant). A fact holds from where it is stated: a callee's
/// checks after a possible `return` say nothing, and a name rebound from
/// itself (`n = n // 2`) is not the one an earlier fact named.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_HOSTFACTS_H
#define TESSEL_COMPILER_SEMA_HOSTFACTS_H

#include "compiler/frontend/Ast.h"
#include "compiler/sema/HostNames.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::sema {

/// The integer literal E writes (`-3` included), if any.
std::optional<int64_t> hostIntLiteral(const ast::Expr *E);

/// The value the last `Name = ...` (or `def Name(...): return ...`) before R
/// in F binds, or null.
const ast::Expr *hostLocalDefinition(const ast::FunctionDefStmt &F, const std::string &Name, SourceRange R);

/// The facts Host states before At (its statements, and the calls among
/// them into functions Names can find).
class HostFacts {
public:
  HostFacts(const ast::FunctionDefStmt *Host, SourceRange At, const HostNames &Names);
  ~HostFacts();
  HostFacts(const HostFacts &) = delete;
  HostFacts &operator=(const HostFacts &) = delete;

  /// Whether `cdiv(N, B)` in Host at At is exact: a stated `A % D == 0`
  /// with N a multiple of A (equal, a product with such a factor,
  /// `x.numel()` with A a dimension of x), and B the same term as D or each
  /// of B's Values (when B is no one term: a config's `meta["G"]`) a divisor
  /// of D's value.
  bool exact(const ast::Expr *N, const ast::Expr *B, const std::vector<int64_t> &Values);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_HOSTFACTS_H
