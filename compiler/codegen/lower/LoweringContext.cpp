//===- LoweringContext.cpp - state shared by the op lowerings -------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Values, types, thread coordinates, layout conversion and the dispatch of
/// ops to the lowering families (LoweringContext.h says what each is for).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"

#include "compiler/codegen/Pipeliner.h"
#include "compiler/codegen/lower/Lowerings.h"
#include "compiler/ir/TypeUtils.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>

namespace tessel::codegen {

std::optional<numerics::FloatFormat> fp8Format(ScalarKind K) {
  switch (K) {
  case ScalarKind::FP8E4NV:
    return numerics::FloatFormat::FP8E4NV;
  case ScalarKind::FP8E5:
    return numerics::FloatFormat::FP8E5;
  case ScalarKind::FP8E4B15:
    return numerics::FloatFormat::FP8E4B15;
  case ScalarKind::FP8E5B16:
    return numerics::FloatFormat::FP8E5B16;
  case ScalarKind::FP8E4B8:
    return numerics::FloatFormat::FP8E4B8;
  default:
    return std::nullopt;
  }
}

LoweringContext::LoweringContext(const ir::Function &, const CodegenOptions &Opts, llvm::Module &M,
                                 llvm::Function &Kernel, const LayoutPlan &Plan, const AxisInfoAnalysis &AI)
    : Opts(Opts), Ctx(M.getContext()), M(M), Kernel(Kernel), Plan(Plan), AI(AI),
      B(M.getContext(), llvm::InstSimplifyFolder(M.getDataLayout())) {
  Prologue = llvm::BasicBlock::Create(Ctx, "prologue", &Kernel);
  B.SetInsertPoint(Prologue);
  Tid = B.CreateCall(intrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x), {}, "tid");
  Lane = B.CreateAnd(Tid, i32(31), "lane");
  Warp = B.CreateLShr(Tid, i32(5), "warp");
  Smem = new llvm::GlobalVariable(M, llvm::ArrayType::get(B.getInt8Ty(), 0), false, llvm::GlobalValue::ExternalLinkage,
                                  nullptr, "global_smem", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
  // wgmma's swizzled operands must start at 1024-byte boundaries (the
  // planner aligns their buffers; the window itself must be aligned too).
  Smem->setAlignment(llvm::Align(Plan.Wgmma ? 1024 : 16));
}

//===----------------------------------------------------------------------===//
// Values and types
//===----------------------------------------------------------------------===//

const Tile &LoweringContext::get(const ir::Value *V) {
  auto It = Values.find(V);
  if (It != Values.end())
    return It->second;
  Tile T;
  T.Layout = wanted(V);
  T.Regs.assign(T.Layout.numRegs(), llvm::PoisonValue::get(regType(V->type().Elem)));
  return Values.emplace(V, std::move(T)).first->second;
}

Tile LoweringContext::getAs(const ir::Value *V, const LinearLayout &L) {
  const Tile &T = get(V);
  if (T.Layout == L)
    return T;
  if (ElemType E = V->type().Elem; RematerializeAll || E.isPointer() || !isFloat(E.Scalar))
    if (std::optional<Tile> R = rematerialize(V, L); R && R->Layout == L)
      return *R;
  return convert(get(V), L, V->type().Elem);
}

std::optional<Tile> LoweringContext::rematerialize(const ir::Value *V, const LinearLayout &L) {
  const ir::Op *D = V->definingOp();
  if (!D || D->numResults() != 1 || !pureRegisterOp(*D))
    return std::nullopt;
  Tile Saved = get(V);
  auto Prev = WantedOverride.find(V);
  std::optional<LinearLayout> Before;
  if (Prev != WantedOverride.end())
    Before = Prev->second;
  WantedOverride[V] = L;
  llvm::DebugLoc Loc = B.getCurrentDebugLocation();
  lowerOp(*D);
  B.SetCurrentDebugLocation(Loc);
  Tile T = get(V);
  if (Before)
    WantedOverride[V] = *Before;
  else
    WantedOverride.erase(V);
  set(V, std::move(Saved));
  return T;
}

/// Triton's maybeDeduplicate (ElementwiseOpToLLVMBase), for masks: where
/// AxisInfo says a compare's result is constant over runs of Constancy
/// elements along a dimension, the registers of a thread that fall in one
/// aligned run take the first one's value, and the other compares (and the
/// per-element values they read) die. Layer norm's `where(cols < N, ...)`
/// then compares once per 16-byte vector instead of once per element, with
/// every column index live until its compare (142 registers for one loop at
/// BLOCK_SIZE 16384). A run is the register bits that step by 1, 2, 4 ...
/// along the dimension while every other basis steps by multiples of it.
/// Only masks (compare, select, and / or / xor of them) are merged: Triton
/// merges every elementwise result, and its constancy of a floor division of
/// negative values is wrong (triton-lang/triton's AxisInfo `divsi` issue).
static void mergeConstantRuns(const AxisInfo &Info, Tile &T) {
  const LinearLayout &L = T.Layout;
  for (unsigned D = 0; D < L.rank() && D < Info.Constancy.size(); ++D) {
    int64_t C = Info.Constancy[D];
    unsigned Bits = 0;
    while (Bits < L.Reg.size() && (int64_t{2} << Bits) <= C && C % (int64_t{2} << Bits) == 0) {
      bool Unit = true;
      for (unsigned E = 0; E < L.rank(); ++E)
        Unit &= L.Reg[Bits][E] == (E == D ? (int64_t{1} << Bits) : 0);
      if (!Unit)
        break;
      ++Bits;
    }
    if (!Bits)
      continue;
    int64_t Span = int64_t{1} << Bits;
    auto Aligned = [&](const Coord &B) { return B[D] % Span == 0; };
    bool Ok = std::all_of(L.Reg.begin() + Bits, L.Reg.end(), Aligned) &&
              std::all_of(L.Lane.begin(), L.Lane.end(), Aligned) && std::all_of(L.Warp.begin(), L.Warp.end(), Aligned);
    if (!Ok)
      continue;
    for (size_t R = 0; R < T.Regs.size(); ++R)
      T.Regs[R] = T.Regs[R & ~static_cast<size_t>(Span - 1)];
    return;
  }
}

void LoweringContext::set(const ir::Value *V, Tile T) {
  if (const ir::Op *D = V->definingOp(); D && V->type().Elem.Scalar == ScalarKind::I1 && !V->type().Shape.empty()) {
    using K = ir::OpKind;
    K Kind = D->kind();
    if (Kind == K::Cmp || Kind == K::Select || Kind == K::And || Kind == K::Or || Kind == K::Xor)
      mergeConstantRuns(AI.get(V), T);
  }
  Values[V] = std::move(T);
}

llvm::Type *LoweringContext::regType(ElemType E) { return registerType(Ctx, E); }

llvm::Type *registerType(llvm::LLVMContext &Ctx, ElemType E) {
  llvm::IRBuilder<> B(Ctx);
  if (E.isPointer())
    return llvm::PointerType::get(Ctx, 1);
  switch (E.Scalar) {
  case ScalarKind::I1:
    return B.getInt1Ty();
  case ScalarKind::I8:
  case ScalarKind::U8:
  case ScalarKind::FP8E4NV:
  case ScalarKind::FP8E4B8:
  case ScalarKind::FP8E4B15:
  case ScalarKind::FP8E5:
  case ScalarKind::FP8E5B16:
    return B.getInt8Ty();
  case ScalarKind::I16:
  case ScalarKind::U16:
    return B.getInt16Ty();
  case ScalarKind::I32:
  case ScalarKind::U32:
    return B.getInt32Ty();
  case ScalarKind::I64:
  case ScalarKind::U64:
    return B.getInt64Ty();
  case ScalarKind::FP16:
    return B.getHalfTy();
  case ScalarKind::BF16:
    return B.getBFloatTy();
  case ScalarKind::FP32:
    return B.getFloatTy();
  case ScalarKind::FP64:
    return B.getDoubleTy();
  case ScalarKind::Void:
  case ScalarKind::Unknown:
    break;
  }
  return B.getInt32Ty();
}

llvm::Type *LoweringContext::memType(ElemType E) {
  if (!E.isPointer() && E.Scalar == ScalarKind::I1)
    return B.getInt8Ty();
  return regType(E);
}

llvm::Value *LoweringContext::toMem(llvm::Value *V, ElemType E) {
  if (!E.isPointer() && E.Scalar == ScalarKind::I1)
    return B.CreateZExt(V, B.getInt8Ty());
  return V;
}

llvm::Value *LoweringContext::fromMem(llvm::Value *V, ElemType E) {
  if (!E.isPointer() && E.Scalar == ScalarKind::I1)
    return B.CreateICmpNE(V, B.getInt8(0));
  return V;
}

Tile LoweringContext::scalarTile(llvm::Value *V) const { return Tile{scalarLayout(Opts.NumWarps), {V}}; }

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

llvm::PHINode *LoweringContext::loopPhi(llvm::Value *Init, llvm::BasicBlock *Pre, const llvm::Twine &Name) {
  llvm::Type *T = Init->getType();
  llvm::Function *&F = StandIns[T];
  if (!F)
    F = llvm::Function::Create(llvm::FunctionType::get(B.getVoidTy(), {T}, false), llvm::GlobalValue::ExternalLinkage,
                               "tessel.loop.standin", M);
  llvm::PHINode *P = B.CreatePHI(T, 2, Name);
  P->addIncoming(Init, Pre);
  // No fold can see through an argument, so a fold over the phi is one that
  // holds for whatever the loop carries. One stand-in per type serves every
  // phi: an operation on two phis is never threaded over either (without a
  // dominator tree, instsimplify does so only when the other operand is
  // defined in the entry block).
  P->addIncoming(F->getArg(0), P->getParent());
  return P;
}

void LoweringContext::closeLoopPhi(llvm::PHINode *P, llvm::Value *Next, llvm::BasicBlock *Latch) {
  P->setIncomingValue(1, Next);
  P->setIncomingBlock(1, Latch);
}

void LoweringContext::finishLoops() {
  for (auto &[T, F] : StandIns)
    if (F->getArg(0)->use_empty())
      F->eraseFromParent();
  StandIns.clear();
}

//===----------------------------------------------------------------------===//
// Threads and coordinates
//===----------------------------------------------------------------------===//

/// A | B where A and B have no set bit in common (`or disjoint`).
static llvm::Value *disjointOr(llvm::IRBuilderBase &B, llvm::Value *A, llvm::Value *C) {
  llvm::Value *V = B.CreateOr(A, C);
  if (auto *I = llvm::dyn_cast<llvm::PossiblyDisjointInst>(V))
    I->setIsDisjoint(true);
  return V;
}

const std::vector<llvm::Value *> &LoweringContext::threadCoord(const LinearLayout &L) {
  std::string Key = L.str();
  auto It = ThreadCoords.find(Key);
  if (It != ThreadCoords.end())
    return It->second;
  // Computed once, in the prologue, so loops do not recompute them.
  // Coordinate D is the xor over the thread id's bits p of bit(p) * base(p)
  // (lane bits are tid bits 0-4, warp bits follow). Consecutive bits whose
  // bases are one power of two doubling (a blocked layout's run of lanes)
  // become one field, `(tid >> p) & mask` shifted into place: bit-by-bit
  // terms cost InstCombine and the DAG combiner much more than they save
  // (bit-permutation matching on every `or`). Terms whose bits cannot
  // overlap are joined with a disjoint `or`, the rest with xor.
  llvm::IRBuilder<> P(Prologue);
  // The thread id is below 32 * num_warps (`.reqntid`): no mask on its top field.
  unsigned KernelBits = 5 + static_cast<unsigned>(llvm::Log2_32(static_cast<uint32_t>(Opts.NumWarps)));
  unsigned ThreadBits = 5 + static_cast<unsigned>(L.Warp.size());
  std::vector<llvm::Value *> Coords(L.rank(), nullptr);
  for (unsigned D = 0; D < L.rank(); ++D) {
    auto Base = [&](unsigned Bit) -> int64_t {
      return Bit >= ThreadBits ? 0 : Bit < 5 ? L.Lane[Bit][D] : L.Warp[Bit - 5][D];
    };
    auto PowerOfTwo = [](int64_t V) { return V > 0 && (V & (V - 1)) == 0; };
    llvm::Value *C = nullptr;
    uint64_t Bits = 0; // the bits C may have set
    for (unsigned Bit = 0; Bit < ThreadBits;) {
      int64_t V = Base(Bit);
      if (!V) {
        ++Bit;
        continue;
      }
      unsigned N = 1;
      if (PowerOfTwo(V))
        while (Bit + N < ThreadBits && Base(Bit + N) == V << N)
          ++N;
      llvm::Value *T = Bit ? P.CreateLShr(Tid, P.getInt32(Bit)) : Tid;
      if (Bit + N < KernelBits)
        T = P.CreateAnd(T, P.getInt32((1u << N) - 1));
      uint64_t TermBits;
      if (PowerOfTwo(V)) {
        unsigned Shift = static_cast<unsigned>(llvm::Log2_64(static_cast<uint64_t>(V)));
        if (Shift)
          T = P.CreateShl(T, P.getInt32(Shift), "", /*HasNUW=*/true, /*HasNSW=*/true);
        TermBits = ((uint64_t(1) << N) - 1) << Shift;
      } else {
        T = P.CreateMul(T, P.getInt32(static_cast<uint32_t>(V)));
        TermBits = static_cast<uint64_t>(V);
      }
      if (!C)
        C = T;
      else if (!(Bits & TermBits) && PowerOfTwo(V))
        C = disjointOr(P, T, C);
      else
        C = P.CreateXor(C, T);
      Bits |= TermBits;
      Bit += N;
    }
    Coords[D] = C ? C : P.getInt32(0);
  }
  return ThreadCoords.emplace(Key, std::move(Coords)).first->second;
}
llvm::Value *LoweringContext::coord(const LinearLayout &L, unsigned R, unsigned Dim) {
  int64_t RegPart = L.regCoord(R)[Dim];
  llvm::Value *T = threadCoord(L)[Dim];
  return RegPart ? B.CreateXor(T, i32(RegPart)) : T;
}

llvm::Value *LoweringContext::linearIndex(const LinearLayout &L, unsigned R) {
  llvm::Value *Idx = i32(0);
  for (unsigned D = 0; D < L.rank(); ++D)
    Idx = B.CreateAdd(B.CreateMul(Idx, i32(L.Shape[D])), coord(L, R, D));
  return Idx;
}

llvm::Value *LoweringContext::ownerPredicate(const LinearLayout &L) {
  auto ZeroMask = [](const std::vector<Coord> &Bases) {
    uint32_t Mask = 0;
    for (size_t I = 0; I < Bases.size(); ++I)
      if (std::all_of(Bases[I].begin(), Bases[I].end(), [](int64_t V) { return V == 0; }))
        Mask |= 1u << I;
    return Mask;
  };
  uint32_t LaneMask = ZeroMask(L.Lane), WarpMask = ZeroMask(L.Warp);
  llvm::Value *P = nullptr;
  if (LaneMask)
    P = B.CreateICmpEQ(B.CreateAnd(Lane, i32(LaneMask)), i32(0));
  if (WarpMask) {
    llvm::Value *W = B.CreateICmpEQ(B.CreateAnd(Warp, i32(WarpMask)), i32(0));
    P = P ? B.CreateAnd(P, W) : W;
  }
  return P;
}

//===----------------------------------------------------------------------===//
// Layout conversion and shared memory
//===----------------------------------------------------------------------===//

llvm::Value *LoweringContext::programId(unsigned Axis) {
  static constexpr unsigned Ids[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                      llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                      llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
  return B.CreateCall(intrinsic(Ids[Axis]));
}

llvm::Value *LoweringContext::numPrograms(unsigned Axis) {
  static constexpr unsigned Ids[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                      llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                      llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
  return B.CreateCall(intrinsic(Ids[Axis]));
}

void LoweringContext::barrier() { B.CreateCall(intrinsic(llvm::Intrinsic::nvvm_barrier0)); }

llvm::Value *LoweringContext::sharedElement(llvm::Value *Base, ElemType E, llvm::Value *Index) {
  return B.CreateGEP(memType(E), Base, {Index});
}

std::string LoweringContext::tileString(const std::vector<int64_t> &Shape, ElemType E) {
  std::string S;
  for (int64_t D : Shape)
    S += (S.empty() ? "" : "x") + std::to_string(D);
  return (S.empty() ? "" : S + " ") + ir::elemString(E);
}

unsigned LoweringContext::openShared(SharedBufferKind K, std::string What, uint64_t Bytes, unsigned Stages,
                                     unsigned Align) {
  Planner.step();
  unsigned Id = Planner.open(K, std::move(What), Bytes, CurrentOp ? CurrentOp->loc() : SourceRange{}, Stages, Align);
  auto *G = new llvm::GlobalVariable(M, llvm::ArrayType::get(B.getInt8Ty(), 0), false,
                                     llvm::GlobalValue::ExternalLinkage, nullptr, "smem.buffer." + std::to_string(Id),
                                     nullptr, llvm::GlobalValue::NotThreadLocal, 3);
  G->setAlignment(llvm::Align(16));
  Bases.push_back(G);
  return Id;
}

void LoweringContext::liveFromDefinition(unsigned Id, const ir::Value *V, const ir::Op &User) {
  const ir::Op *D = V->definingOp();
  auto It = ProducedAt.find(V);
  // After the point V was made at: a conversion V's lowering emitted there
  // (elementwise ops are lowered where they are first read) comes before
  // the alloc, as in Triton.
  if (D && It != ProducedAt.end() && D->parentBlock() == User.parentBlock())
    Planner.liveFrom(Id, It->second + 1);
}

llvm::Value *LoweringContext::scratch(SharedBufferKind K, std::string What, uint64_t Bytes) {
  unsigned Id = openShared(K, std::move(What), Bytes);
  Planner.close(Id);
  return Bases[Id];
}

uint64_t LoweringContext::finishShared() {
  Planner.plan();
  for (size_t I = 0; I < Bases.size(); ++I) {
    llvm::Constant *At = llvm::ConstantExpr::getInBoundsGetElementPtr(
        B.getInt8Ty(), Smem, B.getInt32(static_cast<uint32_t>(Planner.buffers()[I].Offset)));
    Bases[I]->replaceAllUsesWith(At);
    Bases[I]->eraseFromParent();
  }
  Bases.clear();
  return Planner.total();
}

void LoweringContext::stageToShared(const Tile &T, ElemType E, llvm::Value *Base, int64_t ElemOffset, bool Barrier) {
  if (Barrier)
    barrier();
  for (unsigned R = 0; R < T.Regs.size(); ++R) {
    llvm::Value *Idx = linearIndex(T.Layout, R);
    if (ElemOffset)
      Idx = B.CreateAdd(Idx, i32(ElemOffset));
    B.CreateStore(toMem(T.Regs[R], E), sharedElement(Base, E, Idx));
  }
}

Tile LoweringContext::convert(const Tile &T, const LinearLayout &To, ElemType E) {
  if (T.Layout == To)
    return T;
  Tile Out{To, {}};
  // In registers when the threads are the same and every register of To
  // is one of T's (To drops replicated or unused registers).
  if (T.Layout.Lane == To.Lane && T.Layout.Warp == To.Warp && T.Layout.Shape == To.Shape) {
    std::map<Coord, unsigned> ByCoord;
    for (unsigned R = 0; R < T.Layout.numRegs(); ++R)
      ByCoord.emplace(T.Layout.regCoord(R), R);
    bool All = true;
    for (unsigned R = 0; R < To.numRegs() && All; ++R) {
      auto It = ByCoord.find(To.regCoord(R));
      if (It == ByCoord.end())
        All = false;
      else
        Out.Regs.push_back(T.Regs[It->second]);
    }
    if (All)
      return Out;
    Out.Regs.clear();
  }
  if (T.Layout.Shape.empty()) {
    Out.Regs.assign(To.numRegs(), T.Regs[0]);
    return Out;
  }
  // Triton's buffer: the tile over its rounds (ConversionSwizzle.h).
  uint64_t Bytes = M.getDataLayout().getTypeAllocSize(memType(E));
  ConversionRounds Rounds = conversionRounds(T.Layout, To, static_cast<unsigned>(Bytes * 8), Opts.Arch);
  llvm::Value *Buf = scratch(SharedBufferKind::LayoutConversion, tileString(T.Layout.Shape, E),
                             static_cast<uint64_t>(Rounds.numel()) * Bytes);
  if (Opts.TritonEpilogue && convertSwizzled(T, To, E, Buf, Rounds, Out))
    return Out;
  // Row-major in the squeezed tile.
  auto Element = [&](const LinearLayout &L, const std::vector<llvm::Value *> &TC, unsigned R) {
    Coord RC = Rounds.squeeze(L.regCoord(R));
    llvm::Value *Idx = i32(0);
    for (unsigned D = 0; D < L.rank(); ++D)
      Idx = B.CreateAdd(B.CreateMul(Idx, i32(Rounds.Shape[D])), RC[D] ? B.CreateXor(TC[D], i32(RC[D])) : TC[D]);
    return sharedElement(Buf, E, Idx);
  };
  roundTrip(T, To, E, Rounds, 1, 1, Element, Out);
  return Out;
}

void LoweringContext::roundTrip(const Tile &T, const LinearLayout &To, ElemType E, const ConversionRounds &Rounds,
                                unsigned VS, unsigned VL, const ConversionElement &Element, Tile &Out) {
  llvm::Type *MT = memType(E);
  uint64_t Bytes = M.getDataLayout().getTypeAllocSize(MT);
  std::vector<llvm::Value *> SrcTC = squeezedThreadCoord(T.Layout, Rounds), DstTC = squeezedThreadCoord(To, Rounds);
  llvm::Type *VT = VL > 1 ? llvm::FixedVectorType::get(MT, VL) : MT;
  Out.Regs.assign(To.numRegs(), nullptr);
  for (unsigned Round = 0; Round < Rounds.count(); ++Round) {
    barrier();
    for (unsigned R = 0; R < T.Regs.size(); R += VS) {
      if (Rounds.roundOf(T.Layout.regCoord(R)) != Round)
        continue;
      llvm::Value *Ptr = Element(T.Layout, SrcTC, R);
      if (VS == 1) {
        B.CreateStore(toMem(T.Regs[R], E), Ptr);
        continue;
      }
      llvm::Value *Vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(MT, VS));
      for (unsigned K = 0; K < VS; ++K)
        Vec = B.CreateInsertElement(Vec, toMem(T.Regs[R + K], E), i32(K));
      B.CreateAlignedStore(Vec, Ptr, llvm::Align(VS * Bytes));
    }
    barrier();
    for (unsigned R = 0; R < To.numRegs(); R += VL) {
      if (Rounds.roundOf(To.regCoord(R)) != Round)
        continue;
      llvm::Value *Ptr = Element(To, DstTC, R);
      llvm::Value *V = VL > 1 ? B.CreateAlignedLoad(VT, Ptr, llvm::Align(VL * Bytes)) : B.CreateLoad(MT, Ptr);
      for (unsigned K = 0; K < VL; ++K)
        Out.Regs[R + K] = fromMem(VL > 1 ? B.CreateExtractElement(V, i32(K)) : V, E);
    }
  }
}

std::vector<llvm::Value *> LoweringContext::squeezedThreadCoord(const LinearLayout &L, const ConversionRounds &Rounds) {
  std::vector<llvm::Value *> TC = threadCoord(L);
  // The thread's coordinates have none of the rep bits (conversionRounds):
  // the bits above each move down by one.
  for (auto It = Rounds.Reps.rbegin(); It != Rounds.Reps.rend(); ++It) {
    int64_t Low = (int64_t{1} << It->Bit) - 1;
    llvm::Value *&V = TC[It->Dim];
    V = B.CreateOr(B.CreateAnd(V, i32(Low)), B.CreateAnd(B.CreateLShr(V, i32(1)), i32(~Low)));
  }
  return TC;
}

/// How many of L's registers, at most MaxElems, lie next to each other along
/// its last dimension with the first at a multiple of that count: the run
/// of its first register bases (LinearLayout::contiguousRegs), where no
/// other basis (a later register's, a lane's, a warp's) moves the run's low
/// bits, since coordinates combine by XOR.
static unsigned vectorRun(const LinearLayout &L, unsigned MaxElems) {
  unsigned Last = L.rank() - 1;
  unsigned V = std::min(L.contiguousRegs(Last), MaxElems);
  for (; V > 1; V /= 2) {
    unsigned K = llvm::Log2_32(V);
    auto Aligned = [&](const Coord &C) { return (C[Last] & (V - 1)) == 0; };
    bool Ok = std::all_of(L.Lane.begin(), L.Lane.end(), Aligned) && std::all_of(L.Warp.begin(), L.Warp.end(), Aligned);
    for (size_t J = K; J < L.Reg.size() && Ok; ++J)
      Ok = Aligned(L.Reg[J]);
    if (Ok)
      break;
  }
  return std::max(V, 1u);
}

/// True when no coordinate bit of a register is also one of a thread's:
/// then a coordinate, threadCoord XOR regCoord, is their sum.
static bool registerBitsApart(const LinearLayout &L) {
  for (unsigned D = 0; D < L.rank(); ++D) {
    int64_t Thread = 0, Reg = 0;
    for (const Coord &C : L.Lane)
      Thread |= C[D];
    for (const Coord &C : L.Warp)
      Thread |= C[D];
    for (const Coord &C : L.Reg)
      Reg |= C[D];
    if (Thread & Reg)
      return false;
  }
  return true;
}

bool LoweringContext::convertSwizzled(const Tile &T, const LinearLayout &To, ElemType E, llvm::Value *Buf,
                                      const ConversionRounds &Rounds, Tile &Out) {
  // Rows of the last dimension, stored whole, in 16-byte chunks; chunk c of
  // row r sits at c ^ (r % Phase) (Triton's swizzled conversion buffers take
  // no padding). The eight rows a warp of an MMA layout writes at once fall
  // in eight different chunks of the 128-byte bank line, and the row a warp
  // of a blocked layout reads stays whole. Coordinates are the squeezed
  // tile's (Rounds): the rep bits choose the round, not the address.
  const std::vector<int64_t> &Shape = Rounds.Shape;
  unsigned Rank = static_cast<unsigned>(Shape.size());
  llvm::Type *MT = memType(E);
  uint64_t Bytes = M.getDataLayout().getTypeAllocSize(MT);
  if (Rank < 2 || Bytes == 0 || 16 % Bytes != 0)
    return false;
  int64_t ChunkElems = static_cast<int64_t>(16 / Bytes), RowElems = Shape[Rank - 1];
  if (RowElems % ChunkElems != 0)
    return false;
  int64_t Phase = std::min<int64_t>(8, RowElems / ChunkElems);
  unsigned ChunkShift = llvm::Log2_64(ChunkElems);
  // Element of register R. Where register and thread bits are apart, the
  // register's row and column are constants added to the thread's, and the
  // XOR touches only the low chunk bits: every address is one of Phase
  // per-thread values plus an immediate, not an address per register.
  auto Element = [&](const LinearLayout &L, const std::vector<llvm::Value *> &TC, bool Apart, unsigned R) {
    Coord RC = Rounds.squeeze(L.regCoord(R));
    if (!Apart) {
      auto C = [&](unsigned D) { return RC[D] ? B.CreateXor(TC[D], i32(RC[D])) : TC[D]; };
      llvm::Value *Row = i32(0);
      for (unsigned D = 0; D + 1 < Rank; ++D)
        Row = B.CreateAdd(B.CreateMul(Row, i32(Shape[D])), C(D));
      llvm::Value *Col = C(Rank - 1);
      llvm::Value *Chunk = B.CreateXor(B.CreateLShr(Col, i32(ChunkShift)), B.CreateAnd(Row, i32(Phase - 1)));
      llvm::Value *Idx = B.CreateAdd(B.CreateMul(Row, i32(RowElems)), B.CreateMul(Chunk, i32(ChunkElems)));
      return sharedElement(Buf, E, B.CreateAdd(Idx, B.CreateAnd(Col, i32(ChunkElems - 1))));
    }
    llvm::Value *RowT = i32(0);
    int64_t RowR = 0;
    for (unsigned D = 0; D + 1 < Rank; ++D) {
      RowT = B.CreateAdd(B.CreateMul(RowT, i32(Shape[D])), TC[D]);
      RowR = RowR * Shape[D] + RC[D];
    }
    llvm::Value *Swizzle = B.CreateAnd(RowR % Phase ? B.CreateAdd(RowT, i32(RowR)) : RowT, i32(Phase - 1));
    llvm::Value *ColT = TC[Rank - 1];
    int64_t ColR = RC[Rank - 1], ChunkR = ColR >> ChunkShift;
    llvm::Value *Chunk = B.CreateXor(B.CreateXor(B.CreateLShr(ColT, i32(ChunkShift)), Swizzle), i32(ChunkR % Phase));
    llvm::Value *Idx = B.CreateMul(B.CreateAdd(Chunk, i32(ChunkR - ChunkR % Phase)), i32(ChunkElems));
    Idx = B.CreateAdd(Idx, B.CreateAnd(ColT, i32(ChunkElems - 1)));
    Idx = B.CreateAdd(Idx, B.CreateMul(RowT, i32(RowElems)));
    return sharedElement(Buf, E, B.CreateAdd(Idx, i32(RowR * RowElems + (ColR & (ChunkElems - 1)))));
  };
  // A vector's registers share a round: none of its register bases is a rep bit.
  auto Vector = [&](const LinearLayout &L) {
    unsigned V = vectorRun(L, static_cast<unsigned>(ChunkElems));
    auto RepFree = [&](unsigned K) {
      for (unsigned J = 0; J < K && J < L.Reg.size(); ++J)
        if (Rounds.roundOf(L.Reg[J]) != 0)
          return false;
      return true;
    };
    while (V > 1 && !RepFree(llvm::Log2_32(V)))
      V /= 2;
    return V;
  };
  bool SrcApart = registerBitsApart(T.Layout), DstApart = registerBitsApart(To);
  roundTrip(
      T, To, E, Rounds, Vector(T.Layout), Vector(To),
      [&](const LinearLayout &L, const std::vector<llvm::Value *> &TC, unsigned R) {
        return Element(L, TC, &L == &T.Layout ? SrcApart : DstApart, R);
      },
      Out);
  return true;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

void LoweringContext::lowerBlock(const ir::Block &Blk) {
  for (const auto &O : Blk.ops()) {
    lowerOp(*O);
    for (const ir::Value *R : O->results())
      ProducedAt[R] = Planner.point();
    if (auto It = AfterOp.find(O.get()); It != AfterOp.end()) {
      std::vector<std::function<void()>> Then = std::move(It->second);
      AfterOp.erase(It);
      for (const auto &F : Then)
        F();
    }
  }
}

void LoweringContext::lowerOp(const ir::Op &O) {
  using Family = bool (*)(LoweringContext &, const ir::Op &);
  // lowerPipelined first: it takes the loops and loads of the pipeline plan;
  // lowerTma before lowerMemory: it takes the descriptor accesses.
  static constexpr Family Families[] = {lowerPipelined,   lowerTma,         lowerTensormapCreate, lowerElementwise,
                                        lowerCasts,       lowerMath,        lowerMemory,          lowerReduce,
                                        lowerScan,        lowerShapeOps,    lowerControlFlow,     lowerRandom,
                                        lowerDebug,       lowerInlineAsm,   lowerHistogram,       lowerDot};
  switch (O.kind()) {
  case ir::OpKind::Yield:
  case ir::OpKind::Condition:
  case ir::OpKind::Return:
    return; // read by the region's owner
  default:
    break;
  }
  if (Scope) {
    LineCol LC = Src->lineCol(O.loc().Begin);
    B.SetCurrentDebugLocation(llvm::DILocation::get(Ctx, LC.Line + 1, LC.Column + 1, Scope));
  }
  // Buffers opened by this op are disjoint from those of earlier ops.
  Planner.step();
  const ir::Op *Outer = CurrentOp;
  CurrentOp = &O;
  for (Family F : Families)
    if (F(*this, O)) {
      CurrentOp = Outer;
      return;
    }
  CurrentOp = Outer;
  unsupported(O, "'" + std::string(ir::opName(O.kind())) + "'");
}

std::vector<llvm::Value *> LoweringContext::lowerScalarRegion(const ir::Block &Blk,
                                                              const std::vector<llvm::Value *> &Args) {
  for (size_t I = 0; I < Args.size() && I < Blk.arguments().size(); ++I)
    set(Blk.argument(I), scalarTile(Args[I]));
  lowerBlock(Blk);
  std::vector<llvm::Value *> Out;
  if (const ir::Op *Y = Blk.terminator())
    for (ir::Value *V : Y->operands())
      Out.push_back(get(V).Regs[0]);
  return Out;
}

void LoweringContext::unsupported(const ir::Op &O, const std::string &What) {
  std::string Msg = What + " is not supported by tessel's code generator yet";
  Problems.push_back(Problem{ProblemKind::UnsupportedConstruct, O.loc(), Msg, {}, {}, {}});
  poisonResults(O);
}

void LoweringContext::poisonResults(const ir::Op &O) {
  for (ir::Value *R : O.results()) {
    Tile T;
    T.Layout = wanted(R);
    T.Regs.assign(T.Layout.numRegs(), llvm::PoisonValue::get(regType(R->type().Elem)));
    set(R, std::move(T));
  }
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

llvm::Function *LoweringContext::intrinsic(unsigned ID, llvm::ArrayRef<llvm::Type *> Tys) {
  return llvm::Intrinsic::getDeclaration(&M, static_cast<llvm::Intrinsic::ID>(ID), Tys);
}

llvm::FunctionCallee LoweringContext::libdevice(const std::string &Name, llvm::Type *Ret,
                                                llvm::ArrayRef<llvm::Type *> Args) {
  return M.getOrInsertFunction(Name, llvm::FunctionType::get(Ret, Args, false));
}

llvm::Value *LoweringContext::inlineAsm(llvm::Type *Ret, const std::string &Asm, const std::string &Constraints,
                                        llvm::ArrayRef<llvm::Value *> Args, bool SideEffects) {
  std::vector<llvm::Type *> ArgTys;
  for (llvm::Value *A : Args)
    ArgTys.push_back(A->getType());
  auto *FT = llvm::FunctionType::get(Ret, ArgTys, false);
  return B.CreateCall(llvm::InlineAsm::get(FT, Asm, Constraints, SideEffects), Args);
}

} // namespace tessel::codegen
