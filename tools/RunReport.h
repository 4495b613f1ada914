//===- RunReport.h - what `tessel run` found, as text or JSON ---*- C++ -*-===//
/// \file
/// The result of running one kernel over every instance of its launch spec,
/// as plain data, and its two renderings: the text people (and the editor's
/// Run output) read, and one JSON object for machines. Diagnostics in both
/// go through the renderers `tessel check` uses (tools/TextOutput,
/// lsp::toProtocol), so a run's findings look like a check's.
///
/// Text layout (stable; tests and the editor read it):
///
///   run add_kernel in k.py on the CPU interpreter (seed 0)
///   launch: 2 instances from the `# tessel: launch` directive
///   assumed: BLOCK=1024 from autotune config 0
///
///   instance n=1000: grid (1, 1, 1), num_warps=4, num_stages=3: ran 12 ops
///     out: fp32[1000] crc32=0x1c291ca3 min=0.0109 max=1.98 mean=1.0 nan=0 inf=0
///       first: 0.5488 1.7152 ...
///   k.py:9:5: error: 24 out-of-bounds stores to ... [TS301]
///       tl.store(out_ptr + offs, x)
///       ^~~~~~~~~~~~~~~~~~~~~~~~~~~
///
///   2 instances run: 1 error
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_RUNREPORT_H
#define TESSEL_TOOLS_RUNREPORT_H

#include "compiler/interp/BufferStats.h"
#include "diagnostics/Finding.h"
#include "lsp/LineIndex.h"
#include "tools/TextOutput.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tessel::tools {

struct OutputSummary {
  std::string Name;
  std::string DType; ///< Triton's short name: "fp32", "bf16"
  std::vector<int64_t> Shape;
  interp::BufferStats Stats;
  std::string SavedTo; ///< the .npy path, when --save wrote one
  std::string SavedAs; ///< the .npy dtype when it is not DType's own ("<u2" for bf16 bits)
};

/// One output compared between the GPU and the interpreter.
struct GpuComparison {
  std::string Name;
  std::string DType;
  int64_t Compared = 0;   ///< elements the interpreter wrote
  int64_t Mismatches = 0; ///< beyond the dtype's tolerance (NaN against a number counts)
  double MaxAbs = 0, MaxRel = 0;
  int64_t FirstMismatch = -1; ///< element index; -1 when all agree
  double Expected = 0, Got = 0;
  /// Where the atomic is whose returned values this output holds
  /// (AtomicOrder.h): its mismatches are the programs' order, not an error.
  std::optional<SourceRange> FromAtomic;
};

/// What a text report adds after a comparison whose mismatches are the
/// programs' order (GpuComparison::FromAtomic); "" otherwise.
std::string_view orderDependence(const GpuComparison &C);

/// One error compute-sanitizer reported, mapped to the kernel's source line
/// through the PTX's line table (`.loc`).
struct SanitizerError {
  std::string What;          ///< "Invalid __global__ read of size 4 bytes"
  std::string Kernel;        ///< the entry compute-sanitizer names
  int Line = 0;              ///< 1-based line in the file; 0 when the report had none
  std::string Thread, Block; ///< "(0,0,0)" of the first report
  size_t Count = 0;          ///< reports of this kind at this line
};

/// What `--sanitize` gave for one instance.
struct SanitizerReport {
  bool Ran = false;
  std::string Error; ///< why it could not run: not installed, the device refused...
  std::vector<SanitizerError> Errors;
  size_t Total = 0; ///< "ERROR SUMMARY: N errors"
};

/// What `--gpu` gave for one instance.
struct GpuInstanceReport {
  bool Ran = false;
  std::string Error; ///< compile failure, driver error, fault or hang
  std::string Assembler;
  int Registers = 0, LocalBytes = 0;
  unsigned SharedBytes = 0, Threads = 0;
  double CompileMs = 0;
  std::vector<GpuComparison> Outputs;
  size_t TimedRuns = 0;
  double MedianMs = 0, MinMs = 0, MaxMs = 0;
  double GBps = 0; ///< tensor bytes (inputs read once, outputs written once) per second
  uint64_t TensorBytes = 0;
  /// tl.dot work of the instance (interp::RunResult::DotFlops) and its rate;
  /// 0 for a kernel without tl.dot.
  uint64_t DotFlops = 0;
  double Tflops = 0;
  /// The device's ceilings (GpuPeak: measured once per device, cached);
  /// 0 when unknown. GBps / PeakGBps is the fraction of peak bandwidth.
  double PeakGBps = 0, PeakTflops = 0;
  std::string PeakSource; ///< "measured now" or "cached in PATH"
  /// What PeakTflops was measured with: "wgmma fp16", "mma.sync fp16"...
  std::string PeakTflopsInstruction = "mma.sync fp16";
  /// With --sanitize: compute-sanitizer memcheck's verdict on this launch.
  std::optional<SanitizerReport> Sanitizer;
};

