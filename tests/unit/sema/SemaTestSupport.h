//===- SemaTestSupport.h - run sema on a kernel snippet ---------*- C++ -*-===//
/// \file
/// Helpers for sema unit tests: a snippet is prefixed with the usual triton
/// imports, analysed, and its problems are compared by message and by the
/// source text of their range, so each test reads as "this code, this
/// sentence, at this token".
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_SEMA_SEMATESTSUPPORT_H
#define TESSEL_TESTS_UNIT_SEMA_SEMATESTSUPPORT_H

#include "compiler/sema/Analysis.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessel::sema::test {

struct Reported {
  ProblemKind Kind;
  std::string Message;
  std::string Text; ///< the source text of the problem's range
};

inline std::shared_ptr<const FileAnalysis> analyze(const std::string &Body) {
  std::string Src = "import triton\nimport triton.language as tl\n\n" + Body;
  return analyzeFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "test.py")));
}

inline std::vector<Reported> problems(const std::string &Body) {
  auto FA = analyze(Body);
  std::vector<Reported> Out;
  for (const Problem &P : FA->Problems)
    Out.push_back({P.Kind, P.Message, std::string(FA->File->text().slice(P.Range))});
  return Out;
}

inline std::string dump(const std::vector<Reported> &Ps) {
  std::string S;
  for (const Reported &P : Ps)
    S += "  [" + std::string(problemKindName(P.Kind)) + "] `" + P.Text + "`: " + P.Message + "\n";
  return S.empty() ? "  (none)\n" : S;
}

/// Exactly one problem, with this kind, message prefix and range text.
inline void expectOne(const std::string &Body, ProblemKind Kind, const std::string &MessagePrefix,
                      const std::string &RangeText) {
  auto Ps = problems(Body);
  ASSERT_EQ(Ps.size(), 1u) << "problems:\n" << dump(Ps);
  EXPECT_EQ(Ps[0].Kind, Kind) << dump(Ps);
  EXPECT_EQ(Ps[0].Message.substr(0, MessagePrefix.size()), MessagePrefix) << dump(Ps);
  EXPECT_EQ(Ps[0].Text, RangeText) << dump(Ps);
}

inline void expectClean(const std::string &Body) {
  auto Ps = problems(Body);
  EXPECT_TRUE(Ps.empty()) << "problems:\n" << dump(Ps);
}

} // namespace tessel::sema::test

#endif // TESSEL_TESTS_UNIT_SEMA_SEMATESTSUPPORT_H
