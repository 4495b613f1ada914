//===- NpyFile.h - buffers as NumPy .npy files ------------------*- C++ -*-===//
/// \file
/// `tessel run --save DIR` writes each output as a NumPy format 1.0 file
/// (numpy.lib.format): magic, version 1.0, a little-endian header length,
/// then a Python dict literal with 'descr', 'fortran_order' and 'shape',
/// padded with spaces to a multiple of 64 bytes and ended by a newline,
/// then the raw little-endian data. Dtypes NumPy lacks (bf16 and the fp8
/// family) are written as their raw integer type (bf16 as '<u2', fp8 as
/// '|u1'); the caller says so to the user.
///
/// `tessel run --triton` reads back what Triton's runner saved with
/// numpy.save (versions 1.0 to 3.0 of the format): parseNpy checks the magic,
/// the header's three keys and that the data holds shape's elements.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_NPYFILE_H
#define TESSEL_TOOLS_NPYFILE_H

#include "compiler/types/Types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::tools {

/// NumPy's dtype descr for an element type ('<f4', '<f2', '|b1'...).
std::string npyDescr(ScalarKind K);
/// True when K has no NumPy dtype and is saved as its raw bits.
bool npySavedAsRawBits(ScalarKind K);

/// The complete file: header and data.
std::string npyFile(ScalarKind K, const std::vector<int64_t> &Shape, const std::vector<uint8_t> &Bytes);

/// Writes npyFile(...) to Path; false with Error set when it cannot.
bool writeNpy(const std::string &Path, ScalarKind K, const std::vector<int64_t> &Shape,
              const std::vector<uint8_t> &Bytes, std::string &Error);

/// A .npy file as read: its dtype descr ('<f4'), shape and raw data.
struct NpyArray {
  std::string Descr;
  std::vector<int64_t> Shape;
  bool FortranOrder = false;
  std::vector<uint8_t> Bytes;

  int64_t elements() const;
};

/// Parses the bytes of a .npy file; false with Error ("not a .npy file",
/// "the header has no 'shape'", "4000 data bytes where 1000 '<f4' elements
/// need 4000") when they are not one.
bool parseNpy(std::string_view Data, NpyArray &Out, std::string &Error);
bool readNpy(const std::string &Path, NpyArray &Out, std::string &Error);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_NPYFILE_H
