//===- ConfigRunnersTest.cpp - runners and defaultRunner in tessel.toml ---===//
#include "compiler/project/Config.h"

#include <gtest/gtest.h>

using namespace tessel::project;

TEST(ConfigRunners, ReadsTheListAndTheDefault) {
  Config C;
  std::string Why;
  ASSERT_TRUE(parseConfig("runners = [\"ssh://gpu7\", \"slurm://gpu?workers=8\"]\ndefaultRunner = \"ssh://gpu7\"\n", "",
                          "/p", C, Why))
      << Why;
  EXPECT_EQ(C.Runners, (std::vector<std::string>{"ssh://gpu7", "slurm://gpu?workers=8"}));
  EXPECT_EQ(C.DefaultRunner, "ssh://gpu7");
}

TEST(ConfigRunners, ReadsThemFromPyproject) {
  Config C;
  std::string Why;
  ASSERT_TRUE(parseConfig("[tool.tessel]\ndefault-runner = \"local\"\n", "tool.tessel", "/p", C, Why)) << Why;
  EXPECT_EQ(C.DefaultRunner, "local");
  EXPECT_TRUE(C.Runners.empty());
}

TEST(ConfigRunners, WrongTypesAreProblemsNotGuesses) {
  Config C;
  std::string Why;
  EXPECT_FALSE(parseConfig("runners = \"ssh://gpu7\"\n", "", "/p", C, Why));
  EXPECT_EQ(Why, "runners must be an array of strings");
  EXPECT_FALSE(parseConfig("defaultRunner = 3\n", "", "/p", C, Why));
  EXPECT_EQ(Why, "defaultRunner must be a string");
}
