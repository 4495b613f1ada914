//===- RunSupport.h - running a sample kernel in a test ---------*- C++ -*-===//
/// \file
/// Runs every instance of a sample kernel's `# tessel: launch` directive the
/// way `tessel run` does (planLaunch, lowerKernel, prepareLaunch with seed 0,
/// interp::run), keeping the buffers, so a test can read the inputs the
/// interpreter saw and compare the outputs with its own reference.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_TOOLS_RUNSUPPORT_H
#define TESSEL_TESTS_UNIT_TOOLS_RUNSUPPORT_H

#include "compiler/interp/Launch.h"
#include "compiler/sema/LaunchPlan.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tessel::test {

inline std::string readSource(const std::string &Rel) {
  std::ifstream In(std::string(TESSEL_SOURCE_DIR) + "/" + Rel, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

struct InstanceRun {
  launch::ConcreteLaunch Launch;
  std::shared_ptr<ir::Function> Function;
  interp::PreparedLaunch Prepared;
  interp::RunResult Result;

  int64_t value(const std::string &Name) const {
    const launch::ConcreteValue *V = Launch.value(Name);
    EXPECT_TRUE(V) << "no value " << Name;
    return V ? V->Int : 0;
  }
  double floatValue(const std::string &Name) const {
    const launch::ConcreteValue *V = Launch.value(Name);
    EXPECT_TRUE(V) << "no value " << Name;
    return V ? (V->IsFloat ? V->Float : static_cast<double>(V->Int)) : 0;
  }
  /// Every element of a tensor entry's buffer, decoded.
  std::vector<double> read(const std::string &Name) const {
    uint32_t Id = Prepared.buffer(Name);
    EXPECT_NE(Id, 0u) << "no buffer " << Name;
    std::vector<double> Out;
    if (!Id)
      return Out;
    for (int64_t I = 0; I < Prepared.Mem.buffer(Id).numElements(); ++I)
      Out.push_back(Prepared.Mem.readFloat(Id, I));
    return Out;
  }
};

struct SampleRun {
  std::vector<InstanceRun> Instances;
  /// Set when the lowering cannot handle the kernel yet ("not supported by
  /// tessel's lowering yet"): the caller skips rather than fails.
  std::string LoweringLimit;
};

/// Runs Kernel of the sample Rel (relative to the source tree) over every
/// instance of its launch spec. Failures other than lowering limits are test
/// failures.
inline SampleRun runSample(const std::string &Rel, const std::string &Kernel,
                           const sema::LaunchPlanOptions &Opts = {}) {
  SampleRun Out;
  auto File = ParsedFile::parse(std::make_shared<SourceText>(readSource(Rel), Rel));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  sema::LaunchPlan Plan = sema::planLaunch(*File, Info, Kernel, Opts);
  EXPECT_TRUE(Plan.Error.empty()) << Plan.Error;
  for (const Problem &P : Plan.Problems)
    ADD_FAILURE() << Rel << ": " << P.Message;
  for (const sema::PlannedLaunch &PL : Plan.Launches) {
    sema::LoweredKernel L = sema::lowerKernel(*File, Info, PL.Request);
    if (!L.Function) {
      for (const Problem &P : L.Problems) {
        if (P.Message.find("not supported by tessel's lowering yet") != std::string::npos) {
          Out.LoweringLimit = P.Message;
          return Out;
        }
      }
      for (const Problem &P : L.Problems)
        ADD_FAILURE() << Rel << " " << Kernel << " [" << PL.Launch.Label << "]: " << P.Message;
      return Out;
    }
    InstanceRun R;
    R.Launch = PL.Launch;
    R.Function = std::move(L.Function);
    R.Prepared = interp::prepareLaunch(*R.Function, R.Launch, /*Seed=*/0);
    for (const std::string &E : R.Prepared.Errors)
      ADD_FAILURE() << Rel << " " << Kernel << " [" << PL.Launch.Label << "]: " << E;
    if (!R.Prepared.Errors.empty())
      return Out;
    R.Result = interp::run(*R.Function, R.Prepared.Mem, R.Prepared.Args, R.Prepared.Opts);
    EXPECT_TRUE(R.Result.Completed) << R.Result.Error;
    Out.Instances.push_back(std::move(R));
  }
  EXPECT_FALSE(Out.Instances.empty()) << Rel << " " << Kernel << " has no launch to run";
  return Out;
}

/// Compares Got with Want element by element: |got - want| <= Abs + Rel * |want|.
inline void expectClose(const std::vector<double> &Got, const std::vector<double> &Want, double Abs, double Rel,
                        const std::string &What) {
  ASSERT_EQ(Got.size(), Want.size()) << What;
  size_t Bad = 0;
  std::string First;
  for (size_t I = 0; I < Got.size(); ++I) {
    double Tol = Abs + Rel * std::abs(Want[I]);
    if (!(std::abs(Got[I] - Want[I]) <= Tol)) {
      if (Bad++ < 5)
        First += "\n  [" + std::to_string(I) + "] got " + std::to_string(Got[I]) + ", want " + std::to_string(Want[I]);
    }
  }
  EXPECT_EQ(Bad, 0u) << What << ": " << Bad << " of " << Got.size() << " elements differ" << First;
}

} // namespace tessel::test

#endif // TESSEL_TESTS_UNIT_TOOLS_RUNSUPPORT_H
