//===- TypeUtils.h - element-type facts the IR layers need ------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Small queries over sema's ScalarKind / TileType that the IR, its printer,
/// the verifier and the interpreter need. They live here, not in sema, so the
/// IR does not depend on sema's implementation file: only on its types.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_IR_TYPEUTILS_H
#define TESSEL_COMPILER_IR_TYPEUTILS_H

#include "compiler/types/Types.h"

#include <optional>
#include <string>
#include <string_view>

namespace tessel::ir {

bool isFloatScalar(ScalarKind K);
bool isIntScalar(ScalarKind K); ///< includes i1 and unsigned
bool isSignedScalar(ScalarKind K);
int scalarBits(ScalarKind K);
/// Bytes an element occupies in memory: pointers 8, i1 1 (Triton stores bools as bytes).
int elemBytes(const ElemType &E);
/// "i32", "u8", "fp16", "bf16", "fp8e4nv"...
std::string_view scalarName(ScalarKind K);
std::optional<ScalarKind> scalarFromName(std::string_view Name);
/// "fp32", "*fp16".
std::string elemString(const ElemType &E);
/// "i32", "[1024] i32", "[64, 32] *fp16".
std::string typeString(const TileType &T);
int64_t numElements(const TileType &T);

inline TileType scalarType(ScalarKind K) { return {{K, 0, false}, {}}; }
inline TileType tileType(ScalarKind K, std::vector<int64_t> Shape) { return {{K, 0, false}, std::move(Shape)}; }
inline TileType withElem(const TileType &T, ElemType E) { return {E, T.Shape}; }
inline TileType withShape(const TileType &T, std::vector<int64_t> Shape) { return {T.Elem, std::move(Shape)}; }

} // namespace tessel::ir

#endif // TESSEL_COMPILER_IR_TYPEUTILS_H
