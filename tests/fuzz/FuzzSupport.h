//===- FuzzSupport.h - what the fuzz targets share ---------------*- C++ -*-===//
/// \file
/// The pieces every libFuzzer target of tests/fuzz uses: a complete text of
/// a file's findings (two checks agree only if their texts do), and the trap
/// a target hits when an invariant fails. The targets are compiled twice:
/// by clang with -fsanitize=fuzzer (scripts/fuzz.sh, TESSEL_FUZZ=ON) and by
/// the normal build with ReplayMain.cpp, which replays the regression files
/// in CI; so nothing here depends on libFuzzer.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_FUZZ_FUZZSUPPORT_H
#define TESSEL_TESTS_FUZZ_FUZZSUPPORT_H

#include "diagnostics/Check.h"

#include <cstdio>
#include <string>
#include <vector>

namespace tessel::fuzz {

inline std::string rangeText(SourceRange R) { return std::to_string(R.Begin) + "-" + std::to_string(R.End); }

/// Every field of every finding, in order.
inline std::string findingsText(const std::vector<diag::Finding> &Fs) {
  std::string S;
  for (const diag::Finding &F : Fs) {
    S += std::string(F.code()) + " " + std::to_string(static_cast<int>(F.Sev)) + " " + rangeText(F.Range) + " {" +
         F.Message + "} spec {" + F.Specialization + "}\n";
    for (const RelatedLocation &L : F.Related)
      S += "  related " + rangeText(L.Range) + " " + L.Message + "\n";
    for (const Fix &X : F.Fixes) {
      S += "  fix " + X.Title + "\n";
      for (const TextEdit &E : X.Edits)
        S += "    edit " + rangeText(E.Range) + " {" + E.NewText + "}\n";
    }
  }
  return S;
}

/// Stops the run when two results that must agree do not: prints both (the
/// fuzzer keeps the input) and traps, which libFuzzer reports as a crash
/// and ReplayMain as a failed replay.
inline void requireSame(const char *What, const std::string &Want, const std::string &Got) {
  if (Want == Got)
    return;
  std::fprintf(stderr, "fuzz invariant failed: %s\n--- expected\n%s\n--- got\n%s\n", What, Want.c_str(), Got.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

} // namespace tessel::fuzz

#endif // TESSEL_TESTS_FUZZ_FUZZSUPPORT_H
