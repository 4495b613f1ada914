//===- BuiltinCall.h - binding and helpers for tl.* builtins -----*- C++ -*-===//
/// \file
/// A call of a `triton.language` builtin, bound to its Python signature the
/// way Python binds arguments (positional, keyword, defaults, *varargs), with
/// the constexpr requirement of each parameter marked `:C` (facts §1). The
/// builtin families (shapes, memory, math...) are one file each and register
/// their handlers in one table (Builtins.cpp).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_BUILTINCALL_H
#define TESSEL_COMPILER_SEMA_BUILTINCALL_H

#include "compiler/sema/KernelChecker.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::sema {

struct BuiltinParam {
  std::string Name;
  bool Constexpr = false;
  bool HasDefault = false;
  bool VarArgs = false;
};

class BuiltinCall {
public:
  BuiltinCall(KernelChecker &C, std::string_view Name, const ast::CallExpr *Call) : C(C), Name(Name), Call(Call) {}

  KernelChecker &C;
  std::string Name;
  const ast::CallExpr *Call;
  std::vector<BuiltinParam> Params;
  std::vector<std::optional<Arg>> Bound; ///< per parameter; nullopt = not given (default)
  std::vector<Arg> Rest;                 ///< the *varargs parameter's arguments

  /// Binds Args/Kw to Params as Python would; reports BadCall and returns
  /// false on mismatch.
  bool bind(std::vector<Arg> Args, std::vector<std::pair<std::string, Arg>> Kw);

  const Arg *get(std::string_view Param) const;
  /// The argument's value, or a constexpr None when it was not given.
  Value value(std::string_view Param) const;
  bool given(std::string_view Param) const;
  /// Given and not a constexpr None.
  bool present(std::string_view Param) const;
  SourceRange range() const { return Call->Range; }
  SourceRange rangeOf(std::string_view Param) const;

  void error(ProblemKind K, std::string Message) { C.error(K, Call->Range, std::move(Message)); }
  void errorAt(ProblemKind K, SourceRange R, std::string Message) { C.error(K, R, std::move(Message)); }

  /// A constexpr int parameter: its value, nullopt when unknown (or after an
  /// error, reported here, when the argument is a tensor).
  std::optional<int64_t> constInt(std::string_view Param);
  /// A dtype parameter (`tl.float16`): the scalar kind, nullopt if unknown.
  std::optional<ScalarKind> dtype(std::string_view Param);
  /// A shape given as one tuple/list argument or as *varargs; dims may be
  /// UnknownDim. nullopt after a reported error.
  std::optional<std::vector<int64_t>> shape(std::string_view Param);
  /// Any tensor argument Poison?
  bool anyPoison() const;
};

/// `axis` normalisation (negative axes count from the end); nullopt when out
/// of range.
std::optional<size_t> normaliseAxis(int64_t Axis, size_t Rank);

/// The element type standard.max / standard.min reduce in (without
/// return_indices): floats narrower than 32 bits become fp32, narrower
/// integers and bool int32.
ElemType widenedMinMaxType(ElemType E);

/// Handlers, one per builtin family; each returns the call's value.
using BuiltinHandler = Value (*)(BuiltinCall &);
struct BuiltinEntry {
  std::string_view Name;
  std::string_view Signature; ///< "pointer, mask=, other=, boundary_check:C=, *shape:C"
  BuiltinHandler Handler;
};
const std::vector<BuiltinEntry> &shapeBuiltins();
const std::vector<BuiltinEntry> &memoryBuiltins();
const std::vector<BuiltinEntry> &mathBuiltins();
const std::vector<BuiltinEntry> &reductionBuiltins();
const std::vector<BuiltinEntry> &miscBuiltins();

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_BUILTINCALL_H
