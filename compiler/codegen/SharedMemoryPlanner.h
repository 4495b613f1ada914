//===- SharedMemoryPlanner.h - liveness and packing of shared buffers -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every byte of shared memory a kernel uses is a SharedBuffer that the
/// lowerings ask the planner for while they emit code: a layout conversion's
/// round trip, a reduction's or a scan's scratch, an atomic's broadcast
/// slot, the two operand tiles of a `tl.dot`, later the ring of a pipelined
/// loop. The planner is Triton's Allocation analysis (lib/Analysis/
/// Allocation.cpp) in small:
///
///  - Liveness is an interval of program points. The lowering context steps
///    the point before each op and before each buffer it opens, so two
///    buffers of one op are disjoint unless the first is kept open while the
///    second is used (a dot's a and b tiles are both read in its k loop).
///    A buffer that lives across a loop is opened before it and closed after.
///  - Reuse: buffers whose intervals do not overlap may share bytes. Every
///    use starts after a barrier (LoweringContext), so a later buffer never
///    overwrites bytes an earlier one is still reading.
///  - Packing: Triton's own (computeOffsets): buffers, largest first in the
///    order they were asked for, take first offsets from the paper's
///    triples (calculateStarts), then a first-fit colouring moves every
///    buffer not of colour 0 past the live buffers it overlaps until none
///    does. Its choices are not the tightest packing (a buffer can land
///    above a gap that would have held it), and they are the bytes Triton
///    reports. Offsets are multiples of the buffer's alignment: 16, 128 for
///    scratch, 128 x the swizzle's phases for NVMMA (1024 for 128-byte
///    swizzles). The total (largest end; not rounded, as Triton's) is the kernel's dynamic
///    shared memory: KernelABI::SharedBytes, Triton's `metadata["shared"]`.
///
/// The planner knows nothing of LLVM: the lowering context gives each buffer
/// a placeholder base and rewrites it to `global_smem + Offset` once plan()
/// has run (Codegen.cpp).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_SHAREDMEMORYPLANNER_H
#define TESSEL_COMPILER_CODEGEN_SHAREDMEMORYPLANNER_H

#include "compiler/support/SourceRange.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::codegen {

enum class SharedBufferKind {
  LayoutConversion, ///< registers of one layout through shared memory into another
  ReduceScratch,    ///< partial results across warps (or the whole operand, for a custom combine)
  ScanScratch,      ///< the scanned operand
  AtomicScratch,    ///< old values of a tile atomic, broadcast to the replicated threads
  ShapeScratch,     ///< reshape / permute / join / split / gather
  HistogramBins,    ///< tl.histogram's bins, counted with shared-memory atomics
  DotOperand,       ///< an operand tile of tl.dot
  PipelineStage,    ///< a ring of num_stages - 1 buffers of a pipelined load
  TmaBuffer,        ///< a host descriptor's block, copied by the tensor memory accelerator
  Barrier,          ///< an mbarrier the TMA copies complete on
  TensorMap,        ///< a tl.make_tensor_descriptor's tensor map, written before its copy to global scratch
};

/// "layout conversion", "reduction scratch", ...
const char *sharedBufferKindName(SharedBufferKind K);

struct SharedBuffer {
  SharedBufferKind Kind = SharedBufferKind::LayoutConversion;
  /// What is in it, for the report: "operand a of tl.dot: 128x64 fp16".
  std::string What;
  uint64_t Bytes = 0;
  /// Copies of one stage's tile (a ring); Bytes covers all of them.
  unsigned Stages = 1;
  /// The op that asked for it.
  SourceRange Where;
  /// Live over the program points [Begin, End].
  unsigned Begin = 0, End = 0;
  /// Offset is a multiple of it.
  uint64_t Align = 16;
  /// Set by plan().
  uint64_t Offset = 0;
};

class SharedMemoryPlanner {
public:
  /// A new program point (the lowering context steps before every op and
  /// before every buffer it opens).
  void step() { ++Point; }
  unsigned point() const { return Point; }

  /// A buffer live from the current point until close(Id), placed at a
  /// multiple of Align bytes (16 unless the hardware wants more: wgmma's
  /// swizzled operands 1024); returns Id.
  unsigned open(SharedBufferKind K, std::string What, uint64_t Bytes, SourceRange Where, unsigned Stages = 1,
                unsigned Align = 16);
  /// Ends buffer Id's life at the current point.
  void close(unsigned Id);
  /// Starts buffer Id's life at Point where that is earlier than it opened.
  void liveFrom(unsigned Id, unsigned Point) {
    if (Id < Buffers.size())
      Buffers[Id].Begin = std::min(Buffers[Id].Begin, Point);
  }

  /// Places every buffer (see the file comment); a buffer never closed
  /// lives to the end of the kernel.
  void plan();
  /// Dynamic shared memory the kernel needs: the largest offset + size over
  /// every buffer (not rounded: Triton's 2-warp reduction needs 8 bytes);
  /// 0 without buffers.
  uint64_t total() const { return Total; }
  const std::vector<SharedBuffer> &buffers() const { return Buffers; }

  /// The buffers live at the point where the most bytes are live: what takes
  /// the space (the overuse error lists them), largest first.
  std::vector<SharedBuffer> peak() const;

private:
  std::vector<SharedBuffer> Buffers;
  std::vector<bool> Closed;
  unsigned Point = 0;
  uint64_t Total = 0;
};

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_SHAREDMEMORYPLANNER_H
