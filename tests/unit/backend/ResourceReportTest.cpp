//===- ResourceReportTest.cpp - reading ptxas / nvJitLink reports ---------===//
/// \file
/// Golden logs captured from this toolkit's ptxas (-v) and nvJitLink
/// (-Xptxas=-v info log) on tests/data/backend kernels.
//===----------------------------------------------------------------------===//
#include "compiler/backend/ResourceReport.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace tessel::backend;

static std::string readData(const std::string &Name) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(TESSEL_SOURCE_DIR) + "/tests/data/backend/" + Name);
  EXPECT_TRUE(bool(Buf)) << Name;
  return Buf ? (*Buf)->getBuffer().str() : "";
}

TEST(ResourceReport, ReadsPtxasVerboseOutput) {
  std::string Log = readData("ptxas-v.log");
  auto Add = parseAssemblerLog(Log, "add_kernel");
  ASSERT_TRUE(Add);
  EXPECT_EQ(Add->Registers, 14u);
  EXPECT_EQ(Add->Barriers, 0u);
  EXPECT_EQ(Add->spillBytes(), 0u);
  EXPECT_TRUE(Add->HasSpillCounts);
}

TEST(ResourceReport, ReadsSpillsFromNvJitLinksInfoLog) {
  std::string Log = readData("nvjitlink-spill.log");
  auto U = parseAssemblerLog(Log, "spill_kernel");
  ASSERT_TRUE(U) << Log;
  // "ptxas         .     1248 bytes stack frame, 1288 bytes spill stores, 1572 bytes spill loads"
  EXPECT_EQ(U->Registers, 32u);
  EXPECT_EQ(U->StackFrame, 1248u);
  EXPECT_EQ(U->SpillStores, 1288u);
  EXPECT_EQ(U->SpillLoads, 1572u);
  EXPECT_EQ(U->Barriers, 0u);
}

TEST(ResourceReport, PicksTheNamedKernelAndIgnoresPrefixMatches) {
  const char *Log = "ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
                    "ptxas info    : Function properties for k2\n"
                    "    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
                    "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]\n"
                    "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
                    "ptxas info    : Function properties for k\n"
                    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                    "ptxas info    : Used 10 registers, 380 bytes cmem[0]\n";
  auto K2 = parseAssemblerLog(Log, "k2");
  ASSERT_TRUE(K2);
  EXPECT_EQ(K2->Registers, 40u);
  EXPECT_EQ(K2->StackFrame, 16u);
  EXPECT_EQ(K2->SpillStores, 8u);
  EXPECT_EQ(K2->SpillLoads, 12u);
  EXPECT_EQ(K2->Barriers, 1u);
  EXPECT_EQ(K2->StaticShared, 2048u);
  auto K = parseAssemblerLog(Log, "k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Registers, 10u);
  EXPECT_EQ(K->spillBytes(), 0u);
  EXPECT_FALSE(parseAssemblerLog(Log, "other"));
  EXPECT_FALSE(parseAssemblerLog("", "k"));
}

TEST(ResourceReport, ACubinThatIsNoElfIsAnError) {
  auto U = readCubinResources("not an elf file", "k");
  EXPECT_FALSE(bool(U));
  llvm::consumeError(U.takeError());
}
