//===- NpyFile.cpp - buffers as NumPy .npy files --------------------------===//
#include "tools/NpyFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace tessel::tools {

std::string npyDescr(ScalarKind K) {
  switch (K) {
  case ScalarKind::I1:
    return "|b1";
  case ScalarKind::I8:
    return "|i1";
  case ScalarKind::I16:
    return "<i2";
  case ScalarKind::I32:
    return "<i4";
  case ScalarKind::I64:
    return "<i8";
  case ScalarKind::U8:
  case ScalarKind::FP8E4NV:
  case ScalarKind::FP8E4B8:
  case ScalarKind::FP8E4B15:
  case ScalarKind::FP8E5:
  case ScalarKind::FP8E5B16:
    return "|u1";
  case ScalarKind::U16:
  case ScalarKind::BF16:
    return "<u2";
  case ScalarKind::U32:
    return "<u4";
  case ScalarKind::U64:
    return "<u8";
  case ScalarKind::FP16:
    return "<f2";
  case ScalarKind::FP32:
    return "<f4";
  case ScalarKind::FP64:
    return "<f8";
  case ScalarKind::Void:
  case ScalarKind::Unknown:
    break;
  }
  return "|u1";
}

bool npySavedAsRawBits(ScalarKind K) { return K == ScalarKind::BF16 || isFP8(K); }

std::string npyFile(ScalarKind K, const std::vector<int64_t> &Shape, const std::vector<uint8_t> &Bytes) {
  // Python's tuple syntax: "()", "(3,)", "(3, 4)".
  std::string Dims;
  for (size_t I = 0; I < Shape.size(); ++I)
    Dims += (I ? ", " : "") + std::to_string(Shape[I]);
  if (Shape.size() == 1)
    Dims += ',';
  std::string Dict = "{'descr': '" + npyDescr(K) + "', 'fortran_order': False, 'shape': (" + Dims + "), }";
  // Magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64.
  size_t Unpadded = 10 + Dict.size() + 1;
  Dict.append((64 - Unpadded % 64) % 64, ' ');
  Dict += '\n';
  std::string Out = "\x93NUMPY";
  Out += '\x01';
  Out += '\x00';
  Out += static_cast<char>(Dict.size() & 0xFF);
  Out += static_cast<char>((Dict.size() >> 8) & 0xFF);
  Out += Dict;
  Out.append(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  return Out;
}

bool writeNpy(const std::string &Path, ScalarKind K, const std::vector<int64_t> &Shape,
              const std::vector<uint8_t> &Bytes, std::string &Error) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  if (!Out) {
    Error = std::strerror(errno);
    return false;
  }
  std::string Data = npyFile(K, Shape, Bytes);
  Out.write(Data.data(), static_cast<std::streamsize>(Data.size()));
  Out.close();
  if (!Out) {
    Error = "write failed";
    return false;
  }
  return true;
}

} // namespace tessel::tools
