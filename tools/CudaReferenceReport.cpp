//===- CudaReferenceReport.cpp - `--reference`'s part of a run report -----===//
#include "tools/CudaReferenceReport.h"

namespace tessel::tools {

bool cudaReferenceFailed(const CudaReferenceInstance &C) {
  if (!C.Error.empty() || !C.Run.Error.empty())
    return true;
  for (const GpuComparison &O : C.Run.Outputs)
    if (O.Mismatches)
      return true;
  if (C.Torch) // the directive's own expression failing, or PyTorch's result differing
    for (const GpuComparison &O : C.Torch->Outputs)
      if (O.Mismatches)
        return true;
  return C.Torch && !C.Torch->Ran;
}

std::optional<double> cudaReferenceGap(const InstanceReport &I) {
  if (!I.CudaRef || !I.Gpu || !I.Gpu->TimedRuns || !I.CudaRef->Run.TimedRuns || I.Gpu->MedianMs <= 0)
    return std::nullopt;
  return I.CudaRef->Run.MedianMs / I.Gpu->MedianMs;
}

static std::string dims(const std::array<int64_t, 3> &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " + std::to_string(D[2]) + ")";
}

/// `    torch: torch.softmax(x, -1): out: 1000 elements match the interpreter (...)`, its time and the gap.
static void renderTorchText(std::ostream &OS, const RunReport &R, const InstanceReport &I) {
  if (!I.CudaRef || !I.CudaRef->Torch)
    return;
  const TorchInstanceReport &T = *I.CudaRef->Torch;
  OS << "    torch: " << R.Torch;
  if (!T.Ran) {
    OS << ": error: " << T.Error << '\n';
    return;
  }
  OS << '\n';
  for (const GpuComparison &O : T.Outputs)
    OS << "      " << O.Name << ": " << (O.Mismatches ? std::to_string(O.Mismatches) + " of " : "") << O.Compared
       << " elements " << (O.Mismatches ? "differ from" : "match") << " " << T.Against << " (max abs error "
       << formatNumber(O.MaxAbs) << ", max rel error " << formatNumber(O.MaxRel) << ")\n";
  if (T.TimedRuns) {
    OS << "      time: median " << formatNumber(T.MedianMs) << " ms over " << T.TimedRuns << " runs";
    if (I.Gpu && I.Gpu->TimedRuns && I.Gpu->MedianMs > 0)
      OS << "; Triton kernel at " << formatNumber(T.MedianMs / I.Gpu->MedianMs) << "x PyTorch";
    OS << '\n';
  }
}

void renderCudaReferenceText(std::ostream &OS, const RunReport &R, const InstanceReport &I) {
  if (!I.CudaRef)
    return;
  const CudaReferenceInstance &C = *I.CudaRef;
  OS << "  cuda reference " << R.CudaReference;
  if (!C.Error.empty()) {
    OS << ": error: " << C.Error << '\n';
    return;
  }
  const GpuInstanceReport &G = C.Run;
  OS << ": grid " << dims(C.Grid) << ", block " << dims(C.Block);
  if (!G.Ran) {
    OS << ": error: " << G.Error << '\n';
    return;
  }
  OS << ", " << G.Registers << " registers, " << G.LocalBytes << " local bytes, " << G.SharedBytes << " B shared";
  if (!G.Assembler.empty())
    OS << ", " << G.Assembler;
  OS << '\n';
  for (const GpuComparison &O : G.Outputs)
    OS << "    " << O.Name << ": " << (O.Mismatches ? std::to_string(O.Mismatches) + " of " : "") << O.Compared
       << " elements " << (O.Mismatches ? "differ from" : "match") << " " << C.Against << " (max abs error "
       << formatNumber(O.MaxAbs) << ", max rel error " << formatNumber(O.MaxRel) << ")\n";
  for (const std::string &N : C.NotCompared)
    OS << "    " << N << ": not compared (no parameter of the reference writes it)\n";
  if (G.TimedRuns) {
    OS << "    time: median " << formatNumber(G.MedianMs) << " ms (min " << formatNumber(G.MinMs) << ", max "
       << formatNumber(G.MaxMs) << ") over " << G.TimedRuns << " runs, " << formatNumber(G.GBps) << " GB/s";
    if (G.PeakGBps > 0)
      OS << " (" << percentText(G.GBps, G.PeakGBps) << " of the device's " << formatNumber(G.PeakGBps) << " GB/s)";
    OS << '\n';
  }
  if (std::optional<double> Gap = cudaReferenceGap(I))
    OS << "    gap: Triton kernel at " << formatNumber(*Gap) << "x the CUDA reference (tessel "
       << formatNumber(I.Gpu->MedianMs) << " ms, reference " << formatNumber(G.MedianMs) << " ms)\n";
  if (!G.Error.empty())
    OS << "    error: " << G.Error << '\n';
  renderTorchText(OS, R, I);
}

void renderCudaReferenceSummaryText(std::ostream &OS, const RunReport &R) {
  if (R.CudaReference.empty() && R.CudaReferenceError.empty())
    return;
  for (const std::string &D : R.CudaReferenceDiagnostics)
    OS << D << '\n';
  if (!R.CudaReferenceError.empty())
    OS << "cuda reference: error: " << R.CudaReferenceError << '\n';
  if (!R.TorchError.empty())
    OS << "torch: not run: " << R.TorchError << '\n';
}

nlohmann::json cudaReferenceRunJson(const RunReport &R) {
  nlohmann::json J;
  J["reference"] = R.CudaReference;
  J["error"] = R.CudaReferenceError.empty() ? nlohmann::json(nullptr) : nlohmann::json(R.CudaReferenceError);
  J["diagnostics"] = R.CudaReferenceDiagnostics;
  J["torch"] = R.Torch;
  J["torchError"] = R.TorchError.empty() ? nlohmann::json(nullptr) : nlohmann::json(R.TorchError);
  return J;
}

nlohmann::json cudaReferenceInstanceJson(const InstanceReport &I) {
  const CudaReferenceInstance &C = *I.CudaRef;
  nlohmann::json J;
  J["error"] = C.Error.empty() ? nlohmann::json(nullptr) : nlohmann::json(C.Error);
  J["grid"] = C.Grid;
  J["block"] = C.Block;
  J["against"] = C.Against;
  J["notCompared"] = C.NotCompared;
  J["gpu"] = gpuInstanceJson(C.Run);
  std::optional<double> Gap = cudaReferenceGap(I);
  J["gap"] = Gap ? nlohmann::json(*Gap) : nlohmann::json(nullptr);
  if (C.Torch) {
    const TorchInstanceReport &T = *C.Torch;
    nlohmann::json TJ = {{"ran", T.Ran},
                         {"error", T.Error.empty() ? nlohmann::json(nullptr) : nlohmann::json(T.Error)},
                         {"against", T.Against},
                         {"outputs", nlohmann::json::array()}};
    for (const GpuComparison &O : T.Outputs)
      TJ["outputs"].push_back({{"name", O.Name}, {"compared", O.Compared}, {"mismatches", O.Mismatches}});
    TJ["medianMillis"] = T.TimedRuns ? nlohmann::json(T.MedianMs) : nlohmann::json(nullptr);
    bool Timed = T.TimedRuns && I.Gpu && I.Gpu->TimedRuns && I.Gpu->MedianMs > 0;
    TJ["gap"] = Timed ? nlohmann::json(T.MedianMs / I.Gpu->MedianMs) : nlohmann::json(nullptr);
    J["torch"] = std::move(TJ);
  }
  return J;
}

} // namespace tessel::tools
