//===- Memory.cpp - global loads, stores and atomics ----------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Global memory accesses as Triton emits them: inline PTX, one instruction
/// per vector of MemAccess::Vector consecutive registers, predicated by the
/// mask (`@$p ld.global.v4.b32 {...}, [ $ptr + 0 ];`), with the cache
/// modifier (.ca .cg .cv / .wb .cg .cs .wt) and L1 eviction priority
/// (.L1::evict_first, .L1::evict_last) spelled into the instruction.
///  - A masked load first moves `other` (or 0) into its registers, so
///    masked-off lanes read it.
///  - Vectors are packed into 32-bit words (64-bit for fp64/i64): 8 fp16
///    load as `v4.b32`; sub-word accesses use .b8 / .b16.
///  - Stores and atomics run only on the thread that owns the element
///    (LinearLayout::owns), so a replicated tile is written once; an atomic's
///    old value is then handed to the replicas through shared memory.
///  - Atomics: `atom.global.<sem>.<scope>.<op>.<type>`; fp32/fp64 max/min
///    use Triton's integer trick (signed max on the bits of non-negative
///    values, unsigned min on negative ones).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

namespace tessel::codegen {

static std::string loadCache(ir::CacheModifier M) {
  switch (M) {
  case ir::CacheModifier::CA:
    return ".ca";
  case ir::CacheModifier::CG:
    return ".cg";
  case ir::CacheModifier::CV:
    return ".cv";
  default:
    return "";
  }
}

static std::string storeCache(ir::CacheModifier M) {
  switch (M) {
  case ir::CacheModifier::WB:
    return ".wb";
  case ir::CacheModifier::CG:
    return ".cg";
  case ir::CacheModifier::CS:
    return ".cs";
  case ir::CacheModifier::WT:
    return ".wt";
  default:
    return "";
  }
}

static std::string eviction(ir::EvictionPolicy E) {
  switch (E) {
  case ir::EvictionPolicy::EvictFirst:
    return ".L1::evict_first";
  case ir::EvictionPolicy::EvictLast:
    return ".L1::evict_last";
  default:
    return "";
  }
}

/// How a vector of Vec elements of Bits each is moved: Words of WordBits.
struct Packing {
  unsigned Words, WordBits;
  char Constraint; ///< 'h', 'r' or 'l'
  llvm::Type *WordTy;
};

static Packing packing(LoweringContext &C, unsigned Vec, unsigned Bits) {
  unsigned Total = Vec * Bits;
  unsigned Word = std::min(Total, std::max(32u, Bits));
  Packing P{Total / Word, Word, 'r', C.B.getInt32Ty()};
  if (Word <= 16) {
    P.Constraint = 'h';
    P.WordTy = C.B.getInt16Ty();
  } else if (Word == 64) {
    P.Constraint = 'l';
    P.WordTy = C.B.getInt64Ty();
  }
  return P;
}

/// The element registers of a word (bitcasts through a vector).
static std::vector<llvm::Value *> unpackWord(LoweringContext &C, llvm::Value *W, const Packing &P, llvm::Type *ElemTy,
                                             unsigned Bits) {
  llvm::IRBuilderBase &B = C.B;
  unsigned N = std::max(1u, P.WordBits / Bits);
  if (P.WordBits < 16 || Bits == P.WordBits) {
    llvm::Value *V = P.WordBits < 16 || Bits < 16 ? B.CreateTrunc(W, B.getIntNTy(Bits)) : W;
    return {B.CreateBitCast(V, ElemTy)};
  }
  llvm::Value *Vec = B.CreateBitCast(W, llvm::FixedVectorType::get(ElemTy, N));
  std::vector<llvm::Value *> Out;
  for (unsigned I = 0; I < N; ++I)
    Out.push_back(B.CreateExtractElement(Vec, I));
  return Out;
}

static llvm::Value *packWord(LoweringContext &C, const std::vector<llvm::Value *> &Elems, const Packing &P,
                             unsigned Bits) {
  llvm::IRBuilderBase &B = C.B;
  if (Elems.size() == 1) {
    llvm::Value *I = B.CreateBitCast(Elems[0], B.getIntNTy(Bits));
    return Bits < 16 ? B.CreateZExt(I, P.WordTy) : I;
  }
  llvm::Value *Vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(Elems[0]->getType(), Elems.size()));
  for (unsigned I = 0; I < Elems.size(); ++I)
    Vec = B.CreateInsertElement(Vec, Elems[I], I);
  return B.CreateBitCast(Vec, P.WordTy);
}