/// What `--triton` gave for one instance: Triton's run of the same kernel on
/// the same inputs (tools/TritonBridge.h), compared with tessel's.
struct TritonInstanceReport {
  bool Ran = false;
  /// Why Triton did not run it: its verdict ("out of resource: shared memory,
  /// Required: 262144, Hardware limit: 232448", "compile error ...") or the
  /// runner's ("not run: the Triton runner timed out ...").
  std::string Error;
  /// What Triton's outputs were compared with: "tessel's GPU run" or "the
  /// interpreter" (when tessel ran on the CPU or its GPU run failed).
  std::string Against;
  std::vector<GpuComparison> Outputs;
  /// When Against is tessel's GPU run and the interpreter ran too: Triton's
  /// outputs against the interpreter's as well (which of tessel's two runs
  /// Triton agrees with, when they differ).
  std::vector<GpuComparison> InterpreterOutputs;
  std::string CompareError; ///< an output that could not be read back ("" when all were)
  size_t TimedRuns = 0;
  double MedianMs = 0, MinMs = 0, MaxMs = 0;
  /// Triton's figures: `metadata.shared` (bytes), `n_regs`, `n_spills` (local
  /// bytes per thread / 4, as Triton's driver counts them); -1 when unknown.
  int64_t SharedBytes = -1, Registers = -1, Spills = -1;

  /// The instance's number in the batch that runs it (TritonBatch::add); -1
  /// when it was not added.
  int64_t Job = -1;

  /// Outputs with elements beyond tolerance (an unreadable output counts).
  size_t mismatches() const;
};

/// The PyTorch operation a reference directive names (`torch=`), run by the
/// Triton bridge's Python process on the instance's inputs (tools/TritonBridge.h).
struct TorchInstanceReport {
  bool Ran = false;
  std::string Error;
  std::string Against; ///< "the interpreter" or "tessel's GPU run"
  std::vector<GpuComparison> Outputs;
  size_t TimedRuns = 0;
  double MedianMs = 0;
};

/// What `--reference` gave for one instance: the CUDA C++ reference
/// (tools/CudaReferenceRun.h) run on the same inputs, its outputs compared.
struct CudaReferenceInstance {
  std::string Error; ///< why it did not run: a parameter that maps to nothing, the block or grid, the GPU
  std::array<int64_t, 3> Grid = {1, 1, 1}, Block = {1, 1, 1};
  GpuInstanceReport Run; ///< its launch: figures, outputs against Against, time
  /// What its outputs were compared with: "the interpreter" or "tessel's GPU run".
  std::string Against;
  std::vector<std::string> NotCompared;     ///< outputs of the launch the reference does not write
  std::optional<TorchInstanceReport> Torch; ///< the directive's `torch=`, where torch imports
};

struct InstanceReport {
  std::string Label; ///< "n=1000"; "" for a spec without lists
  std::array<int64_t, 3> Grid = {1, 1, 1};
  int64_t NumWarps = 4, NumStages = 3;
  bool Ran = false;       ///< the interpreter ran to the end
  bool Unchecked = false; ///< --no-reference: not run on the interpreter, GPU outputs not compared
  std::string Error;      ///< why it did not run or stopped early
  uint64_t Steps = 0;     ///< ops executed
  double Millis = 0;      ///< interpreter wall time (JSON only: text stays stable)
  size_t Violations = 0;  ///< every violating lane, counted
  std::vector<OutputSummary> Outputs;
  std::vector<diag::Finding> Findings;          ///< TS301-TS303, in the file
  std::string PrintLog;                         ///< device_print output
  std::optional<GpuInstanceReport> Gpu;         ///< with --gpu
  std::optional<TritonInstanceReport> Triton;   ///< with --triton
  std::optional<CudaReferenceInstance> CudaRef; ///< with --reference
  /// With --all-configs: the autotune config this instance ran under.
  std::optional<size_t> Config;
  std::string ConfigText; ///< "BLOCK_SIZE=128, num_warps=4, num_stages=3"
};

