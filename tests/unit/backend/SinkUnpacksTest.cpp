//===- SinkUnpacksTest.cpp - unpacking next to its use ---------------------===//
#include "BackendTestUtil.h"

#include "compiler/backend/SinkUnpacks.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace tessel::backend;
using namespace tessel::backend::test;

namespace {

/// Two packed words of halves, as codegen unpacks a vector load: every half
/// taken out (trunc, shift, bitcast) and converted right after the load, the
/// arithmetic afterwards. %keep's user is in another block; %twice has two.
const char *Unpacked = R"ll(
define void @rows(ptr addrspace(1) %p, ptr addrspace(1) %q, float %m, i1 %c) {
entry:
  %w = load <2 x i32>, ptr addrspace(1) %p, align 8
  %w0 = extractelement <2 x i32> %w, i32 0
  %w1 = extractelement <2 x i32> %w, i32 1
  %lo0 = trunc i32 %w0 to i16
  %hi0s = lshr i32 %w0, 16
  %hi0 = trunc i32 %hi0s to i16
  %lo1 = trunc i32 %w1 to i16
  %h0 = bitcast i16 %lo0 to half
  %h1 = bitcast i16 %hi0 to half
  %h2 = bitcast i16 %lo1 to half
  %f0 = fpext half %h0 to float
  %f1 = fpext half %h1 to float
  %f2 = fpext half %h2 to float
  %keep = fpext half %h2 to double
  %twice = fpext half %h1 to double
  %a0 = fsub float %f0, %m
  %a1 = fsub float %f1, %m
  %a2 = fsub float %f2, %m
  %s = fadd float %a0, %a1
  %t = fadd float %s, %a2
  store float %t, ptr addrspace(1) %q
  %d = fadd double %twice, %twice
  store double %d, ptr addrspace(1) %q
  br i1 %c, label %then, label %exit
then:
  store double %keep, ptr addrspace(1) %q
  br label %exit
exit:
  ret void
}
)ll";

std::vector<std::string> order(const llvm::BasicBlock &BB) {
  std::vector<std::string> Out;
  for (const llvm::Instruction &I : BB)
    if (I.hasName())
      Out.push_back(I.getName().str());
  return Out;
}

} // namespace

TEST(SinkUnpacks, EachHalfIsTakenOutWhereItIsUsed) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(Unpacked, Ctx);
  llvm::FunctionAnalysisManager FAM;
  llvm::PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  (void)SinkUnpacksPass().run(*M->getFunction("rows"), FAM);
  std::string Broken;
  llvm::raw_string_ostream OS(Broken);
  ASSERT_FALSE(llvm::verifyModule(*M, &OS)) << Broken;
  // The load's first word stays packed until each of its halves' arithmetic
  // (lo0 -> h0 -> f0 -> a0, then hi0s -> hi0 -> h1 -> f1 -> a1). A value used
  // in another block (%keep) stays where it was, and so do what it needs
  // (%h2, %lo1, %w1) and %f2 moves to its own use. %twice, used twice by one
  // user, moves to it.
  std::vector<std::string> Want = {"w",   "w1", "lo1", "h2", "keep", "w0", "lo0", "h0", "f0",    "a0", "hi0s",
                                   "hi0", "h1", "f1",  "a1", "f2",   "a2", "s",   "t",  "twice", "d"};
  EXPECT_EQ(order(M->getFunction("rows")->getEntryBlock()), Want);
}
