//===- TritonReport.cpp - `--triton`'s part of a run report, as text or JSON ===//
/// \file
/// tessel's figures are those of its GPU run: the cubin's shared memory,
/// the driver's register count, and spills counted as Triton's driver counts
/// `n_spills` (the function's local memory bytes per thread over 4), so the
/// two columns measure the same thing.
//===----------------------------------------------------------------------===//
#include "tools/TritonReport.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace tessel::tools {

namespace {
/// smem / regs / spills of one side; -1 where unknown.
struct Figures {
  int64_t Shared = -1, Registers = -1, Spills = -1;
};
} // namespace

/// tessel's figures, when its GPU compiled the instance.
static std::optional<Figures> tesselFigures(const InstanceReport &I) {
  if (!I.Gpu || (!I.Gpu->Ran && I.Gpu->Registers == 0 && I.Gpu->SharedBytes == 0))
    return std::nullopt;
  const GpuInstanceReport &G = *I.Gpu;
  return Figures{G.SharedBytes, G.Registers, G.LocalBytes / 4};
}

static std::string cell(int64_t V) { return V < 0 ? "-" : std::to_string(V); }

static std::string pad(const std::string &S, size_t Width) {
  return S.size() >= Width ? S : std::string(Width - S.size(), ' ') + S;
}

static void renderFigures(std::ostream &OS, const std::optional<Figures> &Tessel, const Figures &Triton) {
  OS << "    figures " << pad("smem", 8) << pad("regs", 6) << pad("spills", 8) << '\n';
  auto Row = [&OS](const char *Who, const Figures &F) {
    OS << "      " << Who << pad(cell(F.Shared), 8) << pad(cell(F.Registers), 6) << pad(cell(F.Spills), 8) << '\n';
  };
  Row("tessel", Tessel.value_or(Figures{}));
  if (!Tessel)
    OS << "      (tessel's figures are its GPU build's: run with --gpu)\n";
  Row("triton", Triton);
}

/// tessel's own verdict on the instance, beside a verdict of Triton's.
static std::string tesselVerdict(const InstanceReport &I) {
  if (I.Gpu && !I.Gpu->Error.empty())
    return "error on the GPU: " + I.Gpu->Error;
  if (I.Gpu && I.Gpu->Ran)
    return "ran on the GPU with " + std::to_string(I.Gpu->SharedBytes) + " B shared";
  if (!I.Error.empty())
    return "error: " + I.Error;
  return I.Ran ? "ran on the interpreter" : "did not run";
}

static std::string fixed(double V, const char *Format) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}

void renderTritonInstanceText(std::ostream &OS, const InstanceReport &I) {
  if (!I.Triton)
    return;
  const TritonInstanceReport &T = *I.Triton;
  Figures Tri{T.SharedBytes, T.Registers, T.Spills};
  if (!T.Ran) {
    OS << "  triton: " << (T.Error.empty() ? "did not run" : T.Error) << '\n';
    if (T.Job >= 0 && T.Error.rfind("not run:", 0) != 0) // Triton's own verdict, not the runner's
      OS << "    tessel: " << tesselVerdict(I) << '\n';
    if (std::optional<Figures> F = tesselFigures(I); F && T.Job >= 0 && T.Error.rfind("not run:", 0) != 0)
      renderFigures(OS, F, Tri);
    return;
  }
  OS << "  triton: ran"
     << (T.Against.empty() ? ", outputs not compared: tessel has none (--no-reference, and its GPU run failed)"
                           : ", compared with " + T.Against)
     << '\n';
  for (const GpuComparison &C : T.Outputs)
    OS << "    " << C.Name << ": " << (C.Mismatches ? std::to_string(C.Mismatches) + " of " : "") << C.Compared
       << " elements " << (C.Mismatches ? "differ" : "match") << " (max abs error " << formatNumber(C.MaxAbs)
       << ", max rel error " << formatNumber(C.MaxRel) << ")"
       << (C.Mismatches ? ", first " + C.Name + "[" + std::to_string(C.FirstMismatch) + "]: triton " +
                              formatNumber(C.Got) + ", tessel " + formatNumber(C.Expected)
                        : "")
       << orderDependence(C) << '\n';
  // Both of tessel's runs are shown when any of the three disagree: which one Triton sides with.
  bool Disagree = false;
  for (const GpuComparison &C : T.Outputs)
    Disagree |= C.Mismatches > 0 && !C.FromAtomic;
  for (const GpuComparison &C : T.InterpreterOutputs)
    Disagree |= C.Mismatches > 0 && !C.FromAtomic;
  if (Disagree)
    for (const GpuComparison &C : T.InterpreterOutputs)
      OS << "    against the interpreter: " << C.Name << ": "
         << (C.Mismatches ? std::to_string(C.Mismatches) + " of " : "") << C.Compared << " elements "
         << (C.Mismatches ? "differ" : "match") << " (max abs error " << formatNumber(C.MaxAbs) << ", max rel error "
         << formatNumber(C.MaxRel) << ")\n";
  if (!T.CompareError.empty())
    OS << "    error: " << T.CompareError << '\n';
  if (T.TimedRuns) {
    bool TesselTimed = I.Gpu && I.Gpu->TimedRuns && I.Gpu->MedianMs > 0;
    OS << "    time: ";
    if (TesselTimed)
      OS << "tessel " << formatNumber(I.Gpu->MedianMs) << " ms, ";
    OS << "triton " << formatNumber(T.MedianMs) << " ms (median of " << T.TimedRuns << ")";
    if (TesselTimed)
      OS << ": tessel at " << fixed(T.MedianMs / I.Gpu->MedianMs, "%.2f") << "x Triton's speed";
    OS << '\n';
  }
  renderFigures(OS, tesselFigures(I), Tri);
}

