//===- RunCommandSupport.h - `tessel run` in-process, for tests -*- C++ -*-===//
/// \file
/// Runs the run subcommand as the binary's table calls it (tools::runRun)
/// with stdout and stderr captured, so a test reads the exit status and both
/// streams; and the path of a sample in the source tree.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_TOOLS_RUNCOMMANDSUPPORT_H
#define TESSEL_TESTS_UNIT_TOOLS_RUNCOMMANDSUPPORT_H

#include "tools/Subcommands.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace tessel::test {

struct Ran {
  int Status = -1;
  std::string Out, Err;
};

inline Ran tesselRun(const std::vector<std::string> &Args) {
  std::ostringstream Out, Err;
  std::streambuf *OldOut = std::cout.rdbuf(Out.rdbuf());
  std::streambuf *OldErr = std::cerr.rdbuf(Err.rdbuf());
  tools::Args A(Args.begin(), Args.end());
  Ran R;
  R.Status = tools::runRun(A);
  std::cout.rdbuf(OldOut);
  std::cerr.rdbuf(OldErr);
  R.Out = Out.str();
  R.Err = Err.str();
  return R;
}

inline std::string sample(const std::string &Rel) { return std::string(TESSEL_SOURCE_DIR) + "/samples/" + Rel; }

} // namespace tessel::test

#endif // TESSEL_TESTS_UNIT_TOOLS_RUNCOMMANDSUPPORT_H
