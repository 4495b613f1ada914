//===- TestKernels.h - kernels built by hand for interpreter tests -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Kernels the interpreter tests and benchmarks share, lowered by hand with
/// the Builder exactly as the AST lowering will emit them (explicit splats
/// and broadcasts, one source range per op). Ranges are made-up byte offsets
/// that the tests check in reports.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_INTERP_TESTKERNELS_H
#define TESSEL_TESTS_UNIT_INTERP_TESTKERNELS_H

#include "compiler/ir/Builder.h"
#include "compiler/ir/TypeUtils.h"

namespace tessel::testkernels {

using namespace tessel::ir;

inline TileType ptrType(ScalarKind K) { return {{K, 1, false}, {}}; }
inline ElemType elem(ScalarKind K) { return {K, 0, false}; }
inline SourceRange at(uint32_t B, uint32_t E) { return {B, E}; }

/// Where vectorAdd's memory ops sit, for checking reports.
constexpr SourceRange VecAddLoadX{100, 120}, VecAddLoadY{121, 140}, VecAddStore{150, 180};

/// out[i] = x[i] + y[i] for i < n, blocks of Block elements; Masked=false
/// drops the mask (the classic bug).
inline void vectorAdd(Function &F, int64_t Block, bool Masked = true, ScalarKind Elem = ScalarKind::FP32) {
  Builder B(F);
  Value *X = F.addParam(ptrType(Elem), "x");
  Value *Y = F.addParam(ptrType(Elem), "y");
  Value *Out = F.addParam(ptrType(Elem), "out");
  Value *N = F.addParam(scalarType(ScalarKind::I32), "n");
  Value *Pid = B.programId(at(10, 25), 0);
  Value *BlockC = B.constantInt(at(30, 40), Block, scalarType(ScalarKind::I32));
  Value *Start = B.mul(at(30, 45), Pid, BlockC);
  Value *StartT = B.splat(at(50, 55), Start, {Block});
  Value *Range = B.arange(at(56, 70), 0, Block);
  Value *Offs = B.add(at(50, 70), StartT, Range);
  Value *Mask = nullptr;
  if (Masked) {
    Value *NT = B.splat(at(75, 76), N, {Block});
    Mask = B.cmp(at(71, 80), CmpPredicate::LT, Offs, NT);
  }
  Value *XS = B.splat(at(100, 101), X, {Block});
  Value *XP = B.addPtr(at(100, 108), XS, Offs);
  Value *XV = B.load(VecAddLoadX, XP, Mask);
  Value *YS = B.splat(at(121, 122), Y, {Block});
  Value *YP = B.addPtr(at(121, 128), YS, Offs);
  Value *YV = B.load(VecAddLoadY, YP, Mask);
  Value *Sum = B.add(at(141, 149), XV, YV);
  Value *OS = B.splat(at(150, 153), Out, {Block});
  Value *OP = B.addPtr(at(150, 160), OS, Offs);
  B.store(VecAddStore, OP, Sum, Mask);
  B.ret(at(181, 181));
}

/// offs_m[:, None] * stride + offs_n[None, :], broadcast to [M, N].
inline Value *grid2d(Builder &B, Value *RowIdx, Value *ColIdx, Value *Stride, int64_t M, int64_t N) {
  Value *R = B.expandDims(at(1, 2), RowIdx, 1);
  Value *RS = B.mul(at(1, 2), R, B.splat(at(1, 2), Stride, {M, 1}));
  Value *RB = B.broadcast(at(1, 2), RS, {M, N});
  Value *C = B.expandDims(at(1, 2), ColIdx, 0);
  Value *CB = B.broadcast(at(1, 2), C, {M, N});
  return B.add(at(1, 2), RB, CB);
}

/// C[M, N] = A[M, K] @ B[K, N] (row-major, fp16 or fp32 inputs, fp32 out),
/// tiles BM x BN x BK with masks on M, N and K, grid (cdiv(M, BM), cdiv(N, BN)).
inline void matmul(Function &F, ScalarKind In, int64_t BM, int64_t BN, int64_t BK,
                   InputPrecision P = InputPrecision::IEEE) {
  Builder B(F);
  TileType I32 = scalarType(ScalarKind::I32);
  Value *A = F.addParam(ptrType(In), "a");
  Value *Bp = F.addParam(ptrType(In), "b");
  Value *C = F.addParam(ptrType(ScalarKind::FP32), "c");
  Value *M = F.addParam(I32, "M");
  Value *N = F.addParam(I32, "N");
  Value *K = F.addParam(I32, "K");
  Value *PidM = B.programId(at(1, 2), 0);
  Value *PidN = B.programId(at(1, 2), 1);
  Value *RowStart = B.mul(at(1, 2), PidM, B.constantInt(at(1, 2), BM, I32));
  Value *ColStart = B.mul(at(1, 2), PidN, B.constantInt(at(1, 2), BN, I32));
  Value *OffM = B.add(at(1, 2), B.splat(at(1, 2), RowStart, {BM}), B.arange(at(1, 2), 0, BM));
  Value *OffN = B.add(at(1, 2), B.splat(at(1, 2), ColStart, {BN}), B.arange(at(1, 2), 0, BN));
  Value *OffK = B.arange(at(1, 2), 0, BK);
  Value *MaskM = B.cmp(at(1, 2), CmpPredicate::LT, OffM, B.splat(at(1, 2), M, {BM}));
  Value *MaskN = B.cmp(at(1, 2), CmpPredicate::LT, OffN, B.splat(at(1, 2), N, {BN}));
  Value *Zero = B.constantInt(at(1, 2), 0, I32);
  Value *One = B.constantInt(at(1, 2), 1, I32);
  Value *Acc0 = B.constantFloat(at(1, 2), 0.0, tileType(ScalarKind::FP32, {BM, BN}));
  // for k0 in range(0, K, BK): the loop counts blocks of K.
  Value *KBlocks = B.binary(at(1, 2), OpKind::FloorDiv, B.add(at(1, 2), K, B.constantInt(at(1, 2), BK - 1, I32)),
                            B.constantInt(at(1, 2), BK, I32));
  ForOp *Loop = B.createFor(at(200, 300), Zero, KBlocks, One, {Acc0});
  {
    Builder::InsertionGuard G(B);
    B.setInsertionPointToEnd(Loop->body());
    Value *K0 = B.mul(at(1, 2), Loop->inductionVar(), B.constantInt(at(1, 2), BK, I32));
    Value *Ks = B.add(at(1, 2), B.splat(at(1, 2), K0, {BK}), OffK);
    Value *MaskK = B.cmp(at(1, 2), CmpPredicate::LT, Ks, B.splat(at(1, 2), K, {BK}));
    // A tile: rows OffM, cols Ks; mask rows and K.
    Value *AOff = grid2d(B, OffM, Ks, K, BM, BK);
    Value *AMask = B.binary(at(1, 2), OpKind::And, B.broadcast(at(1, 2), B.expandDims(at(1, 2), MaskM, 1), {BM, BK}),
                            B.broadcast(at(1, 2), B.expandDims(at(1, 2), MaskK, 0), {BM, BK}));
    Value *ATile = B.load(at(210, 220), B.addPtr(at(1, 2), B.splat(at(1, 2), A, {BM, BK}), AOff), AMask,
                          B.constantFloat(at(1, 2), 0.0, tileType(In, {BM, BK})));
    Value *BOff = grid2d(B, Ks, OffN, N, BK, BN);
    Value *BMask = B.binary(at(1, 2), OpKind::And, B.broadcast(at(1, 2), B.expandDims(at(1, 2), MaskK, 1), {BK, BN}),
                            B.broadcast(at(1, 2), B.expandDims(at(1, 2), MaskN, 0), {BK, BN}));
    Value *BTile = B.load(at(230, 240), B.addPtr(at(1, 2), B.splat(at(1, 2), Bp, {BK, BN}), BOff), BMask,
                          B.constantFloat(at(1, 2), 0.0, tileType(In, {BK, BN})));
    Value *Acc = B.dot(at(250, 260), ATile, BTile, Loop->body()->argument(1), P);
    B.yield(at(1, 2), {Acc});
  }
  Value *COff = grid2d(B, OffM, OffN, N, BM, BN);
  Value *CMask = B.binary(at(1, 2), OpKind::And, B.broadcast(at(1, 2), B.expandDims(at(1, 2), MaskM, 1), {BM, BN}),
                          B.broadcast(at(1, 2), B.expandDims(at(1, 2), MaskN, 0), {BM, BN}));
  B.store(at(310, 330), B.addPtr(at(1, 2), B.splat(at(1, 2), C, {BM, BN}), COff), Loop->result(), CMask);
  B.ret(at(1, 2));
}

} // namespace tessel::testkernels

#endif // TESSEL_TESTS_UNIT_INTERP_TESTKERNELS_H