static llvm::Value *bitsOf(LoweringContext &C, llvm::Value *V) {
  if (V->getType()->isPointerTy())
    return C.B.CreatePtrToInt(V, C.B.getInt64Ty());
  return C.B.CreateBitCast(V, C.B.getIntNTy(V->getType()->getPrimitiveSizeInBits()));
}

static llvm::Value *fromBits(LoweringContext &C, llvm::Value *V, llvm::Type *T) {
  if (T->isPointerTy())
    return C.B.CreateIntToPtr(V, T);
  return C.B.CreateBitCast(V, T);
}

static void lowerLoad(LoweringContext &C, const ir::LoadOp &O, const MemAccess &A) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &L = A.Layout;
  ElemType E = O.result()->type().Elem;
  llvm::Type *MemTy = C.memType(E);
  unsigned Bits = static_cast<unsigned>(MemTy->isPointerTy() ? 64 : MemTy->getPrimitiveSizeInBits());
  Tile Ptr = C.getAs(O.ptr(), L);
  std::optional<Tile> Mask, Other;
  if (O.mask())
    Mask = C.getAs(O.mask(), L);
  if (O.other())
    Other = C.getAs(O.other(), L);
  unsigned Vec = std::min<unsigned>(A.Vector, L.numRegs());
  Packing P = packing(C, Vec, Bits);
  std::string Op = std::string("ld") + (O.isVolatile() ? ".volatile" : "") + ".global" +
                   (O.isVolatile() ? "" : loadCache(O.cache()) + eviction(O.eviction()));
  if (P.Words > 1)
    Op += ".v" + std::to_string(P.Words);
  Op += ".b" + std::to_string(P.WordBits);
  Tile Out{L, {}};
  unsigned PerWord = std::max(1u, P.WordBits / Bits);
  for (unsigned G = 0; G < L.numRegs(); G += Vec) {
    std::string Asm, Cons;
    std::vector<llvm::Value *> Args;
    unsigned N = P.Words;
    for (unsigned W = 0; W < N; ++W)
      Cons += std::string(W ? "," : "") + (Mask ? "=&" : "=") + P.Constraint;
    // Operands after the outputs: the pointer, the predicate, the words of other.
    unsigned PtrIdx = N, PredIdx = N + 1, OtherIdx = N + (Mask ? 2 : 1);
    Cons += ",l";
    Args.push_back(Ptr.Regs[G]);
    if (Mask) {
      Cons += ",b";
      Args.push_back(Mask->Regs[G]);
      for (unsigned W = 0; W < N; ++W) {
        std::vector<llvm::Value *> Elems;
        for (unsigned I = 0; I < PerWord; ++I) {
          unsigned R = G + W * PerWord + I;
          llvm::Value *V = Other ? C.toMem(Other->Regs[R], E) : llvm::Constant::getNullValue(MemTy);
          Elems.push_back(V->getType()->isPointerTy() ? B.CreatePtrToInt(V, B.getInt64Ty()) : V);
        }
        Args.push_back(packWord(C, Elems, P, Bits));
        Cons += std::string(",") + P.Constraint;
        Asm += "mov.b" + std::to_string(std::max(16u, P.WordBits)) + " $" + std::to_string(W) + ", $" +
               std::to_string(OtherIdx + W) + ";\n\t";
      }
      Asm += "@$" + std::to_string(PredIdx) + " ";
    }
    Asm += Op + " ";
    if (N > 1) {
      Asm += "{ ";
      for (unsigned W = 0; W < N; ++W)
        Asm += std::string(W ? ", " : "") + "$" + std::to_string(W);
      Asm += " }";
    } else {
      Asm += "$0";
    }
    Asm += ", [ $" + std::to_string(PtrIdx) + " + 0 ];";
    llvm::Type *RetTy = P.WordTy;
    if (N > 1)
      RetTy = llvm::StructType::get(C.Ctx, std::vector<llvm::Type *>(N, P.WordTy));
    // Side-effecting, as Triton's PTXBuilder::launch makes every load: a pure
    // asm would be hoisted past the stores and barriers that order it (a
    // partner's value read back after `tl.debug_barrier()`, a value reloaded
    // after the loop stored it).
    llvm::Value *Res = C.inlineAsm(RetTy, Asm, Cons, Args, /*SideEffects=*/true);
    for (unsigned W = 0; W < N; ++W) {
      llvm::Value *Word = N > 1 ? B.CreateExtractValue(Res, W) : Res;
      llvm::Type *ElemTy = MemTy->isPointerTy() ? B.getInt64Ty() : MemTy;
      for (llvm::Value *V : unpackWord(C, Word, P, ElemTy, Bits)) {
        if (MemTy->isPointerTy())
          V = B.CreateIntToPtr(V, MemTy);
        Out.Regs.push_back(C.fromMem(V, E));
      }
    }
  }
  C.set(O.result(), std::move(Out));
}

