//===- Types.cpp - Triton's value types -----------------------------------===//
/// \file
/// Names, classification and printing of Triton's scalar, pointer and block
/// types, in both tessel's compact form and Triton's own spelling.
//===----------------------------------------------------------------------===//
#include "compiler/types/Types.h"

#include <array>

namespace tessel {
namespace {
struct ScalarInfo {
  ScalarKind Kind;
  std::string_view Short;    ///< Triton's dtype.name
  std::string_view Language; ///< attribute of triton.language
  int Bits;
};
} // namespace

static constexpr std::array<ScalarInfo, 20> Scalars = {{
    {ScalarKind::Void, "void", "void", 0},
    {ScalarKind::I1, "int1", "int1", 1},
    {ScalarKind::I8, "int8", "int8", 8},
    {ScalarKind::I16, "int16", "int16", 16},
    {ScalarKind::I32, "int32", "int32", 32},
    {ScalarKind::I64, "int64", "int64", 64},
    {ScalarKind::U8, "uint8", "uint8", 8},
    {ScalarKind::U16, "uint16", "uint16", 16},
    {ScalarKind::U32, "uint32", "uint32", 32},
    {ScalarKind::U64, "uint64", "uint64", 64},
    {ScalarKind::FP8E4NV, "fp8e4nv", "float8e4nv", 8},
    {ScalarKind::FP8E4B8, "fp8e4b8", "float8e4b8", 8},
    {ScalarKind::FP8E4B15, "fp8e4b15", "float8e4b15", 8},
    {ScalarKind::FP8E5, "fp8e5", "float8e5", 8},
    {ScalarKind::FP8E5B16, "fp8e5b16", "float8e5b16", 8},
    {ScalarKind::FP16, "fp16", "float16", 16},
    {ScalarKind::BF16, "bf16", "bfloat16", 16},
    {ScalarKind::FP32, "fp32", "float32", 32},
    {ScalarKind::FP64, "fp64", "float64", 64},
    {ScalarKind::Unknown, "?", "?", 0},
}};

static const ScalarInfo &info(ScalarKind K) { return Scalars[static_cast<size_t>(K)]; }

std::string_view shortName(ScalarKind K) { return info(K).Short; }
std::string_view languageName(ScalarKind K) { return info(K).Language; }
int bitWidth(ScalarKind K) { return info(K).Bits; }

std::optional<ScalarKind> scalarKindFromLanguageName(std::string_view Name) {
  for (const ScalarInfo &I : Scalars)
    if (I.Kind != ScalarKind::Unknown && I.Kind != ScalarKind::Void && I.Language == Name)
      return I.Kind;
  // Aliases triton.language exports.
  if (Name == "float8e4" || Name == "float8_e4m3fn")
    return ScalarKind::FP8E4NV;
  if (Name == "float8_e5m2")
    return ScalarKind::FP8E5;
  if (Name == "float")
    return ScalarKind::FP32;
  if (Name == "half")
    return ScalarKind::FP16;
  if (Name == "double")
    return ScalarKind::FP64;
  return std::nullopt;
}

bool isFP8(ScalarKind K) { return K >= ScalarKind::FP8E4NV && K <= ScalarKind::FP8E5B16; }
bool isFloat(ScalarKind K) { return K >= ScalarKind::FP8E4NV && K <= ScalarKind::FP64; }
bool isInt(ScalarKind K) { return K >= ScalarKind::I1 && K <= ScalarKind::U64; }
bool isUnsigned(ScalarKind K) { return K >= ScalarKind::U8 && K <= ScalarKind::U64; }

std::optional<bool> dtypePredicate(ScalarKind K, std::string_view What) {
  static const std::pair<std::string_view, ScalarKind> Exact[] = {
      {"is_fp8e4nv", ScalarKind::FP8E4NV}, {"is_fp8e4b8", ScalarKind::FP8E4B8},   {"is_fp8e4b15", ScalarKind::FP8E4B15},
      {"is_fp8e5", ScalarKind::FP8E5},     {"is_fp8e5b16", ScalarKind::FP8E5B16}, {"is_fp16", ScalarKind::FP16},
      {"is_bf16", ScalarKind::BF16},       {"is_fp32", ScalarKind::FP32},         {"is_fp64", ScalarKind::FP64},
      {"is_int1", ScalarKind::I1},         {"is_bool", ScalarKind::I1},           {"is_int8", ScalarKind::I8},
      {"is_int16", ScalarKind::I16},       {"is_int32", ScalarKind::I32},         {"is_int64", ScalarKind::I64},
      {"is_uint8", ScalarKind::U8},        {"is_uint16", ScalarKind::U16},        {"is_uint32", ScalarKind::U32},
      {"is_uint64", ScalarKind::U64}};
  for (const auto &[Name, Kind] : Exact)
    if (What == Name)
      return K == Kind;
  bool Unsigned = K == ScalarKind::I1 || isUnsigned(K);
  if (What == "is_fp8")
    return isFP8(K);
  if (What == "is_floating")
    return isFloat(K);
  if (What == "is_standard_floating")
    return K == ScalarKind::FP16 || K == ScalarKind::BF16 || K == ScalarKind::FP32 || K == ScalarKind::FP64;
  if (What == "is_int_signed")
    return isInt(K) && !Unsigned;
  if (What == "is_int_unsigned")
    return Unsigned;
  if (What == "is_int")
    return isInt(K);
  if (What == "is_block" || What == "is_ptr")
    return false;
  return std::nullopt;
}

std::string ElemType::str() const {
  std::string S(shortName(Scalar));
  for (int I = 0; I < PointerDepth; ++I)
    S = (IsConst && I == PointerDepth - 1 ? "const_pointer<" : "pointer<") + S + ">";
  return S;
}

std::optional<int64_t> TileType::numel() const {
  int64_t N = 1;
  for (int64_t D : Shape) {
    if (D == UnknownDim)
      return std::nullopt;
    N *= D;
  }
  return N;
}

bool TileType::hasUnknownDim() const {
  for (int64_t D : Shape)
    if (D == UnknownDim)
      return true;
  return false;
}

static std::string shapeStr(const std::vector<int64_t> &Shape) {
  std::string S = "[";
  for (size_t I = 0; I < Shape.size(); ++I) {
    if (I)
      S += ", ";
    S += Shape[I] == TileType::UnknownDim ? std::string("?") : std::to_string(Shape[I]);
  }
  return S + "]";
}

std::string TileType::str() const {
  if (!isBlock())
    return Elem.str();
  return shapeStr(Shape) + " " + Elem.str();
}

std::string TileType::tensorRepr() const {
  std::string S = Elem.str() + "[";
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? ", " : "") + (Shape[I] == UnknownDim ? std::string("?") : std::to_string(Shape[I]));
  return S + "]";
}

