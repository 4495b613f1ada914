//===- LaunchPlanTestSupport.h - planLaunch on a source text ----*- C++ -*-===//
/// \file
/// The file, its discovery and the plan of one kernel, kept together so a
/// test can read the plan's ranges against the source. Each test file puts
/// its own import header in front of its snippets.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_SEMA_LAUNCHPLANTESTSUPPORT_H
#define TESSEL_TESTS_UNIT_SEMA_LAUNCHPLANTESTSUPPORT_H

#include "compiler/frontend/Discovery.h"
#include "compiler/sema/LaunchPlan.h"

#include <memory>
#include <string>

namespace tessel::sema::test {

struct Planned {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  LaunchPlan Plan;
};

inline Planned planSource(const std::string &Src, const std::string &Kernel, const LaunchPlanOptions &Opts) {
  Planned P;
  P.File = ParsedFile::parse(std::make_shared<SourceText>(Src, "test.py"));
  ProblemSink Sink;
  P.Info = discover(P.File->module(), Sink);
  P.Plan = planLaunch(*P.File, P.Info, Kernel, Opts);
  return P;
}

} // namespace tessel::sema::test

#endif // TESSEL_TESTS_UNIT_SEMA_LAUNCHPLANTESTSUPPORT_H