/// mask && owner (either may be absent: null means true).
static llvm::Value *andPred(LoweringContext &C, llvm::Value *A, llvm::Value *B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return C.B.CreateAnd(A, B);
}

static void lowerStore(LoweringContext &C, const ir::StoreOp &O, const MemAccess &A) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &L = A.Layout;
  ElemType E = O.value()->type().Elem;
  llvm::Type *MemTy = C.memType(E);
  unsigned Bits = static_cast<unsigned>(MemTy->isPointerTy() ? 64 : MemTy->getPrimitiveSizeInBits());
  Tile Ptr = C.getAs(O.ptr(), L), Val = C.getAs(O.value(), L);
  std::optional<Tile> Mask;
  if (O.mask())
    Mask = C.getAs(O.mask(), L);
  llvm::Value *Owner = C.ownerPredicate(L);
  unsigned Vec = std::min<unsigned>(A.Vector, L.numRegs());
  Packing P = packing(C, Vec, Bits);
  std::string Op = "st.global" + storeCache(O.cache()) + eviction(O.eviction());
  if (P.Words > 1)
    Op += ".v" + std::to_string(P.Words);
  Op += ".b" + std::to_string(P.WordBits);
  unsigned PerWord = std::max(1u, P.WordBits / Bits);
  for (unsigned G = 0; G < L.numRegs(); G += Vec) {
    llvm::Value *Pred = andPred(C, Mask ? Mask->Regs[G] : nullptr, Owner);
    std::vector<llvm::Value *> Args{Ptr.Regs[G]};
    std::string Cons = "l";
    for (unsigned W = 0; W < P.Words; ++W) {
      std::vector<llvm::Value *> Elems;
      for (unsigned I = 0; I < PerWord; ++I) {
        llvm::Value *V = C.toMem(Val.Regs[G + W * PerWord + I], E);
        Elems.push_back(V->getType()->isPointerTy() ? B.CreatePtrToInt(V, B.getInt64Ty()) : V);
      }
      Args.push_back(packWord(C, Elems, P, Bits));
      Cons += std::string(",") + P.Constraint;
    }
    std::string Asm;
    if (Pred) {
      Args.push_back(Pred);
      Cons += ",b";
      Asm = "@$" + std::to_string(P.Words + 1) + " ";
    }
    Asm += Op + " [ $0 + 0 ], ";
    if (P.Words > 1) {
      Asm += "{ ";
      for (unsigned W = 0; W < P.Words; ++W)
        Asm += std::string(W ? ", " : "") + "$" + std::to_string(W + 1);
      Asm += " }";
    } else {
      Asm += "$1";
    }
    Asm += ";";
    C.inlineAsm(B.getVoidTy(), Asm, Cons, Args);
  }
}

static const char *semName(ir::MemSemantic S) {
  switch (S) {
  case ir::MemSemantic::AcqRel:
    return ".acq_rel";
  case ir::MemSemantic::Acquire:
    return ".acquire";
  case ir::MemSemantic::Release:
    return ".release";
  case ir::MemSemantic::Relaxed:
    return ".relaxed";
  }
  return ".acq_rel";
}

static const char *scopeName(ir::MemScope S) {
  switch (S) {
  case ir::MemScope::Gpu:
    return ".gpu";
  case ir::MemScope::Cta:
    return ".cta";
  case ir::MemScope::Sys:
    return ".sys";
  }
  return ".gpu";
}

