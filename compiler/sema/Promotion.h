//===- Promotion.h - Triton's broadcasting and type promotion ---*- C++ -*-===//
/// \file
/// The rules of `semantic.py` that decide the shape and element type of a
/// binary operation: broadcasting (`broadcast_impl_value`), the computation
/// type (`computation_type_impl` / `integer_promote_impl`), pointer operand
/// checks (`check_ptr_type_impl`), and the typing of Python literals
/// (`to_tensor`). Each function returns either its result or Triton's error
/// sentence, never both.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_PROMOTION_H
#define TESSEL_COMPILER_SEMA_PROMOTION_H

#include "compiler/frontend/PyValue.h"
#include "compiler/types/Types.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::sema {

template <typename T> struct OrError {
  std::optional<T> Result;
  std::string Error;
  static OrError ok(T V) { return {std::move(V), {}}; }
  static OrError fail(std::string E) { return {std::nullopt, std::move(E)}; }
  explicit operator bool() const { return Result.has_value(); }
};

/// `make_shape_compatible`: numpy-style broadcasting of two shapes (the
/// shorter gets leading 1s). Unknown dimensions broadcast silently.
OrError<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t> &L, const std::vector<int64_t> &R);

/// `broadcast_impl_shape`: can a tensor of shape From be broadcast to To?
std::string checkBroadcastTo(const std::vector<int64_t> &From, const std::vector<int64_t> &To);

/// Triton's repr of a type in error messages: "triton.language.float32" for
/// a scalar dtype, "pointer<fp32>", "<[1024], int32>" for blocks.
std::string typeRepr(const TileType &T);
std::string typeRepr(const ElemType &T);

/// The element type `to_tensor` gives a Python literal (int -> int32, then
/// uint32, int64, uint64; float -> fp32; bool -> int1), or an error.
OrError<ScalarKind> literalType(const PyValue &V);

struct BinaryOperand {
  ElemType Elem;
  bool IsPythonScalar = false; ///< a constexpr number, not a tensor
  PyValue Literal;             ///< the constexpr's value when IsPythonScalar
};

/// The operation whose typing rules apply. Select is tl.where's pairing of x
/// and y (pointers allowed on both sides, never added); Compare and MinMax
/// take tensors only (their operands went through to_tensor first).
enum class ArithKind { AddSub, Add, Sub, MulLike, TrueDiv, FloorDivMod, Bitwise, Shift, Compare, MinMax, Select };

/// integer_promote_impl: C's usual arithmetic conversions on two integer
/// types (the wider wins; at equal width the unsigned one).
ScalarKind integerPromote(ScalarKind A, ScalarKind B);

/// The element type the operation computes in (before the result type: a
/// comparison yields int1, truediv a float). Handles pointer arithmetic.
OrError<ElemType> binaryComputationType(const BinaryOperand &L, const BinaryOperand &R, ArithKind Op);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_PROMOTION_H
