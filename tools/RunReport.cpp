//===- RunReport.cpp - what `tessel run` found, as text or JSON -----------===//
#include "tools/RunReport.h"

#include "lsp/ToProtocol.h"
#include "tools/CudaReferenceReport.h"
#include "tools/TritonReport.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace tessel::tools {

std::string_view orderDependence(const GpuComparison &C) {
  return C.Mismatches && C.FromAtomic ? ": values an atomic returned, in the order the programs ran" : "";
}

size_t RunReport::errors() const {
  size_t N = 0;
  auto Count = [&N](const std::vector<diag::Finding> &Fs) {
    for (const diag::Finding &F : Fs)
      N += F.Sev == diag::Severity::Error;
  };
  Count(Findings);
  Count(SpecFindings);
  for (const InstanceReport &I : Instances) {
    Count(I.Findings);
    N += !I.Error.empty();
    N += I.Gpu && !I.Gpu->Error.empty();
    // Triton refusing an instance is its verdict, beside tessel's; outputs
    // that differ mean one of the two computes something else.
    N += I.Triton && I.Triton->mismatches() > 0;
    N += I.CudaRef && cudaReferenceFailed(*I.CudaRef);
  }
  N += !TritonError.empty();
  N += !CudaReferenceError.empty();
  return N;
}

std::string formatNumber(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V < 0 ? "-inf" : "inf";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.6g", V);
  return Buf;
}

static std::string plural(size_t N, std::string_view Word) {
  return std::to_string(N) + " " + std::string(Word) + (N == 1 ? "" : "s");
}

static std::string shapeText(const std::vector<int64_t> &Shape) {
  std::string S = "[";
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Shape[I]);
  return S + "]";
}

static std::string gridText(const std::array<int64_t, 3> &G) {
  return "(" + std::to_string(G[0]) + ", " + std::to_string(G[1]) + ", " + std::to_string(G[2]) + ")";
}

static std::string crcText(uint32_t C) {
  char Buf[16];
  std::snprintf(Buf, sizeof Buf, "0x%08x", C);
  return Buf;
}

static void renderOutput(std::ostream &OS, const OutputSummary &O) {
  const interp::BufferStats &S = O.Stats;
  OS << "  " << O.Name << ": " << O.DType << shapeText(O.Shape) << " crc32=" << crcText(S.Crc32)
     << " min=" << formatNumber(S.Min) << " max=" << formatNumber(S.Max) << " mean=" << formatNumber(S.Mean)
     << " nan=" << S.NaNs << " inf=" << S.Infs;
  if (S.Unwritten)
    OS << " unwritten=" << S.Unwritten;
  OS << '\n';
  if (!S.First.empty()) {
    OS << "    first:";
    for (double V : S.First)
      OS << ' ' << formatNumber(V);
    if (static_cast<int64_t>(S.First.size()) < S.Elements)
      OS << " ...";
    OS << '\n';
  }
  if (!O.SavedTo.empty()) {
    OS << "    saved to " << O.SavedTo;
    if (!O.SavedAs.empty())
      OS << " (as " << O.SavedAs << ": the raw bits of " << O.DType << ", which NumPy has no dtype for)";
    OS << '\n';
  }
}

/// "85%": Part as a whole percentage of Whole.
std::string percentText(double Part, double Whole) {
  char Buf[16];
  std::snprintf(Buf, sizeof Buf, "%.0f%%", Whole > 0 ? 100.0 * Part / Whole : 0.0);
  return Buf;
}

/// `    sanitizer: k.py:9: Invalid __global__ read of size 4 bytes (24 reports, first thread (0,0,0) block (3,0,0))`
static void renderSanitizer(std::ostream &OS, const SanitizerReport &S, const std::string &Path) {
  if (!S.Ran) {
    OS << "    sanitizer: not run: " << S.Error << '\n';
    return;
  }
  if (S.Errors.empty()) {
    OS << "    sanitizer: compute-sanitizer memcheck found no errors\n";
    return;
  }
  OS << "    sanitizer: compute-sanitizer memcheck found " << plural(S.Total, "error") << '\n';
  for (const SanitizerError &E : S.Errors) {
    OS << "      " << Path;
    if (E.Line)
      OS << ':' << E.Line;
    OS << ": " << E.What << " in " << E.Kernel << " (" << plural(E.Count, "report") << ", first by thread " << E.Thread
       << " in block " << E.Block << ")\n";
  }
}

