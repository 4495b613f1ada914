//===- KernelJitKeyTest.cpp - the JIT cache key and the build identity ----===//
/// \file
/// The cache key of a kernel includes the build identity of the compiler
/// (BuildId.h): an entry another build of tessel left in the cache is never
/// taken, one of this build is.
//===----------------------------------------------------------------------===//
#include "compiler/backend/BuildId.h"
#include "compiler/backend/KernelJit.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/sema/LaunchPlan.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

using namespace tessel;
using namespace tessel::backend;

namespace {
struct VectorAdd {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  sema::LoweringRequest Request;

  VectorAdd() {
    std::string Path = std::string(TESSEL_SOURCE_DIR) + "/samples/vector_add.py";
    std::ifstream In(Path);
    std::stringstream S;
    S << In.rdbuf();
    File = ParsedFile::parse(std::make_shared<SourceText>(S.str(), Path));
    ProblemSink Sink;
    Info = discover(File->module(), Sink);
    sema::LaunchPlan Plan = sema::planLaunch(*File, Info, "vector_add_kernel", {});
    EXPECT_EQ(Plan.Error, "");
    if (!Plan.Launches.empty())
      Request = Plan.Launches.front().Request;
  }
};

KernelJitOptions ptxOnly() {
  KernelJitOptions O;
  O.Arch = GpuArch{90, false};
  O.Assemble = false;
  return O;
}
} // namespace

TEST(KernelJitKey, BuildIdNamesTheCommitAndTheSources) {
  // `<12 hex digits of the commit>[-dirty]` or `nogit`, then `+` and 16 hex
  // digits of the compiler's sources (cmake/BuildId.cmake).
  EXPECT_TRUE(std::regex_match(buildId(), std::regex("([0-9a-f]{12}(-dirty)?|nogit)\\+[0-9a-f]{16}"))) << buildId();
}

TEST(KernelJitKey, TheBuildIdentityIsPartOfTheKey) {
  VectorAdd S;
  KernelJitOptions O = ptxOnly();
  auto Here = jitCacheKey(*S.File, S.Info, S.Request, O);
  auto Same = jitCacheKey(*S.File, S.Info, S.Request, O, buildId());
  auto Other = jitCacheKey(*S.File, S.Info, S.Request, O, "0123456789ab+0000000000000000");
  ASSERT_TRUE(Here && Same && Other);
  EXPECT_TRUE(*Here == *Same);
  EXPECT_FALSE(*Here == *Other);
}

TEST(KernelJitKey, AnotherBuildsEntryIsNeverTaken) {
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit on this machine";
  VectorAdd S;
  KernelJitOptions O = ptxOnly();
  CompileCache Cache;
  O.Cache = &Cache;
  CompiledKernel Stale;
  Stale.Entry = "vector_add_kernel";
  Stale.Arch = O.Arch;
  Stale.Ptx = "// the PTX of an older build\n";
  // What a previous build of tessel stored for the same kernel: a miss.
  Cache.store(*jitCacheKey(*S.File, S.Info, S.Request, O, "0123456789ab+0000000000000000"), serialize(Stale));
  KernelJitResult Fresh = jitKernel(*S.File, S.Info, S.Request, O);
  ASSERT_TRUE(Fresh.Kernel) << Fresh.Error;
  EXPECT_FALSE(Fresh.FromCache);
  EXPECT_NE(Fresh.Kernel->Ptx, Stale.Ptx);
  // This build's own entry: a hit, whatever it holds.
  Cache.store(*jitCacheKey(*S.File, S.Info, S.Request, O), serialize(Stale));
  KernelJitResult Hit = jitKernel(*S.File, S.Info, S.Request, O);
  ASSERT_TRUE(Hit.Kernel);
  EXPECT_TRUE(Hit.FromCache);
  EXPECT_EQ(Hit.Kernel->Ptx, Stale.Ptx);
}
