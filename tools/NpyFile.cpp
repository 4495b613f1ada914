//===- NpyFile.cpp - buffers as NumPy .npy files --------------------------===//
#include "tools/NpyFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

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

int64_t NpyArray::elements() const {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

/// The text after `'Key':` in a header dict, blanks skipped; npos when absent.
static size_t valueOf(std::string_view Header, std::string_view Key) {
  std::string Quoted = "'" + std::string(Key) + "'";
  size_t At = Header.find(Quoted);
  if (At == std::string_view::npos)
    return At;
  At = Header.find(':', At + Quoted.size());
  if (At == std::string_view::npos)
    return At;
  return Header.find_first_not_of(" ", At + 1);
}

bool parseNpy(std::string_view Data, NpyArray &Out, std::string &Error) {
  if (Data.size() < 10 || Data.substr(0, 6) != "\x93NUMPY") {
    Error = "not a .npy file";
    return false;
  }
  auto Byte = [&](size_t I) { return static_cast<uint32_t>(static_cast<uint8_t>(Data[I])); };
  uint32_t Major = Byte(6);
  size_t LenBytes = Major == 1 ? 2 : 4;
  if (Major < 1 || Major > 3 || Data.size() < 8 + LenBytes) {
    Error = "unsupported .npy version " + std::to_string(Major);
    return false;
  }
  size_t HeaderLen = Byte(8) | Byte(9) << 8;
  if (LenBytes == 4)
    HeaderLen |= Byte(10) << 16 | Byte(11) << 24;
  size_t DataAt = 8 + LenBytes + HeaderLen;
  if (Data.size() < DataAt) {
    Error = "the .npy header is cut short";
    return false;
  }
  std::string_view Header = Data.substr(8 + LenBytes, HeaderLen);
  size_t D = valueOf(Header, "descr"), F = valueOf(Header, "fortran_order"), S = valueOf(Header, "shape");
  if (D == std::string_view::npos || Header[D] != '\'' || F == std::string_view::npos || S == std::string_view::npos ||
      Header[S] != '(') {
    Error = "the .npy header lacks 'descr', 'fortran_order' or 'shape'";
    return false;
  }
  size_t DEnd = Header.find('\'', D + 1);
  size_t SEnd = Header.find(')', S);
  if (DEnd == std::string_view::npos || SEnd == std::string_view::npos) {
    Error = "the .npy header is malformed";
    return false;
  }
  Out.Descr = std::string(Header.substr(D + 1, DEnd - D - 1));
  Out.FortranOrder = Header.substr(F, 4) == "True";
  Out.Shape.clear();
  std::stringstream Dims(std::string(Header.substr(S + 1, SEnd - S - 1)));
  std::string Dim;
  while (std::getline(Dims, Dim, ',')) {
    size_t B = Dim.find_first_not_of(' ');
    if (B == std::string::npos)
      continue; // "(3,)": the empty piece after the comma
    char *End = nullptr;
    long long V = std::strtoll(Dim.c_str() + B, &End, 10);
    if (V < 0 || End == Dim.c_str() + B) {
      Error = "the .npy shape is malformed";
      return false;
    }
    Out.Shape.push_back(V);
  }
  // The element size is the descr's number: '<f4' -> 4, '|b1' -> 1.
  int64_t ItemSize = std::atoll(Out.Descr.c_str() + std::min<size_t>(2, Out.Descr.size()));
  if (Out.Descr.size() < 3 || ItemSize <= 0) {
    Error = "unsupported .npy dtype '" + Out.Descr + "'";
    return false;
  }
  uint64_t Need = static_cast<uint64_t>(Out.elements()) * static_cast<uint64_t>(ItemSize);
  if (Data.size() - DataAt != Need) {
    Error = std::to_string(Data.size() - DataAt) + " data bytes where " + std::to_string(Out.elements()) + " '" +
            Out.Descr + "' elements need " + std::to_string(Need);
    return false;
  }
  Out.Bytes.assign(reinterpret_cast<const uint8_t *>(Data.data()) + DataAt,
                   reinterpret_cast<const uint8_t *>(Data.data()) + Data.size());
  return true;
}

bool readNpy(const std::string &Path, NpyArray &Out, std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = std::strerror(errno);
    return false;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  return parseNpy(SS.str(), Out, Error);
}

} // namespace tessel::tools