/// `  gpu: 24 registers, 0 local bytes, 0 B shared, ptxas 13.0: out_ptr matches (1000 elements, max rel error 0)`
static void renderGpu(std::ostream &OS, const GpuInstanceReport &G, const std::string &Path) {
  if (!G.Error.empty() && !G.Ran) {
    OS << "  gpu: error: " << G.Error << '\n';
    if (G.Sanitizer) // a fault is when the sanitizer's line is wanted most
      renderSanitizer(OS, *G.Sanitizer, Path);
    return;
  }
  OS << "  gpu: " << G.Registers << " registers, " << G.LocalBytes << " local bytes, " << G.SharedBytes << " B shared, "
     << G.Threads << " threads";
  if (!G.Assembler.empty())
    OS << ", " << G.Assembler;
  OS << '\n';
  for (const GpuComparison &C : G.Outputs) {
    OS << "    " << C.Name << ": " << (C.Mismatches ? std::to_string(C.Mismatches) + " of " : "") << C.Compared
       << " elements " << (C.Mismatches ? "differ from" : "match") << " the interpreter (max abs error "
       << formatNumber(C.MaxAbs) << ", max rel error " << formatNumber(C.MaxRel) << ")" << orderDependence(C) << "\n";
  }
  if (G.TimedRuns) {
    OS << "    time: median " << formatNumber(G.MedianMs) << " ms (min " << formatNumber(G.MinMs) << ", max "
       << formatNumber(G.MaxMs) << ") over " << G.TimedRuns << " runs, " << formatNumber(G.GBps) << " GB/s for "
       << G.TensorBytes << " tensor bytes";
    if (G.PeakGBps > 0)
      OS << " (" << percentText(G.GBps, G.PeakGBps) << " of the device's " << formatNumber(G.PeakGBps) << " GB/s)";
    OS << '\n';
    if (G.DotFlops) {
      OS << "    dot: " << formatNumber(G.Tflops) << " TFLOP/s for " << G.DotFlops << " flops";
      if (G.PeakTflops > 0)
        OS << " (" << percentText(G.Tflops, G.PeakTflops) << " of the device's " << formatNumber(G.PeakTflops)
           << " TFLOP/s " << G.PeakTflopsInstruction << ")";
      OS << '\n';
    }
  }
  if (G.Sanitizer)
    renderSanitizer(OS, *G.Sanitizer, Path);
  if (!G.Error.empty())
    OS << "  gpu: error: " << G.Error << '\n';
}

static nlohmann::json number(double V) { return std::isfinite(V) ? nlohmann::json(V) : nlohmann::json(nullptr); }

nlohmann::json gpuInstanceJson(const GpuInstanceReport &G) {
  nlohmann::json GJ;
  GJ["ran"] = G.Ran;
  GJ["error"] = G.Error.empty() ? nlohmann::json(nullptr) : nlohmann::json(G.Error);
  GJ["registers"] = G.Registers;
  GJ["localBytes"] = G.LocalBytes;
  GJ["sharedBytes"] = G.SharedBytes;
  GJ["threads"] = G.Threads;
  GJ["assembler"] = G.Assembler;
  GJ["compileMillis"] = G.CompileMs;
  GJ["outputs"] = nlohmann::json::array();
  for (const GpuComparison &C : G.Outputs)
    GJ["outputs"].push_back({{"name", C.Name},
                             {"dtype", C.DType},
                             {"compared", C.Compared},
                             {"mismatches", C.Mismatches},
                             {"maxAbsError", number(C.MaxAbs)},
                             {"maxRelError", number(C.MaxRel)},
                             {"firstMismatch", C.FirstMismatch},
                             {"orderDependent", C.FromAtomic.has_value()}});
  if (G.TimedRuns) {
    GJ["time"] = {{"runs", G.TimedRuns},  {"medianMillis", G.MedianMs}, {"minMillis", G.MinMs},
                  {"maxMillis", G.MaxMs}, {"gbPerSecond", G.GBps},      {"tensorBytes", G.TensorBytes}};
    auto Fraction = [](double Part, double Whole) {
      return Whole > 0 ? nlohmann::json(Part / Whole) : nlohmann::json(nullptr);
    };
    GJ["time"]["peakGbPerSecond"] = G.PeakGBps > 0 ? nlohmann::json(G.PeakGBps) : nlohmann::json(nullptr);
    GJ["time"]["fractionOfPeakBandwidth"] = Fraction(G.GBps, G.PeakGBps);
    GJ["time"]["peakSource"] = G.PeakSource;
    if (G.DotFlops) {
      GJ["time"]["dotFlops"] = G.DotFlops;
      GJ["time"]["tflopsPerSecond"] = G.Tflops;
      GJ["time"]["peakTflopsPerSecond"] = G.PeakTflops > 0 ? nlohmann::json(G.PeakTflops) : nlohmann::json(nullptr);
      GJ["time"]["fractionOfPeakTflops"] = Fraction(G.Tflops, G.PeakTflops);
      GJ["time"]["peakTflopsInstruction"] = G.PeakTflopsInstruction;
    }
  }
  if (G.Sanitizer) {
    const SanitizerReport &S = *G.Sanitizer;
    nlohmann::json SJ;
    SJ["ran"] = S.Ran;
    SJ["error"] = S.Error.empty() ? nlohmann::json(nullptr) : nlohmann::json(S.Error);
    SJ["total"] = S.Total;
    SJ["errors"] = nlohmann::json::array();
    for (const SanitizerError &E : S.Errors)
      SJ["errors"].push_back({{"what", E.What},
                              {"kernel", E.Kernel},
                              {"line", E.Line},
                              {"thread", E.Thread},
                              {"block", E.Block},
                              {"count", E.Count}});
    GJ["sanitizer"] = std::move(SJ);
  }
  return GJ;
}

