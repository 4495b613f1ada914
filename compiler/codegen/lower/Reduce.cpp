//===- Reduce.cpp - reductions along one axis -----------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's ReduceOpToLLVM on linear layouts. With L the operand's layout
/// and k the axis:
///  1. in the thread: the registers whose coordinates differ only along k
///     are combined in register order;
///  2. across lanes: one butterfly shuffle (`shfl.sync.bfly`) per lane bit
///     whose basis moves k; the lower lane's value is always the left
///     operand, so every lane computes bit-identical results even for a
///     custom combine that is not commutative;
///  3. across warps, when a warp bit's basis moves k: each thread writes its
///     partial to the scratch at [output element][warp's k part], a barrier,
///     and every thread combines the partials in warp order.
/// The result is in sliceLayout(L, k). argmin/argmax carry (value, index)
/// pairs with Triton's tie-break (`value1 == value2 and index1 < index2`);
/// a custom reduction runs its combine region on the scalars.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <algorithm>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace tessel::codegen {

using Vals = std::vector<llvm::Value *>;

static llvm::Value *shuffleXor(LoweringContext &C, llvm::Value *V, unsigned Mask) {
  llvm::IRBuilderBase &B = C.B;
  llvm::Type *T = V->getType();
  auto Shfl = [&](llvm::Value *I32) {
    return B.CreateCall(C.intrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32),
                        {B.getInt32(0xFFFFFFFFu), I32, B.getInt32(Mask), B.getInt32(0x1F)});
  };
  if (T->isPointerTy())
    return B.CreateIntToPtr(shuffleXor(C, B.CreatePtrToInt(V, B.getInt64Ty()), Mask), T);
  unsigned Bits = static_cast<unsigned>(T->getPrimitiveSizeInBits());
  llvm::Value *I = B.CreateBitCast(V, B.getIntNTy(Bits));
  if (Bits == 64) {
    llvm::Value *Lo = Shfl(B.CreateTrunc(I, B.getInt32Ty()));
    llvm::Value *Hi = Shfl(B.CreateTrunc(B.CreateLShr(I, 32), B.getInt32Ty()));
    llvm::Value *R = B.CreateOr(B.CreateZExt(Lo, B.getInt64Ty()), B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32));
    return B.CreateBitCast(R, T);
  }
  llvm::Value *R = Shfl(Bits == 32 ? I : B.CreateZExt(I, B.getInt32Ty()));
  return B.CreateBitCast(Bits == 32 ? R : B.CreateTrunc(R, B.getIntNTy(Bits)), T);
}

/// The combine of a reduction: Left and Right hold one value per operand.
using Combine = std::function<Vals(const Vals &Left, const Vals &Right)>;

static Combine builtinCombine(LoweringContext &C, const ir::ReduceOp &O) {
  llvm::IRBuilderBase &B = C.B;
  ScalarKind S = O.operand(0)->type().Elem.Scalar;
  bool Fp = isFloat(S), Uns = isUnsigned(S) || S == ScalarKind::I1;
  switch (O.reduceKind()) {
  case ir::ReduceKind::Sum:
    return [&B, Fp](const Vals &L, const Vals &R) {
      return Vals{Fp ? B.CreateFAdd(L[0], R[0]) : B.CreateAdd(L[0], R[0])};
    };
  case ir::ReduceKind::XorSum:
    return [&B](const Vals &L, const Vals &R) { return Vals{B.CreateXor(L[0], R[0])}; };
  case ir::ReduceKind::Or:
    return [&B](const Vals &L, const Vals &R) { return Vals{B.CreateOr(L[0], R[0])}; };
  case ir::ReduceKind::Max:
  case ir::ReduceKind::Min: {
    bool Max = O.reduceKind() == ir::ReduceKind::Max;
    auto ID = Fp    ? (Max ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum)
              : Max ? (Uns ? llvm::Intrinsic::umax : llvm::Intrinsic::smax)
                    : (Uns ? llvm::Intrinsic::umin : llvm::Intrinsic::smin);
    return [&B, ID](const Vals &L, const Vals &R) { return Vals{B.CreateBinaryIntrinsic(ID, L[0], R[0])}; };
  }
  case ir::ReduceKind::ArgMax:
  case ir::ReduceKind::ArgMin: {
    bool Max = O.reduceKind() == ir::ReduceKind::ArgMax;
    bool Left = O.tieBreakLeft();
    return [&B, Max, Left, Fp, Uns](const Vals &L, const Vals &R) {
      llvm::Value *Better;
      if (Fp)
        Better = Max ? B.CreateFCmpOGT(L[0], R[0]) : B.CreateFCmpOLT(L[0], R[0]);
      else
        Better = Max ? (Uns ? B.CreateICmpUGT(L[0], R[0]) : B.CreateICmpSGT(L[0], R[0]))
                     : (Uns ? B.CreateICmpULT(L[0], R[0]) : B.CreateICmpSLT(L[0], R[0]));
      if (Left) {
        llvm::Value *Eq = Fp ? B.CreateFCmpOEQ(L[0], R[0]) : B.CreateICmpEQ(L[0], R[0]);
        Better = B.CreateOr(Better, B.CreateAnd(Eq, B.CreateICmpSLT(L[1], R[1])));
      }
      return Vals{B.CreateSelect(Better, L[0], R[0]), B.CreateSelect(Better, L[1], R[1])};
    };
  }
  case ir::ReduceKind::Custom:
    break;
  }
  return {};
}

