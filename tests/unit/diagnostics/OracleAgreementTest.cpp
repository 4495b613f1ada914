//===- OracleAgreementTest.cpp - fixtures agree with real Triton ----------===//
/// \file
/// samples/triton-3.6-oracle.txt records what triton 3.6.0 said about every
/// kernel in samples/ (scripts/triton_oracle.py on a GPU machine). This test
/// holds the bug fixtures to it without needing Triton: every annotation of a
/// Triton compile error (TS1xx) must sit on the line where Triton failed,
/// start at Triton's column, and its message must be a prefix of Triton's;
/// every position Triton reported in a bug sample must be annotated; every
/// tutorial-class sample must have compiled. A fixture edited without
/// re-running the oracle fails here, as does an annotation that guessed
/// Triton's wording.
//===----------------------------------------------------------------------===//
#include "Annotations.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const fs::path SourceDir = TESSEL_SOURCE_DIR;

std::string readFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

struct OracleRecord {
  std::string File, Kernel, Spec, Status, Message;
  uint32_t Line = 0, Column = 0; ///< 1-based, as printed
};

std::vector<OracleRecord> readOracle() {
  std::vector<OracleRecord> Out;
  std::istringstream In(readFile(SourceDir / "samples" / "triton-3.6-oracle.txt"));
  // file:line:col: kernel [spec]: ok ... | Type: message
  static const std::regex Record(R"(^(samples/\S+\.py):(\d+):(\d+): (\w+) \[(.*)\]: (\w+)(?::? ?)(.*)$)");
  std::string Line;
  while (std::getline(In, Line)) {
    std::smatch M;
    if (!std::regex_match(Line, M, Record))
      continue;
    OracleRecord R;
    R.File = M[1];
    R.Line = static_cast<uint32_t>(std::stoul(M[2]));
    R.Column = static_cast<uint32_t>(std::stoul(M[3]));
    R.Kernel = M[4];
    R.Spec = M[5];
    R.Status = M[6];
    R.Message = M[7];
    Out.push_back(std::move(R));
  }
  return Out;
}

/// Errors that Triton reports without a source position (raised outside the
/// code generator) or not at all (runtime bugs, a late MLIR failure).
bool positionless(const std::string &Status) { return Status == "RuntimeError" || Status == "AssertionError"; }

/// Codes whose annotation compares with a Triton compile error at a position.
bool comparable(const std::string &Code) {
  // Parse errors, positionless errors, and findings Triton has no counterpart for (a kernel's
  // return value fails late, launch specs are tessel's own, masking bugs compile).
  static const std::set<std::string> Excluded = {"TS001", "TS111", "TS120", "TS121",
                                                 "TS122", "TS123", "TS201", "TS202"};
  return Code.rfind("TS1", 0) == 0 && !Excluded.count(Code);
}

/// tessel narrows these ranges to a part of the node Triton reports at
/// (docs/diagnostics.md, Conventions), so Triton's column may be to the left.
bool narrowed(const std::string &Code) { return Code == "TS102"; }

TEST(OracleAgreement, ReferenceOutputIsPresent) {
  std::vector<OracleRecord> Records = readOracle();
  ASSERT_GT(Records.size(), 100u) << "samples/triton-3.6-oracle.txt is missing or unreadable";
}

TEST(OracleAgreement, TutorialSamplesCompiledInTriton) {
  std::map<std::string, size_t> Compiled;
  for (const OracleRecord &R : readOracle()) {
    if (R.File.rfind("samples/bugs/", 0) == 0)
      continue;
    EXPECT_EQ(R.Status, "ok") << R.File << ":" << R.Line << " " << R.Kernel << " [" << R.Spec
                              << "] failed in Triton: " << R.Message;
    ++Compiled[R.File];
  }
  for (const char *Name : {"vector_add", "fused_softmax", "layer_norm", "matmul", "dropout", "attention"})
    EXPECT_GT(Compiled[std::string("samples/") + Name + ".py"], 0u) << Name << ".py has no oracle record";
}

TEST(OracleAgreement, AnnotationsSitWhereTritonFailed) {
  std::vector<OracleRecord> Records = readOracle();
  for (const fs::directory_entry &E : fs::directory_iterator(SourceDir / "samples" / "bugs")) {
    if (E.path().extension() != ".py")
      continue;
    std::string Rel = fs::relative(E.path(), SourceDir).generic_string();
    std::vector<const OracleRecord *> Failures;
    bool Skipped = false;
    for (const OracleRecord &R : Records)
      if (R.File == Rel && R.Status != "ok" && R.Status != "skipped")
        Failures.push_back(&R);
    test::Annotations Ann = test::readAnnotations(readFile(E.path()));
    // Triton reads a file that does not parse not at all.
    for (const test::ExpectedFinding &X : Ann.Expected)
      Skipped |= X.Code == "TS001";
    if (Skipped)
      continue;

    for (const test::ExpectedFinding &X : Ann.Expected) {
      if (!comparable(X.Code))
        continue;
      bool Found = false;
      for (const OracleRecord *R : Failures) {
        bool ColumnOk = narrowed(X.Code) ? R->Column <= X.StartColumn + 1 : R->Column == X.StartColumn + 1;
        if (R->Line == X.Line + 1 && ColumnOk && R->Message.compare(0, X.Message.size(), X.Message) == 0)
          Found = true;
      }
      EXPECT_TRUE(Found) << Rel << ":" << test::describe(X)
                         << "\n  Triton failed nowhere with this message at this line and column";
    }
    for (const OracleRecord *R : Failures) {
      if (positionless(R->Status))
        continue;
      bool Annotated = false;
      for (const test::ExpectedFinding &X : Ann.Expected)
        Annotated |= X.Line + 1 == R->Line;
      EXPECT_TRUE(Annotated) << Rel << ":" << R->Line << ":" << R->Column << ": Triton reports `" << R->Message
                             << "` for " << R->Kernel << " [" << R->Spec << "] but the line has no annotation";
    }
  }
}

} // namespace