void renderRunText(std::ostream &OS, const RunReport &R, const RunSources &Src, const TextStyle &Style) {
  OS << "run " << R.Kernel << " in " << R.Path << " on the CPU interpreter"
     << (R.GpuDevice.empty() ? "" : " and on " + R.GpuDevice) << " (seed " << R.Seed << ")\n";
  OS << "launch: " << plural(R.Planned, "instance") << " " << R.SpecSource << '\n';
  for (const std::string &A : R.Assumptions)
    OS << "assumed: " << A << '\n';
  for (const diag::Finding &F : R.SpecFindings)
    renderFinding(OS, F, *Src.Spec, "--spec", Style);
  for (const diag::Finding &F : R.Findings)
    renderFinding(OS, F, Src.File, R.Path, Style);
  if (!R.NotRun.empty())
    OS << "not run: " << R.NotRun << '\n';
  for (const InstanceReport &I : R.Instances) {
    OS << "\ninstance" << (I.Label.empty() ? "" : " " + I.Label) << ": grid " << gridText(I.Grid)
       << ", num_warps=" << I.NumWarps << ", num_stages=" << I.NumStages;
    if (I.Config)
      OS << ", config " << *I.Config << " [" << I.ConfigText << "]";
    if (I.Ran)
      OS << ": ran " << I.Steps << " ops";
    if (I.Unchecked)
      OS << ": not run on the interpreter (--no-reference): the GPU's outputs are not checked";
    OS << '\n';
    if (!I.Error.empty())
      OS << "  error: " << I.Error << '\n';
    for (const OutputSummary &O : I.Outputs)
      renderOutput(OS, O);
    if (!I.PrintLog.empty())
      OS << "  device_print:\n" << I.PrintLog << (I.PrintLog.back() == '\n' ? "" : "\n");
    if (I.Gpu)
      renderGpu(OS, *I.Gpu, R.Path);
    renderTritonInstanceText(OS, I);
    renderCudaReferenceText(OS, R, I);
    for (const diag::Finding &F : I.Findings)
      renderFinding(OS, F, Src.File, R.Path, Style);
  }
  if (R.ConfigsRun) {
    OS << '\n' << plural(R.ConfigsRun, "autotune config") << " run";
    if (R.Fastest.empty())
      OS << "; none timed (the fastest is chosen with --gpu)";
    OS << '\n';
    for (const FastestConfig &F : R.Fastest)
      OS << "fastest" << (F.Label.empty() ? "" : " for " + F.Label) << ": config " << F.Config << " [" << F.ConfigText
         << "], median " << formatNumber(F.MedianMs) << " ms (of " << F.Timed << " timed)\n";
  }
  if (R.Triton)
    OS << '\n';
  renderTritonSummaryText(OS, R);
  renderCudaReferenceSummaryText(OS, R);
  size_t Ran = 0;
  for (const InstanceReport &I : R.Instances)
    Ran += I.Ran;
  size_t Errors = R.errors();
  OS << '\n' << plural(Ran, "instance") << " run: " << (Errors ? plural(Errors, "error") : "no errors") << '\n';
}

static nlohmann::json diagnostics(const std::vector<diag::Finding> &Fs, const lsp::LineIndex &Index,
                                  const std::string &Uri) {
  nlohmann::json A = nlohmann::json::array();
  for (const diag::Finding &F : Fs)
    A.push_back(lsp::toProtocol(F, Index, Uri));
  return A;
}

/// JSON has no NaN or Inf: those become null (their counts say how many).