/// Reduces Tiles (all in layout L) along Axis with Fn; returns one tile per
/// operand, in sliceLayout(L, Axis).
static std::vector<Tile> reduceTiles(LoweringContext &C, const std::vector<Tile> &Tiles,
                                     const std::vector<ElemType> &Types, unsigned Axis, const Combine &Fn,
                                     bool Commutative) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &L = Tiles[0].Layout;
  LinearLayout Out = sliceLayout(L, Axis);
  size_t N = Tiles.size();
  // 1. In the thread.
  std::map<Coord, unsigned> OutReg;
  for (unsigned R = 0; R < Out.numRegs(); ++R)
    OutReg.emplace(Out.regCoord(R), R);
  std::vector<Vals> Acc(Out.numRegs());
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    Coord K = L.regCoord(R);
    K.erase(K.begin() + Axis);
    unsigned To = OutReg.at(K);
    Vals In;
    for (size_t I = 0; I < N; ++I)
      In.push_back(Tiles[I].Regs[R]);
    Acc[To] = Acc[To].empty() ? In : Fn(Acc[To], In);
  }
  // 2. Across lanes.
  for (size_t Bit = 0; Bit < L.Lane.size(); ++Bit) {
    if (!L.Lane[Bit][Axis])
      continue;
    unsigned Mask = 1u << Bit;
    llvm::Value *Upper = Commutative ? nullptr : B.CreateICmpNE(B.CreateAnd(C.laneId(), C.i32(Mask)), C.i32(0));
    for (Vals &A : Acc) {
      Vals Other;
      for (llvm::Value *V : A)
        Other.push_back(shuffleXor(C, V, Mask));
      if (Commutative) {
        A = Fn(A, Other);
        continue;
      }
      Vals LowFirst = Fn(A, Other), HighFirst = Fn(Other, A);
      for (size_t I = 0; I < N; ++I)
        A[I] = B.CreateSelect(Upper, HighFirst[I], LowFirst[I]);
    }
  }
  // 3. Across warps.
  std::vector<size_t> WarpBits;
  for (size_t Bit = 0; Bit < L.Warp.size(); ++Bit)
    if (L.Warp[Bit][Axis])
      WarpBits.push_back(Bit);
  if (!WarpBits.empty()) {
    unsigned Parts = 1u << WarpBits.size();
    int64_t OutNumel = 1;
    for (int64_t D : Out.Shape)
      OutNumel *= D;
    // The warp's index among the warps that split the axis.
    llvm::Value *Part = C.i32(0);
    for (size_t J = 0; J < WarpBits.size(); ++J) {
      llvm::Value *Bit = B.CreateAnd(B.CreateLShr(C.warpId(), C.i32(static_cast<int64_t>(WarpBits[J]))), C.i32(1));
      Part = B.CreateOr(Part, B.CreateShl(Bit, C.i32(static_cast<int64_t>(J))));
    }
    std::vector<uint64_t> ByteBase(N);
    uint64_t Bytes = 0;
    for (size_t I = 0; I < N; ++I) {
      // Operands 16-byte aligned after one another; the last not padded.
      ByteBase[I] = Bytes = (Bytes + 15) / 16 * 16;
      uint64_t Sz = C.M.getDataLayout().getTypeAllocSize(C.memType(Types[I]));
      Bytes += static_cast<uint64_t>(OutNumel) * Parts * Sz;
    }
    llvm::Value *Buf = C.scratch(SharedBufferKind::ReduceScratch,
                                 "partial results of " + std::to_string(Parts) + " warps, " +
                                     LoweringContext::tileString(Out.Shape, Types[0]),
                                 Bytes);
    auto Slot = [&](size_t I, llvm::Value *Idx) {
      llvm::Value *Base = C.sharedElement(Buf, ElemType{ScalarKind::I8}, C.i32(static_cast<int64_t>(ByteBase[I])));
      return B.CreateGEP(C.memType(Types[I]), Base, {Idx});
    };
    C.barrier();
    for (unsigned R = 0; R < Out.numRegs(); ++R) {
      llvm::Value *Idx = B.CreateAdd(B.CreateMul(C.linearIndex(Out, R), C.i32(Parts)), Part);
      for (size_t I = 0; I < N; ++I)
        B.CreateStore(C.toMem(Acc[R][I], Types[I]), Slot(I, Idx));
    }
    C.barrier();
    for (unsigned R = 0; R < Out.numRegs(); ++R) {
      llvm::Value *First = B.CreateMul(C.linearIndex(Out, R), C.i32(Parts));
      // The Parts partials of an output element are consecutive and start at
      // a multiple of Parts elements of a 16-byte aligned base: read them in
      // vectors of up to 16 bytes (what O3's SLP vectorizer made of the
      // scalar loads), then combine them in warp order as before.
      std::vector<std::vector<llvm::Value *>> Part(N);
      for (size_t I = 0; I < N; ++I) {
        llvm::Type *MemTy = C.memType(Types[I]);
        uint64_t Sz = C.M.getDataLayout().getTypeAllocSize(MemTy);
        unsigned Vec = static_cast<unsigned>(std::min<uint64_t>(Parts, std::max<uint64_t>(1, 16 / Sz)));
        auto *VT = llvm::FixedVectorType::get(MemTy, Vec);
        for (unsigned P = 0; P < Parts; P += Vec) {
          llvm::Value *Ptr = Slot(I, P ? B.CreateAdd(First, C.i32(P)) : First);
          if (Vec == 1) {
            Part[I].push_back(B.CreateAlignedLoad(MemTy, Ptr, llvm::Align(Sz)));
            continue;
          }
          llvm::Value *V = B.CreateAlignedLoad(VT, Ptr, llvm::Align(Vec * Sz));
          for (unsigned K = 0; K < Vec; ++K)
            Part[I].push_back(B.CreateExtractElement(V, C.i32(K)));
        }
      }
      Vals A;
      for (unsigned P = 0; P < Parts; ++P) {
        Vals In;
        for (size_t I = 0; I < N; ++I)
          In.push_back(C.fromMem(Part[I][P], Types[I]));
        A = P ? Fn(A, In) : In;
      }
      Acc[R] = A;
    }
  }
  std::vector<Tile> Res(N, Tile{Out, {}});
  for (unsigned R = 0; R < Out.numRegs(); ++R)
    for (size_t I = 0; I < N; ++I)
      Res[I].Regs.push_back(Acc[R][I]);
  return Res;
}

