//===- HoistConstantOffsetsTest.cpp - index sums with the constant outside ===//
#include "BackendTestUtil.h"

#include "compiler/backend/HoistConstantOffsets.h"
#include "compiler/backend/PtxEmit.h"
#include "compiler/backend/Target.h"
#include "compiler/backend/Toolkit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <regex>
#include <set>

using namespace tessel::backend;
using namespace tessel::backend::test;

namespace {

/// A 4-row tile of tutorial 06's preprocess, as codegen writes it: row i of
/// a thread is `((tid >> 4) ^ 8i) + pid * 128` (the layout's lane part with
/// the register's constant, then the program's offset), loaded at
/// `O + row * 128`. Row 1's index also feeds a second user (the reduction
/// scratch's address in the real kernel).
const char *TileRows = R"ll(
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @rows(ptr addrspace(1) %O, ptr addrspace(1) %out, ptr addrspace(1) %gs, ptr addrspace(1) %ps) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %lanes = lshr i32 %tid, 4
  %base = mul i32 %pid, 128
  %c0 = xor i32 %lanes, 0
  %c1 = xor i32 %lanes, 8
  %c2 = xor i32 %lanes, 16
  %c3 = xor i32 %lanes, 24
  %r0 = add i32 %base, %c0
  %r1 = add i32 %base, %c1
  %r2 = add i32 %base, %c2
  %r3 = add i32 %base, %c3
  %o0 = mul i32 %r0, 128
  %o1 = mul i32 %r1, 128
  %o2 = mul i32 %r2, 128
  %o3 = mul i32 %r3, 128
  %p0 = getelementptr half, ptr addrspace(1) %O, i32 %o0
  %p1 = getelementptr half, ptr addrspace(1) %O, i32 %o1
  %p2 = getelementptr half, ptr addrspace(1) %O, i32 %o2
  %p3 = getelementptr half, ptr addrspace(1) %O, i32 %o3
  %v0 = load <4 x i32>, ptr addrspace(1) %p0, align 16
  %v1 = load <4 x i32>, ptr addrspace(1) %p1, align 16
  %v2 = load <4 x i32>, ptr addrspace(1) %p2, align 16
  %v3 = load <4 x i32>, ptr addrspace(1) %p3, align 16
  %s01 = add <4 x i32> %v0, %v1
  %s23 = add <4 x i32> %v2, %v3
  %s = add <4 x i32> %s01, %s23
  %q = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %tid
  store <4 x i32> %s, ptr addrspace(1) %q, align 16
  %w = getelementptr i32, ptr addrspace(1) %out, i32 %c1
  store i32 %tid, ptr addrspace(1) %w
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @rows, !"kernel", i32 1}
!1 = !{ptr @rows, !"reqntidx", i32 128}
)ll";

void runPass(llvm::Module &M) {
  llvm::FunctionAnalysisManager FAM;
  llvm::PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  for (llvm::Function &F : M)
    if (!F.isDeclaration())
      (void)HoistConstantOffsetsPass().run(F, FAM);
  std::string Broken;
  llvm::raw_string_ostream OS(Broken);
  EXPECT_FALSE(llvm::verifyModule(M, &OS)) << Broken;
}

std::string text(const llvm::Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return S;
}

/// V's expression as "opcode(lhs, rhs)", down to constants (by value) and
/// named values (by name); the sums the pass made have no name.
std::string shape(const llvm::Value *V, bool Root = true) {
  const auto *B = llvm::dyn_cast<llvm::BinaryOperator>(V);
  if (!B || (!Root && V->hasName())) {
    if (const auto *C = llvm::dyn_cast<llvm::ConstantInt>(V))
      return std::to_string(C->getSExtValue());
    return V->getName().str();
  }
  return std::string(B->getOpcodeName()) + "(" + shape(B->getOperand(0), false) + ", " +
         shape(B->getOperand(1), false) + ")";
}

const llvm::Instruction *named(const llvm::Module &M, llvm::StringRef Name) {
  for (const llvm::Instruction &I : llvm::instructions(*M.getFunction("rows")))
    if (I.getName() == Name)
      return &I;
  return nullptr;
}

} // namespace

