//===- TargetTest.cpp - architecture names and PTX ISA versions -----------===//
/// \file
/// Architecture names, the default architecture, Triton's PTX ISA rule and
/// its data layout (32-bit shared pointers).
//===----------------------------------------------------------------------===//
#include "compiler/backend/Target.h"

#include "compiler/backend/PtxEmit.h"
#include "compiler/codegen/Codegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

using namespace tessel::backend;

TEST(Target, ParsesTheSupportedArchitectures) {
  EXPECT_EQ(parseArch("sm_80")->name(), "sm_80");
  EXPECT_EQ(parseArch("sm_90")->name(), "sm_90");
  EXPECT_EQ(parseArch("sm_90a")->name(), "sm_90a");
  EXPECT_TRUE(parseArch("90a")->ArchSpecific);
  EXPECT_FALSE(parseArch("sm_75"));
  EXPECT_FALSE(parseArch("sm_90b"));
  EXPECT_FALSE(parseArch(""));
}

TEST(Target, DefaultsToSm90aWithoutAGpu) {
  // No machine that runs the tests has a GPU the driver shows; with one,
  // the default is that GPU's architecture. Without, a Hopper GPU as Triton
  // compiles for it: sm_90a, where its dots run on wgmma.
  if (localGpuCapability())
    GTEST_SKIP() << "a GPU is visible";
  EXPECT_EQ(defaultArch().name(), "sm_90a");
}

TEST(Target, PtxIsaFollowsTriton) {
  EXPECT_EQ(ptxIsaForToolkit(13, 0), 90u); // this machine's CUDA 13.0: `.version 9.0`
  EXPECT_EQ(ptxIsaForToolkit(13, 1), 91u);
  EXPECT_EQ(ptxIsaForToolkit(12, 8), 87u); // facts §4: `.version 8.7` with CUDA 12.8
  EXPECT_EQ(ptxIsaForToolkit(12, 4), 84u);
  EXPECT_EQ(ptxIsaForToolkit(14, 2), 102u);
}

TEST(Target, SharedPointersAre32BitsAsInTriton) {
  // Triton sets LLVM's nvptx-short-ptr before it builds its data layout;
  // the target machine's layout is then the one codegen builds modules in.
  llvm::LLVMContext Ctx;
  llvm::Module M("m", Ctx);
  PtxOptions Opts;
  Opts.Arch = *parseArch("sm_90a");
  ASSERT_FALSE(static_cast<bool>(prepareModule(M, Opts)));
  EXPECT_EQ(M.getDataLayoutStr(), tessel::codegen::NVPTXDataLayout);
  EXPECT_EQ(M.getDataLayout().getPointerSizeInBits(3), 32u);
  EXPECT_EQ(M.getDataLayout().getPointerSizeInBits(1), 64u);
}
