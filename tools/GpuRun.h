//===- GpuRun.h - one lowered instance on the GPU, checked against the CPU -*- C++ -*-===//
/// \file
/// `tessel run --gpu`: the instance the interpreter ran is compiled
/// (codegen::emitLLVM, backend::compileModule) for the GPU that is present,
/// launched through compiler/runtime on the same seeded inputs with its
/// outputs poisoned first, and every output element the interpreter wrote
/// is compared with per-dtype tolerances. With --iters, the launch is then
/// timed (median of the runs, the L2 flushed before each) and its bandwidth
/// given for the bytes the tensors hold.
///
/// tessel run is itself a subprocess of the editor, so a fault here ends
/// only this run: a sticky fault or a hang is reported and the instances
/// after it are not run on the GPU.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_GPURUN_H
#define TESSEL_TOOLS_GPURUN_H

#include "compiler/backend/Jit.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Ops.h"
#include "tools/GpuPeak.h"
#include "tools/RunReport.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessel::tools {

/// Output bytes a GPU run left, by buffer id of the launch's memory: what
/// `--triton` compares Triton's outputs with.
using GpuOutputBytes = std::map<uint32_t, std::vector<uint8_t>>;

class GpuRunner {
public:
  GpuRunner();
  ~GpuRunner();
  GpuRunner(const GpuRunner &) = delete;
  GpuRunner &operator=(const GpuRunner &) = delete;

  /// Why no GPU can be used ("" when one can): no driver, no device.
  const std::string &unavailable() const { return Why; }
  /// "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB), driver 13.0".
  std::string device() const;

  /// Compiles F (cached by Key), runs it over Inputs (the buffers as
  /// prepared, before the interpreter ran) and compares its outputs with
  /// Reference (the interpreter's memory after its run; null: not compared,
  /// for sizes the interpreter cannot run in reasonable time). Source (the file)
  /// gives the PTX its line table, so compute-sanitizer can name lines;
  /// DotFlops (the interpreter's count) gives TFLOP/s when timed. Timing
  /// also gives the fraction of the device's peak (GpuPeak.h). Keep, when
  /// given, receives every output's bytes as the first launch left them.
  GpuInstanceReport run(const std::string &Key, const ir::Function &F, const launch::ConcreteLaunch &L,
                        const interp::Memory &Inputs, const std::vector<interp::ArgValue> &Args,
                        const interp::Memory *Reference, size_t Iters, const SourceText *Source = nullptr,
                        uint64_t DotFlops = 0, GpuOutputBytes *Keep = nullptr);

  /// A kernel compiled elsewhere (a CUDA C++ reference, compiler/reference),
  /// loaded once per Key and launched with Grid and Block on the same Inputs
  /// with Args (a pointer is a buffer of Inputs; ArgNames name them in
  /// errors); the output buffers Compare names are compared with Expected
  /// (laid out as Inputs: the interpreter's memory after its run, or tessel's
  /// GPU outputs), and Iters runs are timed as run() times them.
  GpuInstanceReport runCompiled(const std::string &Key, const backend::CompiledKernel &K,
                                const std::array<unsigned, 3> &Grid, const std::array<unsigned, 3> &Block,
                                const interp::Memory &Inputs, const std::vector<interp::ArgValue> &Args,
                                const std::vector<std::string> &ArgNames, const std::set<uint32_t> &Compare,
                                const interp::Memory *Expected, size_t Iters);
  /// The GPU's architecture as run() compiles for it (sm_90a on Hopper);
  /// nullopt without a GPU.
  std::optional<backend::GpuArch> arch() const;
  /// The device's copy bandwidth and mma rate: from the cache, else measured
  /// now and cached (GpuPeak.h). Zeros, with Source saying why, when the
  /// measurement failed.
  PeakFigures peak();

private:
  struct Impl;
  std::unique_ptr<Impl> I;
  std::string Why;
};

/// Output buffer Id of the interpreter's memory RefMem (Ref is that buffer)
/// against the bytes the GPU left in it: every element the interpreter
/// wrote, within gpuTolerance (for a float output, MinTolerance at least).
GpuComparison compareOutput(const interp::Buffer &Ref, const interp::Memory &RefMem, uint32_t Id,
                            const std::vector<uint8_t> &GpuBytes, double MinTolerance = 0);

/// The float tolerance of a kernel with fp8 dots on Hopper: wgmma adds fp8
/// products in fewer bits than fp32, truncating (Triton 3.6 keeps it so on
/// sm_90: max_num_imprecise_acc_default 2^30), where the interpreter adds
/// them exactly; measured 2.8e-3 relative at K = 256 on an H100.
constexpr double Fp8WgmmaTolerance = 2e-2;

/// The tolerance outputs of this dtype are compared with: |gpu - cpu| <=
/// Tol * max(1, rms) + Tol * |cpu|, rms over the output's elements (0 for
/// integers: exact).
double gpuTolerance(ScalarKind K);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_GPURUN_H
