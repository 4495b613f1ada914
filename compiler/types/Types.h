//===- Types.h - Triton's value types: scalars, pointers, tiles --*- C++ -*-===//
/// \file
/// A Triton value is a scalar or a block ("tile") of scalars. Element types
/// are Triton's dtypes (int1..int64, uint8..uint64, the fp8 family, fp16,
/// bf16, fp32, fp64) or pointers to them. Shapes are always compile-time
/// constants. Names follow Triton's own spelling (`fp32`, `i32`, `*fp16` in
/// signatures; `pointer<fp32>` in messages).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_TYPES_TYPES_H
#define TESSEL_COMPILER_TYPES_TYPES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

enum class ScalarKind {
  Void,
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  FP8E4NV,
  FP8E4B8,
  FP8E4B15,
  FP8E5,
  FP8E5B16,
  FP16,
  BF16,
  FP32,
  FP64,
  /// Not known statically (a pointer argument's element type comes from the
  /// tensor passed at launch). Checks that need the dtype stay silent.
  Unknown,
};

/// Triton's short name: "i32", "fp16", "bf16", "fp8e4nv", "u1" is spelled "i1".
std::string_view shortName(ScalarKind K);
/// `triton.language` attribute name: "int32", "float16", "bfloat16", "float8e4nv".
std::string_view languageName(ScalarKind K);
std::optional<ScalarKind> scalarKindFromLanguageName(std::string_view Name);
bool isFloat(ScalarKind K);
bool isFP8(ScalarKind K);
bool isInt(ScalarKind K); ///< includes I1 and unsigned
bool isUnsigned(ScalarKind K);
int bitWidth(ScalarKind K);
/// Triton's `dtype.is_<what>()` (is_fp16, is_int_signed, is_floating...) for
/// K; nullopt when What names no such predicate. Triton counts int1 among
/// the unsigned integers.
std::optional<bool> dtypePredicate(ScalarKind K, std::string_view What);

/// Element type: a scalar, or a pointer to one (pointers to pointers are
/// representable through PointeeDepth but rare).
struct ElemType {
  ScalarKind Scalar = ScalarKind::Void;
  int PointerDepth = 0; ///< 0 = plain scalar, 1 = pointer<Scalar>
  bool IsConst = false;

  bool isPointer() const { return PointerDepth > 0; }
  ElemType pointee() const { return {Scalar, PointerDepth - 1, false}; }
  ElemType pointerTo() const { return {Scalar, PointerDepth + 1, false}; }
  /// "fp32", "pointer<fp32>", "const_pointer<fp32>" (IsConst: the outermost
  /// pointer is a `tl.const` one).
  std::string str() const;
  friend bool operator==(const ElemType &A, const ElemType &B) {
    return A.Scalar == B.Scalar && A.PointerDepth == B.PointerDepth && A.IsConst == B.IsConst;
  }
};

/// A scalar (empty Shape) or a block of Shape.
struct TileType {
  ElemType Elem;
  /// Dimensions; UnknownDim where a constexpr that fixes it is unknown.
  std::vector<int64_t> Shape;
  static constexpr int64_t UnknownDim = -1;

  bool isBlock() const { return !Shape.empty(); }
  /// Product of the dimensions; nullopt when one is unknown.
  std::optional<int64_t> numel() const;
  bool hasUnknownDim() const;
  /// Triton's type string: "fp32", "<[1024], int32>" style is verbose; this
  /// prints the compact form tessel shows in hovers: "[64, 32] fp16",
  /// "pointer<fp32>", "[128] pointer<fp16>".
  std::string str() const;
  /// Triton's own spelling, as in its messages: "int32", "pointer<fp32>",
  /// "<['1024'], fp32>".
  std::string tritonStr() const;
  /// Triton's `tensor.__repr__` of a value of this type: "int32[]",
  /// "fp16[64, 32]".
  std::string tensorRepr() const;
  friend bool operator==(const TileType &A, const TileType &B) { return A.Elem == B.Elem && A.Shape == B.Shape; }
};

/// TRITON_MAX_TENSOR_NUMEL.
constexpr int64_t MaxTensorNumel = int64_t{1} << 20;

/// A problem of a block shape: Triton's message, and the dimension it is
/// about (-1 for the element count).
struct BlockShapeProblem {
  std::string Message;
  int Dim = -1;
  explicit operator bool() const { return !Message.empty(); }
};

/// Triton's validate_block_shape (language/_utils.py), the one check of a
/// block's dimensions wherever one is given (a tile's shape, a tensor
/// descriptor's block): its first problem in Triton's words ("Shape element
/// 1 must be a power of 2", "numel (2097152) exceeds triton maximum tensor
/// numel (1048576)"), or none. UnknownDim entries are skipped (and leave the
/// numel unchecked); 0 passes, as `0 & -1 == 0` does in Triton.
BlockShapeProblem blockShapeProblem(const std::vector<int64_t> &Shape);

} // namespace tessel

#endif // TESSEL_COMPILER_TYPES_TYPES_H