void renderTritonSummaryText(std::ostream &OS, const RunReport &R) {
  if (!R.Triton)
    return;
  if (!R.TritonError.empty()) {
    OS << "triton: error: " << R.TritonError << '\n';
    for (const std::string &N : R.TritonNotes)
      OS << "triton: note: " << N << '\n';
    return;
  }
  size_t Ran = 0, Match = 0, Differ = 0, Refused = 0, NotRun = 0;
  for (const InstanceReport &I : R.Instances) {
    if (!I.Triton)
      continue;
    const TritonInstanceReport &T = *I.Triton;
    if (T.Ran) {
      ++Ran;
      (T.mismatches() ? Differ : Match) += !T.Against.empty();
    } else if (T.Error.rfind("not run:", 0) == 0) {
      ++NotRun;
    } else {
      ++Refused;
    }
  }
  OS << "triton" << (R.TritonVersion.empty() ? "" : " " + R.TritonVersion)
     << (R.TritonDevice.empty() ? "" : " on " + R.TritonDevice) << ": " << Ran
     << (Ran == 1 ? " instance" : " instances") << " ran, " << Match << " match tessel, " << Differ << " differ";
  if (Refused)
    OS << "; " << Refused << " refused by Triton";
  if (NotRun)
    OS << "; " << NotRun << " not run";
  OS << '\n';
  // What Python noted while loading the file explains a kernel that failed.
  if (Refused || NotRun)
    for (const std::string &N : R.TritonNotes)
      OS << "triton: note: " << N << '\n';
}

static nlohmann::json figuresJson(const Figures &F) {
  auto V = [](int64_t X) { return X < 0 ? nlohmann::json(nullptr) : nlohmann::json(X); };
  return {{"sharedBytes", V(F.Shared)}, {"registers", V(F.Registers)}, {"spills", V(F.Spills)}};
}

static nlohmann::json finite(double V) { return std::isfinite(V) ? nlohmann::json(V) : nlohmann::json(nullptr); }

static nlohmann::json comparisonJson(const GpuComparison &C) {
  return {{"name", C.Name},
          {"dtype", C.DType},
          {"compared", C.Compared},
          {"mismatches", C.Mismatches},
          {"maxAbsError", finite(C.MaxAbs)},
          {"maxRelError", finite(C.MaxRel)},
          {"firstMismatch", C.FirstMismatch}};
}

nlohmann::json tritonInstanceJson(const InstanceReport &I) {
  const TritonInstanceReport &T = *I.Triton;
  nlohmann::json J;
  J["ran"] = T.Ran;
  J["error"] = T.Error.empty() ? nlohmann::json(nullptr) : nlohmann::json(T.Error);
  J["against"] = T.Against.empty() ? nlohmann::json(nullptr) : nlohmann::json(T.Against);
  J["tesselVerdict"] = tesselVerdict(I);
  J["outputs"] = nlohmann::json::array();
  for (const GpuComparison &C : T.Outputs)
    J["outputs"].push_back(comparisonJson(C));
  J["againstInterpreter"] = nlohmann::json(nullptr);
  if (!T.InterpreterOutputs.empty()) {
    J["againstInterpreter"] = nlohmann::json::array();
    for (const GpuComparison &C : T.InterpreterOutputs)
      J["againstInterpreter"].push_back(comparisonJson(C));
  }
  J["compareError"] = T.CompareError.empty() ? nlohmann::json(nullptr) : nlohmann::json(T.CompareError);
  J["time"] = nullptr;
  if (T.TimedRuns) {
    J["time"] = {{"runs", T.TimedRuns}, {"medianMillis", T.MedianMs}, {"minMillis", T.MinMs}, {"maxMillis", T.MaxMs}};
    if (I.Gpu && I.Gpu->TimedRuns && I.Gpu->MedianMs > 0) {
      J["time"]["tesselMedianMillis"] = I.Gpu->MedianMs;
      J["time"]["tesselSpeedVsTriton"] = T.MedianMs / I.Gpu->MedianMs;
    }
  }
  std::optional<Figures> Tessel = tesselFigures(I);
  J["figures"] = {{"triton", figuresJson(Figures{T.SharedBytes, T.Registers, T.Spills})},
                  {"tessel", Tessel ? figuresJson(*Tessel) : nlohmann::json(nullptr)}};
  return J;
}

nlohmann::json tritonRunJson(const RunReport &R) {
  auto Text = [](const std::string &S) { return S.empty() ? nlohmann::json(nullptr) : nlohmann::json(S); };
  return {{"version", Text(R.TritonVersion)},
          {"device", Text(R.TritonDevice)},
          {"error", Text(R.TritonError)},
          {"notes", R.TritonNotes}};
}

} // namespace tessel::tools