bool lowerReduce(LoweringContext &C, const ir::Op &Op) {
  const auto *O = ir::dyn_cast<ir::ReduceOp>(&Op);
  if (!O)
    return false;
  unsigned Axis = static_cast<unsigned>(O->axis());
  LinearLayout L = C.get(O->operand(0)).Layout;
  std::vector<Tile> Tiles;
  std::vector<ElemType> Types;
  for (ir::Value *V : O->operands()) {
    Tiles.push_back(C.getAs(V, L));
    Types.push_back(V->type().Elem);
  }
  Combine Fn;
  bool Commutative = true;
  ir::ReduceKind K = O->reduceKind();
  if (K == ir::ReduceKind::Custom) {
    const ir::Block *Region = O->combine();
    Commutative = false;
    Fn = [&C, Region](const Vals &Left, const Vals &Right) {
      Vals Args(Left);
      Args.insert(Args.end(), Right.begin(), Right.end());
      return C.lowerScalarRegion(*Region, Args);
    };
  } else {
    Fn = builtinCombine(C, *O);
    if (K == ir::ReduceKind::ArgMax || K == ir::ReduceKind::ArgMin) {
      Tile Idx{L, {}};
      for (unsigned R = 0; R < L.numRegs(); ++R)
        Idx.Regs.push_back(C.coord(L, R, Axis));
      Tiles.push_back(std::move(Idx));
      Types.push_back(ElemType{ScalarKind::I32});
      Commutative = false;
    }
  }
  std::vector<Tile> Res = reduceTiles(C, Tiles, Types, Axis, Fn, Commutative);
  if (K == ir::ReduceKind::ArgMax || K == ir::ReduceKind::ArgMin)
    C.set(O->result(), std::move(Res[1]));
  else
    for (unsigned I = 0; I < O->numResults() && I < Res.size(); ++I)
      C.set(O->result(I), std::move(Res[I]));
  return true;
}

} // namespace tessel::codegen
