//===- MemoryOps.cpp - bounds-checked loads, stores and atomics -----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every masked-on lane resolves its pointer to (buffer, byte offset) and is
/// checked before memory is touched: a pointer naming no buffer, an element
/// that does not lie wholly inside its buffer, or a misaligned one is
/// recorded and the lane is skipped (a load gives `other`, or 0); a read of
/// output bytes never written is recorded and the read goes ahead. Masked-off
/// lanes are never checked: Triton does not access them either.
//===----------------------------------------------------------------------===//
#include "compiler/interp/ElementIO.h"
#include "compiler/interp/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tessel::interp {

using ir::AtomicKind;

/// Folds one violation into its site's summary.
static void countAtSite(RunResult &Result, const AccessViolation &V) {
  for (auto It = Result.Sites.rbegin(); It != Result.Sites.rend(); ++It) {
    ViolationSite &S = *It;
    if (S.Kind != V.Kind || !(S.Range == V.Range) || S.Op != V.Op || S.Buffer != V.Buffer)
      continue;
    ++S.Count;
    S.MinElementOffset = std::min(S.MinElementOffset, V.ElementOffset);
    S.MaxElementOffset = std::max(S.MaxElementOffset, V.ElementOffset);
    return;
  }
  Result.Sites.push_back(
      {V.Kind, V.Range, V.Op, V.Buffer, V.BufferElements, 1, V.ElementOffset, V.ElementOffset, V.ProgramId, V.Lane});
}

void ExecContext::violation(ViolationKind K, uint32_t BufferId, int64_t ElementOffset, int64_t Lane, const ir::Op &O) {
  ++Result.TotalViolations;
  AccessViolation V;
  V.Kind = K;
  if (Mem.valid(BufferId)) {
    V.Buffer = Mem.buffer(BufferId).Name;
    V.BufferElements = Mem.buffer(BufferId).numElements();
  }
  V.ElementOffset = ElementOffset;
  V.ProgramId = Pid;
  V.Lane = Lane;
  V.Range = O.loc();
  V.Op = O.kind();
  countAtSite(Result, V);
  if (Result.Violations.size() < Opts.MaxViolations)
    Result.Violations.push_back(std::move(V));
}

