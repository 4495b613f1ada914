//===- LaunchFuzzer.cpp - libFuzzer target for launch specs and runs -----===//
/// \file
/// The launch-spec language and `tessel run`'s path through it, on the
/// samples: the input picks a sample file (first byte) and one of its
/// @jit kernels (second byte); the rest is a launch spec, as `--spec`
/// would give it. The spec is parsed and instantiated on its own, then the
/// kernel is run with it as `tessel run --spec` runs it (tools::runKernel:
/// plan, lower, prepare seeded buffers, interpret), with small bounds on the
/// ops and bytes of one instance, and only when the spec has at most four
/// instances, so that no input runs for long. Nothing may
/// crash, hang or trip a sanitizer; a bad spec is a finding in the report.
///
/// The samples are read from the source tree (TESSEL_SOURCE_DIR) once, in
/// sorted order: samples/*.py, then samples/bugs/*.py.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/frontend/Parser.h"
#include "tools/KernelRun.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel;

namespace {

struct Sample {
  std::string Path;
  std::shared_ptr<const ParsedFile> File;
  std::vector<std::string> Kernels;
};

std::vector<Sample> loadSamples() {
  std::vector<Sample> Out;
  for (const char *Dir : {"/samples", "/samples/bugs"}) {
    std::vector<std::filesystem::path> Paths;
    for (const auto &E : std::filesystem::directory_iterator(std::string(TESSEL_SOURCE_DIR) + Dir))
      if (E.path().extension() == ".py")
        Paths.push_back(E.path());
    std::sort(Paths.begin(), Paths.end());
    for (const auto &P : Paths) {
      std::ifstream In(P, std::ios::binary);
      std::stringstream SS;
      SS << In.rdbuf();
      Sample S;
      S.Path = P.string();
      S.File = ParsedFile::parse(std::make_shared<SourceText>(SS.str(), S.Path));
      ProblemSink Sink;
      S.Kernels = discover(S.File->module(), Sink).Order;
      if (!S.Kernels.empty())
        Out.push_back(std::move(S));
    }
  }
  if (Out.empty()) {
    std::fprintf(stderr, "LaunchFuzzer: no sample kernels under %s/samples\n", TESSEL_SOURCE_DIR);
    std::abort();
  }
  return Out;
}

const std::vector<Sample> &samples() {
  static const std::vector<Sample> S = loadSamples();
  return S;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 2)
    return 0;
  const Sample &S = samples()[Data[0] % samples().size()];
  const std::string &Kernel = S.Kernels[Data[1] % S.Kernels.size()];
  std::string Spec(reinterpret_cast<const char *>(Data) + 2, Size - 2);

  // The language itself: every instance within the cap, whatever the text.
  launch::ParsedLaunchSpec Parsed = launch::parseLaunchSpec(Spec);
  ProblemSink Sink;
  size_t Instances = launch::instantiate(Parsed.Spec, Sink, 64).size();
  if (Instances > 64)
    __builtin_trap();
  // A run interprets every instance; a spec with many is worth its parse and
  // instantiation above, not the time of its runs.
  if (Instances > 4)
    return 0;

  tools::KernelRunOptions Opts;
  Opts.Spec = Spec;
  Opts.Seed = Size;
  Opts.MaxSteps = 5'000;
  Opts.MaxBufferBytes = 1u << 20;
  tools::RunReport Report;
  std::string Error;
  tools::runKernel(*S.File, S.Path, Kernel, Opts, Report, Error);
  return 0;
}
