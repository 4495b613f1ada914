//===- CrashReporterTest.cpp - the crash log line -------------------------===//
/// \file
/// A fatal signal while a CrashContext is alive prints what the thread was
/// doing, and the process still dies of that signal.
//===----------------------------------------------------------------------===//
#include "lsp/CrashReporter.h"

#include <gtest/gtest.h>

#include <csignal>

using namespace tessel::lsp;

namespace {

TEST(CrashReporterDeathTest, NamesTheTaskInFlight) {
  EXPECT_EXIT(
      {
        installCrashHandler();
        CrashContext C("hover", "test:///x.py");
        std::raise(SIGSEGV);
      },
      testing::KilledBySignal(SIGSEGV), "fatal signal while hover test:///x.py");
}

TEST(CrashReporterDeathTest, SaysWhenNoTaskRuns) {
  EXPECT_EXIT(
      {
        installCrashHandler();
        { CrashContext C("analysing", "a.py v1"); }
        std::raise(SIGABRT);
      },
      testing::KilledBySignal(SIGABRT), "fatal signal while not handling a request");
}

} // namespace