std::string TileType::tritonStr() const {
  if (!isBlock())
    return Elem.str();
  // block_type.__str__ prints its shape list, whose entries are strings.
  std::string S = "<[";
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? ", '" : "'") + (Shape[I] == UnknownDim ? std::string("?") : std::to_string(Shape[I])) + "'";
  return S + "], " + Elem.str() + ">";
}

BlockShapeProblem blockShapeProblem(const std::vector<int64_t> &Shape) {
  bool Known = true;
  for (size_t I = 0; I < Shape.size(); ++I) {
    if (Shape[I] == TileType::UnknownDim) {
      Known = false;
      continue;
    }
    if (Shape[I] < 0 || (Shape[I] & (Shape[I] - 1)))
      return {"Shape element " + std::to_string(I) + " must be a power of 2", static_cast<int>(I)};
  }
  if (!Known)
    return {};
  int64_t Numel = 1;
  bool Overflow = false;
  for (int64_t D : Shape)
    Overflow |= __builtin_mul_overflow(Numel, D, &Numel);
  if (Overflow || Numel > MaxTensorNumel)
    return {"numel (" + (Overflow ? std::string("more than 2**63") : std::to_string(Numel)) +
                ") exceeds triton maximum tensor numel (" + std::to_string(MaxTensorNumel) + ")",
            -1};
  return {};
}

} // namespace tessel
