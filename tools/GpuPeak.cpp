//===- GpuPeak.cpp - the device's ceilings, measured once and cached ------===//
/// \file
/// One line per device: KEY, then tab-separated copy GB/s, mma.sync fp16,
/// wgmma fp16 and wgmma fp8 TFLOP/s. A line that does not parse is ignored
/// (and dropped at the next write): a damaged cache, or one written before
/// the wgmma figures, only costs a measurement.
//===----------------------------------------------------------------------===//
#include "tools/GpuPeak.h"

#include "compiler/support/CacheDirectory.h"

#include <cstdlib>
#include <sstream>
#include <vector>

namespace tessel::tools {

std::string peakCachePath() { return userCacheDirectory("gpu-peak.tsv"); }

/// KEY and figures of one line, or nullopt.
static std::optional<std::pair<std::string, PeakFigures>> parseLine(const std::string &Line) {
  std::vector<std::string> Cols;
  for (size_t B = 0, T;; B = T + 1) {
    T = Line.find('\t', B);
    Cols.push_back(Line.substr(B, T == std::string::npos ? std::string::npos : T - B));
    if (T == std::string::npos)
      break;
  }
  if (Cols.size() != 5)
    return std::nullopt;
  double V[4];
  for (size_t I = 0; I < 4; ++I) {
    char *End = nullptr;
    V[I] = std::strtod(Cols[I + 1].c_str(), &End);
    if (End == Cols[I + 1].c_str() || *End || V[I] < 0)
      return std::nullopt;
  }
  if (V[0] <= 0)
    return std::nullopt;
  PeakFigures P;
  P.CopyGBps = V[0];
  P.MmaTflops = V[1];
  P.WgmmaF16Tflops = V[2];
  P.WgmmaFp8Tflops = V[3];
  return std::make_pair(Cols[0], P);
}

std::pair<double, std::string> tensorCeiling(const PeakFigures &P, bool Fp8Dots) {
  if (Fp8Dots && P.WgmmaFp8Tflops > 0)
    return {P.WgmmaFp8Tflops, "wgmma fp8"};
  if (P.WgmmaF16Tflops > 0)
    return {P.WgmmaF16Tflops, "wgmma fp16"};
  return {P.MmaTflops, "mma.sync fp16"};
}

std::optional<PeakFigures> findPeak(const std::string &FileText, const std::string &DeviceKey) {
  std::istringstream In(FileText);
  std::string Line;
  while (std::getline(In, Line))
    if (auto E = parseLine(Line); E && E->first == DeviceKey)
      return E->second;
  return std::nullopt;
}

std::string withPeak(const std::string &FileText, const std::string &DeviceKey, const PeakFigures &P) {
  std::istringstream In(FileText);
  std::ostringstream Out;
  std::string Line;
  while (std::getline(In, Line))
    if (auto E = parseLine(Line); E && E->first != DeviceKey)
      Out << Line << '\n';
  Out.precision(6);
  Out << DeviceKey << '\t' << P.CopyGBps << '\t' << P.MmaTflops << '\t' << P.WgmmaF16Tflops << '\t' << P.WgmmaFp8Tflops
      << '\n';
  return Out.str();
}

} // namespace tessel::tools