TEST(HoistConstantOffsets, MovesTheRegisterConstantOutsideTheProgramOffset) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(TileRows, Ctx);
  // As the first InstCombine leaves it: `xor` of disjoint bits is `or disjoint`.
  for (llvm::Instruction &I : llvm::make_early_inc_range(llvm::instructions(*M->getFunction("rows"))))
    if (I.getOpcode() == llvm::Instruction::Xor && llvm::isa<llvm::ConstantInt>(I.getOperand(1))) {
      auto *Or = llvm::BinaryOperator::CreateOr(I.getOperand(0), I.getOperand(1), "", I.getIterator());
      llvm::cast<llvm::PossiblyDisjointInst>(Or)->setIsDisjoint(true);
      Or->takeName(&I);
      I.replaceAllUsesWith(Or);
      I.eraseFromParent();
    }
  runPass(*M);
  // The multiply now sees `shared + constant`; the rows share `base + lanes`.
  EXPECT_EQ(shape(named(*M, "r2")), "add(add(lanes, base), 16)");
  EXPECT_EQ(shape(named(*M, "r3")), "add(add(lanes, base), 24)");
  // Row 1's old index stays for its other user, the scratch store.
  const llvm::Instruction *C1 = named(*M, "c1");
  ASSERT_NE(C1, nullptr) << text(*M);
  EXPECT_EQ(shape(C1), "or(lanes, 8)");
  EXPECT_EQ(shape(named(*M, "r1")), "add(add(lanes, base), 8)");
}

TEST(HoistConstantOffsets, LeavesOrsWithSharedBitsAndConstantSums) {
  // `x | 8` is not `x + 8` unless the bits are disjoint; `(x + 8) + 5` is
  // InstCombine's to fold; a difference is not a sum.
  llvm::LLVMContext Ctx;
  auto M = parseModule(R"ll(
define i32 @rows(i32 %x, i32 %y) {
  %a = or i32 %x, 8
  %b = add i32 %a, %y
  %c = add i32 %x, 8
  %d = add i32 %c, 5
  %e = sub i32 %d, %y
  %r0 = mul i32 %b, %d
  %r = mul i32 %r0, %e
  ret i32 %r
}
)ll",
                       Ctx);
  std::string Before = text(*M);
  runPass(*M);
  EXPECT_EQ(text(*M), Before);
}

TEST(HoistConstantOffsets, ChainsTakeEveryConstantOutward) {
  // ((x + 8) + y) + (z + 16): both constants end up outermost, the
  // non-constant terms summed first.
  llvm::LLVMContext Ctx;
  auto M = parseModule(R"ll(
define i32 @rows(i32 %x, i32 %y, i32 %z) {
  %a = add i32 %x, 8
  %b = add i32 %a, %y
  %c = add i32 %z, 16
  %r = add i32 %b, %c
  ret i32 %r
}
)ll",
                       Ctx);
  runPass(*M);
  const llvm::Value *R = M->getFunction("rows")->getEntryBlock().getTerminator()->getOperand(0);
  EXPECT_EQ(shape(R), "add(add(add(z, add(x, y)), 16), 8)") << text(*M);
}

TEST(HoistConstantOffsets, TileRowsShareOneAddressRegisterInThePtx) {
  // Through tessel's whole middle end and the NVPTX back end: the four rows
  // are one 64-bit address plus 2048-byte immediates, as in Triton's PTX of
  // the same tile, not four addresses computed apart.
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit (libdevice) on this machine";
  auto LoadAddresses = [](LlvmPipeline P) {
    llvm::LLVMContext Ctx;
    auto M = parseModule(TileRows, Ctx);
    PtxOptions O;
    O.Arch = *parseArch("sm_90a");
    O.Libdevice = toolkit().Libdevice;
    O.Pipeline = P;
    auto Ptx = emitPtx(*M, O);
    EXPECT_TRUE(bool(Ptx)) << llvm::toString(Ptx.takeError());
    std::string Text = Ptx ? *Ptx : "";
    std::regex Load(R"(ld\.global[.a-z0-9]*\s+\{[^}]*\},\s*\[(%rd[0-9]+)(\+[0-9]+)?\])");
    std::pair<std::set<std::string>, std::set<std::string>> BasesAndOffsets;
    for (std::sregex_iterator It(Text.begin(), Text.end(), Load), End; It != End; ++It) {
      BasesAndOffsets.first.insert((*It)[1]);
      BasesAndOffsets.second.insert((*It)[2]);
    }
    return BasesAndOffsets;
  };
  auto [Bases, Offsets] = LoadAddresses(LlvmPipeline::Kernel);
  EXPECT_EQ(Bases.size(), 1u);
  EXPECT_EQ(Offsets, (std::set<std::string>{"", "+2048", "+4096", "+6144"}));
  // LLVM 19's own O3 (no such pass) keeps more than one: the day it does
  // not, the pass has become redundant.
  EXPECT_GT(LoadAddresses(LlvmPipeline::O3).first.size(), 1u);
}