namespace {

int64_t floorDiv(int64_t A, int64_t B) { return A >= 0 ? A / B : -((-A + B - 1) / B); }

/// The address of a lane's element, or null after recording why there is none.
inline uint8_t *resolve(ExecContext &Ctx, int64_t P, int64_t Size, int64_t Lane, const ir::Op &O, bool Reads) {
  uint32_t Id = pointerBuffer(P);
  int64_t Off = pointerOffset(P);
  if (!Ctx.Mem.valid(Id)) {
    Ctx.violation(ViolationKind::InvalidPointer, 0, floorDiv(Off, Size), Lane, O);
    return nullptr;
  }
  Buffer &B = Ctx.Mem.buffer(Id);
  // The common case first: in bounds, aligned, not an unwritten output.
  // Element sizes are powers of two, so alignment is a mask test.
  if (Off >= 0 && Off + Size <= static_cast<int64_t>(B.Bytes.size()) && (Off & (Size - 1)) == 0 &&
      !(Reads && B.IsOutput))
    return B.Bytes.data() + Off;
  if (Off < 0 || Off + Size > static_cast<int64_t>(B.Bytes.size())) {
    Ctx.violation(ViolationKind::OutOfBounds, Id, floorDiv(Off, Size), Lane, O);
    return nullptr;
  }
  if (Off % Size != 0) {
    Ctx.violation(ViolationKind::Misaligned, Id, floorDiv(Off, Size), Lane, O);
    return nullptr;
  }
  if (Reads && B.IsOutput &&
      !std::all_of(B.Written.begin() + Off, B.Written.begin() + Off + Size, [](uint8_t W) { return W != 0; }))
    Ctx.violation(ViolationKind::UninitializedRead, Id, Off / Size, Lane, O);
  return B.Bytes.data() + Off;
}

void markWritten(ExecContext &Ctx, int64_t P, int64_t Size) {
  Buffer &B = Ctx.Mem.buffer(pointerBuffer(P));
  if (B.IsOutput)
    for (int64_t K = 0, Off = pointerOffset(P); K < Size; ++K)
      B.Written[Off + K] = 1;
}

bool laneOn(const Tile *Mask, size_t I) { return !Mask || Mask->Ints[Mask->size() == 1 ? 0 : I] != 0; }

/// The common case, checked once per op instead of once per lane: every
/// active lane points into the same buffer, wholly inside it and aligned,
/// and the op does not read an output (whose per-byte written flags need a
/// lane-by-lane look). Returns that buffer, with Bias such that a lane's
/// address is Data + (P - Bias); null when the per-lane path must run (it is
/// the one that reports violations).
Buffer *uniformBuffer(ExecContext &Ctx, const Tile &Ptr, const Tile *Mask, int64_t Size, bool Reads, int64_t &Bias) {
  const size_t N = Ptr.size();
  const int64_t *P = Ptr.Ints.data();
  if (Mask && Mask->size() == 1) {
    if (!Mask->Ints[0])
      return nullptr;
    Mask = nullptr;
  }
  int64_t Lo = INT64_MAX, Hi = INT64_MIN, Misaligned = 0;
  if (!Mask) {
    for (size_t I = 0; I < N; ++I) {
      Lo = std::min(Lo, P[I]);
      Hi = std::max(Hi, P[I]);
      Misaligned |= P[I];
    }
  } else {
    const int64_t *M = Mask->Ints.data();
    for (size_t I = 0; I < N; ++I) {
      if (!M[I])
        continue;
      Lo = std::min(Lo, P[I]);
      Hi = std::max(Hi, P[I]);
      Misaligned |= P[I];
    }
  }
  if (Lo > Hi || (Misaligned & (Size - 1)))
    return nullptr; // no active lane, or one is misaligned: the per-lane path decides
  uint32_t Id = pointerBuffer(Lo);
  if (!Ctx.Mem.valid(Id) || pointerBuffer(Hi) != Id)
    return nullptr;
  Buffer &B = Ctx.Mem.buffer(Id);
  if (Reads && B.IsOutput)
    return nullptr;
  Bias = packPointer(Id, 0);
  if (Lo - Bias < 0 || Hi - Bias + Size > static_cast<int64_t>(B.Bytes.size()))
    return nullptr;
  return &B;
}

/// Runs F(I) for every active lane.
template <typename Fn> void forActiveLanes(size_t N, const Tile *Mask, Fn F) {
  if (!Mask || Mask->size() == 1) {
    if (Mask && !Mask->Ints[0])
      return;
    for (size_t I = 0; I < N; ++I)
      F(I);
    return;
  }
  const int64_t *M = Mask->Ints.data();
  for (size_t I = 0; I < N; ++I)
    if (M[I])
      F(I);
}

void markBytes(Buffer &B, int64_t Off, int64_t Size) {
  for (int64_t K = 0; K < Size; ++K)
    B.Written[Off + K] = 1;
}

} // namespace

