//===- NpyReadTest.cpp - .npy files read back (the --triton runner's outputs) ===//
/// \file
/// parseNpy on what tessel writes and on what numpy.save writes (version
/// 1.0 and the 4-byte header length of 2.0), and the one-line reasons for
/// files that are not right: a wrong magic, a missing key, data of the
/// wrong size.
//===----------------------------------------------------------------------===//
#include "tools/NpyFile.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tessel;

namespace {

TEST(NpyRead, WhatTesselWritesReadsBack) {
  std::vector<uint8_t> Bytes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  tools::NpyArray A;
  std::string Error;
  ASSERT_TRUE(tools::parseNpy(tools::npyFile(ScalarKind::FP16, {2, 3}, Bytes), A, Error)) << Error;
  EXPECT_EQ(A.Descr, "<f2");
  EXPECT_EQ(A.Shape, (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(A.FortranOrder);
  EXPECT_EQ(A.Bytes, Bytes);
  ASSERT_TRUE(tools::parseNpy(tools::npyFile(ScalarKind::I1, {}, {1}), A, Error)) << Error;
  EXPECT_TRUE(A.Shape.empty());
  EXPECT_EQ(A.elements(), 1);
}

/// numpy.save's header for np.zeros(3, 'u2'), as version 1.0 and as 2.0.
TEST(NpyRead, NumpysVersionsOneAndTwo) {
  std::string Dict = "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }";
  std::string V1 = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(Dict.size() + 1) + '\0' + Dict + "\n" +
                   std::string(6, '\0');
  tools::NpyArray A;
  std::string Error;
  ASSERT_TRUE(tools::parseNpy(V1, A, Error)) << Error;
  EXPECT_EQ(A.Descr, "<u2");
  EXPECT_EQ(A.Shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(A.Bytes.size(), 6u);
  std::string V2 = std::string("\x93NUMPY\x02\x00", 8) + static_cast<char>(Dict.size() + 1) + std::string(3, '\0') +
                   Dict + "\n" + std::string(6, '\0');
  ASSERT_TRUE(tools::parseNpy(V2, A, Error)) << Error;
  EXPECT_EQ(A.Shape, (std::vector<int64_t>{3}));
}

TEST(NpyRead, WhatIsNotANpyFileSaysWhy) {
  tools::NpyArray A;
  std::string Error;
  EXPECT_FALSE(tools::parseNpy("PK\x03\x04 a zip file", A, Error));
  EXPECT_EQ(Error, "not a .npy file");
  std::string Dict = "{'descr': '<f4', 'shape': (2,), }";
  std::string NoOrder = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(Dict.size()) + '\0' + Dict;
  EXPECT_FALSE(tools::parseNpy(NoOrder, A, Error));
  EXPECT_EQ(Error, "the .npy header lacks 'descr', 'fortran_order' or 'shape'");
  std::string Short = tools::npyFile(ScalarKind::FP32, {4}, std::vector<uint8_t>(16));
  Short.resize(Short.size() - 4);
  EXPECT_FALSE(tools::parseNpy(Short, A, Error));
  EXPECT_EQ(Error, "12 data bytes where 4 '<f4' elements need 16");
}

} // namespace