/// The `.op.type` of an atom for kind K on E; empty when PTX has none.
static std::string atomOp(ir::AtomicKind K, ElemType E, unsigned Bits) {
  bool Fp = isFloat(E.Scalar), Uns = isUnsigned(E.Scalar);
  std::string B = std::to_string(Bits);
  switch (K) {
  case ir::AtomicKind::Add:
    if (Fp)
      return Bits == 16 ? (E.Scalar == ScalarKind::BF16 ? ".add.noftz.bf16" : ".add.noftz.f16") : ".add.f" + B;
    return Bits >= 32 ? ".add.u" + B : "";
  case ir::AtomicKind::Max:
  case ir::AtomicKind::Min:
    if (Fp || Bits < 32)
      return "";
    return std::string(K == ir::AtomicKind::Max ? ".max" : ".min") + (Uns ? ".u" : ".s") + B;
  case ir::AtomicKind::And:
    return Bits >= 32 ? ".and.b" + B : "";
  case ir::AtomicKind::Or:
    return Bits >= 32 ? ".or.b" + B : "";
  case ir::AtomicKind::Xor:
    return Bits >= 32 ? ".xor.b" + B : "";
  case ir::AtomicKind::Xchg:
    return Bits >= 16 ? ".exch.b" + B : "";
  }
  return "";
}

static char constraintFor(unsigned Bits) { return Bits == 64 ? 'l' : Bits == 16 ? 'h' : 'r'; }

/// One predicated atom; returns the old value's bits.
static llvm::Value *atom(LoweringContext &C, const std::string &Op, unsigned Bits, llvm::Value *Ptr,
                         std::vector<llvm::Value *> Vals, llvm::Value *Pred) {
  llvm::IRBuilderBase &B = C.B;
  char K = constraintFor(Bits);
  std::string Cons = std::string("=&") + K + ",l";
  std::vector<llvm::Value *> Args{Ptr};
  std::string Operands;
  for (size_t I = 0; I < Vals.size(); ++I) {
    Args.push_back(Vals[I]);
    Cons += std::string(",") + K;
    Operands += ", $" + std::to_string(I + 2);
  }
  std::string Asm = "mov.b" + std::to_string(Bits) + " $0, 0;\n\t";
  if (Pred) {
    Args.push_back(Pred);
    Cons += ",b";
    Asm += "@$" + std::to_string(Vals.size() + 2) + " ";
  }
  Asm += Op + " $0, [ $1 + 0 ]" + Operands + ";";
  return C.inlineAsm(B.getIntNTy(Bits), Asm, Cons, Args);
}