void renderRunJson(std::ostream &OS, const RunReport &R, const RunSources &Src) {
  nlohmann::json J;
  J["file"] = R.Path;
  J["kernel"] = R.Kernel;
  J["device"] = R.GpuDevice.empty() ? "cpu" : "cpu+gpu";
  if (!R.GpuDevice.empty())
    J["gpu"] = R.GpuDevice;
  J["seed"] = R.Seed;
  J["spec"] = R.SpecKind;
  J["assumptions"] = R.Assumptions;
  J["diagnostics"] = diagnostics(R.Findings, Src.File, R.Path);
  J["specDiagnostics"] = Src.Spec ? diagnostics(R.SpecFindings, *Src.Spec, "--spec") : nlohmann::json::array();
  J["planned"] = R.Planned;
  J["notRun"] = R.NotRun.empty() ? nlohmann::json(nullptr) : nlohmann::json(R.NotRun);
  J["instances"] = nlohmann::json::array();
  for (const InstanceReport &I : R.Instances) {
    nlohmann::json O;
    O["label"] = I.Label;
    O["grid"] = I.Grid;
    O["numWarps"] = I.NumWarps;
    O["numStages"] = I.NumStages;
    O["ran"] = I.Ran;
    O["unchecked"] = I.Unchecked;
    O["error"] = I.Error.empty() ? nlohmann::json(nullptr) : nlohmann::json(I.Error);
    O["steps"] = I.Steps;
    O["millis"] = I.Millis;
    O["violations"] = I.Violations;
    O["outputs"] = nlohmann::json::array();
    for (const OutputSummary &Out : I.Outputs) {
      const interp::BufferStats &S = Out.Stats;
      nlohmann::json B;
      B["name"] = Out.Name;
      B["dtype"] = Out.DType;
      B["shape"] = Out.Shape;
      B["elements"] = S.Elements;
      B["crc32"] = crcText(S.Crc32);
      B["min"] = number(S.Min);
      B["max"] = number(S.Max);
      B["mean"] = number(S.Mean);
      B["nan"] = S.NaNs;
      B["inf"] = S.Infs;
      B["unwritten"] = S.Unwritten;
      B["first"] = nlohmann::json::array();
      for (double V : S.First)
        B["first"].push_back(number(V));
      if (!Out.SavedTo.empty())
        B["savedTo"] = Out.SavedTo;
      if (!Out.SavedAs.empty())
        B["savedAs"] = Out.SavedAs;
      O["outputs"].push_back(std::move(B));
    }
    O["diagnostics"] = diagnostics(I.Findings, Src.File, R.Path);
    O["print"] = I.PrintLog;
    if (I.Gpu)
      O["gpu"] = gpuInstanceJson(*I.Gpu);
    if (I.Triton)
      O["triton"] = tritonInstanceJson(I);
    if (I.CudaRef)
      O["cudaReference"] = cudaReferenceInstanceJson(I);
    O["config"] = I.Config ? nlohmann::json(*I.Config) : nlohmann::json(nullptr);
    if (I.Config)
      O["configText"] = I.ConfigText;
    J["instances"].push_back(std::move(O));
  }
  if (R.ConfigsRun) {
    J["configsRun"] = R.ConfigsRun;
    J["fastest"] = nlohmann::json::array();
    for (const FastestConfig &F : R.Fastest)
      J["fastest"].push_back({{"label", F.Label},
                              {"config", F.Config},
                              {"configText", F.ConfigText},
                              {"medianMillis", F.MedianMs},
                              {"timed", F.Timed}});
  }
  if (R.Triton)
    J["triton"] = tritonRunJson(R);
  if (!R.CudaReference.empty() || !R.CudaReferenceError.empty())
    J["cudaReference"] = cudaReferenceRunJson(R);
  J["errors"] = R.errors();
  OS << J.dump(2) << '\n';
}

std::vector<FastestConfig> fastestPerLabel(const std::vector<ConfigCost> &Costs) {
  std::vector<std::string> Order; // labels in the order they first ran
  std::map<std::string, FastestConfig> Best;
  for (const ConfigCost &C : Costs) {
    auto [It, New] = Best.try_emplace(C.Label, FastestConfig{C.Label, C.Config, C.ConfigText, C.Cost, 0});
    if (New)
      Order.push_back(C.Label);
    else if (C.Cost < It->second.MedianMs)
      It->second = FastestConfig{C.Label, C.Config, C.ConfigText, C.Cost, It->second.Timed};
    ++It->second.Timed;
  }
  std::vector<FastestConfig> Out;
  for (const std::string &L : Order)
    Out.push_back(Best[L]);
  return Out;
}

void chooseFastest(RunReport &R) {
  std::vector<ConfigCost> Costs;
  for (const InstanceReport &I : R.Instances) {
    if (!I.Config || !I.Gpu || !I.Gpu->Ran || !I.Gpu->Error.empty() || !I.Gpu->TimedRuns)
      continue;
    bool Correct = true;
    for (const GpuComparison &C : I.Gpu->Outputs)
      Correct &= C.Mismatches == 0 || C.FromAtomic.has_value();
    if (!Correct)
      continue; // a wrong result is never the fastest
    Costs.push_back(ConfigCost{I.Label, *I.Config, I.ConfigText, I.Gpu->MedianMs});
  }
  R.Fastest = fastestPerLabel(Costs);
}

} // namespace tessel::tools
