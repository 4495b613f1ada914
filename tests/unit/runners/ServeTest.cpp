//===- ServeTest.cpp - which GPU a runner's runs use ----------------------===//
#include "runners/Serve.h"

#include <gtest/gtest.h>

using namespace tessel::runners;

TEST(RunnerDevice, TheNthOfTheVisibleDevices) {
  // A host's runner for worker 1 of 2, under Slurm's allocation of GPUs 3 and 5.
  EXPECT_EQ(visibleDevice("3,5", 1), "5");
  EXPECT_EQ(visibleDevice("3,5", 0), "3");
  EXPECT_EQ(visibleDevice("GPU-8f2c,GPU-11ab", 1), "GPU-11ab");
  // Nothing set: the device number itself.
  EXPECT_EQ(visibleDevice(nullptr, 2), "2");
  EXPECT_EQ(visibleDevice("", 2), "2");
  // Fewer listed than asked: the number, which the driver then refuses with its own words.
  EXPECT_EQ(visibleDevice("3", 4), "4");
}