void evalLoad(ExecContext &Ctx, const ir::LoadOp &O, const Tile &Ptr, const Tile *Mask, const Tile *Other, Tile &Out) {
  const ElemType Elem = Ptr.Elem.pointee();
  Out.reset(Elem, Ptr.Shape);
  const int64_t Size = ir::elemBytes(Elem);
  const size_t N = Ptr.size();
  const bool Float = Out.isFloat();
  const size_t OS = Other && Other->size() == 1 ? 0 : 1;
  // Narrow floats decode through a table fetched once per op.
  const float *Table16 = Float && Size == 2 ? numerics::decodeTable(formatOf(Elem.Scalar)) : nullptr;
  int64_t Bias = 0;
  if (Buffer *B = uniformBuffer(Ctx, Ptr, Mask, Size, true, Bias)) {
    const uint8_t *Data = B->Bytes.data(); // a lane's element is at Data + (P - Bias)
    // Masked-off lanes get `other` (or 0) first; active lanes are then loaded.
    if (Mask) {
      for (size_t I = 0; I < N; ++I) {
        if (Float)
          Out.Floats[I] = Other ? Other->Floats[I * OS] : 0.0;
        else
          Out.Ints[I] = Other ? Other->Ints[I * OS] : 0;
      }
    }
    const int64_t *P = Ptr.Ints.data();
    if (!Float)
      forActiveLanes(N, Mask, [&](size_t I) { Out.Ints[I] = loadIntElem(Data + (P[I] - Bias), Elem); });
    else if (Elem.Scalar == ScalarKind::FP32)
      forActiveLanes(N, Mask, [&](size_t I) { Out.Floats[I] = loadRaw<float>(Data + (P[I] - Bias)); });
    else if (Table16)
      forActiveLanes(N, Mask, [&](size_t I) { Out.Floats[I] = Table16[loadRaw<uint16_t>(Data + (P[I] - Bias))]; });
    else
      forActiveLanes(N, Mask, [&](size_t I) { Out.Floats[I] = loadFloatElem(Data + (P[I] - Bias), Elem.Scalar); });
    return;
  }
  for (size_t I = 0; I < N; ++I) {
    uint8_t *Addr = laneOn(Mask, I) ? resolve(Ctx, Ptr.Ints[I], Size, static_cast<int64_t>(I), O, true) : nullptr;
    if (Float && Table16)
      Out.Floats[I] = Addr ? Table16[loadRaw<uint16_t>(Addr)] : (Other ? Other->Floats[I * OS] : 0.0);
    else if (Float)
      Out.Floats[I] = Addr ? loadFloatElem(Addr, Elem.Scalar) : (Other ? Other->Floats[I * OS] : 0.0);
    else
      Out.Ints[I] = Addr ? loadIntElem(Addr, Elem) : (Other ? Other->Ints[I * OS] : 0);
  }
}

void evalStore(ExecContext &Ctx, const ir::StoreOp &O, const Tile &Ptr, const Tile &Val, const Tile *Mask) {
  const ElemType Elem = Ptr.Elem.pointee();
  const int64_t Size = ir::elemBytes(Elem);
  const size_t N = Ptr.size();
  const size_t VS = Val.size() == 1 ? 0 : 1;
  const bool Float = Val.isFloat();
  int64_t Bias = 0;
  if (Buffer *B = uniformBuffer(Ctx, Ptr, Mask, Size, false, Bias)) {
    uint8_t *Data = B->Bytes.data(); // a lane's element is at Data + (P - Bias)
    const int64_t *P = Ptr.Ints.data();
    if (!Float)
      forActiveLanes(N, Mask, [&](size_t I) { storeIntElem(Data + (P[I] - Bias), Elem, Val.Ints[I * VS]); });
    else if (Elem.Scalar == ScalarKind::FP32)
      forActiveLanes(N, Mask,
                     [&](size_t I) { storeRaw<float>(Data + (P[I] - Bias), static_cast<float>(Val.Floats[I * VS])); });
    else
      forActiveLanes(N, Mask, [&](size_t I) { storeFloatElem(Data + (P[I] - Bias), Elem.Scalar, Val.Floats[I * VS]); });
    if (B->IsOutput)
      forActiveLanes(N, Mask, [&](size_t I) { markBytes(*B, P[I] - Bias, Size); });
    return;
  }
  for (size_t I = 0; I < N; ++I) {
    if (!laneOn(Mask, I))
      continue;
    uint8_t *Addr = resolve(Ctx, Ptr.Ints[I], Size, static_cast<int64_t>(I), O, false);
    if (!Addr)
      continue;
    if (Float)
      storeFloatElem(Addr, Elem.Scalar, Val.Floats[I * VS]);
    else
      storeIntElem(Addr, Elem, Val.Ints[I * VS]);
    markWritten(Ctx, Ptr.Ints[I], Size);
  }
}

