//===- TorchDTypes.cpp - torch dtype names and Triton's -------------------===//
/// \file
/// One table: PyTorch's dtype attributes (aliases included), Triton's short
/// names for them and their sizes.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/TorchDTypes.h"

#include <array>
#include <string_view>

namespace tessel::torchdtypes {

namespace {
struct DTypeName {
  std::string_view Torch;  ///< the attribute of `torch`
  std::string_view Triton; ///< Triton's short name
  int Bytes;
};
} // namespace

/// Aliases first map to the canonical spelling `x.dtype` gives back.
static constexpr std::array<DTypeName, 24> DTypes = {{
    {"float32", "fp32", 4},
    {"float", "fp32", 4},
    {"float16", "fp16", 2},
    {"half", "fp16", 2},
    {"bfloat16", "bf16", 2},
    {"float64", "fp64", 8},
    {"double", "fp64", 8},
    {"int8", "i8", 1},
    {"int16", "i16", 2},
    {"short", "i16", 2},
    {"int32", "i32", 4},
    {"int", "i32", 4},
    {"int64", "i64", 8},
    {"long", "i64", 8},
    {"uint8", "u8", 1},
    {"uint16", "u16", 2},
    {"uint32", "u32", 4},
    {"uint64", "u64", 8},
    {"bool", "i1", 1},
    {"float8_e4m3fn", "fp8e4nv", 1},
    {"float8_e5m2", "fp8e5", 1},
    {"float8_e4m3fnuz", "fp8e4b8", 1},
    {"float8_e5m2fnuz", "fp8e5b16", 1},
    {"complex64", "", 8},
}};

std::string tritonDType(const PyValue &V) {
  if (V.kind() != PyValue::Kind::Qualified)
    return "";
  std::string_view P = V.qualifiedPath();
  if (P.substr(0, 6) != "torch.")
    return "";
  P.remove_prefix(6);
  for (const DTypeName &D : DTypes)
    if (D.Torch == P)
      return std::string(D.Triton);
  return "";
}

PyValue torchDType(const std::string &Triton) {
  for (const DTypeName &D : DTypes)
    if (D.Triton == Triton)
      return PyValue::qualified("torch." + std::string(D.Torch));
  return PyValue();
}

int elementBytes(const std::string &Triton) {
  for (const DTypeName &D : DTypes)
    if (D.Triton == Triton)
      return D.Bytes;
  return 0;
}

} // namespace tessel::torchdtypes
