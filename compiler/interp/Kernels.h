//===- Kernels.h - the interpreter's per-op-family evaluators ---*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Internal to compiler/interp: one function per op family, each evaluating
/// one op over whole tiles into an output Tile whose storage is reused from
/// program to program. Interpreter.cpp dispatches to them; each family's
/// semantics (wraparound, rounding, bounds checks) lives in its own file.
///
/// Elementwise evaluators accept operands of one element (a runtime scalar)
/// next to full tiles and broadcast them: combine regions of reduce and scan
/// are typed over scalars but run over whole slices of the tile at once.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_INTERP_KERNELS_H
#define TESSEL_COMPILER_INTERP_KERNELS_H

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/Tile.h"

#include <array>
#include <functional>
#include <optional>

namespace tessel::interp {

/// What memory ops need besides their operands.
struct ExecContext {
  Memory &Mem;
  RunResult &Result;
  const RunOptions &Opts;
  std::array<int64_t, 3> Pid = {0, 0, 0};

  void violation(ViolationKind K, uint32_t BufferId, int64_t ElementOffset, int64_t Lane, const ir::Op &O);
};

// Elementwise.cpp
void evalBinary(const ir::Op &O, const Tile &L, const Tile &R, Tile &Out);
void evalUnary(ir::OpKind K, const Tile &X, Tile &Out);
void evalFma(const Tile &A, const Tile &B, const Tile &C, Tile &Out);
void evalCmp(ir::CmpPredicate P, const Tile &L, const Tile &R, Tile &Out);
void evalSelect(const Tile &Cond, const Tile &A, const Tile &B, Tile &Out);
void evalAddPtr(const Tile &Ptr, const Tile &Offset, Tile &Out);

// Casts.cpp
void evalCast(const Tile &X, const ElemType &To, ir::RoundingMode R, Tile &Out);
void evalBitcast(const Tile &X, const ElemType &To, Tile &Out);
/// The bit pattern of element I (floats encoded in their own format).
uint64_t elementBits(const Tile &X, size_t I);

// ShapeOps.cpp
void evalConstant(const ir::ConstantOp &O, Tile &Out);
/// splat and broadcast: X repeated to the shape of To.
void evalBroadcast(const Tile &X, const std::vector<int64_t> &To, Tile &Out);
void evalPermute(const Tile &X, const std::vector<int64_t> &Order, Tile &Out);
void evalJoin(const Tile &A, const Tile &B, Tile &Out);
void evalSplit(const Tile &X, Tile &Lo, Tile &Hi);
void evalArange(int64_t Start, int64_t End, Tile &Out);
/// tl.gather along Axis. An index outside the source's axis stops the gather
/// and is returned (Triton's interpreter raises IndexError there; the GPU
/// reads whatever its scratch holds).
std::optional<int64_t> evalGather(const Tile &Src, const Tile &Index, int Axis, Tile &Out);

// MemoryOps.cpp
void evalLoad(ExecContext &Ctx, const ir::LoadOp &O, const Tile &Ptr, const Tile *Mask, const Tile *Other, Tile &Out);
void evalStore(ExecContext &Ctx, const ir::StoreOp &O, const Tile &Ptr, const Tile &Val, const Tile *Mask);
void evalAtomicRMW(ExecContext &Ctx, const ir::AtomicRMWOp &O, const Tile &Ptr, const Tile &Val, const Tile *Mask,
                   Tile &Out);
void evalAtomicCas(ExecContext &Ctx, const ir::AtomicCasOp &O, const Tile &Ptr, const Tile &Cmp, const Tile &Val,
                   Tile &Out);

// Reductions.cpp
/// Runs a combine region over tiles bound to its arguments.
using RegionRunner =
    std::function<void(const ir::Block &B, const std::vector<const Tile *> &Args, std::vector<Tile> &Results)>;
void evalReduce(const ir::ReduceOp &O, const std::vector<const Tile *> &Ins, std::vector<Tile *> &Outs,
                const RegionRunner &Run);
void evalScan(const ir::ScanOp &O, const std::vector<const Tile *> &Ins, std::vector<Tile *> &Outs,
              const RegionRunner &Run);

/// tl.histogram as Triton 3.6 computes it on the GPU: each unmasked value
/// goes to the bin its low log2(max(Bins, 32)) bits name (so -1 is the last
/// of 64 bins and 70 the seventh), and counts only if that bin is < Bins.
void evalHistogram(const Tile &X, const Tile *Mask, int64_t Bins, Tile &Out);

// Dot.cpp
/// Truncate: fp32 operands at tf32 precision lose their low 13 mantissa
/// bits instead of being rounded (RunOptions::Tf32Truncates).
void evalDot(const ir::DotOp &O, const Tile &A, const Tile &B, const Tile &Acc, Tile &Out, bool Truncate = false);

// Random.cpp
/// Counters: the other three counter words of a randint (null: zeros);
/// Word: which output word a randint gives.
void evalRandom(ir::OpKind K, const Tile &Seed, const Tile &Offset, int NRounds, Tile &Out,
                const std::array<const Tile *, 3> &Counters = {}, int Word = 0);

} // namespace tessel::interp

#endif // TESSEL_COMPILER_INTERP_KERNELS_H