namespace {

double combineFloat(AtomicKind K, double Old, double V, ScalarKind S) {
  switch (K) {
  case AtomicKind::Add:
    return roundFloat(Old + V, S);
  case AtomicKind::Max:
    return std::fmax(Old, V);
  case AtomicKind::Min:
    return std::fmin(Old, V);
  case AtomicKind::Xchg:
    return V;
  default:
    return Old; // bitwise atomics on floats are rejected by sema
  }
}

int64_t combineInt(AtomicKind K, int64_t Old, int64_t V, ScalarKind S) {
  const bool Signed = ir::isSignedScalar(S);
  auto U = [](int64_t X) { return static_cast<uint64_t>(X); };
  switch (K) {
  case AtomicKind::Add:
    return wrapInt(static_cast<int64_t>(U(Old) + U(V)), S);
  case AtomicKind::Max:
    return Signed ? std::max(Old, V) : (U(Old) < U(V) ? V : Old);
  case AtomicKind::Min:
    return Signed ? std::min(Old, V) : (U(Old) < U(V) ? Old : V);
  case AtomicKind::And:
    return Old & V;
  case AtomicKind::Or:
    return Old | V;
  case AtomicKind::Xor:
    return Old ^ V;
  case AtomicKind::Xchg:
    return V;
  }
  return Old;
}

} // namespace

void evalAtomicRMW(ExecContext &Ctx, const ir::AtomicRMWOp &O, const Tile &Ptr, const Tile &Val, const Tile *Mask,
                   Tile &Out) {
  const ElemType Elem = Ptr.Elem.pointee();
  Out.reset(Elem, Ptr.Shape);
  const int64_t Size = ir::elemBytes(Elem);
  const size_t N = Ptr.size();
  const size_t VS = Val.size() == 1 ? 0 : 1;
  const bool Float = Out.isFloat();
  for (size_t I = 0; I < N; ++I) {
    uint8_t *Addr = laneOn(Mask, I) ? resolve(Ctx, Ptr.Ints[I], Size, static_cast<int64_t>(I), O, true) : nullptr;
    if (!Addr) {
      if (Float)
        Out.Floats[I] = 0;
      else
        Out.Ints[I] = 0;
      continue;
    }
    if (Float) {
      double Old = loadFloatElem(Addr, Elem.Scalar);
      Out.Floats[I] = Old;
      storeFloatElem(Addr, Elem.Scalar, combineFloat(O.atomicKind(), Old, Val.Floats[I * VS], Elem.Scalar));
    } else {
      int64_t Old = loadIntElem(Addr, Elem);
      Out.Ints[I] = Old;
      storeIntElem(Addr, Elem, combineInt(O.atomicKind(), Old, Val.Ints[I * VS], Elem.Scalar));
    }
    markWritten(Ctx, Ptr.Ints[I], Size);
  }
}

void evalAtomicCas(ExecContext &Ctx, const ir::AtomicCasOp &O, const Tile &Ptr, const Tile &Cmp, const Tile &Val,
                   Tile &Out) {
  const ElemType Elem = Ptr.Elem.pointee();
  Out.reset(Elem, Ptr.Shape);
  const int64_t Size = ir::elemBytes(Elem);
  const size_t N = Ptr.size();
  const size_t CS = Cmp.size() == 1 ? 0 : 1, VS = Val.size() == 1 ? 0 : 1;
  const bool Float = Out.isFloat();
  for (size_t I = 0; I < N; ++I) {
    uint8_t *Addr = resolve(Ctx, Ptr.Ints[I], Size, static_cast<int64_t>(I), O, true);
    if (!Addr) {
      if (Float)
        Out.Floats[I] = 0;
      else
        Out.Ints[I] = 0;
      continue;
    }
    if (Float) {
      double Old = loadFloatElem(Addr, Elem.Scalar);
      Out.Floats[I] = Old;
      if (Old == Cmp.Floats[I * CS])
        storeFloatElem(Addr, Elem.Scalar, Val.Floats[I * VS]);
    } else {
      int64_t Old = loadIntElem(Addr, Elem);
      Out.Ints[I] = Old;
      if (Old == Cmp.Ints[I * CS])
        storeIntElem(Addr, Elem, Val.Ints[I * VS]);
    }
    markWritten(Ctx, Ptr.Ints[I], Size);
  }
}

} // namespace tessel::interp
