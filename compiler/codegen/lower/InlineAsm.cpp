//===- InlineAsm.cpp - tl.inline_asm_elementwise --------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Triton's ElementwiseInlineAsmOpConversion: the user's PTX runs once per
/// `pack` consecutive registers of the result's layout. Operands narrower
/// than 32 bits travel packed, min(32 / width, pack) elements to a vector
/// register, and so do the results; the statement's outputs come first in
/// its constraint string (every register of the first result, then of the
/// next), then its inputs, as the user wrote them. A pure
/// statement is one LLVM may move or remove; any other has side effects.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/Support/Error.h>

namespace tessel::codegen {

namespace {

/// How many elements of E share one asm operand register.
unsigned perRegister(ElemType E, int64_t Pack) {
  unsigned Bits = E.isPointer() ? 64 : static_cast<unsigned>(bitWidth(E.Scalar));
  unsigned N = Bits < 32 ? 32 / std::max(Bits, 1u) : 1;
  return static_cast<unsigned>(std::min<int64_t>(N, Pack));
}

/// Regs[First .. First+Count) as asm operands: one per register group.
std::vector<llvm::Value *> packed(LoweringContext &C, const std::vector<llvm::Value *> &Regs, size_t First,
                                  unsigned Count, unsigned PerReg) {
  std::vector<llvm::Value *> Out;
  for (unsigned I = 0; I < Count; I += PerReg) {
    if (PerReg == 1) {
      Out.push_back(Regs[First + I]);
      continue;
    }
    llvm::Value *V = llvm::PoisonValue::get(llvm::FixedVectorType::get(Regs[First]->getType(), PerReg));
    for (unsigned K = 0; K < PerReg; ++K)
      V = C.B.CreateInsertElement(V, Regs[First + I + K], C.i32(K));
    Out.push_back(V);
  }
  return Out;
}

} // namespace

bool lowerInlineAsm(LoweringContext &C, const ir::Op &Op) {
  const auto *O = ir::dyn_cast<ir::InlineAsmOp>(&Op);
  if (!O)
    return false;
  const int64_t Pack = O->pack();
  LinearLayout L = C.wanted(O->result());
  std::vector<Tile> In;
  for (const ir::Value *A : O->operands())
    In.push_back(C.getAs(A, L));
  const size_t Regs = static_cast<size_t>(L.numRegs());
  if (Pack < 1 || Regs % static_cast<size_t>(Pack) != 0) {
    C.unsupported(Op, "tl.inline_asm_elementwise with pack=" + std::to_string(Pack) + " on a layout of " +
                          std::to_string(Regs) + " elements per thread");
    return true;
  }
  // Every result's registers, in the order of the results, make one struct
  // (one register alone is returned as it is).
  struct ResultRegs {
    unsigned PerReg, Count; ///< elements per register, registers per statement
  };
  std::vector<ResultRegs> Outs;
  std::vector<llvm::Type *> RetParts;
  for (const ir::Value *R : O->results()) {
    ElemType E = R->type().Elem;
    unsigned PerReg = perRegister(E, Pack);
    llvm::Type *ElemTy = C.regType(E);
    llvm::Type *RegTy = PerReg == 1 ? ElemTy : llvm::FixedVectorType::get(ElemTy, PerReg);
    Outs.push_back({PerReg, static_cast<unsigned>(Pack) / PerReg});
    RetParts.insert(RetParts.end(), Outs.back().Count, RegTy);
  }
  llvm::Type *RetTy = RetParts.size() == 1 ? RetParts[0] : llvm::StructType::get(C.Ctx, RetParts);

  // Check the user's constraints against the statement's type once: LLVM
  // asserts on a mismatch instead of reporting it.
  std::vector<llvm::Type *> ArgTys;
  std::vector<unsigned> InPerReg; // per operand
  for (size_t A = 0; A < In.size(); ++A) {
    ElemType E = O->operand(static_cast<unsigned>(A))->type().Elem;
    unsigned PerReg = InPerReg.emplace_back(perRegister(E, Pack));
    llvm::Type *Ty = C.regType(E);
    for (unsigned I = 0; I < Pack; I += PerReg)
      ArgTys.push_back(PerReg == 1 ? Ty : llvm::FixedVectorType::get(Ty, PerReg));
  }
  auto *FT = llvm::FunctionType::get(RetTy, ArgTys, false);
  std::string Constraints(O->constraints());
  if (llvm::Error E = llvm::InlineAsm::verify(FT, Constraints)) {
    C.unsupported(Op, "tl.inline_asm_elementwise whose constraints \"" + Constraints +
                          "\" do not match its operands and result (" + llvm::toString(std::move(E)) + ")");
    return true;
  }

  std::vector<Tile> Out(Outs.size(), Tile{L, std::vector<llvm::Value *>(Regs)});
  for (size_t First = 0; First < Regs; First += static_cast<size_t>(Pack)) {
    std::vector<llvm::Value *> Args;
    for (size_t A = 0; A < In.size(); ++A)
      for (llvm::Value *V : packed(C, In[A].Regs, First, static_cast<unsigned>(Pack), InPerReg[A]))
        Args.push_back(V);
    llvm::Value *R = C.inlineAsm(RetTy, std::string(O->asmText()), Constraints, Args, !O->pure());
    unsigned Part = 0;
    for (size_t Res = 0; Res < Outs.size(); ++Res)
      for (unsigned G = 0; G < Outs[Res].Count; ++G, ++Part) {
        llvm::Value *Reg = RetParts.size() == 1 ? R : C.B.CreateExtractValue(R, Part);
        for (unsigned K = 0; K < Outs[Res].PerReg; ++K)
          Out[Res].Regs[First + G * Outs[Res].PerReg + K] =
              Outs[Res].PerReg == 1 ? Reg : C.B.CreateExtractElement(Reg, C.i32(K));
      }
  }
  for (size_t Res = 0; Res < Outs.size(); ++Res)
    C.set(O->result(static_cast<unsigned>(Res)), std::move(Out[Res]));
  return true;
}

} // namespace tessel::codegen
