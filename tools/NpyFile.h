//===- NpyFile.h - buffers as NumPy .npy files ------------------*- C++ -*-===//
/// \file
/// `tessel run --save DIR` writes each output as a NumPy format 1.0 file
/// (numpy.lib.format): magic, version 1.0, a little-endian header length,
/// then a Python dict literal with 'descr', 'fortran_order' and 'shape',
/// padded with spaces to a multiple of 64 bytes and ended by a newline,
/// then the raw little-endian data. Dtypes NumPy lacks (bf16 and the fp8
/// family) are written as their raw integer type (bf16 as '<u2', fp8 as
/// '|u1'); the caller says so to the user.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_NPYFILE_H
#define TESSEL_TOOLS_NPYFILE_H

#include "compiler/types/Types.h"

#include <cstdint>
#include <string>
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

} // namespace tessel::tools

#endif // TESSEL_TOOLS_NPYFILE_H
