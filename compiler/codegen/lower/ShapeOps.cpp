//===- ShapeOps.cpp - broadcast, expand_dims, reshape, permute, join ------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Shape ops in registers where the layouts allow, else through shared
/// memory:
///  - broadcast: in registers; the operand is read in the result's layout
///    restricted to size 1 along the grown dimensions (restrictLayout), so
///    each result register takes the operand register that holds its
///    element;
///  - expand_dims: in registers; the operand is read in the slice of the
///    result's layout (the result's layout has size 1 along the new axis);
///  - reshape (row-major order kept), permute / trans, join and split move
///    elements between threads: every source element is written at its
///    row-major index in the scratch, and every result register reads the
///    element its coordinate maps to;
///  - gather the same way, the axis coordinate taken from the index register
///    of the result's own coordinate: the scratch is the whole source, which
///    is what Triton allocates for a gather that is not warp-local
///    (GatherLoweringHelper::getScratchSizeInBytes). (Triton gives a gather
///    of rank 2 or more a warp-local layout and shuffles instead; tessel
///    does not yet.)
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

namespace tessel::codegen {

static void lowerBroadcast(LoweringContext &C, const ir::Op &O) {
  LinearLayout L = C.wanted(O.result());
  const auto &From = O.operand(0)->type().Shape;
  if (From.empty()) {
    C.set(O.result(), Tile{L, std::vector<llvm::Value *>(L.numRegs(), C.get(O.operand(0)).Regs[0])});
    return;
  }
  // Restrict one dimension at a time, composing the register maps.
  LinearLayout In = L;
  std::vector<unsigned> Map(L.numRegs());
  for (unsigned R = 0; R < L.numRegs(); ++R)
    Map[R] = R;
  for (unsigned D = 0; D < From.size(); ++D) {
    if (From[D] != 1 || In.Shape[D] == 1)
      continue;
    std::vector<unsigned> Step;
    In = restrictLayout(In, D, &Step);
    for (unsigned &M : Map)
      M = Step[M];
  }
  Tile Src = C.getAs(O.operand(0), In);
  Tile Out{L, {}};
  for (unsigned R = 0; R < L.numRegs(); ++R)
    Out.Regs.push_back(Src.Regs[Map[R]]);
  C.set(O.result(), std::move(Out));
}

static void lowerExpandDims(LoweringContext &C, const ir::ExpandDimsOp &O) {
  LinearLayout L = C.wanted(O.result());
  unsigned Axis = static_cast<unsigned>(O.axis());
  if (O.operand(0)->type().Shape.empty()) {
    C.set(O.result(), Tile{L, std::vector<llvm::Value *>(L.numRegs(), C.get(O.operand(0)).Regs[0])});
    return;
  }
  // L has size 1 along Axis: its bases move nothing there, so the slice has
  // the same registers in the same order.
  Tile Src = C.getAs(O.operand(0), sliceLayout(L, Axis));
  if (Src.Regs.size() != L.numRegs()) {
    C.unsupported(O, "this expand_dims layout");
    return;
  }
  C.set(O.result(), Tile{L, Src.Regs});
}

/// Writes the operands to the scratch and reads the result registers, in
/// layout L, from SourceIndex(result coordinate, register) (an element index
/// into the scratch).
static Tile
gatherThroughShared(LoweringContext &C, const std::vector<const ir::Value *> &Srcs, const ir::Value *Res,
                    const LinearLayout &L,
                    const std::function<llvm::Value *(const std::vector<llvm::Value *> &, unsigned)> &SourceIndex) {
  llvm::IRBuilderBase &B = C.B;
  ElemType E = Res->type().Elem;
  int64_t Base = 0;
  for (const ir::Value *S : Srcs) {
    int64_t N = 1;
    for (int64_t D : S->type().Shape)
      N *= D;
    Base += N;
  }
  llvm::Value *Buf =
      C.scratch(SharedBufferKind::ShapeScratch,
                LoweringContext::tileString(Srcs.size() == 1 ? Srcs[0]->type().Shape : Res->type().Shape, E),
                static_cast<uint64_t>(Base) * C.M.getDataLayout().getTypeAllocSize(C.memType(E)));
  C.barrier();
  Base = 0;
  for (const ir::Value *S : Srcs) {
    const Tile &T = C.get(S);
    C.stageToShared(T, E, Buf, Base, false);
    int64_t N = 1;
    for (int64_t D : S->type().Shape)
      N *= D;
    Base += N;
  }
  C.barrier();
  Tile Out{L, {}};
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    std::vector<llvm::Value *> Coord;
    for (unsigned D = 0; D < L.rank(); ++D)
      Coord.push_back(C.coord(L, R, D));
    llvm::Value *Idx = SourceIndex(Coord, R);
    Out.Regs.push_back(C.fromMem(B.CreateLoad(C.memType(E), C.sharedElement(Buf, E, Idx)), E));
  }
  return Out;
}

