//===- TritonBridge.h - the same kernel through Triton, beside tessel -*- C++ -*-===//
/// \file
/// `tessel run --triton`: every instance tessel ran is also run by Triton
/// itself, on the same inputs, where `triton` and `torch` import (a GPU
/// machine). As tessel runs the instances, TritonBatch writes each one's
/// inputs (as prepared, before any run) as .npy files into a scratch
/// directory together with a manifest (grid, num_warps, num_stages, every
/// argument by name, dtypes, shapes and strides) and keeps the outputs they
/// are to be compared with. Then one Python process runs them all: the
/// runner (tools/triton_runner.py, carried in the binary) imports the user's
/// file, launches the @triton.jit function on tessel's grid, times it as
/// tessel times its own launches, and saves Triton's outputs and figures
/// (`metadata.shared`, `n_regs`, `n_spills`). Each output is then compared
/// with tessel's by compareOutput, the per-dtype tolerance of `--gpu`.
///
/// One process for the batch, not one per instance: importing torch and
/// initialising CUDA take seconds, and --all-configs runs dozens of
/// instances. The runner rewrites its results after every instance, so a
/// timeout or a crash still reports the instances it finished.
///
/// The environment is the usual failure here (no python3, torch, triton or
/// GPU; a file Python cannot load; a hung kernel): each becomes one line in
/// RunReport::TritonError, never a crash or a hang of tessel.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TRITONBRIDGE_H
#define TESSEL_TOOLS_TRITONBRIDGE_H

#include "compiler/frontend/LaunchSpec.h"
#include "compiler/frontend/PyValue.h"
#include "compiler/interp/Launch.h"
#include "tools/GpuRun.h"
#include "tools/RunReport.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::tools {

/// The Python `--triton` runs: $TESSEL_PYTHON, else `python3` on PATH. ""
/// with Why ("python3 is not on PATH ...") when there is none to run.
std::string findPython(std::string &Why);

struct TritonBatchOptions {
  std::string Python; ///< findPython's answer
  std::string File;   ///< the file Python imports, absolute
  /// The text to import instead of File's contents (--text-from: the
  /// editor's unsaved buffer), written into the scratch directory under
  /// File's name.
  std::optional<std::string> Text;
  std::vector<std::string> Search; ///< sys.path additions, first first: the file's directory, the project's roots
  std::string Kernel;
  size_t Iters = 0; ///< timed launches per instance (0: untimed)
  /// The runner's time limit: $TESSEL_TRITON_TIMEOUT seconds, else a
  /// minute plus 30 s per instance (Triton compiles each config once).
  unsigned TimeoutSeconds = 0;
  /// The PyTorch expression of the kernel's reference directive (`torch=`,
  /// `tessel run --reference`): evaluated on each instance's inputs and timed;
  /// empty: none.
  std::string Torch;
  /// False (`--reference` without `--triton`): only the PyTorch expression
  /// runs; triton need not import and the file is not loaded.
  bool LaunchTriton = true;
};

/// What Triton's outputs are compared with: tessel's GPU outputs when its GPU
/// ran (the interpreter's written flags, when it ran, still say which
/// elements count), else the interpreter's; with neither (--no-reference and
/// a failed GPU run) they are not compared.
struct TritonReference {
  const interp::Memory *Interpreter = nullptr; ///< its memory after the run; null when it did not run
  const GpuOutputBytes *Gpu = nullptr;         ///< tessel's GPU outputs; null when the GPU did not run
  /// Outputs holding values atomics returned (AtomicOrder.h), by name: they
  /// differ by the programs' order, not by a wrong result.
  std::map<std::string, SourceRange> FromAtomic;
};

class TritonBatch {
public:
  explicit TritonBatch(TritonBatchOptions Opts);
  ~TritonBatch(); ///< removes the scratch directory
  TritonBatch(const TritonBatch &) = delete;
  TritonBatch &operator=(const TritonBatch &) = delete;

  /// Why no instance can be added ("" when they can): the scratch directory
  /// could not be made.
  const std::string &unavailable() const { return Why; }

  /// Adds one instance of launch L: the tensors of Inputs (the buffers as
  /// prepared, before any run; P names them) are written now, and the
  /// outputs Triton's are to be compared with are kept (Ref). Constexprs are
  /// the lowering's (sema::LoweringRequest): those L's values leave out, such
  /// as `None`, strings and dtypes the file passes, go to Triton too. Out gets
  /// the job's number (Job); false, with Out.Error, when the inputs could not
  /// be written.
  bool add(const launch::ConcreteLaunch &L, const std::map<std::string, PyValue> &Constexprs,
           const interp::PreparedLaunch &P, const interp::Memory &Inputs, const TritonReference &Ref,
           TritonInstanceReport &Out);

  /// The reference directive's PyTorch expression (known once the kernel's
  /// directive is read, after the batch was made).
  void setTorch(std::string Expr) { Opts.Torch = std::move(Expr); }
  bool launchesTriton() const { return Opts.LaunchTriton; }

  /// Runs every added instance through Triton and fills the Triton report of
  /// each instance of Report that has a job (TritonInstanceReport::Job), and
  /// Report's TritonVersion, TritonDevice, TritonError and TritonNotes.
  void run(RunReport &Report);

  struct Job; ///< one added instance (TritonBridge.cpp)

private:
  TritonBatchOptions Opts;
  std::string Dir, Why;
  std::vector<Job> Jobs;
  std::map<std::string, std::string> InputFiles; ///< content key -> .npy name (inputs shared between configs)
};

} // namespace tessel::tools

#endif // TESSEL_TOOLS_TRITONBRIDGE_H