/// With --all-configs --gpu: for one instance label (one autotune key), the
/// config triton.autotune would keep: the smallest median time (Triton's
/// do_bench, which the autotuner calls, compares medians first).
struct FastestConfig {
  std::string Label;
  size_t Config = 0;
  std::string ConfigText;
  double MedianMs = 0;
  size_t Timed = 0; ///< configs that ran correctly and were timed
};

struct RunReport {
  std::string Path;
  std::string Kernel;
  uint64_t Seed = 0;
  std::string SpecSource; ///< "from --spec", "from the `# tessel: launch` directive", "derived from the file ..."
  std::string SpecKind;   ///< "directive", "command-line", "derived" (JSON)
  std::vector<std::string> Assumptions;
  /// Problems of the file, the spec or the lowering, in the file...
  std::vector<diag::Finding> Findings;
  /// ...and in the --spec text.
  std::vector<diag::Finding> SpecFindings;
  std::vector<InstanceReport> Instances;
  size_t Planned = 0;    ///< instances the launch spec gives (all run unless NotRun says why)
  std::string GpuDevice; ///< with --gpu: the device the instances ran on
  std::string NotRun;    ///< why no instance ran ("the file has syntax errors")
  /// Why --save could not write a file (the run itself went on).
  std::string SaveError;
  /// With --triton: Triton's version ("3.6.0") and device, or why the
  /// runner could not run at all (no python3, torch, triton or GPU, a file
  /// Python cannot load, a timeout), and what it noted while loading the file.
  std::string TritonVersion, TritonDevice, TritonError;
  std::vector<std::string> TritonNotes;
  bool Triton = false; ///< --triton was asked for
  /// With --reference: the CUDA C++ reference (`softmax_ref.cu::softmax_rows<...>`), Clang's
  /// diagnostics of it (`file:line:col: warning: ...`), or why it could not be found or compiled.
  std::string CudaReference, CudaReferenceError;
  /// The directive's PyTorch expression, and why it could not run at all (no python3 or torch).
  std::string Torch, TorchError;
  std::vector<std::string> CudaReferenceDiagnostics;
  /// --all-configs: the configs run, and the fastest per instance label.
  size_t ConfigsRun = 0;
  std::vector<FastestConfig> Fastest;

  /// Errors over the whole run (findings of error severity and instances
  /// that could not run): the exit status is 1 when this is not zero.
  size_t errors() const;
};

struct RunSources {
  const lsp::LineIndex &File;
  const lsp::LineIndex *Spec = nullptr; ///< the --spec text, when one was given
};

void renderRunText(std::ostream &OS, const RunReport &R, const RunSources &Src, const TextStyle &Style);
/// One GPU launch's figures as the JSON report's `gpu` object.
nlohmann::json gpuInstanceJson(const GpuInstanceReport &G);
void renderRunJson(std::ostream &OS, const RunReport &R, const RunSources &Src);

/// "0.5", "1.25e-05", "nan", "-inf": short and round-trippable enough to read.
std::string formatNumber(double V);
/// "85%": Part as a whole percentage of Whole.
std::string percentText(double Part, double Whole);

/// One config's cost under one instance label: a median time in ms, or
/// for the interpreter the ops it executed (tessel tune --cpu).
struct ConfigCost {
  std::string Label;
  size_t Config = 0;
  std::string ConfigText;
  double Cost = 0;
};

/// Per label, in the order labels first appear, the config of least cost
/// (the earlier config on a tie, as Python's min keeps the first): the
/// autotuner's choice. Costs holds only configs that ran correctly;
/// FastestConfig::MedianMs is the winner's cost and Timed how many competed.
std::vector<FastestConfig> fastestPerLabel(const std::vector<ConfigCost> &Costs);

/// Fills R.Fastest from R's instances: per label, among the configs whose GPU
/// run matched the interpreter and was timed, the one with the smallest
/// median (the earlier config on a tie, as Python's min keeps the first).
void chooseFastest(RunReport &R);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_RUNREPORT_H
