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
/// The samples are those of Samples.h.
//===----------------------------------------------------------------------===//
#include "Samples.h"
#include "compiler/frontend/LaunchSpec.h"
#include "tools/KernelRun.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace tessel;
using fuzz::samples;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 2)
    return 0;
  const fuzz::Sample &S = samples()[Data[0] % samples().size()];
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
