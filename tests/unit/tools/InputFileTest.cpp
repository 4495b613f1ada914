//===- InputFileTest.cpp - refusing files tessel cannot check -------------===//
/// \file
/// Tests readInputFile on real files in a temporary directory: each bad kind
/// of input gets its own clear reason, and the size limit is enforced from
/// stat without reading (a sparse 60 MB file is refused instantly).
//===----------------------------------------------------------------------===//
#include "tools/InputFile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessel::tools;
namespace fs = std::filesystem;

namespace {

class InputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = fs::temp_directory_path() / ("tessel-input-" + std::to_string(::getpid()));
    fs::create_directories(Dir);
  }
  void TearDown() override { fs::remove_all(Dir); }
  std::string write(const std::string &Name, const std::string &Bytes) {
    std::string P = (Dir / Name).string();
    std::ofstream(P, std::ios::binary) << Bytes;
    return P;
  }
  fs::path Dir;
};

TEST_F(InputFileTest, ReadsUtf8Text) {
  InputFile F = readInputFile(write("ok.py", "x = '\xC3\xA9'\n"));
  ASSERT_TRUE(F.Text) << F.Error;
  EXPECT_EQ(*F.Text, "x = '\xC3\xA9'\n");
}

TEST_F(InputFileTest, EmptyFileIsFine) {
  InputFile F = readInputFile(write("empty.py", ""));
  ASSERT_TRUE(F.Text);
  EXPECT_TRUE(F.Text->empty());
}

TEST_F(InputFileTest, Missing) {
  InputFile F = readInputFile((Dir / "nope.py").string());
  EXPECT_FALSE(F.Text);
  EXPECT_EQ(F.Error, "No such file or directory");
}

TEST_F(InputFileTest, Directory) {
  InputFile F = readInputFile(Dir.string());
  EXPECT_FALSE(F.Text);
  EXPECT_EQ(F.Error, "is a directory");
}

TEST_F(InputFileTest, Binary) {
  InputFile F = readInputFile(write("bin.py", std::string("ab\ncd\0ef", 8)));
  EXPECT_FALSE(F.Text);
  EXPECT_EQ(F.Error, "binary file (NUL byte at line 2, byte 3), not checked");
}

TEST_F(InputFileTest, NotUtf8) {
  InputFile F = readInputFile(write("latin1.py", "# caf\xE9\n"));
  EXPECT_FALSE(F.Text);
  EXPECT_EQ(F.Error, "not valid UTF-8 (at line 1, byte 6); tessel reads Python source as UTF-8");
}

TEST_F(InputFileTest, OverTheLimitIsRefusedFromStat) {
  std::string P = (Dir / "huge.py").string();
  { std::ofstream(P) << "x"; }
  fs::resize_file(P, 60ull * 1024 * 1024); // sparse: nothing is written
  InputFile F = readInputFile(P);
  EXPECT_FALSE(F.Text);
  EXPECT_EQ(F.Error, "file is 60 MB, over the 50 MB limit for checked files");
  EXPECT_FALSE(readInputFile(write("small.py", "12345"), 4).Text);
  EXPECT_TRUE(readInputFile(write("exact.py", "1234"), 4).Text);
}

TEST_F(InputFileTest, Unreadable) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root can read any file";
  std::string P = write("secret.py", "x = 1\n");
  fs::permissions(P, fs::perms::none);
  InputFile F = readInputFile(P);
  EXPECT_FALSE(F.Text);
  EXPECT_EQ(F.Error, "Permission denied");
}

TEST(Utf8Validation, FindsTheFirstBadByte) {
  EXPECT_EQ(firstInvalidUtf8("abc"), std::nullopt);
  EXPECT_EQ(firstInvalidUtf8("a\xC3\xA9\xF0\x9F\x98\x80"), std::nullopt);
  EXPECT_EQ(firstInvalidUtf8("ab\xC3"), 2u);       // truncated at the end
  EXPECT_EQ(firstInvalidUtf8("\xED\xA0\x80"), 0u); // an encoded surrogate
}

} // namespace
