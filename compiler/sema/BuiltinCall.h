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

#include "compiler/ir/Builder.h"
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
  /// The argument's value, or a constexpr None when it was not given
  /// (valid while the call is checked).
  const Value &value(std::string_view Param) const;
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
  /// A dtype parameter that may also be a pointer type
  /// (`tl.pointer_type(tl.float16)`, what `.to(...)` accepts).
  std::optional<ElemType> elemType(std::string_view Param);
  /// A shape given as one tuple/list argument or as *varargs; dims may be
  /// UnknownDim. nullopt after a reported error.
  std::optional<std::vector<int64_t>> shape(std::string_view Param);
  /// Any tensor argument Poison?
  bool anyPoison() const;

  //===--- Emission (null / no-op in a diagnostics-only run) -----------===//
  ir::Builder *ir() const { return C.builder(); }
  /// The argument's IR value (a constexpr number becomes a constant).
  ir::Value *lower(std::string_view Param) { return C.lower(value(Param), rangeOf(Param)); }
  /// The argument converted to T as semantic.py's implicit casts and
  /// broadcasts do.
  ir::Value *lowerAs(std::string_view Param, const TileType &T) { return C.lowerAs(value(Param), T, rangeOf(Param)); }
  /// A constexpr string argument ("" when absent or unknown).
  std::string str(std::string_view Param) const;
  /// A constexpr bool argument (Default when absent or unknown).
  bool flag(std::string_view Param, bool Default = false) const;
};

/// `axis` normalisation (negative axes count from the end); nullopt when out
/// of range.
std::optional<size_t> normaliseAxis(int64_t Axis, size_t Rank);

/// standard._log2: the floor of log2 of a positive size (0 for 1).
int64_t standardLog2(int64_t N);

/// core.get_int_dtype(bitwidth, signed): int1 for one bit, else int<N> or
/// uint<N>; nullopt for a width Triton has no integer of.
std::optional<ScalarKind> intDtype(int64_t Bits, bool Signed);

/// The elements of a tuple or list argument (one Value for anything else).
std::vector<Value> elementsOf(const Value &V);

/// `tl.pointer_type(tl.float16)` is the constexpr
/// "triton.language.pointer_type(float16)"; this reads one back.
std::string pointerTypePath(ScalarKind Pointee);
std::optional<ElemType> pointerTypeFromPath(std::string_view Path);

/// The element type standard.max / standard.min reduce in (without
/// return_indices): floats narrower than 32 bits become fp32, narrower
/// integers and bool int32.
ElemType widenedMinMaxType(ElemType E);

/// The elementwise op of a one-operand math function ("exp", "sqrt", and
/// libdevice's "fabs"...), if the IR has one.
std::optional<ir::OpKind> unaryMathOp(std::string_view Name);

/// Emits a built-in reduction of X along Axis (nullopt: every axis, after
/// the reshape to 1-D Triton does), then keep_dims' unit dimensions.
ir::Value *emitReduce(BuiltinCall &B, ir::ReduceKind K, ir::Value *X, std::optional<int64_t> Axis, bool KeepDims,
                      bool TieBreakLeft = true);

/// A tl.store or atomic whose value (or another argument but the pointer and
/// mask) is Poison while the kernel has no error (a value tessel cannot type):
/// the access is still recorded from its pointer and mask, which are all the
/// masking check reads (the GEMV's `tl.atomic_add(c_ptrs, acc)` past N).
/// Nothing else is checked.
void recordPoisonedWrite(BuiltinCall &B);

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
const std::vector<BuiltinEntry> &sortBuiltins();

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_BUILTINCALL_H