static llvm::Value *rowMajor(LoweringContext &C, const std::vector<llvm::Value *> &Coord,
                             const std::vector<int64_t> &Shape) {
  llvm::Value *Idx = C.i32(0);
  for (size_t D = 0; D < Shape.size(); ++D)
    Idx = C.B.CreateAdd(C.B.CreateMul(Idx, C.i32(Shape[D])), Coord[D]);
  return Idx;
}

bool lowerShapeOps(LoweringContext &C, const ir::Op &O) {
  switch (O.kind()) {
  case ir::OpKind::Broadcast:
    lowerBroadcast(C, O);
    return true;
  case ir::OpKind::ExpandDims:
    lowerExpandDims(C, *ir::cast<ir::ExpandDimsOp>(&O));
    return true;
  case ir::OpKind::Reshape: {
    const auto &Shape = O.result()->type().Shape;
    if (O.operand(0)->type().Shape.empty() || Shape.empty()) {
      LinearLayout L = C.wanted(O.result());
      C.set(O.result(), Tile{L, std::vector<llvm::Value *>(L.numRegs(), C.get(O.operand(0)).Regs[0])});
      return true;
    }
    // The registers reinterpreted (free), then in the consumer's layout.
    const Tile &Src = C.get(O.operand(0));
    Tile T{reshapeLayout(Src.Layout, Shape), Src.Regs};
    C.set(O.result(), C.convert(T, C.wanted(O.result()), O.result()->type().Elem));
    return true;
  }
  case ir::OpKind::Permute: {
    const auto &Order = ir::cast<ir::PermuteOp>(&O)->order();
    const Tile &Src = C.get(O.operand(0));
    Tile T{permuteLayout(Src.Layout, Order), Src.Regs};
    C.set(O.result(), C.convert(T, C.wanted(O.result()), O.result()->type().Elem));
    return true;
  }
  case ir::OpKind::Join: {
    const auto &InShape = O.operand(0)->type().Shape;
    int64_t N = 1;
    for (int64_t D : InShape)
      N *= D;
    C.set(O.result(), gatherThroughShared(C, {O.operand(0), O.operand(1)}, O.result(), C.wanted(O.result()),
                                          [&](const std::vector<llvm::Value *> &Coord, unsigned) {
                                            std::vector<llvm::Value *> In(Coord.begin(), Coord.end() - 1);
                                            llvm::Value *Idx = rowMajor(C, In, InShape);
                                            return C.B.CreateAdd(Idx, C.B.CreateMul(Coord.back(), C.i32(N)));
                                          }));
    return true;
  }
  case ir::OpKind::Split: {
    const auto &InShape = O.operand(0)->type().Shape;
    for (unsigned Half = 0; Half < 2; ++Half)
      C.set(O.result(Half), gatherThroughShared(C, {O.operand(0)}, O.result(Half), C.wanted(O.result(Half)),
                                                [&](const std::vector<llvm::Value *> &Coord, unsigned) {
                                                  std::vector<llvm::Value *> In(Coord.begin(), Coord.end());
                                                  In.push_back(C.i32(Half));
                                                  return rowMajor(C, In, InShape);
                                                }));
    return true;
  }
  case ir::OpKind::Gather: {
    const auto *G = ir::cast<ir::GatherOp>(&O);
    const auto &SrcShape = G->src()->type().Shape;
    unsigned Axis = static_cast<unsigned>(G->axis());
    // The result is made in the index's layout (one index per register), then
    // converted to what its users want.
    const Tile &Index = C.get(G->index());
    ScalarKind IdxKind = G->index()->type().Elem.Scalar;
    Tile Out = gatherThroughShared(
        C, {G->src()}, O.result(), Index.Layout, [&](const std::vector<llvm::Value *> &Coord, unsigned R) {
          std::vector<llvm::Value *> In = Coord;
          In[Axis] = C.B.CreateIntCast(Index.Regs[R], C.B.getInt32Ty(), !isUnsigned(IdxKind));
          return rowMajor(C, In, SrcShape);
        });
    C.set(O.result(), C.convert(Out, C.wanted(O.result()), O.result()->type().Elem));
    return true;
  }
  default:
    return false;
  }
}

} // namespace tessel::codegen
