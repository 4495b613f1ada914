//===- AnnotationsTest.cpp - tests of the annotation reader ---------------===//
/// \file
/// The reader decides what every fixture expects, so its column arithmetic,
/// stacking and error reporting are tested on their own.
//===----------------------------------------------------------------------===//
#include "Annotations.h"

#include <gtest/gtest.h>

using namespace tessel::test;

namespace {

TEST(Annotations, CaretsGiveColumnsOfTheLineAbove) {
  Annotations A = readAnnotations("def k():\n"
                                  "    offs = tl.arange(0, 100)\n"
                                  "    #      ^^^^^^^^^^^^^^^^^ error[TS105]: arange's range must be a power of 2\n");
  ASSERT_TRUE(A.Problems.empty());
  ASSERT_EQ(A.Expected.size(), 1u);
  const ExpectedFinding &E = A.Expected[0];
  EXPECT_EQ(E.Line, 1u);
  EXPECT_EQ(E.StartColumn, 11u);
  EXPECT_EQ(E.EndColumn, 28u);
  EXPECT_EQ(E.Severity, "error");
  EXPECT_EQ(E.Code, "TS105");
  EXPECT_EQ(E.Message, "arange's range must be a power of 2");
  EXPECT_EQ(E.AnnotationLine, 2u);
  EXPECT_EQ(describe(E), "2:12-29: error[TS105]: arange's range must be a power of 2");
}

TEST(Annotations, StackedAnnotationsShareTheirLine) {
  Annotations A = readAnnotations("x = a + b\r\n"
                                  "  # ^ warning[TS201]: first\r\n"
                                  "  #     ^ hint[TS999]: second  \r\n"
                                  "y = 1\n");
  ASSERT_TRUE(A.Problems.empty());
  ASSERT_EQ(A.Expected.size(), 2u);
  EXPECT_EQ(A.Expected[0].Line, 0u);
  EXPECT_EQ(A.Expected[1].Line, 0u);
  EXPECT_EQ(A.Expected[1].StartColumn, 8u);
  EXPECT_EQ(A.Expected[1].Severity, "hint");
  EXPECT_EQ(A.Expected[1].Message, "second") << "trailing blanks are not part of the message";
}

TEST(Annotations, OrdinaryCommentsAreNotAnnotations) {
  Annotations A = readAnnotations("# a comment\nx = 1  # ^ not at the start\n#\n");
  EXPECT_TRUE(A.Expected.empty());
  EXPECT_TRUE(A.Problems.empty());
}

TEST(Annotations, MalformedAnnotationsAreReported) {
  Annotations A = readAnnotations("x = foo(1)\n"
                                  "# ^^^ eror[TS117]: bad\n"
                                  "# ^^^error[TS117]: bad\n"
                                  "# ^^^ error TS117: bad\n"
                                  "# ^^^ error[TS117]: \n"
                                  "#                    ^ error[TS117]: past the end\n");
  EXPECT_TRUE(A.Expected.empty());
  ASSERT_EQ(A.Problems.size(), 5u);
  EXPECT_EQ(A.Problems[0].Line, 1u);
  EXPECT_NE(A.Problems[0].Message.find("unknown severity"), std::string::npos);
  EXPECT_NE(A.Problems[4].Message.find("past the end"), std::string::npos);
}

TEST(Annotations, AnnotationOnFirstLineHasNoTarget) {
  Annotations A = readAnnotations("# ^ error[TS001]: invalid syntax\n");
  EXPECT_TRUE(A.Expected.empty());
  ASSERT_EQ(A.Problems.size(), 1u);
}

} // namespace
