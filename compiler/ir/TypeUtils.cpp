//===- TypeUtils.cpp - element-type facts the IR layers need --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Implements the element-type queries of TypeUtils.h with one table.
//===----------------------------------------------------------------------===//
#include "compiler/ir/TypeUtils.h"

#include <array>

namespace tessel::ir {

namespace {
struct ScalarRow {
  ScalarKind Kind;
  std::string_view Name;
  int Bits;
  bool Float;
  bool Signed;
};
} // namespace

static constexpr std::array<ScalarRow, 19> Rows = {{
    {ScalarKind::Void, "void", 0, false, false},
    {ScalarKind::I1, "i1", 1, false, false},
    {ScalarKind::I8, "i8", 8, false, true},
    {ScalarKind::I16, "i16", 16, false, true},
    {ScalarKind::I32, "i32", 32, false, true},
    {ScalarKind::I64, "i64", 64, false, true},
    {ScalarKind::U8, "u8", 8, false, false},
    {ScalarKind::U16, "u16", 16, false, false},
    {ScalarKind::U32, "u32", 32, false, false},
    {ScalarKind::U64, "u64", 64, false, false},
    {ScalarKind::FP8E4NV, "fp8e4nv", 8, true, true},
    {ScalarKind::FP8E4B8, "fp8e4b8", 8, true, true},
    {ScalarKind::FP8E4B15, "fp8e4b15", 8, true, true},
    {ScalarKind::FP8E5, "fp8e5", 8, true, true},
    {ScalarKind::FP8E5B16, "fp8e5b16", 8, true, true},
    {ScalarKind::FP16, "fp16", 16, true, true},
    {ScalarKind::BF16, "bf16", 16, true, true},
    {ScalarKind::FP32, "fp32", 32, true, true},
    {ScalarKind::FP64, "fp64", 64, true, true},
}};

static const ScalarRow &row(ScalarKind K) { return Rows[static_cast<size_t>(K)]; }

bool isFloatScalar(ScalarKind K) { return row(K).Float; }
bool isIntScalar(ScalarKind K) { return K != ScalarKind::Void && !row(K).Float; }
bool isSignedScalar(ScalarKind K) { return row(K).Signed; }
int scalarBits(ScalarKind K) { return row(K).Bits; }
std::string_view scalarName(ScalarKind K) { return row(K).Name; }

std::optional<ScalarKind> scalarFromName(std::string_view Name) {
  for (const ScalarRow &R : Rows)
    if (R.Name == Name)
      return R.Kind;
  return std::nullopt;
}

int elemBytes(const ElemType &E) {
  if (E.isPointer())
    return 8;
  int Bits = scalarBits(E.Scalar);
  return Bits <= 8 ? 1 : Bits / 8;
}

std::string elemString(const ElemType &E) {
  return std::string(E.PointerDepth, '*') + std::string(scalarName(E.Scalar));
}

std::string typeString(const TileType &T) {
  if (T.Shape.empty())
    return elemString(T.Elem);
  std::string S = "[";
  for (size_t I = 0; I < T.Shape.size(); ++I) {
    if (I)
      S += ", ";
    S += std::to_string(T.Shape[I]);
  }
  return S + "] " + elemString(T.Elem);
}

int64_t numElements(const TileType &T) {
  int64_t N = 1;
  for (int64_t D : T.Shape)
    N *= D;
  return N;
}

} // namespace tessel::ir
