//===- OccupancyTest.cpp - the occupancy calculator's arithmetic ----------===//
/// \file
/// The occupancy table against hand-computed figures for each limit.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Occupancy.h"

#include <gtest/gtest.h>

using namespace tessel::backend;

static const GpuArch Sm80{80, false}, Sm90{90, false};

TEST(Occupancy, SmallKernelIsLimitedByWarps) {
  Occupancy O = occupancy(Sm90, 128, 32, 0);
  EXPECT_EQ(O.BlocksPerSm, 16u); // 64 warps / 4
  EXPECT_EQ(O.WarpsPerSm, 64u);
  EXPECT_EQ(O.Limit, OccupancyLimit::Warps);
  EXPECT_DOUBLE_EQ(O.fraction(), 1.0);
}

TEST(Occupancy, TinyBlocksAreLimitedByTheBlockCount) {
  Occupancy O = occupancy(Sm90, 32, 16, 0);
  EXPECT_EQ(O.BlocksPerSm, 32u);
  EXPECT_EQ(O.Limit, OccupancyLimit::Blocks);
  EXPECT_DOUBLE_EQ(O.fraction(), 0.5);
}

TEST(Occupancy, RegistersAreAllocatedPerWarpInUnitsOf256) {
  // 255 registers: 8160 per warp, rounded to 8192; two warps per
  // sub-partition, eight per SM: one block of eight warps.
  Occupancy O = occupancy(Sm90, 256, 255, 0);
  EXPECT_EQ(O.BlocksPerSm, 1u);
  EXPECT_EQ(O.WarpsPerSm, 8u);
  EXPECT_EQ(O.Limit, OccupancyLimit::Registers);
  // 128 registers, 4 warps: 4096 per warp, 4 per sub-partition, 16 per SM.
  O = occupancy(Sm80, 128, 128, 0);
  EXPECT_EQ(O.BlocksPerSm, 4u);
  EXPECT_EQ(O.Limit, OccupancyLimit::Registers);
}

TEST(Occupancy, SharedMemoryCountsTheReservedKilobyte) {
  // 100 KiB + 1 KiB reserved: two blocks in sm_90's 228 KiB, one in sm_80's 164 KiB.
  Occupancy O = occupancy(Sm90, 128, 32, 100 * 1024);
  EXPECT_EQ(O.BlocksPerSm, 2u);
  EXPECT_EQ(O.Limit, OccupancyLimit::SharedMemory);
  O = occupancy(Sm80, 128, 32, 100 * 1024);
  EXPECT_EQ(O.BlocksPerSm, 1u);
  EXPECT_EQ(O.Limit, OccupancyLimit::SharedMemory);
}

TEST(Occupancy, ABlockOverTheLimitsDoesNotFit) {
  EXPECT_EQ(occupancy(Sm80, 128, 32, 200 * 1024).Limit, OccupancyLimit::DoesNotFit); // > 163 KiB
  EXPECT_EQ(occupancy(Sm90, 128, 32, 200 * 1024).Limit, OccupancyLimit::SharedMemory);
  EXPECT_EQ(occupancy(Sm90, 128, 32, 232448 + 1).Limit, OccupancyLimit::DoesNotFit);
  EXPECT_EQ(occupancy(Sm90, 1024, 128, 0).Limit, OccupancyLimit::DoesNotFit); // 128 K registers
  EXPECT_EQ(occupancy(Sm90, 2048, 16, 0).BlocksPerSm, 0u);
}