static void lowerAtomic(LoweringContext &C, const ir::Op &O, const MemAccess &A) {
  llvm::IRBuilderBase &B = C.B;
  const LinearLayout &L = A.Layout;
  bool Cas = O.kind() == ir::OpKind::AtomicCas;
  ElemType E = O.result()->type().Elem;
  llvm::Type *Ty = C.regType(E);
  unsigned Bits = static_cast<unsigned>(Ty->getPrimitiveSizeInBits());
  ir::MemSemantic Sem = Cas ? ir::cast<ir::AtomicCasOp>(&O)->semantic() : ir::cast<ir::AtomicRMWOp>(&O)->semantic();
  ir::MemScope Scope = Cas ? ir::cast<ir::AtomicCasOp>(&O)->scope() : ir::cast<ir::AtomicRMWOp>(&O)->scope();
  std::string Prefix = std::string("atom") + semName(Sem) + scopeName(Scope) + ".global";
  Tile Ptr = C.getAs(O.operand(0), L);
  Tile Val = C.getAs(O.operand(Cas ? 2 : 1), L);
  std::optional<Tile> Cmp, Mask;
  if (Cas)
    Cmp = C.getAs(O.operand(1), L);
  else if (auto *M = ir::cast<ir::AtomicRMWOp>(&O)->mask())
    Mask = C.getAs(M, L);
  llvm::Value *Owner = C.ownerPredicate(L);
  ir::AtomicKind K = Cas ? ir::AtomicKind::Xchg : ir::cast<ir::AtomicRMWOp>(&O)->atomicKind();
  bool FloatMinMax = !Cas && isFloat(E.Scalar) && (K == ir::AtomicKind::Max || K == ir::AtomicKind::Min) && Bits >= 32;
  std::string Op = Cas ? (Bits >= 16 ? ".cas.b" + std::to_string(Bits) : "") : atomOp(K, E, Bits);
  if (Op.empty() && !FloatMinMax) {
    C.unsupported(O, "'" + std::string(ir::opName(O.kind())) + (Cas ? "" : " " + std::string(ir::atomicKindName(K))) +
                         "' on " + E.str());
    return;
  }
  Tile Out{L, {}};
  for (unsigned R = 0; R < L.numRegs(); ++R) {
    llvm::Value *Pred = andPred(C, Mask ? Mask->Regs[R] : nullptr, Owner);
    llvm::Value *V = bitsOf(C, Val.Regs[R]);
    llvm::Value *Old;
    if (Cas) {
      Old = atom(C, Prefix + Op, Bits, Ptr.Regs[R], {bitsOf(C, Cmp->Regs[R]), V}, Pred);
    } else if (FloatMinMax) {
      // Triton's trick: for x >= 0 the float order is the signed order of
      // the bits; for x < 0 it is the reverse unsigned order.
      bool Max = K == ir::AtomicKind::Max;
      std::string B0 = std::to_string(Bits);
      llvm::Value *NonNeg = B.CreateICmpSGE(V, llvm::ConstantInt::get(V->getType(), 0));
      llvm::Value *PPos = andPred(C, Pred, NonNeg), *PNeg = andPred(C, Pred, B.CreateNot(NonNeg));
      llvm::Value *OldPos = atom(C, Prefix + (Max ? ".max.s" : ".min.s") + B0, Bits, Ptr.Regs[R], {V}, PPos);
      llvm::Value *OldNeg = atom(C, Prefix + (Max ? ".min.u" : ".max.u") + B0, Bits, Ptr.Regs[R], {V}, PNeg);
      Old = B.CreateSelect(NonNeg, OldPos, OldNeg);
    } else {
      Old = atom(C, Prefix + Op, Bits, Ptr.Regs[R], {V}, Pred);
    }
    Out.Regs.push_back(fromBits(C, Old, Ty));
  }
  // The replicas of an element did not run the atomic: they read the
  // owner's old value through shared memory.
  if (Owner) {
    llvm::Value *OwnerNow = C.ownerPredicate(L);
    C.barrier();
    int64_t Numel = 1;
    for (int64_t D : L.Shape)
      Numel *= D;
    llvm::Value *Buf = C.scratch(SharedBufferKind::AtomicScratch, LoweringContext::tileString(L.Shape, E),
                                 static_cast<uint64_t>(Numel) * (Bits / 8));
    for (unsigned R = 0; R < L.numRegs(); ++R) {
      llvm::Value *Slot = C.sharedElement(Buf, E, C.linearIndex(L, R));
      llvm::BasicBlock *Cur = B.GetInsertBlock();
      llvm::BasicBlock *Write = llvm::BasicBlock::Create(C.Ctx, "atomic.share", &C.Kernel);
      llvm::BasicBlock *Done = llvm::BasicBlock::Create(C.Ctx, "atomic.shared", &C.Kernel);
      B.CreateCondBr(OwnerNow, Write, Done);
      B.SetInsertPoint(Write);
      B.CreateStore(Out.Regs[R], Slot);
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
      (void)Cur;
    }
    C.barrier();
    for (unsigned R = 0; R < L.numRegs(); ++R)
      Out.Regs[R] = B.CreateLoad(Ty, C.sharedElement(Buf, E, C.linearIndex(L, R)));
  }
  C.set(O.result(), std::move(Out));
}

bool lowerMemory(LoweringContext &C, const ir::Op &O) {
  auto It = C.Plan.Access.find(&O);
  switch (O.kind()) {
  case ir::OpKind::Load:
    lowerLoad(C, *ir::cast<ir::LoadOp>(&O), It->second);
    return true;
  case ir::OpKind::Store:
    lowerStore(C, *ir::cast<ir::StoreOp>(&O), It->second);
    return true;
  case ir::OpKind::AtomicRMW:
  case ir::OpKind::AtomicCas:
    lowerAtomic(C, O, It->second);
    return true;
  default:
    return false;
  }
}

} // namespace tessel::codegen
