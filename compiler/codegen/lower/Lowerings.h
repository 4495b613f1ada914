//===- Lowerings.h - the lowering families, one per file --------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// One entry per lowering family (Triton's PatternTritonGPUOpToLLVM.h):
/// each lowers the ops of its family into the context's builder, sets the
/// results' tiles and returns true, or returns false for an op not its own.
/// LoweringContext::lowerOp asks them in turn; an op no family takes is a
/// Problem.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_LOWER_LOWERINGS_H
#define TESSEL_COMPILER_CODEGEN_LOWER_LOWERINGS_H

#include "compiler/types/Types.h"

#include <cstdint>
#include <vector>

namespace llvm {
class Value;
} // namespace llvm

namespace tessel::ir {
class Block;
class DotOp;
class ForOp;
class Op;
} // namespace tessel::ir

namespace tessel::codegen {

class LoweringContext;
struct NvmmaLayout;
struct Tile;

/// constant, splat, arange, program_id, num_programs, hint, the binary and
/// unary arithmetic, fma, cmp, select, addptr (Elementwise.cpp).
bool lowerElementwise(LoweringContext &C, const ir::Op &O);
/// cast and bitcast between every element type, with Triton's rounding (Casts.cpp).
bool lowerCasts(LoweringContext &C, const ir::Op &O);
/// exp, exp2, log, log2, sqrt, rsqrt, sin, cos, erf, floor, ceil (Math.cpp).
bool lowerMath(LoweringContext &C, const ir::Op &O);
/// load, store, atomic_rmw, atomic_cas (Memory.cpp).
bool lowerMemory(LoweringContext &C, const ir::Op &O);
/// reduce, every kind (Reduce.cpp).
bool lowerReduce(LoweringContext &C, const ir::Op &O);
/// scan, every kind (Scan.cpp).
bool lowerScan(LoweringContext &C, const ir::Op &O);
/// broadcast, expand_dims, reshape, permute, join, split, gather (ShapeOps.cpp).
bool lowerShapeOps(LoweringContext &C, const ir::Op &O);
/// for, while, if (ControlFlow.cpp).
bool lowerControlFlow(LoweringContext &C, const ir::Op &O);
/// rand, randn, randint (Random.cpp).
bool lowerRandom(LoweringContext &C, const ir::Op &O);
/// device_print, device_assert, debug_barrier (Debug.cpp).
bool lowerDebug(LoweringContext &C, const ir::Op &O);
/// inline_asm: tl.inline_asm_elementwise's PTX per pack of elements (InlineAsm.cpp).
bool lowerInlineAsm(LoweringContext &C, const ir::Op &O);
/// histogram through shared-memory atomics (Histogram.cpp).
bool lowerHistogram(LoweringContext &C, const ir::Op &O);
/// dot on FMA units (Dot.cpp).
bool lowerDot(LoweringContext &C, const ir::Op &O);
/// Loads and stores through descriptors copied by TMA (Tma.cpp); false for
/// every other op.
bool lowerTma(LoweringContext &C, const ir::Op &O);
/// tl.make_tensor_descriptor: its tensor map built in global scratch where
/// the plan copies its blocks by TMA (TensormapCreate.cpp).
bool lowerTensormapCreate(LoweringContext &C, const ir::Op &O);
/// The tensor-core half of the dot family (DotMma.cpp), for dots usesMma
/// accepts whose result the plan put in the MMA layout; false otherwise
/// (Dot.cpp then uses FMA units).
bool lowerDotMma(LoweringContext &C, const ir::DotOp &O);
/// The wgmma half (DotWgmma.cpp), for dots dotEngine gives DotEngine::Wgmma;
/// false when it does not take the dot.
bool lowerDotWgmma(LoweringContext &C, const ir::DotOp &O);
/// The loops Pipeliner.h chose, with cp.async rings, and their pipelined
/// loads (Pipeline.cpp); false for every other op and without a plan.
bool lowerPipelined(LoweringContext &C, const ir::Op &O);
/// Whether DotWgmma.cpp lowers O, a dot whose engine is wgmma (its layouts
/// allow it); otherwise the dot falls back to mma.sync.
bool lowersOnWgmma(const LoweringContext &C, const ir::DotOp &O);
/// The operands of loop O's wgmma dots that the loop does not change and
/// that are read from shared memory (attention's q), each written once
/// before the loop into a buffer of its own, live until the loop ends:
/// Triton's LICM hoists such an operand's local_alloc out of the loop,
/// pipelined or not (Pipeline.cpp). Bind makes the dots read them (and
/// unbinds after the body); close releases the buffers after the loop.
using LoopInvariants = std::vector<std::pair<const ir::Value *, unsigned>>;
LoopInvariants stageLoopInvariants(LoweringContext &C, const ir::ForOp &O);
void bindLoopInvariants(LoweringContext &C, const LoopInvariants &Staged, bool Bind);
void closeLoopInvariants(LoweringContext &C, const LoopInvariants &Staged);

// Shared by the families.
/// The element index (i32) of (Row, Col) in a row-major buffer of Cols
/// columns of ElemBytes each with DotMma's swizzle (layout/MmaLayout.h's
/// swizzledOffset at run time; DotMma.cpp).
llvm::Value *mmaSwizzle(LoweringContext &C, llvm::Value *Row, llvm::Value *Col, int64_t Cols, unsigned ElemBytes = 2);
/// NvmmaLayout::offset (layout/WgmmaLayout.h) at run time (i32 elements).
llvm::Value *nvmmaOffset(LoweringContext &C, const NvmmaLayout &N, llvm::Value *Row, llvm::Value *Col);
/// Writes T (fp16 / bf16 registers) into Buf in layout N, runs of registers
/// inside one 16-byte chunk as one vector store (DotWgmma.cpp).
void stageNvmma(LoweringContext &C, const Tile &T, ElemType E, llvm::Value *Buf, const NvmmaLayout &N);
/// The reverse: a tile in layout L read from buffer Buf in layout N.
Tile loadNvmma(LoweringContext &C, const LinearLayout &L, ElemType E, llvm::Value *Buf, const NvmmaLayout &N);

// TMA copies and mbarriers (Tma.cpp), for its own lowerings and the
// pipelined loops' rings (Pipeline.cpp).
struct TmaDescriptor;
/// Bytes of one block of D, and the alignment of a buffer holding one.
uint64_t tmaBlockBytes(const TmaDescriptor &D);
unsigned tmaBufferAlign(const TmaDescriptor &D);
/// Thread 0 initialises the mbarrier at Barrier with one arrival.
void mbarrierInit(LoweringContext &C, llvm::Value *Barrier);
/// Thread 0 invalidates it (every thread past its last wait on it).
void mbarrierInval(LoweringContext &C, llvm::Value *Barrier);
/// Every thread waits until the mbarrier completes phase Phase (i32 0 or 1).
void mbarrierWait(LoweringContext &C, llvm::Value *Barrier, llvm::Value *Phase);
/// Where Pred (i1) holds: thread 0 arms Barrier with D's block bytes and
/// the copies of D's block at Offsets (i32, outermost first) into Base go
/// out, completing on Barrier.
void tmaCopyBlock(LoweringContext &C, const TmaDescriptor &D, const std::vector<llvm::Value *> &Offsets,
                  llvm::Value *Base, llvm::Value *Barrier, llvm::Value *Pred);
/// `wgmma.wait_group Pending` taking Regs (fp32 accumulator registers) in
/// and out, so that their readers come after it (DotWgmma.cpp).
void wgmmaWait(LoweringContext &C, std::vector<llvm::Value *> &Regs, unsigned Pending);
/// wgmmaWait(Regs, 0) that also completes the group a chained loop left in
/// flight (LoweringContext::AsyncWgmmaDrain), handing the carried
/// accumulator's registers (AsyncWgmmaAcc) through the same wait.
void wgmmaDrain(LoweringContext &C, std::vector<llvm::Value *> &Regs);
/// Whether a `for` loop runs iteration Iv (ControlFlow.cpp): Iv < Ub
/// (signed or unsigned as the induction type; Iv > Ub for a negative
/// constant step).
llvm::Value *forContinues(LoweringContext &C, const ir::ForOp &O, llvm::Value *Iv, llvm::Value *Ub, llvm::Value *Step);
/// The operands of Blk's terminator from index First, each in the layout of
/// the matching entry of Like (ControlFlow.cpp).
std::vector<Tile> yieldedTiles(LoweringContext &C, const ir::Block &Blk, unsigned First, const std::vector<Tile> &Like);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_LOWER_LOWERINGS_H
