//===- CudaReferenceRun.h - `tessel run --gpu --reference` ----------*- C++ -*-===//
/// \file
/// The CUDA C++ reference of the kernel (its `# tessel: reference` directive)
/// run on each instance's inputs: compiled once for the GPU present
/// (compiler/reference: Clang in process, then the back end), its parameters
/// bound to the instance's tensors and scalars (reference::mapParameters),
/// launched with the directive's block and grid through the same GpuRunner
/// as tessel's kernel, its outputs compared with the interpreter's (or,
/// under --no-reference, with tessel's GPU outputs) at the per-dtype
/// tolerances of `--gpu`, and timed the same way, so that the two medians
/// give the gap.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_CUDAREFERENCERUN_H
#define TESSEL_TOOLS_CUDAREFERENCERUN_H

#include "compiler/interp/Launch.h"
#include "tools/CudaReference.h"
#include "tools/GpuRun.h"
#include "tools/RunReport.h"

#include <optional>
#include <string>

namespace tessel::tools {

class CudaReferenceRun {
public:
  explicit CudaReferenceRun(GpuRunner &Gpu) : Gpu(Gpu) {}

  /// Finds Kernel's reference and compiles it for the GPU: Report gets its
  /// label and Clang's diagnostics; false, with Report.CudaReferenceError,
  /// when there is nothing to run.
  bool prepare(const ParsedFile &File, const ModuleInfo &Info, const std::string &Path, const std::string &Kernel,
               RunReport &Report);

  /// One instance: L's tensors as P prepared them (Inputs: before any run),
  /// compared with Interpreter (its memory after the run) or, when null, with
  /// TesselGpu (tessel's GPU outputs by buffer id).
  /// The directive's PyTorch expression (`torch=`); empty when it names none.
  std::string torch() const { return Target ? Target->Directive.Torch : std::string(); }

  CudaReferenceInstance run(const launch::ConcreteLaunch &L, const interp::PreparedLaunch &P,
                            const interp::Memory &Inputs, const interp::Memory *Interpreter,
                            const GpuOutputBytes *TesselGpu, size_t Iters);

private:
  GpuRunner &Gpu;
  bool Prepared = false;
  std::optional<CudaReferenceTarget> Target;
  std::optional<reference::CompiledReference> Compiled;
};

} // namespace tessel::tools

#endif // TESSEL_TOOLS_CUDAREFERENCERUN_H
