//===- BufferStats.h - what a run left in a buffer, in a few numbers -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The summary `tessel run` prints for each output: a checksum of the raw
/// bytes that anyone can recompute (CRC-32 as zlib.crc32 and
/// binascii.crc32 compute it, over the buffer's bytes as they would be
/// saved), min / max / mean of the finite values, NaN and Inf counts, how
/// many elements no store reached, and the first elements.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_BUFFERSTATS_H
#define TESSEL_COMPILER_INTERP_BUFFERSTATS_H

#include "compiler/interp/Memory.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::interp {

struct BufferStats {
  int64_t Elements = 0;
  uint32_t Crc32 = 0;
  /// Over the finite values; 0 when there is none.
  double Min = 0, Max = 0, Mean = 0;
  int64_t Finite = 0, NaNs = 0, Infs = 0;
  /// Output elements none of whose bytes was written (they read as zero).
  int64_t Unwritten = 0;
  std::vector<double> First; ///< decoded values of the first elements
};

BufferStats bufferStats(const Memory &Mem, uint32_t Id, size_t FirstCount = 8);

/// CRC-32 (IEEE 802.3, reflected, as zlib) of Size bytes.
uint32_t crc32(const uint8_t *Data, size_t Size);

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_BUFFERSTATS_H
