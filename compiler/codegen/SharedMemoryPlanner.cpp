//===- SharedMemoryPlanner.cpp - liveness and packing of shared buffers ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's offsets (Allocation.cpp's computeOffsets), as SharedMemoryPlanner.h
/// describes. Kernels have tens of buffers, so the quadratic searches are fine.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/SharedMemoryPlanner.h"

#include <algorithm>
#include <cstdint>
#include <map>

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
  case SharedBufferKind::TensorMap:
    return "tensor map";
  }
  return "buffer";
}

static uint64_t alignUp(uint64_t V, uint64_t Align) { return (V + Align - 1) / Align * Align; }

unsigned SharedMemoryPlanner::open(SharedBufferKind K, std::string What, uint64_t Bytes, SourceRange Where,
                                   unsigned Stages, unsigned Align) {
  SharedBuffer Buf;
  // Triton aligns every scratch buffer (a conversion's, a reduction's, ...)
  // to 128 bytes.
  bool Scratch = K == SharedBufferKind::LayoutConversion || K == SharedBufferKind::ReduceScratch ||
                 K == SharedBufferKind::ScanScratch || K == SharedBufferKind::AtomicScratch ||
                 K == SharedBufferKind::ShapeScratch || K == SharedBufferKind::HistogramBins;
  Buf.Align = std::max(Scratch ? 128u : 16u, Align);
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

namespace {
/// Program points [Start, End), as Triton's Interval.
struct Span {
  uint64_t Start = 0, End = UINT64_MAX;
  bool intersects(const Span &R) const { return Start < R.End && R.Start < End; }
};

Span liveness(const SharedBuffer &B) { return {B.Begin, uint64_t{B.End} + 1}; }
Span bytes(const SharedBuffer &B) { return {B.Offset, B.Offset + B.Bytes}; }

/// The first offsets (Triton's calculateStarts, after the paper's triples):
/// each free triple (offset, live span) takes the first buffer, largest
/// first, that is live in its span and in no other triple's; what the
/// buffer leaves of the span goes back at the same offset, and the space
/// above it opens at its end. Overlaps it cannot see are for colouring.
void firstOffsets(std::vector<SharedBuffer> &Buffers, const std::vector<size_t> &Order) {
  std::multimap<uint64_t, Span> Triples{{0, Span{}}};
  std::vector<size_t> Left = Order;
  while (!Left.empty() && !Triples.empty()) {
    auto [Offset, Range] = *Triples.begin();
    Triples.erase(Triples.begin());
    auto It = std::find_if(Left.begin(), Left.end(), [&](size_t I) {
      Span X = liveness(Buffers[I]);
      if (!X.intersects(Range))
        return false;
      return std::none_of(Triples.begin(), Triples.end(), [&](const auto &T) { return T.second.intersects(X); });
    });
    if (It == Left.end())
      continue;
    SharedBuffer &Buf = Buffers[*It];
    Span X = liveness(Buf);
    Buf.Offset = alignUp(Offset, Buf.Align);
    Triples.insert({Buf.Offset + Buf.Bytes, Span{std::max(Range.Start, X.Start), std::min(Range.End, X.End)}});
    if (Range.Start < X.Start)
      Triples.insert({Offset, Span{Range.Start, X.End}});
    if (X.End < Range.End)
      Triples.insert({Offset, Span{X.Start, Range.End}});
    Left.erase(It);
  }
}

/// Buffers live at the same time whose bytes overlap, by position in Order.
std::vector<std::vector<size_t>> interference(const std::vector<SharedBuffer> &Buffers,
                                              const std::vector<size_t> &Order, bool &Any) {
  std::vector<std::vector<size_t>> G(Order.size());
  Any = false;
  for (size_t X = 0; X < Order.size(); ++X)
    for (size_t Y = 0; Y < Order.size(); ++Y) {
      const SharedBuffer &A = Buffers[Order[X]], &B = Buffers[Order[Y]];
      if (X != Y && liveness(A).intersects(liveness(B)) && bytes(A).intersects(bytes(B))) {
        G[X].push_back(Y);
        Any = true;
      }
    }
  return G;
}
} // namespace

void SharedMemoryPlanner::plan() {
  for (size_t I = 0; I < Buffers.size(); ++I) {
    Buffers[I].Offset = 0;
    if (!Closed[I])
      Buffers[I].End = Point;
  }
  // Largest first, in the order the buffers were asked for (Triton's stable
  // sort over its program-order walk); empty buffers take no place.
  std::vector<size_t> Order;
  for (size_t I = 0; I < Buffers.size(); ++I)
    if (Buffers[I].Bytes)
      Order.push_back(I);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return Buffers[A].Bytes > Buffers[B].Bytes; });
  firstOffsets(Buffers, Order);
  // Triton's first-fit colouring: a buffer of colour 0 stays, any other
  // moves past every buffer it still overlaps; offsets only grow, so this
  // reaches a fixed point (the bound only guards against a planner bug).
  bool Any = false;
  std::vector<std::vector<size_t>> G = interference(Buffers, Order, Any);
  Total = 0;
  for (unsigned Round = 0; Round < 10000; ++Round) {
    std::vector<int> Color(Order.size(), -1);
    if (!Order.empty())
      Color[0] = 0;
    std::vector<bool> Free(Order.size());
    for (size_t X = 0; X < Order.size(); ++X) {
      std::fill(Free.begin(), Free.end(), true);
      for (size_t Y : G[X])
        if (Color[Y] >= 0)
          Free[static_cast<size_t>(Color[Y])] = false;
      Color[X] = static_cast<int>(std::find(Free.begin(), Free.end(), true) - Free.begin());
    }
    Total = 0;
    for (size_t X = 0; X < Order.size(); ++X) {
      SharedBuffer &Buf = Buffers[Order[X]];
      uint64_t Past = 0;
      for (size_t Y : G[X])
        Past = std::max(Past, Buffers[Order[Y]].Offset + Buffers[Order[Y]].Bytes);
      if (Color[X] != 0)
        Buf.Offset = alignUp(Past, Buf.Align);
      Total = std::max(Total, Buf.Offset + Buf.Bytes);
    }
    G = interference(Buffers, Order, Any);
    if (!Any)
      break;
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
