//===- LoweringTestSupport.h - lower a kernel snippet to tile IR -*- C++ -*-===//
/// \file
/// Helpers for lowering tests: a snippet (prefixed with the triton imports,
/// as in SemaTestSupport.h) is parsed, discovered and lowered under a
/// request; the result is the printed IR or the problems, so each test reads
/// as "this kernel, these ops".
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_SEMA_LOWERINGTESTSUPPORT_H
#define TESSEL_TESTS_UNIT_SEMA_LOWERINGTESTSUPPORT_H

#include "compiler/frontend/Discovery.h"
#include "compiler/ir/Printer.h"
#include "compiler/sema/Lowering.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace tessel::sema::test {

struct Lowered {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  LoweredKernel Result;

  /// The printed IR without locations, or the problems when there is none.
  std::string text() const {
    if (Result.Function)
      return ir::printFunction(*Result.Function, {nullptr, false});
    std::string S;
    for (const Problem &P : Result.Problems)
      S += "problem `" + std::string(File->text().slice(P.Range)) + "`: " + P.Message + "\n";
    return S;
  }
};

inline std::unique_ptr<Lowered> lowerSource(const std::string &Source, const LoweringRequest &Request) {
  auto L = std::make_unique<Lowered>();
  L->File = ParsedFile::parse(std::make_shared<SourceText>(Source, "test.py"));
  ProblemSink Sink;
  L->Info = discover(L->File->module(), Sink);
  L->Result = lowerKernel(*L->File, L->Info, Request);
  return L;
}

inline std::unique_ptr<Lowered> lowerSnippet(const std::string &Body, const LoweringRequest &Request) {
  return lowerSource("import triton\nimport triton.language as tl\n\n" + Body, Request);
}

inline ElemType ptrTo(ScalarKind K) { return ElemType{K, 1}; }
inline ElemType scalar(ScalarKind K) { return ElemType{K}; }

/// The number of lines of Text containing Needle.
inline int countLines(const std::string &Text, const std::string &Needle) {
  int N = 0;
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t End = Text.find('\n', Start);
    if (End == std::string::npos)
      End = Text.size();
    if (Text.substr(Start, End - Start).find(Needle) != std::string::npos)
      ++N;
    Start = End + 1;
  }
  return N;
}

} // namespace tessel::sema::test

#endif // TESSEL_TESTS_UNIT_SEMA_LOWERINGTESTSUPPORT_H
