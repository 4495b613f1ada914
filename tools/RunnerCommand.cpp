//===- RunnerCommand.cpp - `tessel runner` (internal) ---------------------===//
/// \file
/// The far end of a runner (runners/Serve.h): what `ssh host tessel runner`
/// and `srun ... tessel runner` start, and the local runner too. It speaks
/// the runner protocol on stdin and stdout and runs each task as a `tessel
/// run` child. The GPUs it reports come from the CUDA driver, loaded here
/// (a runner process, never the language server). Not listed in `tessel
/// --help`.
//===----------------------------------------------------------------------===//
#include "tools/Subcommands.h"

#include "runners/Serve.h"
#include "tools/CommandLine.h"

#ifdef TESSEL_HAVE_GPU_RUNTIME
#include "compiler/runtime/CudaDriver.h"
#endif

#include <iostream>
#include <string>

namespace tessel::tools {

static runners::GpuProbe probeGpus() {
  runners::GpuProbe P;
#ifdef TESSEL_HAVE_GPU_RUNTIME
  const runtime::CudaDriver *D = runtime::CudaDriver::get(P.Error);
  if (!D)
    return P;
  int Count = 0;
  if (std::optional<runtime::DriverError> E = D->check(D->DeviceGetCount(&Count), "cuDeviceGetCount")) {
    P.Error = E->str();
    return P;
  }
  P.Count = static_cast<unsigned>(Count);
#else
  P.Error = "this tessel was built without the GPU runtime (no cuda.h at build time)";
#endif
  return P;
}

int runRunner(const Args &A) {
  runners::ServeOptions Opts;
  Opts.Self = selfExecutable();
  Opts.Probe = probeGpus;
  for (size_t I = 0; I < A.size(); ++I) {
    std::string_view Value;
    bool Missing = false;
    if (takeValue(A, I, "--device", Value, Missing)) {
      uint64_t N = 0;
      if (Missing || !parseUnsigned(Value, N) || N > 1024) {
        std::cerr << "tessel runner: error: --device takes a GPU index\n";
        return ExitUsage;
      }
      Opts.Device = static_cast<unsigned>(N);
      continue;
    }
    std::cerr << "tessel runner: error: unknown option '" << A[I]
              << "' (the runner is started by `tessel run --runner` and `tessel tune`)\n";
    return ExitUsage;
  }
  return runners::serveRunner(Opts);
}

} // namespace tessel::tools
