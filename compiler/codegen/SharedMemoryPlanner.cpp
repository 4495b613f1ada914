//===- SharedMemoryPlanner.cpp - liveness and packing of shared buffers ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// First-fit interval packing, largest buffer first, as SharedMemoryPlanner.h
/// describes. Kernels have tens of buffers, so the quadratic search is fine.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/SharedMemoryPlanner.h"

#include <algorithm>
#include <numeric>

namespace tessel::codegen {

const char *sharedBufferKindName(SharedBufferKind K) {
  switch (K) {
  case SharedBufferKind::LayoutConversion:
    return "layout conversion";
  case SharedBufferKind::ReduceScratch:
    return "reduction scratch";
  case SharedBufferKind::ScanScratch:
    return "scan scratch";
  case SharedBufferKind::AtomicScratch:
    return "atomic scratch";
  case SharedBufferKind::ShapeScratch:
    return "shape op scratch";
  case SharedBufferKind::HistogramBins:
    return "histogram bins";
  case SharedBufferKind::DotOperand:
    return "dot operand";
  case SharedBufferKind::PipelineStage:
    return "pipeline stages";
  case SharedBufferKind::TmaBuffer:
    return "TMA buffer";
  case SharedBufferKind::Barrier:
    return "mbarrier";
  }
  return "buffer";
}

static uint64_t alignUp(uint64_t V, uint64_t Align) { return (V + Align - 1) / Align * Align; }

unsigned SharedMemoryPlanner::open(SharedBufferKind K, std::string What, uint64_t Bytes, SourceRange Where,
                                   unsigned Stages, unsigned Align) {
  SharedBuffer Buf;
  Buf.Align = std::max(16u, Align);
  Buf.Kind = K;
  Buf.What = std::move(What);
  Buf.Bytes = Bytes;
  Buf.Stages = Stages;
  Buf.Where = Where;
  Buf.Begin = Buf.End = Point;
  Buffers.push_back(std::move(Buf));
  Closed.push_back(false);
  return static_cast<unsigned>(Buffers.size() - 1);
}

void SharedMemoryPlanner::close(unsigned Id) {
  if (Id >= Buffers.size() || Closed[Id])
    return;
  Buffers[Id].End = Point;
  Closed[Id] = true;
}

static bool overlap(const SharedBuffer &A, const SharedBuffer &B) { return A.Begin <= B.End && B.Begin <= A.End; }

void SharedMemoryPlanner::plan() {
  for (size_t I = 0; I < Buffers.size(); ++I)
    if (!Closed[I])
      Buffers[I].End = Point;
  std::vector<size_t> Order(Buffers.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Buffers[A].Bytes != Buffers[B].Bytes)
      return Buffers[A].Bytes > Buffers[B].Bytes;
    return Buffers[A].Begin < Buffers[B].Begin;
  });
  std::vector<size_t> Placed;
  Total = 0;
  for (size_t I : Order) {
    SharedBuffer &Buf = Buffers[I];
    // Byte ranges taken by placed buffers live at the same time, by start.
    std::vector<std::pair<uint64_t, uint64_t>> Taken;
    for (size_t J : Placed)
      if (overlap(Buf, Buffers[J]) && Buffers[J].Bytes)
        Taken.emplace_back(Buffers[J].Offset, Buffers[J].Offset + Buffers[J].Bytes);
    std::sort(Taken.begin(), Taken.end());
    uint64_t Off = 0;
    for (const auto &[Lo, Hi] : Taken) {
      if (Off + Buf.Bytes <= Lo)
        break;
      Off = std::max(Off, alignUp(Hi, Buf.Align));
    }
    Buf.Offset = Off;
    Placed.push_back(I);
    if (Buf.Bytes)
      Total = std::max(Total, Off + Buf.Bytes);
  }
}

std::vector<SharedBuffer> SharedMemoryPlanner::peak() const {
  std::vector<SharedBuffer> Best;
  uint64_t BestBytes = 0;
  for (const SharedBuffer &At : Buffers) {
    // The live set can only grow at a buffer's first point.
    std::vector<SharedBuffer> Live;
    uint64_t Bytes = 0;
    for (const SharedBuffer &B : Buffers)
      if (B.Begin <= At.Begin && At.Begin <= B.End) {
        Live.push_back(B);
        Bytes += B.Bytes;
      }
    if (Bytes > BestBytes) {
      BestBytes = Bytes;
      Best = std::move(Live);
    }
  }
  std::stable_sort(Best.begin(), Best.end(),
                   [](const SharedBuffer &A, const SharedBuffer &B) { return A.Bytes > B.Bytes; });
  return Best;
}

} // namespace tessel::codegen
